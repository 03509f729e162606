"""Errors of the network layer, each with a message a player can act on (never a traceback)."""

from __future__ import annotations


class RelayError(Exception):
    """Something about the relay or the room stops us; ``str()`` is for people."""


class RelayUnreachable(RelayError):
    """No connection: wrong address or port, the relay is down, or the network is."""


class NotARelay(RelayError):
    """Something answered at that address, but it does not speak MQTT."""


class RoomNotFound(RelayError):
    """No open room with that code on this relay."""


class RoomFull(RelayError):
    """Every seat of the room is taken (or the game has started)."""
