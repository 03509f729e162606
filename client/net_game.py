"""A game over the network: a protocol session on a relay, shown like a local game.

:class:`NetGame` gives the table window the same surface as
:class:`~client.local_game.LocalGame` (``view``, ``legal``, ``act``, ``step``,
``over`` ...), so one screen shows both.  Underneath, a
``protocol.session.PeerSession`` holds this seat's replica and secrets and a
``relay.transport.RoomTransport`` keeps it in step with the room on the relay.

The session may be ahead of what the player has seen: every public change
arrives as a ``Moved`` event and is queued, and :meth:`step` applies the queue
to a *mirror* state one decision at a time — so other players' turns appear
step by step at the bot-speed pace, exactly as in a local game, and the log
knows what was pending before each action (who drew).  When the queue is
empty the mirror equals the session's state (its hash is checked).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.core import TABLE, Action, Decision, GameOver, IllegalAction, Knowledge, get

from .local_game import FORFEIT, SET_ASIDE, Entry, EventTap


@dataclass(frozen=True)
class _Queued:
    seat: int
    action: Action


class NetGame:
    """One seat of a networked game (the session must belong to a seat)."""

    def __init__(self, session: Any, relay: str | None = None, peer_id: str | None = None) -> None:
        if session.seat is None:
            raise ValueError("an observer has no table to play at")
        self.session = session
        self.human: int = session.seat
        self.relay = relay
        self.peer_id = peer_id or f"seat{self.human}"
        self.on_change: Callable[[], None] | None = None
        self.on_started: Callable[[], None] | None = None
        self.queue: deque[_Queued] = deque()
        self.entries: list[Entry] = []
        self.applied: list[tuple[int, Action]] = []
        self.mirror: Any = None
        self.tap: EventTap | None = None
        self.names: list[str] = []
        self.verdict: Any = None
        self.problems: list[Any] = []
        self.transport: Any = None
        self.disconnected = False
        #: The player gave up their seat ("Leave the game"); the game goes on without it.
        self.human_left = False
        #: Seats that left or were declared gone, with the reason ("left", "silent").
        self.gone: list[tuple[int, str]] = []
        #: The relay's room host object when this seat opened the room (closed when the game ends).
        self.room_host: Any = None
        #: Bot seats this machine plays in the same room (:class:`client.net.LocalBot`), each with its own session.
        self.bots: list[Any] = []
        #: Where the game moves when its relay stays unreachable (the invitation's fallbacks; the genesis adds its own).
        self.fallbacks: tuple[str, ...] = ()
        #: A LAN game: when the relay (in the host's program) dies, a surviving seat starts one (relay/handover.py).
        self.lan = False
        #: This seat's signing key (a LAN handover signs the announcement of the relay it starts).
        self.signing_key: Any = None

    # -- the network ------------------------------------------------------------------
    def make_transport(self) -> Any:
        """The relay transport that drives the session (the caller runs ``transport.run()``).

        It moves the game to a fallback relay when the relay stays unreachable, and on a LAN hands the
        relay over to a surviving seat (:mod:`relay.failover`, :mod:`relay.handover`).
        """
        from . import net

        info: dict[str, Any] = {"seat": self.human}
        if self.lan and self.room_host is not None:
            info["hosts_relay"] = True  # the room's relay runs in this program
        self.transport = net.failover_transport(
            [self.relay, *self.fallbacks],
            self.session,
            self.peer_id,
            self.feed,
            lan=self.lan,
            key=self.signing_key,
            presence_info=info,
        )
        return self.transport

    def move_to(self, address: str) -> str:
        """Move the running game to the relay at ``address`` now ("Move this game to another relay…").

        Nothing is lost: this seat puts every entry it holds on that relay; the others follow when
        they are pointed there too, or when their relay is gone.  NetError for a bad address.
        """
        from . import net

        if self.transport is None:
            raise net.NetError("no-game")
        target = net.parse_relay_address(address)
        moved = self.transport.move_to(target)
        for bot in self.bots:  # this machine's bots sit in the same room: they move with it
            if getattr(bot, "transport", None) is not None:
                bot.transport.move_to(target)
        return str(moved)

    def feed(self, events: list[Any]) -> None:
        """The session's (and the transport's) events: queue public changes, note the rest."""
        for event in events:
            kind = type(event).__name__
            if kind == "Started":
                self._start()
            elif kind == "Moved":
                self.queue.append(_Queued(event.seat, tuple(event.action)))
            elif kind == "Gone":
                self.queue.append(_Queued(event.seat, (FORFEIT,)))
                self.gone.append((event.seat, event.reason))
            elif kind == "SetAside":
                self.queue.append(_Queued(TABLE, (SET_ASIDE, tuple(event.slots))))
            elif kind == "Audited":
                self.verdict = event.verdict
            elif kind == "CheatDetected":
                self.verdict = _cheat(event.seat, event.seq, event.reason)
            elif kind in ("Rejected", "Equivocation", "Abandoned"):
                self.problems.append(event)
            elif kind == "Disconnected":
                self.disconnected = True
            elif kind == "Connected":
                self.disconnected = False
            elif kind == "RelayMoved":
                self.relay = event.new  # where the game is now (messages name it; the seat resumes there)
        if self.mirror is None and self.session.state is not None:
            self._start()
        if self.on_change is not None:
            self.on_change()

    def _start(self) -> None:
        if self.mirror is not None:
            return
        table = self.session.table
        self.spec = get(table.game)
        self.mirror = self.spec.new_state(table.n, dict(table.options))
        self.tap = EventTap(self.mirror)
        self.names = [seat.name for seat in table.seats]
        if self.on_started is not None:
            self.on_started()

    @property
    def started(self) -> bool:
        return self.mirror is not None

    # -- the LocalGame surface ------------------------------------------------------------
    @property
    def game(self) -> str:
        return self.spec.name

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def state(self) -> Any:
        return self.mirror

    @property
    def knowledge(self) -> Knowledge:
        return self.session.knowledge

    @property
    def history(self) -> list[tuple[int, Action]]:
        return self.applied

    def pending(self) -> Any:
        return self.mirror.pending()

    def over(self) -> GameOver | None:
        p = self.mirror.pending() if self.mirror is not None else None
        return p if isinstance(p, GameOver) and not self.queue else None

    def human_to_move(self) -> bool:
        if self.mirror is None or self.queue:
            return False
        p = self.mirror.pending()
        return isinstance(p, Decision) and p.seat == self.human and bool(self.session.legal_actions())

    def has_steps(self) -> bool:
        return bool(self.queue)

    def legal(self) -> list[Action]:
        return self.session.legal_actions() if self.human_to_move() else []

    def view(self) -> dict[str, Any]:
        return self.mirror.view(self.session.knowledge)

    def in_step(self) -> bool:
        """True when the mirror has caught up with the session's own state."""
        return not self.queue and self.mirror is not None and self.mirror.hash() == self.session.state.hash()

    def step(self) -> list[Entry]:
        """Show the next queued decision (with the table's resolutions around it)."""
        start = len(self.entries)
        while self.queue:
            item = self.queue.popleft()
            self._apply(item)
            if item.seat != TABLE:
                while self.queue and self.queue[0].seat == TABLE:
                    self._apply(self.queue.popleft())
                break
        return self.entries[start:]

    def _apply(self, item: _Queued) -> None:
        before = self.mirror.pending()
        if item.action == (FORFEIT,):
            if self.mirror.is_over() or not self._alive(item.seat):
                return
            self.mirror.forfeit(item.seat)
        elif item.action[0] == SET_ASIDE:
            self.mirror.set_aside(item.action[1])
        else:
            self.mirror.push(item.seat, item.action)
            self.applied.append((item.seat, item.action))
        assert self.tap is not None
        self.entries.append(Entry(len(self.entries), item.seat, item.action, self.tap.new(), before))

    def _alive(self, seat: int) -> bool:
        alive = getattr(self.mirror, "alive", None)
        return True if alive is None else bool(alive[seat])

    def act(self, action: Action) -> list[Entry]:
        """My decision: signed by the session, published by the transport, shown at once."""
        if not self.human_to_move():
            raise IllegalAction("it is not your decision")
        self.feed(self.session.submit(tuple(action)))
        if self.transport is not None:
            self.transport.flush()
        return self.step()

    def forfeit_human(self) -> list[Entry]:
        self.human_left = True
        self.feed(self.session.leave())
        if self.transport is not None:
            self.transport.flush()
        return []

    def stop(self, bots: bool = True) -> None:
        """Stop this seat's connection and (unless ``bots`` is False: they play on) the local bots'."""
        if self.transport is not None:
            self.transport.stop()
        if bots:
            for bot in self.bots:
                bot.stop()


def _cheat(seat: int, seq: int, reason: str) -> Any:
    from protocol.events import Verdict

    return Verdict(False, seat, seq, reason)
