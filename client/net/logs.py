"""What of the relay layer's logging reaches the player: everything but the MQTT client's notes about its backlog.

The desktop program has no log handler of its own, so Python prints its warnings on the terminal it was
started from; aiomqtt's "There are N pending publish calls" is one a seat that puts many entries back
writes many times over, and it is no news to a player (:func:`relay.mqtt.quiet_publish_backlog`).
"""

from __future__ import annotations

from relay.mqtt import quiet_publish_backlog


def quiet_relay_logs() -> None:
    """Keep the MQTT client's backlog notes out of this program's output; every other warning stays."""
    quiet_publish_backlog()
