"""Errors of the network layer, each with a message a player can act on (never a traceback)."""

from __future__ import annotations


class RelayError(Exception):
    """Something about the relay or the room stops us; ``str()`` is for people."""


class RelayUnreachable(RelayError):
    """No connection: wrong address or port, the relay is down, or the network is."""


class RelayTimedOut(RelayUnreachable):
    """Nobody answered at the address within the time given (a wrong address, or a firewall)."""


class NameNotFound(RelayUnreachable):
    """The relay's host name does not resolve."""


class NotARelay(RelayError):
    """Something answered at that address, but it does not speak MQTT."""


class NotAWebSocket(NotARelay):
    """A web server answered a ws:// or wss:// address, but not as an MQTT WebSocket endpoint."""


class WrongTransport(NotARelay):
    """Plain MQTT to a TLS port, or TLS to a plain one: the message says which scheme to use."""


class CertificateNeeded(RelayError):
    """The relay's TLS listener asks every client for a certificate, and none was given."""


class NotTrusted(RelayError):
    """The relay's TLS certificate does not check out against the trust store (or the CA file given)."""


class LoginNeeded(RelayError):
    """The relay refuses anonymous clients: the address needs ``user:password@``.

    ``address`` is the relay as shown (never its password): a program says there where its login goes.
    """

    def __init__(self, message: str, address: str = "") -> None:
        super().__init__(message)
        self.address = address


class WrongLogin(LoginNeeded):
    """The relay refused the user name and password given."""


class RoomNotFound(RelayError):
    """No open room with that code on this relay."""


class RoomNotListed(RoomNotFound):
    """A room code alone finds only a listed room: every other room is sealed by its host's key too."""


class RoomFull(RelayError):
    """Every seat of the room is taken (or the game has started)."""


class SeatTaken(RoomFull):
    """The seat a joiner asked for is held by someone else (or kept for the host)."""


class NoSuchSeat(SeatTaken):
    """The seat asked for is not at this table (``seats_total`` says how many there are)."""

    def __init__(self, message: str, seats_total: int) -> None:
        super().__init__(message)
        self.seats_total = seats_total


class Refused(RoomFull):
    """The host refused this joiner (or took it out of its seat before the start)."""


class RoomClosed(RelayError):
    """The host closed the room (cancelled) before the game started."""


class KeepFailed(RelayError):
    """The seat's own copy of the log could not be written, so nothing more was sent (a full or failing disk)."""
