"""``PeerSession``: one seat's (or an observer's) view of a room, sans-I/O.

Bytes and the time in milliseconds come in (:meth:`PeerSession.receive`,
:meth:`PeerSession.tick`), events come back, and the bytes this seat wants
published wait in :meth:`PeerSession.take_outgoing` (log entries) and
:meth:`PeerSession.take_notices` (votes, leave notices).  No socket, no clock,
no global randomness: every secret of the seat (shares, salts, card secrets,
the per-game agreement key, nonces) is derived from the one 32-byte ``secret``
the caller gives, so a restarted peer with the same secret rebuilds itself from
the log alone (its sealed values come back from the memo it sealed to itself).

What the session writes by itself (auto-entries): seed and chance shares,
shuffle and lock passes, keys for cards dealt to others, owed reveals, private
deliveries, the end-of-game secrets, and — when it is the designated seat — the
record of a seat that left or was voted gone.  What it never writes by itself:
a decision.  That is :meth:`PeerSession.submit`, after a :class:`YourTurn`.
"""

from __future__ import annotations

import hashlib
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
    decode,
)
from protocol.cards import CardProtocolError, Deck, KeyRing, Reslot, keys_from_body, keys_to_body
from protocol.crypto.commit import commitment
from protocol.crypto.framing import frame
from protocol.crypto.padding import PAD_BLOCK
from protocol.crypto.private import AgreementKey, SealError, delivery_context, delivery_key, open_sealed, seal
from protocol.crypto.randomness import share_commitment
from protocol.crypto.signing import SigningKey
from protocol.envelope import GENESIS_GAME, ZERO_HASH, Envelope, Header, cheap_rejection, parse, peek
from protocol.envelope import seal as seal_envelope
from protocol.errors import Code, Misconduct, ProtocolError
from protocol.escrow import make_escrow, share_digest
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
from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, NOTICE_TYPES, relays_problem
from protocol.table import SEALED_TAG, Expect, OwnAction, SeatInfo, Table, check_seat_cards

#: How far ahead of the head an entry may be and still be kept for later.
MAX_AHEAD = 4096
#: Entries kept while the genesis is not known yet, by count and by their total size: they are
#: unauthenticated (no key is known to check them with), so anyone may send them.  An honest
#: peer that joins late reads a whole retained log, the genesis maybe among the last; the
#: longest honest logs seen are well under a tenth of this.  Beyond it, entries are refused
#: (``NO_GENESIS``) and read again from the relay once the genesis is in.
MAX_EARLY = 4096
MAX_EARLY_BYTES = 8 * 1024 * 1024
#: Entries one seat may have waiting for one seq on different chains (none is an equivocation
#: until two share a ``prev``): enough for a fork in flight, too few to fill memory.
MAX_FORKS = 4
#: Entries ahead of the head refused for their signature, kept (the first per seq) to see once the table
#: gets there whether a seat signed them in another seat's name.
MAX_SUSPECTS = 64
DEFAULT_TIMEOUT_MS = 120_000
#: The tag of what a seat signs for the relay layer besides entries (``relay.transport.wants``).  Signed as
#: ``frame(REQUEST_TAG, body)``: a framed message starts with its length, an entry's signed bytes
#: with the entry tag, so no request can ever be taken for an entry or the other way round.
REQUEST_TAG = b"sealed-table relay request v1\x00"


class PeerSession:
    """One seat's (``seat=None``: an observer's) replica of a room, with its private side."""

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
        self._key = signing_key
        self._secret = secret or b""
        self._box = agreement_key(secret) if secret else None
        self._creator = creator
        self.auto_vote = auto_vote
        self.table: Table | None = None
        self._knowledge = Knowledge(seat if seat is not None else -1)
        #: Slots dealt to me that I have not opened yet (see :attr:`knowledge` and :meth:`open_step`).
        self._to_open: list[int] = []
        self.ring = KeyRing(seat if seat is not None else -1)
        self.salts: dict[int, tuple[bytes, Any]] = {}
        self.unopened: set[int] = set()
        self._early: dict[bytes, Envelope] = {}
        self._early_bytes = 0
        self._buffer: dict[int, dict[bytes, Envelope]] = {}
        self._votes: dict[tuple[int, int], dict[int, Envelope]] = {}
        self._leaves: dict[int, Envelope] = {}
        self._voted: set[tuple[int, int]] = set()
        self._acked: set[int] = set()
        self._overdue: set[int] = set()
        self._announced: set[int] = set()
        self._out: list[Outbound] = []
        self._notices: list[Outbound] = []
        self._events: list[Event] = []
        self._verdict: Verdict | None = None
        self._left = False
        self._now = 0
        self._since = 0
        self._held: dict[int, int] = {}
        #: Whether every entry this seat writes by itself (keys, passes, reveals...) is only queued,
        #: like ``submit(settle=False)``, and applied at :meth:`settle`.  A transport sets it: the
        #: other peers get an entry before its author spends time applying it and moving on.
        self.publish_first = False
        self._unsettled: int | None = None  # seq of an entry of mine queued and not applied yet
        self._publish_only: bool | None = None  # submit's choice for its own write (None: publish_first)
        self._own: OwnAction | None = None  # my action's effect, worked out before I signed it
        #: The signed entries that prove the cheat that stopped this session (saved with the log).
        self.evidence: list[bytes] = []
        #: Digests of entries on a dead branch: a two-seat claim voided by its target's own entry, and
        #: what was chained to it.  Entries chained to one of them are dropped, never judged.
        self._dead: set[bytes] = set()
        #: The clock stands still while this peer cannot reach the relay (see :meth:`connection_lost`).
        self._offline = False
        self._caught_up: set[int] = set()  # seqs for which the wait restarted because this replica was behind
        self._forgery_checked: set[int] = set()  # seqs whose fakes were tried against every seat's key once
        self._suspects: dict[int, bytes] = {}  # seq -> the first entry ahead refused for its signature

    # -- making sessions -------------------------------------------------------------
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
        every seat knows where the game may move; see relay/transport/failover.py).  None given: the genesis
        has no ``relays`` field at all, exactly as before there were fallbacks.

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
        session._out.append(Outbound(0, env.data, "log/0"))
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
        if self._key is None:
            return None
        return self._key.sign(frame(REQUEST_TAG, bytes(raw)))

    # -- reading ---------------------------------------------------------------------
    @property
    def knowledge(self) -> Knowledge:
        """What this seat knows beyond the public state: its cards and its sealed values.

        Every card dealt to this seat is opened before this is handed out.  Opening a card
        is a group multiplication (about a tenth of a millisecond), so a deal of several is
        left for :meth:`open_step` when a driver is idle: an entry arriving meanwhile is not
        kept waiting behind this seat's own hand.
        """
        self._open_all()
        return self._knowledge

    def open_step(self) -> bool:
        """Open one card dealt to this seat, if one waits; whether more wait (idle work for a driver)."""
        if self._to_open:
            self._open_next()
        return bool(self._to_open)

    def _open_all(self) -> None:
        while self._to_open:
            self._open_next()

    def _open_next(self) -> None:
        slot = self._to_open.pop(0)
        assert self.table is not None
        try:
            self._knowledge.cards[slot] = self.table.ledger.open_own(slot, self.ring)
        except CardProtocolError:
            self.unopened.add(slot)  # a false key: the audit names who published it

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
        if self._verdict is not None or self._left or table is None or self.seat is None:
            return False
        claim = table.claim
        return claim is not None and claim[3] and claim[0] == self.seat and table.finished

    @property
    def done(self) -> bool:
        """Whether a driver may stop: the session is finished and not :attr:`listening`."""
        return self.finished and not self.listening

    @property
    def verdict(self) -> Verdict | None:
        if self._verdict is not None:
            return self._verdict
        return self.table.verdict if self.table is not None else None

    @property
    def waiting_for(self) -> tuple[int, int, int] | None:
        """(seat, seq, since_ms): who owes the next entry, and since when."""
        exp = self.table.expected() if self.table and not self.finished else None
        return (exp.writer, exp.seq, self._since) if exp else None

    @property
    def signing_key(self) -> SigningKey | None:
        """The key the caller gave this seat (it signs every entry; a rematch answer is signed with it too)."""
        return self._key

    @property
    def offline(self) -> bool:
        """Whether the driver said the relay is lost: no seat is judged while it is (see :meth:`connection_lost`)."""
        return self._offline

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
        """The saved-game file of the log so far (``python -m protocol verify`` audits it)."""
        return dump(self.room, self.log_entries(), self.evidence)

    def take_outgoing(self) -> list[Outbound]:
        """Log entries this seat wrote, to publish retained (QoS 1) at ``log/{seq}``."""
        out, self._out = self._out, []
        return out

    def take_notices(self) -> list[Outbound]:
        """Votes and leave notices, to publish retained (QoS 1) at their ``topic``."""
        out, self._notices = self._notices, []
        return out

    def take_events(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    # -- input -----------------------------------------------------------------------
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
            self._halt(exc.seat, self._seq_hint, exc.reason, *((evidence,) if evidence else ()))
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
            salt = SeededStream(self._secret, f"salt/{exp.seq}/{secret}").token(32)
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
        self._own = OwnAction(exp.seq, self.seat, publication.action, probe, digest, shows)
        self._publish_only = not settle
        try:
            self._write(exp, "action", body)
        finally:
            self._publish_only = None
        if settle:
            self._pump()

    @property
    def unsettled(self) -> bool:
        """Whether an entry of mine is queued (``submit(..., settle=False)``, ``publish_first``) and not applied."""
        return self._unsettled is not None and self.table is not None and self.table.head < self._unsettled

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
        if self.finished or self._offline:
            return  # nobody is judged on a clock that ran while cut off
        exp = self.table.expected()
        if exp is not None and exp.seq not in self._caught_up and self._behind():
            # Behind: the entry missing here reached someone.  The wait starts again, once per seq (so an
            # entry far ahead, which anyone can sign for itself, cannot hold every vote off for ever).
            self._caught_up.add(exp.seq)
            self._since = max(self._since, self._now)
            return
        if exp is not None and exp.writer != self.seat and self._now - self._since >= self.table.timeout_ms:
            if exp.seq not in self._overdue:
                self._overdue.add(exp.seq)
                self._events.append(Overdue(exp.writer, exp.seq, self._since))
            if self.auto_vote:
                self._vote()

    def connection_lost(self, now_ms: int) -> list[Event]:
        """The driver lost the relay: no seat is judged overdue until :meth:`connected`.

        While this peer cannot hear the others, their silence says nothing (an outage
        chooses nobody's forfeit).
        """
        self._now = max(self._now, now_ms)
        self._offline = True
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
        self._offline = False
        self._since = max(self._since, self._now + max(0, grace_ms))
        return self.take_events()

    def _behind(self) -> bool:
        """Whether this replica knows the chain went on past the entry it waits for (it is catching up).

        An entry buffered beyond the next seq, or another seat's vote about a later seq: the
        entry missing here reached someone; voting its author gone would judge on a gap.
        """
        table = self.table
        assert table is not None
        nxt = table.head + 1
        return any(seq > nxt for seq in self._buffer) or any(seq > nxt for seq, _ in self._votes)

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
        if table is None or self.seat is None or self.finished or self._left:
            return
        exp = table.expected()
        if exp is None or exp.writer == self.seat or (exp.seq, exp.writer) in self._voted:
            return
        self._voted.add((exp.seq, exp.writer))
        env = self._sign(exp.seq, "vote", {"target": exp.writer})
        self._notices.append(Outbound(exp.seq, env.data, f"notice/{self.seat}/{exp.seq}/vote"))
        self._take_notice(env)
        self._pump()

    def leave(self) -> list[Event]:
        """Leave the game: a signed notice with what play needs without this seat; the session stops writing.

        The notice publishes this seat's keys of the cards still to be dealt and its sealed
        values; its hand stays face down.  Its other end-of-game secrets (card secrets, the
        delivery key of each box it *sent*) go into the notice escrowed with the seats that
        stay (:mod:`protocol.escrow`): they open at the end of the game, for the audit.
        Opened now, they would show a card a Hacker Attack took from this seat, in the
        attacker's hand (issue 11).  Its agreement key, which opens the boxes it received,
        is never published.  The notice is bound to this game (``game``).
        """
        table = self.table
        if table is None or self.seat is None or self.finished or self._left:
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
        self._open_all()
        dealing = [slot for slot, seat in table.batch if seat == self.seat]
        secrets = {
            "cards": table.ledger.departure_body(self.ring, dealing),
            "sealed": {k: list(v) for k, v in self.salts.items()},
            "deliveries": {},
            "escrow": self._escrow_shares(),
        }
        late = canonical_encode({"cards": table.ledger.secrets_body(self.ring), "deliveries": self._delivery_keys()})
        holders = [s for s in table.active() if s != self.seat]
        randomness = SeededStream(self._secret, f"escrow/{seq}").token(32)
        box, shares = make_escrow(table.game_id, seat, holders, late, randomness)
        escrow = {
            "box": box,
            "shares": {
                holder: {
                    "box": self._seal_to(holder, seq, share),
                    "digest": share_digest(table.game_id, seat, holder, share),
                }
                for holder, share in shares.items()
            },
        }
        env = self._sign(seq, "leave", {"secrets": secrets, "escrow": escrow})
        self._notices.append(Outbound(env.seq, env.data, f"notice/{self.seat}/{env.seq}/leave"))
        self._left = True
        self._take_notice(env)

    # -- receiving -------------------------------------------------------------------
    _seq_hint = 0

    def _receive(self, data: bytes) -> None:  # noqa: C901 (tests/test_complexity.py)
        # Who may have written it, from its wire bytes alone: the one key of the seat it names is
        # checked before anything of its contents is decoded (garbage costs one signature check).
        head = peek(data)
        if head is None:
            raise cheap_rejection(data)  # every valid entry is laid out so: nothing more to look at
        if head.room != self.room:
            raise ProtocolError(Code.WRONG_ROOM, f"entry for room {head.room[:32]!r}, this is {self.room!r}")
        if self.finished and not self._claim_open(head):
            return
        verified = self._screen(head, data)
        if verified is None:
            return  # the very entry already applied
        env = parse(data)
        if not isinstance(verified, bool):
            self._seq_hint = env.seq  # it parses: a seat signed it in another seat's name
            raise Misconduct(verified, f"forged signature: signed entry {env.seq} in the name of seat {env.seat}")
        if self.table is None:
            if env.type == "genesis":
                self._genesis(env)
            elif env.data in self._early:
                return
            elif len(self._early) >= MAX_EARLY or self._early_bytes + len(env.data) > MAX_EARLY_BYTES:
                raise ProtocolError(Code.NO_GENESIS, "too many entries before the genesis")
            else:
                self._early[env.data] = env
                self._early_bytes += len(env.data)
            return
        if env.type == "genesis":
            if env.data != self.table.log[0].data:
                raise ProtocolError(Code.WRONG_GAME, "the genesis of another game in this room")
            return
        self._seq_hint = env.seq
        self._authenticate(env, verified)
        if env.is_notice:
            self._take_notice(env)
        else:
            self._take_entry(env)
        self._drain()
        self._pump()

    def _genesis(self, env: Envelope) -> None:
        problem = timeout_problem(env.body["timeout_ms"], self.dev_timeout_ms)
        if problem is not None:
            raise ProtocolError(Code.GENESIS, f"this game's {problem}")
        seats = env.body["seats"]
        if self._creator is not None and seats[0]["sign"] != self._creator:
            raise ProtocolError(Code.GENESIS, "the genesis is not by the expected creator")
        if self.seat is not None:
            assert self._key is not None and self._box is not None
            mine = seats[self.seat] if self.seat < len(seats) else None
            if mine is None or mine["sign"] != self._key.public_bytes() or mine["box"] != self._box.public_bytes():
                raise ProtocolError(Code.GENESIS, f"the genesis does not give seat {self.seat} this peer's keys")
        self.table = Table(env, hooks=self)
        self._since = self._now
        self._events.append(Started(self.table.game, self.table.n, self.seat))
        early, self._early, self._early_bytes = self._early, {}, 0
        for other in sorted(early.values(), key=lambda e: e.seq):
            try:
                self._authenticate(other)
                if other.is_notice:
                    self._take_notice(other)
                else:
                    self._take_entry(other)
            except ProtocolError as exc:
                self._events.append(Rejected(str(exc.code), exc.reason, other.seq))
        self._drain()
        self._pump()

    def _screen(self, head: Header, data: bytes) -> bool | int | None:  # noqa: C901 (tests/test_complexity.py)
        """What the wire bytes alone decide, before any decoding: None for an exact copy of an applied
        entry, True once the one seat that may have written it (the seat it names) signed it, False while
        no key is known (before the genesis), a seat's number if that seat forged it; raises otherwise."""
        table = self.table
        if table is None:
            if head.type == "genesis" and self._creator is not None and not head.signed_by(self._creator):
                raise ProtocolError(Code.GENESIS, "the genesis is not signed by the expected creator")
            return False
        if head.type == "genesis":
            if data != table.log[0].data:
                raise ProtocolError(Code.WRONG_GAME, "the genesis of another game in this room")
            return None
        if head.game != table.game_id:
            raise ProtocolError(Code.WRONG_GAME, f"entry {head.seq} was signed for another game in this room")
        if head.seat >= table.n:
            raise ProtocolError(Code.UNKNOWN_SEAT, f"seat {head.seat} is not at this table")
        if not head.is_notice and head.seq <= table.head and table.log[head.seq].data == data:
            return None
        if head.signed_by(table.seats[head.seat].sign):
            return True
        forger = self._forger(head)
        if forger is not None:
            return forger
        if head.seq > table.head + 1 and head.seq not in self._suspects and len(self._suspects) < MAX_SUSPECTS:
            self._suspects[head.seq] = data  # judged once the table gets there (see _judge_suspect)
        raise ProtocolError(Code.BAD_SIGNATURE, f"entry {head.seq} is not signed by seat {head.seat}")

    def _judge_suspect(self, seq: int) -> bool:
        """An entry refused for its signature while it was ahead of us, now that it is the next one:
        if a seat signed it in another seat's name, that seat is named (True)."""
        data = self._suspects.pop(seq)
        head = peek(data)
        forger = self._forger(head) if head is not None else None
        if forger is None or head is None:
            return False
        try:
            parse(data)
        except ProtocolError:
            return False  # signed, but no entry: refused at its arrival already
        self._halt(forger, seq, f"forged signature: signed entry {seq} in the name of seat {head.seat}", data)
        return True

    def _forger(self, item: Header | Envelope) -> int | None:
        """The seat that signed ``item`` in another seat's name, looked for only where it would matter.

        An entry signed by another seat than the one it names is refused by the one check of the seat
        it names; a seat that did that is named only when the entry sits where an entry of this game
        does (chained to our head, or where an applied entry is; one that came early is kept and looked
        at when the table gets there) and only once per seq.  So a stranger's flood of well-formed fakes
        costs one signature check each, and at most ``seats - 1`` more per entry of the whole game.
        """
        table = self.table
        assert table is not None
        if item.type in NOTICE_TYPES or not 0 < item.seq <= table.head + 1:
            return None
        if item.prev != (table.head_digest if item.seq == table.head + 1 else table.log[item.seq].prev):
            return None  # not chained where an entry of this game at that seq is
        if item.seq in self._forgery_checked:
            return None
        self._forgery_checked.add(item.seq)
        return next(
            (seat for seat, info in enumerate(table.seats) if seat != item.seat and item.signed_by(info.sign)), None
        )

    def _authenticate(self, env: Envelope, verified: bool = False) -> None:
        """Game, seat, and (unless :meth:`_screen` did it already) the signature of the seat it names."""
        table = self.table
        assert table is not None
        if env.game != table.game_id:
            raise ProtocolError(Code.WRONG_GAME, f"entry {env.seq} was signed for another game in this room")
        if env.seat >= table.n:
            raise ProtocolError(Code.UNKNOWN_SEAT, f"seat {env.seat} is not at this table")
        if verified or env.signed_by(table.seats[env.seat].sign):
            return
        forger = self._forger(env)
        if forger is not None:
            self._seq_hint = env.seq
            raise Misconduct(forger, f"forged signature: signed entry {env.seq} in the name of seat {env.seat}")
        raise ProtocolError(Code.BAD_SIGNATURE, f"entry {env.seq} is not signed by seat {env.seat}")

    def _take_notice(self, env: Envelope) -> None:
        head = self.table.head if self.table is not None else 0
        if env.type == "vote":
            if head < env.seq <= head + MAX_AHEAD:
                self._votes.setdefault((env.seq, env.body["target"]), {})[env.seat] = env
            elif 0 < env.seq <= head and self.table is not None:
                # A vote against an entry I already applied: its voter holds that entry back until a
                # remaining seat builds on it; tell it I did (the votes against it cannot complete).
                applied = self.table.log[env.seq]
                target = env.body["target"]
                against = target == applied.seat and target not in (env.seat, self.seat)
                if against and applied.type != "gone" and applied.prev == env.prev:
                    self._ack(applied)
        else:
            self._leaves.setdefault(env.seat, env)

    def _take_entry(self, env: Envelope) -> None:
        table = self.table
        assert table is not None
        if env.prev in self._dead:
            self._dead.add(env.digest)  # built on a voided claim: that branch is over
            self._events.append(Rejected(str(Code.STALE), f"entry {env.seq} follows a voided claim", env.seq))
            return
        if env.seq <= table.head:
            self._conflict(table.log[env.seq], env)
            return
        if env.seq > table.head + MAX_AHEAD:
            raise ProtocolError(Code.SEQUENCE, f"entry {env.seq} is too far ahead of {table.head}")
        bucket = self._buffer.setdefault(env.seq, {})
        if env.data in bucket:
            return
        mine = 0
        for other in bucket.values():
            if other.seat == env.seat:
                if other.prev == env.prev:
                    self._equivocation(other, env)
                    return
                mine += 1
        if mine >= MAX_FORKS:
            raise ProtocolError(Code.SEQUENCE, f"seat {env.seat} sent too many entries {env.seq} on other chains")
        bucket[env.data] = env  # another seat's, or chained to another entry: the chain decides (_drain)

    def _conflict(self, applied: Envelope, env: Envelope) -> None:
        """An entry for a seq already settled: a duplicate, equivocation, or a stranger's."""
        if applied.data == env.data:
            return
        table = self.table
        assert table is not None
        claim = table.claim
        voids = claim is not None and claim[1:3] == (env.seat, env.seq) and applied.type == "gone"
        if voids and env.prev == applied.prev:
            self._void_claim(applied, env)  # the two-seat rule: the claimed seat's own entry voids the claim
            return
        if applied.type != "gone" and env.prev == applied.prev and self._claim_against(env, applied.seat):
            self._refuse_claim(env)
            return
        if applied.seat == env.seat:
            if env.prev != applied.prev:
                # Not an equivocation: two statements are only in conflict on the same chain.
                raise ProtocolError(Code.STALE, f"seat {env.seat}'s entry {env.seq} chains to another entry")
            self._equivocation(applied, env)
            return
        late = applied.type != "gone" and env.prev == applied.prev and env.body.get("target") == applied.seat
        if self.seat is None and env.type == "gone" and late:
            self._rewind(env)
            return
        if env.type == "gone" and env.body["target"] == applied.seat == self.seat and env.prev == applied.prev:
            reason = "this seat was declared gone by every other seat (it answered too late)"
            self._verdict = Verdict(False, self.seat, env.seq, reason, DISCONNECTED)
            self._events.append(Gone(self.seat, env.seq, env.body["reason"]))
            return
        if applied.type == "gone" and applied.body["target"] == env.seat:
            raise ProtocolError(Code.STALE, f"seat {env.seat}'s entry {env.seq} came after it was declared gone")
        self._seq_hint = env.seq
        raise Misconduct(env.seat, f"wrote entry {env.seq} out of turn (seat {applied.seat} wrote it)")

    # -- the two-seat rule ---------------------------------------------------------------
    def _claim_against(self, env: Envelope, target: int) -> bool:
        """Whether ``env`` is a two-seat claim: a silent-``gone`` of ``target`` backed by its writer's vote alone."""
        table = self.table
        if env.type != "gone" or env.body.get("target") != target or env.body.get("reason") != "silent":
            return False
        if table is None or len(table.active()) != 2 or len(env.body.get("proofs", ())) != 1:
            return False
        try:
            return parse(env.body["proofs"][0]).seat == env.seat
        except ProtocolError:
            return False

    def _claim_open(self, env: Envelope | Header) -> bool:
        """A game ended by a claim still takes the claimed seat's own entry for the claim's seq."""
        table = self.table
        if table is None or self._verdict is not None or table.claim is None or not table.claim[3]:
            return False
        return (env.seat, env.seq) == table.claim[1:3] and not env.is_notice

    def _refuse_claim(self, claim: Envelope) -> None:
        """A claim against a seat whose own entry for that seq is here (or, at the target, will be): void."""
        target = claim.body["target"]
        self._dead.add(claim.digest)
        for seq in sorted(self._buffer):
            bucket = self._buffer[seq]
            for data, e in list(bucket.items()):
                if e.prev in self._dead:
                    self._dead.add(e.digest)
                    del bucket[data]
            if not bucket:
                del self._buffer[seq]
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
        self._dead.update(e.digest for e in old.log[seq:])
        table = Table(old.log[0], hooks=self)
        for e in old.log[1:seq]:
            table.apply(e)
        table.take_events()
        self.table = table
        self._buffer = {s: b for s, b in self._buffer.items() if s > seq}
        self._buffer[seq] = {entry.data: entry}
        self._voted = {(s, t) for s, t in self._voted if s < seq}
        self._overdue = {s for s in self._overdue if s < seq}
        self._announced = {s for s in self._announced if s < seq}
        self._own, self._unsettled = None, None
        self._since = self._now
        self._refuse_claim(claim)

    def _rewind(self, gone: Envelope) -> None:
        """An observer took a late entry that every other seat had voted against: replay without it.

        An observer casts no vote, so it cannot hold a late entry back as a voter
        does; when the ``gone`` record that replaces it arrives, the replica is
        rebuilt from the log up to that seq and the record is applied in its place
        (the table checks its votes; an invalid one names its writer as usual).
        """
        old = self.table
        assert old is not None
        table = Table(old.log[0], hooks=self)
        for entry in old.log[1 : gone.seq]:
            table.apply(entry)
        table.take_events()
        self.table = table
        self._buffer = {seq: bucket for seq, bucket in self._buffer.items() if seq > gone.seq}
        self._buffer[gone.seq] = {gone.data: gone}
        reason = f"seat {gone.body['target']}'s entry {gone.seq} came after every other seat voted it gone"
        self._events.append(Rejected(str(Code.STALE), reason, gone.seq))

    def _equivocation(self, first: Envelope, second: Envelope) -> None:
        self._events.append(Equivocation(first.seat, first.seq, first.data, second.data))
        reason = f"equivocation: two different signed entries for seq {first.seq}"
        self._halt(first.seat, first.seq, reason, first.data, second.data)

    def _drain(self) -> None:  # noqa: C901 (tests/test_complexity.py)
        table = self.table
        assert table is not None
        for old in [s for s in self._suspects if s <= table.head]:
            del self._suspects[old]
        while not self.finished:
            seq = table.head + 1
            if seq in self._suspects and self._judge_suspect(seq):
                return
            bucket = self._buffer.get(seq)
            exp = table.expected()
            if not bucket or exp is None:
                return
            if exp.writer == self.seat and not self._left:
                refused = [e for e in bucket.values() if self._claim_against(e, self.seat)]
                for e in refused:  # a claim against me while I am here: my own entry for this seq will void it
                    del bucket[e.data]
                    self._refuse_claim(e)
                if refused:
                    continue
            candidates = sorted(
                bucket.values(),
                key=lambda e: (e.prev != table.head_digest, e.type == "gone", e.seat != exp.writer, e.data),
            )
            held_back: list[Envelope] = []
            if (seq, exp.writer) in self._voted and len(table.active()) == 2:
                self._voted.discard((seq, exp.writer))  # two seats: my vote alone never outweighs its entry
            if (seq, exp.writer) in self._voted:
                # My vote stands until every vote is in (then the designated seat writes `gone`), unless
                # another remaining seat built on the late entry: that seat took it without voting, so
                # the votes can never complete; the late entry stands and my vote is dropped.
                late = [e for e in candidates if e.seat == exp.writer and e.type != "gone"]
                if late and any(self._built_on(e) for e in late):
                    self._voted.discard((seq, exp.writer))
                else:
                    held_back = late
                    candidates = [e for e in candidates if e not in late]
                    if not candidates:
                        return
            chosen = candidates[0]
            if chosen.prev != table.head_digest:
                # It may chain to another version of the previous entry (an equivocation still in
                # flight): hold it for one timeout before calling it a broken chain.
                held = self._held.setdefault(seq, self._now)
                if self._now - held < table.timeout_ms:
                    return
            writer_entries = [e for e in candidates if e.seat == exp.writer]
            if chosen.type == "gone" and not self._gone_ready(chosen, exp) and writer_entries:
                chosen = writer_entries[0]
            del self._buffer[seq]
            self._apply(chosen)
            for e in held_back:
                self._events.append(Rejected(str(Code.STALE), f"seat {e.seat} answered after the vote", seq))
            if chosen.type != "gone" and chosen.seat != self.seat:
                votes = self._votes.get((seq, chosen.seat), {}).values()
                if any(v.seat not in (self.seat, chosen.seat) and v.prev == chosen.prev for v in votes):
                    self._ack(chosen)  # another seat voted against this entry's author: it waits for a builder
            for other in candidates[1:]:
                if not self.finished:
                    try:
                        self._conflict(table.log[seq], other)
                    except ProtocolError as exc:
                        self._events.append(Rejected(str(exc.code), exc.reason, seq))
            self._since = self._now

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
            for (vote_seq, _), votes in self._votes.items():
                if vote_seq == seq and any(v.prev in tips and v.seat in others for v in votes.values()):
                    return True
            bucket = self._buffer.get(seq, {})
            if any(e.prev in tips and e.seat in others for e in bucket.values()):
                return True
            tips = {e.digest for e in bucket.values() if e.prev in tips}
            seq += 1
        return False

    def _ack(self, entry: Envelope) -> None:
        """Publish "I built on ``entry``": a vote chained to it that names this seat itself.

        A vote naming its own author can never be proof against anyone (a ``gone``
        needs the other seats' votes), so it only tells a seat whose vote holds
        ``entry`` back that this seat took the entry without voting: the votes can
        never complete, and the voter may drop its vote (see :meth:`vote_gone`).
        """
        if self.seat is None or self._key is None or self._left or self.finished or entry.seq in self._acked:
            return
        self._acked.add(entry.seq)
        env = seal_envelope(
            self._key,
            self.room,
            entry.seq + 1,
            entry.digest,
            self.seat,
            "vote",
            {"target": self.seat},
            game=self.table.game_id,  # type: ignore[union-attr]  # acknowledging an entry: the table exists
        )
        self._notices.append(Outbound(env.seq, env.data, f"notice/{self.seat}/{env.seq}/ack"))

    def _entry_waiting(self, exp: Expect) -> bool:
        """Whether an entry for ``exp.seq`` waits in the buffer (a late entry held against my vote does not)."""
        bucket = self._buffer.get(exp.seq)
        if not bucket:
            return False
        if (exp.seq, exp.writer) not in self._voted or len(self.table.active()) == 2:  # type: ignore[union-attr]  # an expected entry: the table exists
            return True
        return any(e.seat != exp.writer or e.type == "gone" for e in bucket.values())

    def _gone_ready(self, env: Envelope, exp: Expect) -> bool:
        return bool(env.body["target"] == exp.writer)

    def _apply(self, env: Envelope) -> None:
        table = self.table
        assert table is not None
        own = self._own
        if own is not None and own.seq <= env.seq:
            self._own = None  # used once, by its own entry (or made stale by another one)
        try:
            table.apply(env, own if own is not None and own.seq == env.seq else None)
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

    # -- writing ---------------------------------------------------------------------
    def _pump(self) -> None:
        """Write every entry that is this seat's to write and needs no decision."""
        table = self.table
        while table is not None and not self.finished and self.seat is not None and not self._left:
            exp = table.expected()
            if exp is None:
                return
            if exp.writer == self.seat:
                if exp.type == "action":
                    if exp.seq not in self._announced:
                        self._announced.add(exp.seq)
                        self._events.append(YourTurn(exp.seq, table.state.pending(), tuple(self.legal_actions())))
                    return
                if exp.seq in self._buffer:
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
        self._out.append(Outbound(env.seq, env.data, f"log/{env.seq}"))
        self._take_entry(env)
        if self.publish_first if self._publish_only is None else self._publish_only:
            self._unsettled = env.seq  # the pump stops here: the entry waits in the buffer for settle()
        else:
            self._drain()

    def _sign(self, seq: int, type_: str, body: dict[str, Any]) -> Envelope:
        assert self._key is not None and self.table is not None and self.seat is not None
        return seal_envelope(
            self._key, self.room, seq, self.table.head_digest, self.seat, type_, body, game=self.table.game_id
        )

    def _auto_body(self, exp: Expect) -> dict[str, Any]:  # noqa: C901 (tests/test_complexity.py)
        table = self.table
        assert table is not None and self.seat is not None
        state_hash = table.state_hash()
        r = table.round
        if exp.type in ("seed-commit", "chance-commit"):
            share = self._share(r.label)  # type: ignore[union-attr]  # a commit is owed only while its round is open
            return {"c": share_commitment(self.room, self.seat, r.label, share), "hash": state_hash}  # type: ignore[union-attr]  # a commit is owed only while its round is open
        if exp.type in ("seed-reveal", "chance-reveal"):
            return {"share": self._share(r.label), "hash": state_hash}  # type: ignore[union-attr]  # a reveal is owed only while its round is open
        if exp.type in ("shuffle", "lock"):
            deck = table.ledger.rounds[-1]
            assert isinstance(deck, Deck)  # passes are owed for a shuffled deck, never for a re-slotting
            secrets = self.ring.rounds[deck.round]
            made = deck.make_shuffle_pass(secrets) if exp.type == "shuffle" else deck.make_lock_pass(secrets)
            return {"passed": made, "hash": state_hash}
        if exp.type == "keys":
            keys = {}
            for slot, seat in table.batch:
                deck = table.ledger.deck_for(slot)
                if seat != self.seat and self.seat not in deck.published_keys(slot):
                    keys[slot] = deck.key_for(slot, self.ring.rounds[deck.round])
            return {"keys": keys, "hash": state_hash}
        if exp.type == "reveal":
            p = table.state.pending()
            assert isinstance(p, RevealOwed)
            salt, value = self.salts[p.secret]
            probe = table.state.clone()
            probe.push(self.seat, ("reveal", p.secret, value))
            return {"secret": p.secret, "value": value, "salt": salt, "hash": probe.hash()}
        if exp.type == "deliver":
            p = table.state.pending()
            assert isinstance(p, PrivateDelivery)
            passed = None
            keys = table.ledger.hand_keys_for(p.slots, self.ring)
            if p.fresh:  # SL-10: the hand moves to fresh slots first; the keys handed over are theirs
                reslot = table.ledger.preview_reslot(self.seat, p.slots, p.fresh)
                held = [keys[slot] for slot in p.slots]
                secrets = self.ring.new_reslot(reslot, held, SeededStream(self._secret, f"reslot/{exp.seq}"))
                passed = table.ledger.make_reslot_pass(reslot, secrets)
                keys = {slot: secrets.keys[m] for m, slot in enumerate(p.fresh)}
            plain = canonical_encode(keys_to_body(keys))
            box = self._seal_to(p.target, exp.seq, plain)
            probe = table.state.clone()
            probe.push(-1, ("delivered",))
            return {"box": box, "passed": passed, "hash": probe.hash()}
        if exp.type == "secrets":
            return {"secrets": self._secrets_body(), "hash": state_hash}
        raise AssertionError(f"no auto-entry of type {exp.type}")  # pragma: no cover

    def _gone_body(self, exp: Expect) -> dict[str, Any] | None:
        table = self.table
        assert table is not None
        probe = table.state.clone()
        if table.result is None and not probe.is_over() and not table.departure_waits():
            probe.forfeit(exp.writer)
        leave = self._leaves.get(exp.writer)
        if leave is not None and exp.seq >= leave.seq:  # not before the entries the leaver wrote before it
            return {"target": exp.writer, "reason": "left", "proofs": [leave.data], "hash": probe.hash()}
        votes = self._votes.get((exp.seq, exp.writer), {})
        valid = {s: v for s, v in votes.items() if v.prev == table.head_digest}
        if all(s in valid for s in table.active() if s != exp.writer):
            proofs = [valid[s].data for s in sorted(valid) if s in table.active() and s != exp.writer]
            return {"target": exp.writer, "reason": "silent", "proofs": proofs, "hash": probe.hash()}
        return None

    def _secrets_body(self) -> dict[str, Any]:
        assert self.table is not None and self._box is not None
        self._open_all()  # once my keys are public, no slot of mine opens by "every key but mine"
        return {
            "cards": self.table.ledger.secrets_body(self.ring),
            "sealed": {k: list(v) for k, v in self.salts.items()},
            "deliveries": self._delivery_keys(),
            "escrow": self._escrow_shares(),
        }

    def _escrow_shares(self) -> dict[int, bytes]:
        """My share of each leaver's escrow (published at the end, or when I leave in turn)."""
        table = self.table
        assert table is not None and self._box is not None and self.seat is not None
        out = {}
        for leaver, (notice_seq, escrow) in table.escrows.items():
            entry = escrow["shares"].get(self.seat)
            if entry is None:
                continue
            try:
                context = delivery_context(self.room, leaver, self.seat, notice_seq)
                share = open_sealed(self._box, table.seats[leaver].box, context, entry["box"])
            except SealError:
                continue  # a box that does not open: the escrow stays closed (the leaver's doing)
            if share_digest(table.game_id, leaver, self.seat, share) == entry["digest"]:
                out[leaver] = share
        return out

    def _delivery_keys(self) -> dict[int, bytes]:
        """The delivery key of each box this seat sent: they open what it sent, and nothing it received."""
        assert self.table is not None and self._box is not None and self.seat is not None
        return {
            seq: delivery_key(self._box, delivery_context(self.room, source, target, seq)).private_bytes()
            for seq, source, target, _box in self.table.deliveries
            if source == self.seat
        }

    def _share(self, label: str) -> bytes:
        return SeededStream(self._secret, f"share/{label}").token(32)

    def _seal_to(self, target: int, seq: int, plain: bytes, size: int | None = None) -> bytes:
        assert self.table is not None and self._box is not None and self.seat is not None
        context = delivery_context(self.room, self.seat, target, seq)
        # Synthetic nonce: a function of the secret, the context and the plaintext, so a restarted
        # peer that seals something else at the same seq can never reuse a nonce under one key.
        digest = hashlib.sha256(b"sealed-table/nonce\x00" + self._secret + context + plain).digest()
        try:
            return seal(self._box, self.table.seats[target].box, context, plain, lambda n: digest[:n], size)
        except SealError as exc:  # the genesis refuses such keys; if one got in, it is the key holder's doing
            self._seq_hint = 0
            raise Misconduct(target, f"its agreement key cannot be sealed to ({exc})") from None

    def knowledge_with(self, sealed: Mapping[int, Any]) -> Knowledge:
        k = self.knowledge.copy()
        k.sealed.update(sealed)
        return k

    def _need_turn(self) -> Table:
        table = self.table
        if table is None or self.seat is None or self.finished or self._left:
            raise IllegalAction("this session cannot decide now")
        if self.unsettled:
            raise IllegalAction("the previous decision is not applied yet: call settle() first")
        exp = table.expected()
        if exp is None or exp.writer != self.seat or exp.type != "action":
            raise IllegalAction(f"it is not seat {self.seat}'s decision")
        return table

    # -- hooks the table calls ---------------------------------------------------------
    def round_opened(self, table: Table, deck: Any, attempt: int) -> None:
        if self.seat is not None and self.seat in deck.participants:
            self.ring.new_round(deck, SeededStream(self._secret, f"deck/{attempt}"))

    def dealt(self, table: Table, slot: int, seat: int) -> None:
        if seat == self.seat:
            self._to_open.append(slot)

    def delivered(self, table: Table, env: Envelope, source: int, target: int) -> None:
        if source == self.seat:
            self._follow_my_hand(table, env.seq)
        if target != self.seat or self._box is None:
            return
        try:
            context = delivery_context(self.room, source, target, env.seq)
            plain = open_sealed(self._box, table.seats[source].box, context, env.body["box"])
            keys = keys_from_body(source, decode(plain))
            cards = table.ledger.check_delivery(source, keys)
        except (SealError, CardProtocolError, ValueError, TypeError):
            return  # a false delivery: the audit opens it with the sender's key and names the sender
        for slot, key in keys.items():
            self.ring.learn(slot, key)
        self._knowledge.cards.update(cards)

    def _follow_my_hand(self, table: Table, seq: int) -> None:
        """My shown hand moved to fresh slots (SL-10): I know where each of my cards went.

        A peer rebuilt from the log (its own delivery read back, not written now) derives the
        same secrets again from its per-game secret, as it does for its shuffle rounds.
        """
        reslot = table.ledger.rounds[-1]
        if not isinstance(reslot, Reslot):
            return
        secrets = self.ring.rounds.get(reslot.round)
        if secrets is None:
            held = [table.ledger.secret_key(slot, self.ring) for slot in reslot.old_slots]
            secrets = self.ring.new_reslot(reslot, held, SeededStream(self._secret, f"reslot/{seq}"))
        self._open_all()
        for m, slot in enumerate(reslot.slots):
            old = reslot.old_slots[secrets.permutation[m]]
            if old in self._knowledge.cards:
                self._knowledge.cards[slot] = self._knowledge.cards[old]

    def entry_applied(self, table: Table, env: Envelope) -> None:
        if env.type == "action":
            for slot in env.body["keys"]:
                card = table.ledger.deck_for(slot).shown(slot)
                if card is not None:
                    self._knowledge.cards[slot] = card
            if env.seat == self.seat and env.body["memo"] and not set(env.body["commits"]) <= set(self.salts):
                assert self._box is not None  # my own entry: I sit, so I hold an agreement key
                try:
                    plain = open_sealed(
                        self._box,
                        self._box.public_bytes(),
                        delivery_context(self.room, env.seat, env.seat, env.seq),
                        env.body["memo"],
                    )
                    for secret, (salt, value) in decode(plain).items():
                        self.salts[secret] = (salt, value)
                        self._knowledge.sealed[secret] = value
                except (SealError, ValueError, TypeError):
                    pass


def timeout_problem(timeout_ms: int, dev_timeout_ms: int | None = None) -> str | None:
    """None if a genesis may fix ``timeout_ms`` as its silence timeout, else why not.

    The host chooses within MIN_TIMEOUT_MS..MAX_TIMEOUT_MS (30 s .. 7 days): shorter, and
    honest seats' automatic votes eject whoever stops to think; a 1 ms genesis would let
    its host eject anyone.  Tests and demos run short games through ``dev_timeout_ms``:
    the one value outside the range this session was told, explicitly, to accept.  The
    program's own lobby and join never pass it, so a joiner of a real game refuses such
    a genesis (``Rejected`` with code ``genesis``) instead of accepting it silently.
    """
    if MIN_TIMEOUT_MS <= timeout_ms <= MAX_TIMEOUT_MS or timeout_ms == dev_timeout_ms:
        return None
    return f"timeout of {timeout_ms} ms is outside {MIN_TIMEOUT_MS // 1000} s .. {MAX_TIMEOUT_MS // 86_400_000} days"


def agreement_key(secret: bytes) -> AgreementKey:
    """The per-game X25519 key, derived from the seat's per-game secret."""
    return AgreementKey.generate(SeededStream(secret, "agreement-key").token(32))
