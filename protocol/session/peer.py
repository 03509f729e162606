"""``PeerSession``: the entry points of a seat's session, and the order in which its parts act.

The session owns its parts (:mod:`.buffer`, :mod:`.departures`, :mod:`.writer`, :mod:`.secrets`)
and the replica (:class:`~protocol.table.Table`); every decision that needs more than one part
is taken here, through the parts' methods.  The methods with a leading underscore that the
staged cheats of :mod:`protocol.sim.cheats` override (``_write``, ``_take_entry``, ``_drain``,
``_pump``, ``_claim_open``, ``_secrets_body``...) are the session's own hooks: every path goes
through them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.core import (
    Action,
    GameState,
    IllegalAction,
    Knowledge,
    Pending,
    PrivateDelivery,
    RevealOwed,
    SeededStream,
    canonical_encode,
)
from protocol.cards import Deck, KeyRing, keys_to_body
from protocol.crypto.commit import commitment
from protocol.crypto.padding import PAD_BLOCK
from protocol.crypto.randomness import share_commitment
from protocol.crypto.signing import SigningKey
from protocol.envelope import GENESIS_GAME, ZERO_HASH, Envelope, Header, cheap_rejection, parse, peek
from protocol.envelope import seal as seal_envelope
from protocol.errors import Code, Misconduct, ProtocolError
from protocol.events import (
    DISCONNECTED,
    Audited,
    CheatDetected,
    ClaimVoided,
    Equivocation,
    Event,
    Gone,
    Outbound,
    Overdue,
    Rejected,
    Started,
    Verdict,
    YourTurn,
)
from protocol.logfile import dump
from protocol.schema import relays_problem
from protocol.session import departures
from protocol.session.buffer import MAX_AHEAD, ReceiveBuffer, forged
from protocol.session.departures import DEFAULT_TIMEOUT_MS, Departures, timeout_problem
from protocol.session.secrets import OwnSecrets, agreement_key
from protocol.session.writer import Writer
from protocol.table import SEALED_TAG, Expect, OwnAction, SeatInfo, Table, check_seat_cards


class PeerSession:
    """One seat's (``seat=None``: an observer's) replica of a room, with its private side.

    Composed of a :class:`ReceiveBuffer` (what came in and is not applied yet), :class:`Departures`
    (leaving, votes, silence, the two-seat claim), a :class:`Writer` (signing, the queues,
    publish-first) and :class:`OwnSecrets` (everything derived from the seat's secret).
    """

    def __init__(
        self,
        room: str,
        seat: int | None,
        signing_key: SigningKey | None = None,
        secret: bytes | None = None,
        creator: bytes | None = None,
        auto_vote: bool = True,
        dev_timeout_ms: int | None = None,
    ) -> None:
        if seat is not None and (signing_key is None or not isinstance(secret, bytes) or len(secret) != 32):
            raise ValueError("a seat needs its signing key and a 32-byte per-game secret")
        #: The one silence timeout outside MIN_TIMEOUT_MS..MAX_TIMEOUT_MS this session accepts in a
        #: genesis: an explicit test/dev override (see :func:`timeout_problem`); None for a real game.
        self.dev_timeout_ms = dev_timeout_ms
        self.room = room
        self.seat = seat
        self._creator = creator
        self.auto_vote = auto_vote
        self.table: Table | None = None
        self._buffer = ReceiveBuffer()
        self._departures = Departures()
        self._writer = Writer(room, seat, signing_key)
        self._secrets = OwnSecrets(room, seat, secret)
        self._events: list[Event] = []
        self._verdict: Verdict | None = None
        self._now = 0
        #: The entry the session is working on, named by a verdict whose cause did not name one.
        self._seq_hint = 0
        #: The signed entries that prove the cheat that stopped this session (saved with the log).
        self.evidence: list[bytes] = []

    # -- making sessions -------------------------------------------------------------------------
    @staticmethod
    def seat_card(name: str, signing_key: SigningKey, secret: bytes) -> SeatInfo:
        """What a joining seat hands the creator (through the lobby) before the genesis."""
        return SeatInfo(name, signing_key.public_bytes(), agreement_key(secret).public_bytes())

    @classmethod
    def create(
        cls,
        room: str,
        game: str,
        options: Mapping[str, Any],
        seats: Sequence[SeatInfo],
        signing_key: SigningKey,
        secret: bytes,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        now_ms: int = 0,
        dev_timeout_ms: int | None = None,
        relays: Sequence[str] = (),
    ) -> PeerSession:
        """Seat 0 opens the room: writes the genesis (take it from ``take_outgoing``).

        ``relays`` names the room's relay and its fallbacks, in order (the genesis carries them, so
        every seat knows where the game may move; see relay/transport/failover.py).  None given: the
        genesis has no ``relays`` field at all.

        Every seat card is checked first (:func:`protocol.table.check_seat_cards`): an
        invalid one raises :class:`~protocol.table.SeatCardError` naming its seat, before
        anything is signed.  A timeout outside the host-choosable range raises ValueError
        unless it is ``dev_timeout_ms`` (tests and demos only).
        """
        check_seat_cards(seats)
        problem = timeout_problem(timeout_ms, dev_timeout_ms)
        if problem is not None:
            raise ValueError(f"cannot create this game: {problem}")
        session = cls(room, 0, signing_key, secret, creator=signing_key.public_bytes(), dev_timeout_ms=dev_timeout_ms)
        body = {
            "game": game,
            "options": dict(options),
            "seats": [s.as_body() for s in seats],
            "nonce": SeededStream(secret, "nonce").token(32),
            "timeout_ms": timeout_ms,
        }
        if relays:
            body["relays"] = tuple(relays)
            problem = relays_problem(body["relays"])
            if problem is not None:
                raise ValueError(f"cannot create this game: relays {problem}")
        env = seal_envelope(signing_key, room, 0, ZERO_HASH, 0, "genesis", body, game=GENESIS_GAME)
        session._writer.queue_entry(env)
        events = session.receive(env.data, now_ms)
        bad = [e for e in events if isinstance(e, Rejected)]
        if bad:
            raise ValueError(f"cannot create this game: {bad[0].reason}")
        session._events = events
        return session

    @classmethod
    def join(
        cls,
        room: str,
        seat: int,
        signing_key: SigningKey,
        secret: bytes,
        creator: bytes | None = None,
        dev_timeout_ms: int | None = None,
    ) -> PeerSession:
        """A seat joins: it waits for the genesis (naming its keys) from the log."""
        return cls(room, seat, signing_key, secret, creator=creator, dev_timeout_ms=dev_timeout_ms)

    @classmethod
    def observe(cls, room: str, creator: bytes | None = None) -> PeerSession:
        """Someone without a seat follows (and audits) the game."""
        return cls(room, None, creator=creator)

    def sign_request(self, raw: bytes) -> bytes | None:
        """This seat's signature over ``frame(REQUEST_TAG, raw)`` (a relay request, never an entry).

        None for an observer, which has no key and so cannot ask the seats for anything.
        """
        return self._writer.sign_request(raw)

    # -- reading -----------------------------------------------------------------------------
    @property
    def knowledge(self) -> Knowledge:
        """What this seat knows beyond the public state: its cards and its sealed values.

        Every card dealt to this seat is opened before this is handed out.  Opening a card
        is a group multiplication (about a tenth of a millisecond), so a deal of several is
        left for :meth:`open_step` when a driver is idle: an entry arriving meanwhile is not
        kept waiting behind this seat's own hand.
        """
        self._secrets.open_all(self.table)
        return self._secrets.knowledge

    def open_step(self) -> bool:
        """Open one card dealt to this seat, if one waits; whether more wait (idle work for a driver)."""
        if self.table is None:
            return False
        return self._secrets.open_step(self.table)

    @property
    def ring(self) -> KeyRing:
        """This seat's card secrets, round by round."""
        return self._secrets.ring

    @property
    def salts(self) -> dict[int, tuple[bytes, Any]]:
        """sealed-value id -> (salt, value), for every value this seat sealed."""
        return self._secrets.salts

    @property
    def unopened(self) -> set[int]:
        """Slots dealt to this seat that a false key kept from opening."""
        return self._secrets.unopened

    @property
    def creator(self) -> bytes | None:
        """The genesis author this session pins (the room's host), if it pins one."""
        return self._creator

    @property
    def publish_first(self) -> bool:
        """Whether this seat's own entries are queued first and applied at :meth:`settle` (see :class:`Writer`)."""
        return self._writer.publish_first

    @publish_first.setter
    def publish_first(self, value: bool) -> None:
        self._writer.publish_first = value

    @property
    def state(self) -> GameState | None:
        return self.table.state if self.table else None

    @property
    def pending(self) -> Pending | None:
        return self.table.state.pending() if self.table else None

    @property
    def finished(self) -> bool:
        return self._verdict is not None or (self.table is not None and self.table.finished)

    @property
    def listening(self) -> bool:
        """Whether this finished session must still hear the room: a claim of this seat is open.

        In a two-seat game a win claimed after disconnection ends the game but is no result:
        the claimed seat's own entry for that seq voids it and play goes on (the two-seat rule,
        docs/protocol.md).  If the claimant's driver stopped at once, that entry would reach
        nobody still listening; the claimed seat would then play on, claim the silent claimant
        gone in turn, and the two claims would contradict.  So the claimant keeps listening
        until its claim is settled: voided (play goes on), or its driver gives up (a program
        that closes has left the table).
        """
        table = self.table
        if self._verdict is not None or self._departures.left or table is None or self.seat is None:
            return False
        claim = table.claim
        return claim is not None and claim[3] and claim[0] == self.seat and table.finished

    @property
    def done(self) -> bool:
        """Whether a driver may stop: the session is finished and not :attr:`listening`."""
        return self.finished and not self.listening

    @property
    def left(self) -> bool:
        """Whether this seat left the game (it writes nothing more)."""
        return self._departures.left

    @property
    def verdict(self) -> Verdict | None:
        if self._verdict is not None:
            return self._verdict
        return self.table.verdict if self.table is not None else None

    @property
    def waiting_for(self) -> tuple[int, int, int] | None:
        """(seat, seq, since_ms): who owes the next entry, and since when."""
        exp = self.table.expected() if self.table and not self.finished else None
        return (exp.writer, exp.seq, self._departures.since) if exp else None

    @property
    def signing_key(self) -> SigningKey | None:
        """The key the caller gave this seat (it signs every entry; a rematch answer is signed with it too)."""
        return self._writer.key

    @property
    def offline(self) -> bool:
        """Whether the driver said the relay is lost: no seat is judged while it is (see :meth:`connection_lost`)."""
        return self._departures.offline

    @property
    def unsettled(self) -> bool:
        """Whether an entry of mine is queued (``submit(..., settle=False)``, ``publish_first``) and not applied."""
        return self.table is not None and self._writer.unsettled(self.table.head)

    def legal_actions(self) -> list[Action]:
        if self.table is None or self.seat is None or self.finished or self.unsettled:
            return []
        return self.table.state.legal_actions(self.seat, self.knowledge)

    def entry(self, seq: int) -> bytes | None:
        """The accepted entry ``seq`` (to re-publish when a retained copy was overwritten)."""
        if self.table is None or not 0 <= seq <= self.table.head:
            return None
        return self.table.log[seq].data

    def log_entries(self) -> list[bytes]:
        """Every accepted entry, in order: the signed log."""
        return [env.data for env in self.table.log] if self.table else []

    def save(self) -> bytes:
        """The saved-game file of the log so far (``python -m protocol verify`` audits it).

        Beside the log it keeps the two-seat claims the log voided: a later claim one of them
        contests reads contested from the file as it does live (:mod:`protocol.claims`).
        """
        voided = [v.envelope.data for v in self.table.voided_claims()] if self.table is not None else []
        return dump(self.room, self.log_entries(), self.evidence, voided)

    def take_outgoing(self) -> list[Outbound]:
        """Log entries this seat wrote, to publish retained (QoS 1) at ``log/{seq}``."""
        return self._writer.take_outgoing()

    def take_notices(self) -> list[Outbound]:
        """Votes and leave notices, to publish retained (QoS 1) at their ``topic``."""
        return self._writer.take_notices()

    def take_events(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    def knowledge_with(self, sealed: Mapping[int, Any]) -> Knowledge:
        k = self.knowledge.copy()
        k.sealed.update(sealed)
        return k

    # -- input -------------------------------------------------------------------------------
    def receive(self, data: bytes, now_ms: int) -> list[Event]:
        """Any entry or notice, in any order, any number of times."""
        self._now = max(self._now, now_ms)
        evidence = bytes(data) if isinstance(data, (bytes, bytearray, memoryview)) else b""
        self._contained(lambda: self._receive(data), evidence)
        return self.take_events()

    def _contained(self, work: Any, evidence: bytes = b"") -> None:
        """Run ``work``; whatever it raises becomes an event, never an exception for the driver.

        Every entry point that does protocol work (:meth:`receive`, :meth:`submit` after its
        own checks of the caller's request, which raise ``IllegalAction`` to the caller,
        :meth:`tick`, :meth:`settle`, :meth:`vote_gone`, :meth:`leave`) goes through here: a transport that let an
        exception escape would lose its tasks, and this seat would fall silent and be voted
        gone for someone else's input.  A :class:`Misconduct` names the seat whose signed input
        made the work impossible (the session stops, as for any cheat); a refused input is a
        ``Rejected``; anything else (a bug meeting this input) is a ``Rejected`` with code
        ``internal`` that names the exception's type only, never its text (it could hold a secret).
        """
        try:
            work()
        except ProtocolError as exc:
            self._events.append(Rejected(str(exc.code), exc.reason))
        except Misconduct as exc:
            seq = self._seq_hint if exc.seq is None else exc.seq
            self._halt(exc.seat, seq, exc.reason, *((evidence,) if evidence else ()))
        except Exception as exc:  # never let hostile bytes crash the driver; say what happened
            self._events.append(Rejected(str(Code.INTERNAL), f"refused after an internal error ({type(exc).__name__})"))

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        """My decision (a private action from ``legal_actions``): sealed, signed, queued, applied.

        ``settle=False`` stops after queuing: the signed entry waits in ``take_outgoing``
        and this replica applies it at the next :meth:`settle` (or ``receive``/``tick``).
        A transport publishes first and settles after, so the other peers' copy is on
        the wire while the author checks and applies its own entry, not after.
        """
        table = self._need_turn()
        exp = table.expected()
        assert exp is not None and self.seat is not None
        action = tuple(action)
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} is not a legal action for seat {self.seat} now")
        self._contained(lambda: self._submit(table, exp, action, settle))
        return self.take_events()

    def _submit(self, table: Table, exp: Expect, action: Action, settle: bool) -> None:
        assert self.seat is not None
        state = table.state
        publication = state.publish(self.seat, action, self.knowledge)
        commits: dict[int, bytes] = {}
        opened: dict[int, tuple[bytes, Any]] = {}
        for secret, value in publication.sealed.items():
            salt = self._secrets.stream(f"salt/{exp.seq}/{secret}").token(32)
            commits[secret] = commitment(SEALED_TAG, self.room, self.seat, salt, value)
            opened[secret] = (salt, value)
        keys, shows = {}, {}
        for slot, card in state.shown(self.seat, publication.action):
            if table.ledger.deck_for(slot).public_card(slot) is None:
                keys[slot] = table.ledger.secret_key(slot, self.ring)
                shows[slot] = card
        memo = b""
        if opened:
            plain = canonical_encode({k: list(v) for k, v in opened.items()})
            # One block per sealed value, whatever the value: the memo's length shows only how many.
            memo = self._seal_to(self.seat, exp.seq, plain, PAD_BLOCK * len(opened))
        probe = state.clone()
        probe.push(self.seat, publication.action, self.knowledge_with(publication.sealed))
        digest = probe.hash()
        body = {"action": publication.action, "commits": commits, "keys": keys, "memo": memo, "hash": digest}
        self.salts.update(opened)
        self.knowledge.sealed.update(publication.sealed)
        self._writer.prepare(OwnAction(exp.seq, self.seat, publication.action, probe, digest, shows))
        with self._writer.choosing(publish_only=not settle):
            self._write(exp, "action", body)
        if settle:
            self._pump()

    def _need_turn(self) -> Table:
        table = self.table
        if table is None or self.seat is None or self.finished or self._departures.left:
            raise IllegalAction("this session cannot decide now")
        if self.unsettled:
            raise IllegalAction("the previous decision is not applied yet: call settle() first")
        exp = table.expected()
        if exp is None or exp.writer != self.seat or exp.type != "action":
            raise IllegalAction(f"it is not seat {self.seat}'s decision")
        return table

    def settle(self) -> list[Event]:
        """Apply what this seat queued without applying, and write what follows from it."""
        if self.table is not None and not self.finished:
            self._contained(self._drain_and_pump)
        return self.take_events()

    def _drain_and_pump(self) -> None:
        self._drain()
        self._pump()

    def tick(self, now_ms: int) -> list[Event]:
        """Time passes: an overdue seat is reported, and voted gone if ``auto_vote``."""
        self._now = max(self._now, now_ms)
        if self.table is None or self.finished:
            return self.take_events()
        self._contained(self._tick)
        return self.take_events()

    def _tick(self) -> None:
        assert self.table is not None
        self._drain()
        self._pump()
        if self.finished or self._departures.offline:
            return  # nobody is judged on a clock that ran while cut off
        exp = self.table.expected()
        if exp is None:
            return
        if self._behind() and self._departures.catch_up(exp.seq, self._now):
            return  # behind: the entry missing here reached someone, so the wait starts again
        if exp.writer != self.seat and self._departures.silent_too_long(self._now, self.table.timeout_ms):
            if self._departures.first_overdue(exp.seq):
                self._events.append(Overdue(exp.writer, exp.seq, self._departures.since))
            if self.auto_vote:
                self._vote()

    def connection_lost(self, now_ms: int) -> list[Event]:
        """The driver lost the relay: no seat is judged overdue until :meth:`connected`.

        While this peer cannot hear the others, their silence says nothing (an outage
        chooses nobody's forfeit).
        """
        self._now = max(self._now, now_ms)
        self._departures.offline = True
        return self.take_events()

    def connected(self, now_ms: int, grace_ms: int = 0) -> list[Event]:
        """The driver reached the relay again (and read the log back): the wait starts afresh.

        A grace period of one full timeout plus ``grace_ms``: the seat owed an entry gets the
        time to reconnect and publish (or re-publish) it before anyone may vote it gone.  The
        driver passes the longest pause of its own reconnection schedule as ``grace_ms``: an
        honest seat cut off by the same outage may still be waiting out that pause when this
        one is back, and an outage must choose nobody's forfeit however short the timeout.
        """
        self._now = max(self._now, now_ms)
        self._departures.offline = False
        self._departures.wait_from(self._now + max(0, grace_ms))
        return self.take_events()

    def _behind(self) -> bool:
        """Whether this replica knows the chain went on past the entry it waits for (it is catching up).

        An entry buffered beyond the next seq, or another seat's vote about a later seq: the
        entry missing here reached someone; voting its author gone would judge on a gap.
        """
        assert self.table is not None
        nxt = self.table.head + 1
        return self._buffer.has_beyond(nxt) or self._departures.votes_beyond(nxt)

    def vote_gone(self) -> list[Event]:
        """Vote that the seat owing the next entry is gone.

        While the vote stands the seat's late entry is held, not applied: once every
        other remaining seat has voted, the designated seat records it gone and the late
        entry is refused.  If another remaining seat builds on the late entry (an entry
        or a vote chained to it), that seat took it without voting, the votes can never
        complete, and this vote is dropped: the late entry stands (docs/protocol.md).
        """
        self._contained(self._vote)
        return self.take_events()

    def _vote(self) -> None:
        table = self.table
        if table is None or self.seat is None or self.finished or self._departures.left:
            return
        exp = table.expected()
        if exp is None or exp.writer == self.seat or not self._departures.cast(exp.seq, exp.writer):
            return
        env = self._sign(exp.seq, "vote", {"target": exp.writer})
        self._writer.queue_notice(env, "vote")
        self._take_notice(env)
        self._pump()

    def leave(self) -> list[Event]:
        """Leave the game: a signed notice with what play needs without this seat; the session stops writing.

        The notice publishes this seat's keys of the cards still to be dealt and its sealed
        values; its hand stays face down.  Its other end-of-game secrets (card secrets, the
        delivery key of each box it *sent*) go into the notice escrowed with the seats that
        stay (:mod:`protocol.escrow`): they open at the end of the game, for the audit.
        Opened now, they would show a card taken from this seat by another seat's private
        delivery, in that seat's hand.  Its agreement key, which opens the boxes it received,
        is never published.  The notice is bound to this game (``game``).
        """
        table = self.table
        if table is None or self.seat is None or self.finished or self._departures.left:
            return self.take_events()
        self._contained(self._leave)
        return self.take_events()

    def _leave(self) -> None:
        if self.unsettled:
            self._drain()  # my last entry first: the notice comes after every entry I wrote (seq = head + 1)
        table, seat = self.table, self.seat
        if table is None or seat is None or self.finished:
            return
        seq = table.head + 1
        self._secrets.open_all(table)
        dealing = [slot for slot, seat in table.batch if seat == self.seat]
        secrets = {
            "cards": table.ledger.departure_body(self.ring, dealing),
            "sealed": {k: list(v) for k, v in self.salts.items()},
            "deliveries": {},
            "escrow": self._escrow_shares(),
        }
        late = canonical_encode({"cards": table.ledger.secrets_body(self.ring), "deliveries": self._delivery_keys()})
        escrow = departures.escrow(table, seat, seq, late, self._secrets, self._seal_to)
        env = self._sign(seq, "leave", {"secrets": secrets, "escrow": escrow})
        self._writer.queue_notice(env, "leave")
        self._departures.left = True
        self._take_notice(env)

    # -- receiving ---------------------------------------------------------------------------
    def _receive(self, data: bytes) -> None:
        # Who may have written it, from its wire bytes alone: the one key of the seat it names is
        # checked before anything of its contents is decoded (garbage costs one signature check).
        head = peek(data)
        if head is None:
            raise cheap_rejection(data)  # every valid entry is laid out so: nothing more to look at
        if head.room != self.room:
            raise ProtocolError(Code.WRONG_ROOM, f"entry for room {head.room[:32]!r}, this is {self.room!r}")
        if self.finished and not self._claim_open(head):
            return
        verified = self._buffer.screen(self.table, self._creator, head, data)
        if verified is None:
            return  # the very entry already applied
        env = parse(data)
        if not isinstance(verified, bool):
            # it parses: a seat signed it in another seat's name
            raise Misconduct(verified, forged(env.seq, env.seat), seq=env.seq)
        if self.table is None:
            self._before_genesis(env)
        elif env.type == "genesis":
            if env.data != self.table.log[0].data:
                raise ProtocolError(Code.WRONG_GAME, "the genesis of another game in this room")
        else:
            self._seq_hint = env.seq
            self._buffer.authenticate(self.table, env, verified)
            self._take(env)
            self._drain()
            self._pump()

    def _before_genesis(self, env: Envelope) -> None:
        """The genesis starts the table; anything else waits for it, unauthenticated and bounded."""
        if env.type == "genesis":
            self._genesis(env)
        else:
            self._buffer.keep_early(env)

    def _take(self, env: Envelope) -> None:
        if env.is_notice:
            self._take_notice(env)
        else:
            self._take_entry(env)

    def _genesis(self, env: Envelope) -> None:
        problem = timeout_problem(env.body["timeout_ms"], self.dev_timeout_ms)
        if problem is not None:
            raise ProtocolError(Code.GENESIS, f"this game's {problem}")
        seats = env.body["seats"]
        if self._creator is not None and seats[0]["sign"] != self._creator:
            raise ProtocolError(Code.GENESIS, "the genesis is not by the expected creator")
        if self.seat is not None:
            key, box = self._writer.key, self._secrets.box
            assert key is not None and box is not None
            mine = seats[self.seat] if self.seat < len(seats) else None
            if mine is None or mine["sign"] != key.public_bytes() or mine["box"] != box.public_bytes():
                raise ProtocolError(Code.GENESIS, f"the genesis does not give seat {self.seat} this peer's keys")
        self.table = Table(env, hooks=self)
        self._departures.restart_wait(self._now)
        self._events.append(Started(self.table.game, self.table.n, self.seat))
        for other in self._buffer.take_early():
            try:
                self._buffer.authenticate(self.table, other)
                self._take(other)
            except ProtocolError as exc:
                self._events.append(Rejected(str(exc.code), exc.reason, other.seq))
        self._drain()
        self._pump()

    def _take_notice(self, env: Envelope) -> None:
        if env.type == "vote":
            applied = self._departures.take_vote(self.table, env, self.seat)
            if applied is not None:
                self._ack(applied)
        else:
            self._departures.take_leave(env)

    def _take_entry(self, env: Envelope) -> None:
        table = self.table
        assert table is not None
        if self._buffer.on_dead_branch(env):  # built on a voided claim: that branch is over
            self._events.append(Rejected(str(Code.STALE), f"entry {env.seq} follows a voided claim", env.seq))
            return
        if env.seq <= table.head:
            self._conflict(table.log[env.seq], env)
            return
        twin = self._buffer.keep(table.head, env)
        if twin is not None:
            self._equivocation(twin, env)

    def _conflict(self, applied: Envelope, env: Envelope) -> None:
        """An entry for a seq already settled: a duplicate, equivocation, or a stranger's."""
        if applied.data == env.data:
            return
        if self._settles_claim(applied, env):
            return
        if self.finished and env.type == "gone":
            return  # a finished replica reads a late ``gone`` only as a claim that may contest its own
        if applied.seat == env.seat:
            if env.prev != applied.prev:
                # Not an equivocation: two statements are only in conflict on the same chain.
                raise ProtocolError(Code.STALE, f"seat {env.seat}'s entry {env.seq} chains to another entry")
            self._equivocation(applied, env)
            return
        if self._late_gone(applied, env):
            return
        if applied.type == "gone" and applied.body["target"] == env.seat:
            raise ProtocolError(Code.STALE, f"seat {env.seat}'s entry {env.seq} came after it was declared gone")
        raise Misconduct(env.seat, f"wrote entry {env.seq} out of turn (seat {applied.seat} wrote it)", seq=env.seq)

    def _settles_claim(self, applied: Envelope, env: Envelope) -> bool:
        """The two-seat rule at an applied seq: the claimed seat's own entry voids a claim, in both orders."""
        table = self.table
        assert table is not None
        claim = table.claim
        voids = claim is not None and claim[1:3] == (env.seat, env.seq) and applied.type == "gone"
        if voids and env.prev == applied.prev:
            self._void_claim(applied, env)  # the claimed seat's own entry voids the claim
            return True
        if applied.type != "gone" and env.prev == applied.prev and self._claim_against(env, applied.seat):
            self._refuse_claim(env, news=env.seq == table.head)  # one read back later than its entry is no news
            return True
        return False

    def _late_gone(self, applied: Envelope, env: Envelope) -> bool:
        """A ``gone`` of the seat whose late entry was applied here: an observer rewinds, the target stops."""
        late = applied.type != "gone" and env.prev == applied.prev and env.body.get("target") == applied.seat
        if self.seat is None and env.type == "gone" and late:
            self._rewind(env)
            return True
        if env.type == "gone" and env.body["target"] == applied.seat == self.seat and env.prev == applied.prev:
            reason = "this seat was declared gone by every other seat (it answered too late)"
            self._verdict = Verdict(False, self.seat, env.seq, reason, DISCONNECTED)
            self._events.append(Gone(self.seat, env.seq, env.body["reason"]))
            return True
        return False

    # -- the two-seat rule -------------------------------------------------------------------
    def _claim_against(self, env: Envelope, target: int) -> bool:
        """Whether ``env`` is a two-seat claim: a silent-``gone`` of ``target`` backed by its writer's vote alone."""
        return departures.is_claim_against(self.table, env, target)

    def _claim_open(self, env: Envelope | Header) -> bool:
        """A game ended by a claim still takes what may void it or contest it (:func:`departures.claim_takes`)."""
        return self._verdict is None and departures.claim_takes(self.table, env)

    def _refuse_claim(self, claim: Envelope, news: bool = True) -> None:
        """A claim against a seat whose own entry for that seq is here (or, at the target, will be): void.

        Void, not forgotten: the table keeps it on the record, and a later claim by the seat it
        was against may be contested by it (:mod:`protocol.claims`); if the game already ended on
        such a claim, its verdict is worked out again and told.  A claim comes twice (on the log
        topic and on its claimant's notice topic) and is told once; one read back after the game
        went on past its entry (``news`` False) is kept without a word.
        """
        table = self.table
        assert table is not None
        target = claim.body["target"]
        self._buffer.cut_branch(claim.digest)
        if table.holds_voided(claim):
            return
        verdict = table.verdict
        table.record_voided(claim)
        if table.finished and table.verdict is not None and table.verdict != verdict:
            self._events.append(Audited(table.verdict))
        if not news:
            return
        reason = f"seat {claim.seat}'s claim that seat {target} was gone at entry {claim.seq} is void"
        self._events.append(Rejected(str(Code.STALE), reason + f": seat {target}'s own entry {claim.seq} is here"))
        self._events.append(ClaimVoided(target, claim.seq, claim.seat))

    def _void_claim(self, claim: Envelope, entry: Envelope) -> None:
        """This replica applied a claim that ``entry`` voids: rebuild up to its seq and take ``entry`` instead.

        Nothing of the claim stays: a claim that ended the game published no secrets (see
        ``Table._resolve``), so play goes on from the claimed seat's entry as if the claimant
        had waited for it; the die or the card it was owed stays what that entry makes it.
        """
        old = self.table
        assert old is not None
        seq = claim.seq
        self._buffer.mark_dead(e.digest for e in old.log[seq:])
        self._replay_to(seq)
        self._buffer.restart_at(seq, entry)
        self._departures.forget_from(seq)
        self._writer.forget_from(seq)
        self._departures.restart_wait(self._now)
        self._refuse_claim(claim)

    def _rewind(self, gone: Envelope) -> None:
        """An observer took a late entry that every other seat had voted against: replay without it.

        An observer casts no vote, so it cannot hold a late entry back as a voter
        does; when the ``gone`` record that replaces it arrives, the replica is
        rebuilt from the log up to that seq and the record is applied in its place
        (the table checks its votes; an invalid one names its writer as usual).
        """
        self._replay_to(gone.seq)
        self._buffer.restart_at(gone.seq, gone)
        reason = f"seat {gone.body['target']}'s entry {gone.seq} came after every other seat voted it gone"
        self._events.append(Rejected(str(Code.STALE), reason, gone.seq))

    def _replay_to(self, seq: int) -> None:
        """A new replica with the log before ``seq`` applied again (its events are not news)."""
        old = self.table
        assert old is not None
        table = Table(old.log[0], hooks=self)
        for e in old.log[1:seq]:
            table.apply(e)
        table.take_events()
        table.keep_voided(old.voided, before=seq)
        self.table = table

    def _equivocation(self, first: Envelope, second: Envelope) -> None:
        self._events.append(Equivocation(first.seat, first.seq, first.data, second.data))
        reason = f"equivocation: two different signed entries for seq {first.seq}"
        self._halt(first.seat, first.seq, reason, first.data, second.data)

    # -- draining: applying what waits, in chain order ---------------------------------------
    def _drain(self) -> None:
        """Apply every waiting entry that comes next, one seq after another."""
        table = self.table
        assert table is not None
        self._buffer.forget_suspects(table.head)
        while not self.finished and self._drain_one(table):
            self._departures.restart_wait(self._now)

    def _drain_one(self, table: Table) -> bool:
        """Apply the entry for the seq after ``table``'s head, if one may be; whether one was."""
        seq = table.head + 1
        forgery = self._buffer.judge_suspect(table, seq)
        if forgery is not None:
            self._halt(forgery.seat, seq, forgery.reason, forgery.data)
            return False
        exp = table.expected()
        if not self._buffer.has(seq) or exp is None:
            return False
        if exp.writer == self.seat and not self._departures.left and self._refuse_claims_against(exp.writer, seq):
            return self._drain_one(table)
        choice = self._choose(table, seq, exp)
        if choice is None:
            return False
        chosen, held_back, candidates = choice
        self._buffer.pop(seq)
        self._apply(chosen)
        for e in held_back:
            self._events.append(Rejected(str(Code.STALE), f"seat {e.seat} answered after the vote", seq))
        if chosen.type != "gone" and chosen.seat != self.seat and self._departures.voted_against(chosen, self.seat):
            self._ack(chosen)  # another seat voted against this entry's author: it waits for a builder
        for other in candidates[1:]:
            if not self.finished:
                try:
                    self._conflict(table.log[seq], other)
                except ProtocolError as exc:
                    self._events.append(Rejected(str(exc.code), exc.reason, seq))
        return True

    def _refuse_claims_against(self, me: int, seq: int) -> bool:
        """A claim against me while I am here: my own entry for this seq will void it; whether one was."""
        refused = [e for e in self._buffer.waiting(seq) if self._claim_against(e, me)]
        for e in refused:
            self._buffer.remove(e)
            self._refuse_claim(e)
        return bool(refused)

    def _choose(self, table: Table, seq: int, exp: Expect) -> tuple[Envelope, list[Envelope], list[Envelope]] | None:
        """(the entry to apply, the late entries held back by my vote, every candidate), or None to wait."""
        candidates = self._buffer.candidates(seq, table.head_digest, exp.writer)
        held_back = self._held_back(table, seq, exp, candidates)
        if held_back:
            candidates = [e for e in candidates if e not in held_back]
            if not candidates:
                return None
        chosen = candidates[0]
        if chosen.prev != table.head_digest and self._buffer.chain_wait(seq, self._now, table.timeout_ms):
            return None
        writer_entries = [e for e in candidates if e.seat == exp.writer]
        if chosen.type == "gone" and not self._gone_ready(chosen, exp) and writer_entries:
            chosen = writer_entries[0]
        return chosen, held_back, candidates

    def _held_back(self, table: Table, seq: int, exp: Expect, candidates: list[Envelope]) -> list[Envelope]:
        """The late entries of ``exp.writer`` my standing vote holds back.

        My vote stands until every vote is in (then the designated seat writes ``gone``), unless
        another remaining seat built on the late entry: that seat took it without voting, so
        the votes can never complete; the late entry stands and my vote is dropped.
        """
        if not self._departures.vote_stands(seq, exp.writer, len(table.active()) == 2):
            return []
        late = [e for e in candidates if e.seat == exp.writer and e.type != "gone"]
        if late and any(self._built_on(e) for e in late):
            self._departures.drop_vote(seq, exp.writer)
            return []
        return late

    def _built_on(self, late: Envelope) -> bool:
        """Whether a remaining seat other than ``late``'s author wrote an entry or a vote chained to it.

        Followed through the buffered entries after it: the author's own later
        entries do not count, a remaining seat's entry or vote on the chain does.
        """
        table = self.table
        assert table is not None
        others = {s for s in table.active() if s != late.seat}
        tips = {late.digest}
        seq = late.seq + 1
        while tips and seq <= table.head + MAX_AHEAD:
            if self._departures.vote_chained(seq, tips, others) or self._buffer.chained(seq, tips, others):
                return True
            tips = self._buffer.successors(seq, tips)
            seq += 1
        return False

    def _ack(self, entry: Envelope) -> None:
        """Publish "I built on ``entry``": a vote chained to it that names this seat itself.

        A vote naming its own author can never be proof against anyone (a ``gone``
        needs the other seats' votes), so it only tells a seat whose vote holds
        ``entry`` back that this seat took the entry without voting: the votes can
        never complete, and the voter may drop its vote (see :meth:`vote_gone`).
        """
        if self.seat is None or self._writer.key is None or self._departures.left or self.finished:
            return
        if not self._departures.first_ack(entry.seq):
            return
        assert self.table is not None  # acknowledging an entry: the table exists
        env = self._writer.sign_after(self.table, entry.seq + 1, entry.digest, "vote", {"target": self.seat})
        self._writer.queue_notice(env, "ack")

    def _entry_waiting(self, exp: Expect) -> bool:
        """Whether an entry for ``exp.seq`` waits in the buffer (a late entry held against my vote does not)."""
        waiting = self._buffer.waiting(exp.seq)
        if not waiting:
            return False
        if not self._departures.has_voted(exp.seq, exp.writer) or len(self.table.active()) == 2:  # type: ignore[union-attr]  # an expected entry: the table exists
            return True
        return any(e.seat != exp.writer or e.type == "gone" for e in waiting)

    def _gone_ready(self, env: Envelope, exp: Expect) -> bool:
        return bool(env.body["target"] == exp.writer)

    def _apply(self, env: Envelope) -> None:
        table = self.table
        assert table is not None
        try:
            table.apply(env, self._writer.own_for(env.seq))
        except Misconduct as exc:
            self._events += table.take_events()
            self._halt(exc.seat, env.seq, exc.reason, env.data)
            return
        except Exception as exc:  # the engine or a ledger choking on a signed entry: still the author's
            self._events += table.take_events()
            self._halt(env.seat, env.seq, f"entry could not be applied ({type(exc).__name__}: {exc})", env.data)
            return
        self._events += table.take_events()
        if table.audit_done and table.verdict is not None:
            self._events.append(Audited(table.verdict))

    def _halt(self, seat: int, seq: int, reason: str, *evidence: bytes) -> None:
        if self._verdict is None:
            self.evidence = list(evidence)
            self._verdict = Verdict(False, seat, seq, reason)
            self._events.append(CheatDetected(seat, seq, reason))

    # -- writing -----------------------------------------------------------------------------
    def _pump(self) -> None:
        """Write every entry that is this seat's to write and needs no decision."""
        table = self.table
        while table is not None and not self.finished and self.seat is not None and not self._departures.left:
            exp = table.expected()
            if exp is None:
                return
            if exp.writer == self.seat:
                if exp.type == "action":
                    if self._writer.announce(exp.seq):
                        self._events.append(YourTurn(exp.seq, table.state.pending(), tuple(self.legal_actions())))
                    return
                if self._buffer.has(exp.seq):
                    return
                self._write(exp, exp.type, self._auto_body(exp))
                continue
            if table.designated(exp.writer) == self.seat and not self._entry_waiting(exp):
                body = self._gone_body(exp)
                if body is not None:
                    self._write(exp, "gone", body)
                    continue
            return

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        table = self.table
        assert table is not None and self.seat is not None
        env = self._sign(exp.seq, type_, body)
        self._writer.queue_entry(env)
        if departures.is_claim_against(table, env, exp.writer):
            # A claim is published on this seat's own notice topic too: the claimed seat's entry
            # overwrites it on the log topic, and the record must keep it beside that entry.
            self._writer.queue_notice(env, "claim")
        self._take_entry(env)
        if self._writer.publishes_only():
            self._writer.hold(env.seq)  # the pump stops here: the entry waits in the buffer for settle()
        else:
            self._drain()

    def _sign(self, seq: int, type_: str, body: dict[str, Any]) -> Envelope:
        assert self.table is not None
        return self._writer.sign(self.table, seq, type_, body)

    def _auto_body(self, exp: Expect) -> dict[str, Any]:
        """The body of an entry this seat writes by itself: its contribution from its secrets."""
        table = self.table
        assert table is not None and self.seat is not None
        if exp.type == "reveal":
            return self._reveal_body(table)
        if exp.type == "deliver":
            return self._deliver_body(table, exp)
        state_hash = table.state_hash()
        if exp.type == "secrets":
            return {"secrets": self._secrets_body(), "hash": state_hash}
        return {**self._round_part(table, exp.type), "hash": state_hash}

    def _round_part(self, table: Table, type_: str) -> dict[str, Any]:
        """My part of a round every seat writes in: a share's commitment or the share, a pass, card keys."""
        assert self.seat is not None
        r = table.round
        if type_ in ("seed-commit", "chance-commit"):
            assert r is not None  # a commit is owed only while its round is open
            return {"c": share_commitment(self.room, self.seat, r.label, self._share(r.label))}
        if type_ in ("seed-reveal", "chance-reveal"):
            assert r is not None  # a reveal is owed only while its round is open
            return {"share": self._share(r.label)}
        if type_ in ("shuffle", "lock"):
            deck = table.ledger.rounds[-1]
            assert isinstance(deck, Deck)  # passes are owed for a shuffled deck, never for a re-slotting
            secrets = self.ring.rounds[deck.round]
            made = deck.make_shuffle_pass(secrets) if type_ == "shuffle" else deck.make_lock_pass(secrets)
            return {"passed": made}
        if type_ == "keys":
            return {"keys": self._keys_for_others(table)}
        raise AssertionError(f"no auto-entry of type {type_}")  # pragma: no cover

    def _keys_for_others(self, table: Table) -> dict[int, Any]:
        """My keys for the cards of this deal that go to other seats (and that I did not publish yet)."""
        keys = {}
        for slot, seat in table.batch:
            deck = table.ledger.deck_for(slot)
            if seat != self.seat and self.seat not in deck.published_keys(slot):
                keys[slot] = deck.key_for(slot, self.ring.rounds[deck.round])
        return keys

    def _reveal_body(self, table: Table) -> dict[str, Any]:
        assert self.seat is not None
        p = table.state.pending()
        assert isinstance(p, RevealOwed)
        salt, value = self.salts[p.secret]
        probe = table.state.clone()
        probe.push(self.seat, ("reveal", p.secret, value))
        return {"secret": p.secret, "value": value, "salt": salt, "hash": probe.hash()}

    def _deliver_body(self, table: Table, exp: Expect) -> dict[str, Any]:
        assert self.seat is not None
        p = table.state.pending()
        assert isinstance(p, PrivateDelivery)
        passed = None
        keys = table.ledger.hand_keys_for(p.slots, self.ring)
        if p.fresh:  # SL-10: the hand moves to fresh slots first; the keys handed over are theirs
            reslot = table.ledger.preview_reslot(self.seat, p.slots, p.fresh)
            held = [keys[slot] for slot in p.slots]
            secrets = self.ring.new_reslot(reslot, held, self._secrets.stream(f"reslot/{exp.seq}"))
            passed = table.ledger.make_reslot_pass(reslot, secrets)
            keys = {slot: secrets.keys[m] for m, slot in enumerate(p.fresh)}
        plain = canonical_encode(keys_to_body(keys))
        box = self._seal_to(p.target, exp.seq, plain)
        probe = table.state.clone()
        probe.push(-1, ("delivered",))
        return {"box": box, "passed": passed, "hash": probe.hash()}

    def _gone_body(self, exp: Expect) -> dict[str, Any] | None:
        assert self.table is not None
        return self._departures.gone_body(self.table, exp)

    def _secrets_body(self) -> dict[str, Any]:
        """What this seat publishes at the end: its card secrets, sealed values, delivery keys, escrow shares."""
        assert self.table is not None and self._secrets.box is not None
        self._secrets.open_all(self.table)  # once my keys are public, no slot of mine opens by "every key but mine"
        return {
            "cards": self.table.ledger.secrets_body(self.ring),
            "sealed": {k: list(v) for k, v in self.salts.items()},
            "deliveries": self._delivery_keys(),
            "escrow": self._escrow_shares(),
        }

    def _escrow_shares(self) -> dict[int, bytes]:
        """My share of each leaver's escrow (published at the end, or when I leave in turn)."""
        assert self.table is not None
        return departures.escrow_shares(self.table, self._secrets)

    def _delivery_keys(self) -> dict[int, bytes]:
        """The delivery key of each box this seat sent: they open what it sent, and nothing it received."""
        assert self.table is not None
        return self._secrets.delivery_keys(self.table)

    def _share(self, label: str) -> bytes:
        return self._secrets.share(label)

    def _seal_to(self, target: int, seq: int, plain: bytes, size: int | None = None) -> bytes:
        assert self.table is not None
        return self._secrets.seal_to(self.table, target, seq, plain, size)

    # -- hooks the table calls -------------------------------------------------------------------
    def round_opened(self, table: Table, deck: Any, attempt: int) -> None:
        self._secrets.round_opened(deck, attempt)

    def dealt(self, table: Table, slot: int, seat: int) -> None:
        if seat == self.seat:
            self._secrets.dealt(slot)

    def delivered(self, table: Table, env: Envelope, source: int, target: int) -> None:
        self._secrets.delivered(table, env, source, target)

    def entry_applied(self, table: Table, env: Envelope) -> None:
        self._secrets.entry_applied(table, env)
