"""A game over the network: a protocol session on a relay, shown like a local game.

:class:`NetGame` gives the table window the same surface as :class:`~client.play.local.LocalGame`
(:class:`client.play.source.GameSource`: ``view``, ``legal``, ``act``, ``step``, ``over`` ...), so
one screen shows both.  Underneath, a :class:`~protocol.session.PeerSession` holds this seat's
replica and secrets, and a :class:`~relay.transport.failover.FailoverTransport` keeps it in step
with the room on its relay (or the next one).

The session may be ahead of what the player has seen: every public change arrives as a ``Moved``
event and is queued, and :meth:`NetGame.step` applies the queue to a *mirror* state one decision
at a time — so other players' turns appear step by step at the bot-speed pace, exactly as in a
local game, and the log knows what was pending before each action (who drew).  When the queue is
empty the mirror equals the session's state (its hash is checked).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client.net.address import RelayAddress, parse_relay_address, redacted
from client.net.bots import LocalBot
from client.net.errors import NetError, relay_failure
from client.net.transport import relay_transport
from client.play.source import FORFEIT, SET_ASIDE, Entry, EventTap
from client.store import kept_seats
from client.store.kept_seats import SavedSeat
from client.store.seat_log import SeatLog
from engines.core import TABLE, Action, Decision, GameOver, GameSpec, GameState, IllegalAction, Knowledge, Pending, get
from protocol.crypto.signing import SigningKey
from protocol.errors import Code
from protocol.events import (
    Abandoned,
    Audited,
    CheatDetected,
    ClaimVoided,
    Equivocation,
    Gone,
    Moved,
    Rejected,
    SetAside,
    Started,
    Verdict,
)
from protocol.session import PeerSession
from relay.lobby.host import RoomHost
from relay.transport.failover import FailoverTransport, RelayMoved
from relay.transport.room import Connected, Disconnected, Presence

#: What a session reports that the player is told about without it changing the game shown.
Problem = Rejected | Equivocation | Abandoned


@dataclass(frozen=True)
class _Queued:
    seat: int
    action: Action


class NetGame:
    """One seat of a networked game (the session must belong to a seat)."""

    def __init__(
        self, session: PeerSession, relay: str | RelayAddress | None = None, peer_id: str | None = None
    ) -> None:
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
        #: The public state as the player has seen it so far (None before the genesis).
        self.mirror: GameState | None = None
        self.spec: GameSpec | None = None
        self.tap: EventTap | None = None
        self.names: list[str] = []
        self.verdict: Verdict | None = None
        self.problems: list[Problem] = []
        self.transport: FailoverTransport | None = None
        self.disconnected = False
        #: The player gave up their seat ("Leave the game"); the game goes on without it.
        self.human_left = False
        #: Seats that left or were declared gone, with the reason ("left", "silent").
        self.gone: list[tuple[int, str]] = []
        #: The relay's room host when this seat opened the room (closed when the game ends).
        self.room_host: RoomHost | None = None
        #: Bot seats this machine plays in the same room, each with its own session.
        self.bots: list[LocalBot] = []
        #: What the relay's presence messages say: peer -> (seat, "online"/"offline", wall-clock time it changed).
        #: Unsigned, so a hint for the player's eyes only; the session's clock and signed votes decide.
        self.peers: dict[str, tuple[int, str, float]] = {}
        #: Wall-clock time this seat lost the relay (None while connected).
        self.offline_since: float | None = None
        #: The seat as kept on disk, and why it could not be, if so.
        self.saved: SavedSeat | None = None
        self.save_error = ""
        #: The seat's own log on its disk, beside its keys (None while the seat is not kept).
        self.journal: SeatLog | None = None
        #: The transport has ended: the game is over and the broker confirmed every entry of this seat.
        self.delivered = False
        #: What the kept seat's public facts last said (the main window writes them only on a change).
        self.kept_facts: tuple[object, ...] | None = None
        #: A refused genesis has been told to the player (once).
        self.refusal_said = False
        #: (seat, seq, claimant) of the last win claimed after disconnection that was voided: the claimed
        #: seat's own entry came, and the table went on from there (the two-seat rule).
        self.claim_voided: tuple[int, int, int] | None = None
        #: How many times the mirror was rebuilt from the session's log (a voided claim).
        self.rebuilds = 0
        #: Where the game moves when its relay stays unreachable (the invitation's fallbacks; the genesis adds its own).
        self.fallbacks: tuple[str, ...] = ()
        #: A LAN game: when the relay (in the host's program) dies, a surviving seat starts one
        #: (relay/transport/handover.py).
        self.lan = False
        #: This seat's signing key (a LAN handover signs the announcement of the relay it starts).
        self.signing_key: SigningKey | None = None

    # -- the network ------------------------------------------------------------------
    @property
    def relay_password(self) -> str | None:
        """The password of the relay the game is on (a kept seat names its relay without it)."""
        return self.relay.password if isinstance(self.relay, RelayAddress) else None

    def make_transport(self) -> FailoverTransport:
        """The relay transport that drives the session (the caller runs ``transport.run()``).

        It moves the game to a fallback relay when the relay stays unreachable, and on a LAN hands the
        relay over to a surviving seat (:mod:`relay.transport.failover`, :mod:`relay.transport.handover`).
        """
        if self.relay is None:
            raise ValueError("a game made without a relay has no transport")
        # The seat in the presence message lets the others' tables say who is connected.
        info: dict[str, object] = {"seat": self.human}
        if self.lan and self.room_host is not None:
            info["hosts_relay"] = True  # the room's relay runs in this program
        self.transport = relay_transport(
            [self.relay, *self.fallbacks],
            self.session,
            self.peer_id,
            self.feed,
            lan=self.lan,
            key=self.signing_key,
            presence_info=info,
            journal=self.journal,
        )
        return self.transport

    def move_to(self, address: str) -> str:
        """Move the running game to the relay at ``address`` now ("Move this game to another relay…").

        Nothing is lost: this seat puts every entry it holds on that relay; the others follow when
        they are pointed there too, or when their relay is gone.  NetError for a bad address.
        """
        if self.transport is None:
            raise NetError("no-game")
        target = parse_relay_address(address)
        moved = self.transport.move_to(target)
        for bot in self.bots:  # this machine's bots sit in the same room: they move with it
            if bot.transport is not None:
                bot.transport.move_to(target)
        return str(moved)

    def keep(self, seat: SavedSeat, config: Path | None) -> None:
        """Write ``seat`` to disk before its first entry goes out, so a crash or a close keeps it resumable.

        A disk that refuses it does not stop the game: :attr:`save_error` says why, for the window.
        """
        seat.started = seat.last_activity = time.time()
        try:
            self.saved = kept_seats.save(seat, config)
            assert self.saved.folder is not None  # save() sets it
            self.journal = SeatLog.open(self.saved.folder)
        except OSError as exc:
            self.save_error = exc.strerror or str(exc)

    def failure_text(self, exc: BaseException) -> str:
        """A sentence for any failure of this running game (its transport's errors included)."""
        if isinstance(exc, NetError):
            return exc.message()
        return relay_failure(exc, redacted(self.relay)).message()

    def clock_ms(self) -> int:
        """Now on the session's clock (the transport's, which feeds the session's timeouts)."""
        if self.transport is None:
            return int(time.monotonic() * 1000)
        return int(self.transport.clock())

    def feed(self, events: Sequence[object]) -> None:
        """The session's and the transport's events: queue public changes, note the rest."""
        for event in events:
            if not self._game_event(event):
                self._link_event(event)
        if self.mirror is None and self.session.state is not None:
            self._start()
        if self.on_change is not None:
            self.on_change()

    def _game_event(self, event: object) -> bool:
        """One of the session's events about the game; False for any other."""
        match event:
            case Started():
                self._start()
            case Moved(seat=seat, action=action):
                self.queue.append(_Queued(seat, tuple(action)))
            case Gone(seat=seat, reason=reason):
                self.queue.append(_Queued(seat, (FORFEIT,)))
                self.gone.append((seat, reason))
            case SetAside(slots=slots):
                self.queue.append(_Queued(TABLE, (SET_ASIDE, tuple(slots))))
            case ClaimVoided(seat=seat, seq=seq, claimant=claimant):
                self._rebuild(seq)
                self.claim_voided = (seat, seq, claimant)
            case Audited(verdict=verdict):
                self.verdict = verdict
            case CheatDetected(seat=seat, seq=seq, reason=reason):
                self.verdict = Verdict(False, seat, seq, reason)
            case Rejected() | Equivocation() | Abandoned():
                self.problems.append(event)
            case _:
                return False
        return True

    def _link_event(self, event: object) -> None:
        """One of the transport's events about the link to the relay (any other is none of the table's)."""
        match event:
            case Disconnected():
                if not self.disconnected:
                    self.offline_since = time.time()
                self.disconnected = True
            case Connected(count=count):
                self.disconnected = False
                self.offline_since = None
                if count > 1:
                    self.peers.clear()  # the others' presence on this connection follows (read back, or live)
            case Presence():
                self._presence(event)
            case RelayMoved(new=new):
                self.relay = new  # where the game is now (messages name it; the seat resumes there)

    def refused_genesis(self) -> Rejected | None:
        """The genesis this seat refused (an answer time outside 30 s .. 7 days, a bad seat list), if it did."""
        return next((p for p in self.problems if isinstance(p, Rejected) and p.code == Code.GENESIS), None)

    def _presence(self, event: Presence) -> None:
        """A peer's retained presence that names a seat of this game (any other is none of ours)."""
        seat: object = event.seat  # the topic's seat (presence/{seat}); an older relay copy names it inside
        if not isinstance(seat, int) or seat < 0:
            seat = event.info.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat == self.human:
            return
        table = self.session.table
        if table is None or not 0 <= seat < table.n:
            return
        status = "online" if event.status == "online" else "offline"
        known = self.peers.get(event.peer)
        if known is None or known[:2] != (seat, status):
            self.peers[event.peer] = (seat, status, time.time())

    def presence(self, seat: int) -> tuple[str, float] | None:
        """("online", since) if a peer of ``seat`` is connected, else ("offline", when the last went); None: unseen.

        A seat may have more than one peer on the relay (a restarted program leaves its old last will).
        """
        mine = [(status, when) for s, status, when in self.peers.values() if s == seat]
        if not mine:
            return None
        online = [when for status, when in mine if status == "online"]
        if online:
            return ("online", min(online))
        return ("offline", max(when for _, when in mine))

    def _new_mirror(self) -> GameState:
        """The game's first public state, as the genesis fixed it (the table must be known)."""
        table = self.session.table
        assert table is not None
        self.spec = get(table.game)
        mirror = self.spec.new_state(table.n, dict(table.options))
        self.mirror, self.tap = mirror, EventTap(mirror)
        return mirror

    def _start(self) -> None:
        table = self.session.table
        if self.mirror is not None or table is None:
            return
        self._new_mirror()
        self.names = [seat.name for seat in table.seats]
        if self.on_started is not None:
            self.on_started()

    def _rebuild(self, seq: int) -> None:
        """A claim at entry ``seq`` was voided: the mirror goes back to the state before it.

        The session rebuilt its replica from the log up to ``seq`` (the claim, and the game end
        it made, are gone) and applies the claimed seat's own entry there; the events after this
        one are that entry's and the next ones'.  So the mirror is the public actions of the
        entries before ``seq`` replayed (what the player saw, without the forfeit the claim
        made), the queue starts afresh, and the verdict of the claimed win is dropped.
        """
        table = self.session.table
        if self.mirror is None or table is None:
            return
        self.queue.clear()
        mirror = self._new_mirror()
        self.applied = []
        for at, seat, action in table.pushes:
            if at >= seq:
                break
            if action is None:
                mirror.forfeit(seat)
            elif seat == TABLE and action[0] == "set-aside":
                mirror.set_aside(action[1])
            else:
                mirror.push(seat, action)
                self.applied.append((seat, action))
        assert self.tap is not None
        self.tap.new()  # what the replay did is not news
        self.gone = [(s, reason) for s, (reason, at) in sorted(table.gone.items()) if at < seq]
        self.verdict = None
        self.rebuilds += 1

    @property
    def started(self) -> bool:
        return self.mirror is not None

    def _shown(self) -> GameState:
        """The mirror; a table is shown only once the game has started (:attr:`on_started`)."""
        if self.mirror is None:
            raise RuntimeError("the network game has not started yet")
        return self.mirror

    # -- the GameSource surface (client.play.source) --------------------------------------
    @property
    def game(self) -> str:
        if self.spec is None:
            raise RuntimeError("the network game has not started yet")
        return self.spec.name

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def state(self) -> GameState:
        return self._shown()

    @property
    def knowledge(self) -> Knowledge:
        return self.session.knowledge

    @property
    def history(self) -> list[tuple[int, Action]]:
        return self.applied

    def pending(self) -> Pending:
        return self._shown().pending()

    def over(self) -> GameOver | None:
        p = self.mirror.pending() if self.mirror is not None else None
        return p if isinstance(p, GameOver) and not self.queue else None

    def human_to_move(self) -> bool:
        if self.mirror is None or self.queue:
            return False
        p = self.mirror.pending()
        return isinstance(p, Decision) and p.seat == self.human and bool(self.session.legal_actions())

    def turn_seat(self) -> int:
        """The seat the game waits for: whose decision it is, else who owes the next entry (-1: nobody)."""
        pending = self.session.pending
        seat = pending.seat if isinstance(pending, Decision) else None
        if seat is None:
            waiting = self.session.waiting_for
            seat = waiting[0] if waiting is not None else None
        return seat if seat is not None and 0 <= seat < len(self.names) else -1

    def turn_name(self) -> str:
        """The name of the player the game waits for (see :meth:`turn_seat`; "" for nobody)."""
        seat = self.turn_seat()
        return self.names[seat] if seat >= 0 else ""

    def has_steps(self) -> bool:
        return bool(self.queue)

    def legal(self) -> list[Action]:
        return self.session.legal_actions() if self.human_to_move() else []

    def view(self) -> dict[str, Any]:
        return self._shown().view(self.session.knowledge)

    def in_step(self) -> bool:
        """True when the mirror has caught up with the session's own state."""
        state = self.session.state
        return not self.queue and self.mirror is not None and state is not None and self.mirror.hash() == state.hash()

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
        mirror = self._shown()
        before = mirror.pending()
        if item.action == (FORFEIT,):
            if mirror.is_over():
                return
            try:
                mirror.forfeit(item.seat)
            except IllegalAction:  # the seat is out of play already: nothing to show
                return
        elif item.action[0] == SET_ASIDE:
            mirror.set_aside(item.action[1])
        else:
            mirror.push(item.seat, item.action)
            self.applied.append((item.seat, item.action))
        assert self.tap is not None
        self.entries.append(Entry(len(self.entries), item.seat, item.action, self.tap.new(), before))

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
        if self.journal is not None:
            self.journal.close()  # synced; a transport still writing opens it again
        if bots:
            for bot in self.bots:
                bot.stop()
