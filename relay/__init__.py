"""Relay: the embedded broker, Mosquitto configuration, discovery and the MQTT transport."""
