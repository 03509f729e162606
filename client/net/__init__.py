"""The client on the network: relays, rooms, a seat at a networked table and its bots (the headless peer's too)."""
