"""A network failure as one sentence for the player: :class:`NetError`, and the relay layer's errors mapped onto it.

The relay layer names every failure it knows by a class (:mod:`relay.errors`); :data:`MESSAGES`
is the one table that turns each class into a message id, most particular class first.  An error
of no class in it is still a sentence ("the relay at … reported a problem: …"), never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable

from client.i18n import tr
from relay.errors import (
    CertificateNeeded,
    KeepFailed,
    LoginNeeded,
    NameNotFound,
    NoSuchSeat,
    NotARelay,
    NotAWebSocket,
    NotTrusted,
    Refused,
    RelayTimedOut,
    RelayUnreachable,
    RoomClosed,
    RoomFull,
    RoomNotFound,
    RoomNotListed,
    SeatTaken,
    WrongLogin,
    WrongTransport,
)


class NetError(Exception):
    """A network failure with a message id (``net.<code>``) for the player."""

    def __init__(self, code: str, /, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self) -> str:
        return tr(f"net.{self.code}", **self.params)


#: What a failure is about: the relay's address as shown, the room code, the seat asked for (1-based).
Where = tuple[str, str, int]
#: The relay layer's error classes and the sentence each one is, most particular first
#: (a subclass before its base: ``isinstance`` picks the first that matches).
MESSAGES: tuple[tuple[type[BaseException], Callable[[BaseException, Where], NetError]], ...] = (
    (KeepFailed, lambda exc, at: NetError("keep-failed", reason=str(exc))),
    (Refused, lambda exc, at: NetError("refused-by-host", code=at[1])),
    (
        NoSuchSeat,
        lambda exc, at: NetError(
            "no-such-seat", code=at[1], seat=at[2], total=exc.seats_total if isinstance(exc, NoSuchSeat) else 0
        ),
    ),
    (SeatTaken, lambda exc, at: NetError("seat-taken", code=at[1], seat=at[2])),
    (RoomFull, lambda exc, at: NetError("room-full", code=at[1])),
    (RoomClosed, lambda exc, at: NetError("room-closed", code=at[1])),
    (RoomNotListed, lambda exc, at: NetError("room-not-listed", code=at[1])),
    (RoomNotFound, lambda exc, at: NetError("room-unknown", code=at[1])),
    (NotTrusted, lambda exc, at: NetError("not-trusted", address=at[0], reason=str(exc))),
    (CertificateNeeded, lambda exc, at: NetError("certificate-needed", address=at[0], reason=str(exc))),
    (WrongLogin, lambda exc, at: NetError("wrong-login", address=at[0], reason=str(exc))),
    (LoginNeeded, lambda exc, at: NetError("login-needed", address=at[0], reason=str(exc))),
    (NotAWebSocket, lambda exc, at: NetError("not-websocket", address=at[0], reason=str(exc))),
    (WrongTransport, lambda exc, at: NetError("wrong-transport", address=at[0], reason=str(exc))),
    (NameNotFound, lambda exc, at: NetError("no-such-name", address=at[0], reason=str(exc))),
    (RelayTimedOut, lambda exc, at: NetError("timeout", address=at[0])),
    (RelayUnreachable, lambda exc, at: NetError("unreachable", address=at[0])),
    (NotARelay, lambda exc, at: NetError("not-a-relay", address=at[0])),
    (TimeoutError, lambda exc, at: NetError("timeout", address=at[0])),
)


def relay_failure(exc: BaseException, address: object, code: str = "", seat: int | None = None) -> NetError:
    """The player's sentence for ``exc`` (``seat``: the seat asked for, 0-based; ``address``: shown as ``str``)."""
    where: Where = (str(address), code, (seat or 0) + 1)
    for cls, message in MESSAGES:
        if isinstance(exc, cls):
            return message(exc, where)
    return NetError("relay-failed", address=where[0], reason=str(exc) or type(exc).__name__)
