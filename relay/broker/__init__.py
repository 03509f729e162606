"""The relay itself: the embedded broker, the Mosquitto configuration, and LAN discovery."""
