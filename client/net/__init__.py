"""The desktop program on the network: relays, rooms, a seat at a networked table, and its bots."""
