"""Who is connected in a network game, and how long before the others may vote: the table's words.

Read from two sources, kept apart on purpose:

- the seat's own replica (``PeerSession.waiting_for``: who owes the next entry and since when on
  the session's clock; the genesis's timeout; whether this peer is cut off from the relay).  This
  is what decides: the session votes a silent seat gone only when its own clock says so, and that
  clock stands still while the relay is unreachable and restarts, a full timeout of grace, after a
  reconnect (docs/protocol.md, "Timeouts");
- the relay's presence messages (``relay.transport.room.Presence``, kept by ``NetGame.presence``).
  They are not signed, so they are a hint for the player's eyes and decide nothing.

:func:`read_state` turns both into plain values; :mod:`client.table.connection_panel` puts them in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.net.game import NetGame

#: A seat's link to the relay as far as we know: connected, not connected, never seen, or out of the game.
ONLINE, OFFLINE, UNSEEN, LEFT, GONE = "online", "offline", "unseen", "left", "gone"


@dataclass(frozen=True)
class SeatState:
    seat: int
    me: bool
    #: ONLINE, OFFLINE, UNSEEN (no presence from it yet), LEFT (left the game), GONE (declared gone).
    link: str
    #: Wall-clock seconds when the link last changed (OFFLINE, or ONLINE since); None if unknown.
    link_since: float | None
    #: Whether this seat owes the next entry (it is its move, or its automatic part of one).
    to_move: bool = False
    #: Wall-clock seconds since when it owes it (to_move only).
    owed_since: float | None = None
    #: Milliseconds before the others may vote it gone (to_move only); None while no clock runs here.
    left_ms: int | None = None


@dataclass(frozen=True)
class ConnectionState:
    #: This computer cannot reach the relay (the session's clock stands still).
    offline: bool
    #: Wall-clock seconds since when (offline only).
    offline_since: float | None
    seats: tuple[SeatState, ...]
    timeout_ms: int
    #: Seats still in the game (a forfeit with two is a claim, with more a consensus).
    active: int

    def owing(self) -> SeatState | None:
        """The seat that owes the next entry, if any."""
        return next((s for s in self.seats if s.to_move), None)

    def at_risk(self) -> SeatState | None:
        """Another seat that owes the next entry and may be voted gone now, or was seen going away while it owes it.

        That is the moment to say what a forfeit would do to the game.
        """
        seat = self.owing()
        if seat is None or seat.me or self.offline:
            return None
        if (seat.left_ms is not None and seat.left_ms <= 0) or seat.link == OFFLINE:
            return seat
        return None


def read_state(game: NetGame, now_ms: int, wall_now: float) -> ConnectionState | None:
    """The connection state of a started :class:`client.net.game.NetGame` (None before the genesis).

    ``now_ms`` is on the session's clock (the transport's ``monotonic_ms``); ``wall_now`` is
    ``time.time()``, for the times shown.
    """
    session = game.session
    table = session.table
    if table is None:
        return None
    waiting = session.waiting_for
    offline = bool(game.disconnected or session.offline)
    seats = []
    for seat in range(table.n):
        me = seat == game.human
        if seat in table.gone:
            link, since = (LEFT if table.gone[seat][0] == "left" else GONE), None
        elif me:
            link, since = (OFFLINE, game.offline_since) if offline else (ONLINE, None)
        else:
            seen = game.presence(seat)
            link, since = (UNSEEN, None) if seen is None else seen
        to_move = waiting is not None and waiting[0] == seat and link not in (LEFT, GONE)
        owed_since = left_ms = None
        if to_move and waiting is not None:
            owed_since = wall_now - max(0, now_ms - waiting[2]) / 1000
            if not offline:
                left_ms = waiting[2] + table.timeout_ms - now_ms
        seats.append(SeatState(seat, me, link, since, to_move, owed_since, left_ms))
    return ConnectionState(offline, game.offline_since, tuple(seats), table.timeout_ms, len(table.active()))
