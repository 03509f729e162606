"""Driving a protocol session over MQTT: the room transport, failover between relays, the LAN handover."""
