"""The replica: every peer's copy of one game, built from the log, entry by entry.

A :class:`Table` takes *verified* envelopes (signature checked, in sequence, by
the seat allowed to write them) and applies them: it drives the engine through
every pending kind, keeps the mental-poker ledger, the commitments and the joint
randomness, and knows at every point which single seat must write the next entry
and of which type (:meth:`expected`).  It holds public information only, so an
observer, every seat and the offline verifier run the same code; a seat's private
side plugs in through :class:`Hooks`.

A correctly signed entry that breaks the protocol or the rules raises
:class:`~protocol.errors.Misconduct`; the caller stops the game and names the seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.core import (
    TABLE,
    Action,
    Chance,
    ChanceKind,
    Deal,
    Decision,
    GameOver,
    GameState,
    PrivateDelivery,
    RevealOwed,
    derive_outcome,
    registry,
)
from protocol.audit import audit
from protocol.cards import CardLedger, CardProtocolError, SeatSecrets, keys_from_body
from protocol.claims import VoidedClaim, claim_problem, contest, voided, voided_problem
from protocol.crypto.commit import opens
from protocol.crypto.group import is_scalar
from protocol.crypto.private import AgreementKey, SealError
from protocol.crypto.randomness import joint_value, opens_share, outcome
from protocol.envelope import Envelope
from protocol.errors import Code, Misconduct, ProtocolError
from protocol.escrow import EscrowError, check_escrow_shape, open_escrow, share_digest
from protocol.events import Abandoned, Applied, Event, GameEnded, Gone, Moved, SetAside
from protocol.seats import SeatCardError, SeatInfo, check_seat_cards

#: Seat cards live in :mod:`protocol.seats`; named here too, where the replica's callers look for them.
__all__ = [
    "MAX_BATCH",
    "SEALED_TAG",
    "Expect",
    "Hooks",
    "OwnAction",
    "Round",
    "SeatCardError",
    "SeatInfo",
    "Table",
    "check_seat_cards",
]

SEALED_TAG = "sealed-value"
#: How many consecutive deals one round of ``keys`` entries may cover.
MAX_BATCH = 64


@dataclass(frozen=True, slots=True)
class Expect:
    """The next entry: its seq, the one seat that may write it, and its type."""

    seq: int
    writer: int
    type: str


@dataclass(frozen=True, slots=True)
class OwnAction:
    """What a seat worked out for its own action before signing it (see :meth:`Table.apply`)."""

    seq: int
    seat: int
    action: Action
    state: GameState  # after the action; handed over to the table, not used again by the author
    hash: bytes  # ``state.hash()``, as signed
    shows: dict[int, Any]  # slot -> the card it shows, for each slot not public before

    def matches(self, env: Envelope) -> bool:
        """Whether ``env`` is that very action (any difference: it is checked like anyone's)."""
        body = env.body
        return (
            env.seq == self.seq
            and env.seat == self.seat
            and body["action"] == self.action
            and body["hash"] == self.hash
            and set(body["keys"]) == set(self.shows)
        )


@dataclass
class Round:
    """A multi-entry step: each of ``writers`` writes one ``type`` entry, in order."""

    type: str
    writers: list[int]
    index: int = 0
    label: str = ""
    outcomes: int = 0
    commits: dict[int, bytes] = field(default_factory=dict)
    shares: dict[int, bytes] = field(default_factory=dict)

    @property
    def writer(self) -> int | None:
        return self.writers[self.index] if self.index < len(self.writers) else None


class Hooks(Protocol):
    """The private side of a seat, told about what concerns it (an observer has none)."""

    def round_opened(self, table: Table, deck: Any, attempt: int) -> None: ...
    def dealt(self, table: Table, slot: int, seat: int) -> None: ...
    def delivered(self, table: Table, env: Envelope, source: int, target: int) -> None: ...
    def entry_applied(self, table: Table, env: Envelope) -> None: ...


class Table:
    """One game's public replica.  ``apply(env)`` for each verified entry, in order."""

    def __init__(self, genesis: Envelope, hooks: Hooks | None = None) -> None:
        body = genesis.body
        try:
            self.spec = registry.get(body["game"])
        except KeyError:
            raise ProtocolError(Code.GENESIS, f"unknown game {body['game']!r}") from None
        self.seats = [SeatInfo(s["name"], s["sign"], s["box"]) for s in body["seats"]]
        self.n = len(self.seats)
        if not self.spec.min_players <= self.n <= self.spec.max_players:
            raise ProtocolError(Code.GENESIS, f"{self.spec.name} is not for {self.n} players")
        try:
            check_seat_cards(self.seats)
        except SeatCardError as exc:
            raise ProtocolError(Code.GENESIS, f"the genesis holds an invalid seat card: {exc}") from None
        if genesis.seat != 0 or not genesis.signed_by(self.seats[0].sign):
            raise ProtocolError(Code.GENESIS, "the genesis is not signed by seat 0's key it names")
        self.options = dict(body["options"])
        try:
            self.state: GameState = self.spec.new_state(self.n, self.options)
        except Exception as exc:  # the engine refuses these options: say why, do not crash
            raise ProtocolError(Code.GENESIS, f"the game refuses these options: {exc}") from None
        self.room = genesis.room
        #: What every other entry and notice of this game carries as ``game``: the genesis's hash.
        self.game_id: bytes = genesis.digest
        self.game = self.spec.name
        self.nonce: bytes = body["nonce"]
        self.timeout_ms: int = body["timeout_ms"]
        #: The relays the game may move to, in order (empty: a genesis from before fallback relays).
        self.relays: tuple[str, ...] = tuple(body.get("relays", ()))
        self.hooks = hooks
        #: (state object, in-place changes, its hash) as of the last state_hash().
        self._hashed: tuple[GameState, int, bytes] | None = None
        self._changes = 0
        self.log: list[Envelope] = [genesis]
        self.ledger = CardLedger(self.room, self.n)
        self.gone: dict[int, tuple[str, int]] = {}
        self.phase = "seed"
        self.round: Round | None = Round("seed-commit", list(range(self.n)), label="seed")
        self.seed: bytes | None = None
        self.public_index = 0
        self.chance_index = 0
        self.batch: list[tuple[int, int]] = []
        self.commits: dict[int, tuple[int, bytes, int]] = {}
        self.opened: dict[int, tuple[bytes, Any]] = {}
        self.deliveries: list[tuple[int, int, int, bytes]] = []
        self.published: dict[int, dict[str, Any]] = {}
        self.card_secrets: dict[int, dict[int, SeatSecrets]] = {}
        #: Seats that left: (seq of their leave notice, its escrow), until the escrow opens.
        self.escrows: dict[int, tuple[int, dict[str, Any]]] = {}
        #: Leavers whose escrow opened to false secrets: (seat, seq, reason), for the audit.
        self.escrow_faults: list[tuple[int, int, str]] = []
        self.rounds_opened = 0
        self.pushes: list[tuple[int, int, Action | None]] = []
        self.entries_of: dict[tuple[str, int, int], int] = {}
        self.disputes: list[tuple[int, int, int]] = []
        #: Slots set aside because their keys left with a gone seat, and (seq, slots) per occasion.
        #: Also in ``pushes`` as ``(seq, TABLE, ("set-aside", slots))``, so the audit replays them in order.
        self.set_aside: set[int] = set()
        self.set_asides: list[tuple[int, tuple[int, ...]]] = []
        #: The two-seat rule: (claimant, target, seq, ended) of a ``gone`` its writer backed by its own
        #: vote alone (two active seats: nobody else could agree); ``ended``: before the game was over.
        self.claim: tuple[int, int, int, bool] | None = None
        #: Two-seat claims refused because their target's own entry for that seq is (or, at the target,
        #: will be) here: kept on the record, since a later claim by their target may be contested by one.
        self.voided: list[VoidedClaim] = []
        self.result: GameOver | None = None
        self.abandoned: str | None = None
        self.audit_done = False
        self.verdict: Any = None
        self._gone_proof: Envelope | None = None
        self._bodies: dict[tuple[int, str, bytes], int] = {}
        self._deferred: list[tuple[int, int, str]] = []
        self._events: list[Event] = []

    # -- reading -----------------------------------------------------------------
    @property
    def head(self) -> int:
        return len(self.log) - 1

    @property
    def head_digest(self) -> bytes:
        return self.log[-1].digest

    @property
    def finished(self) -> bool:
        return self.audit_done or self.abandoned is not None

    def active(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.gone]

    def active_at(self, seq: int) -> list[int]:
        """The seats that were active when entry ``seq`` was due (none declared gone before it)."""
        return [s for s in range(self.n) if s not in self.gone or self.gone[s][1] >= seq]

    def expected(self) -> Expect | None:
        """Who alone may write the next entry, and what; None when nothing more is written."""
        if self.finished:
            return None
        seq = self.head + 1
        if self.round is not None and self.round.writer is not None:
            return Expect(seq, self.round.writer, self.round.type)
        p = self.state.pending()
        if isinstance(p, Decision):
            return Expect(seq, p.seat, "action")
        if isinstance(p, RevealOwed):
            return Expect(seq, p.seat, "reveal")
        if isinstance(p, PrivateDelivery):
            return Expect(seq, p.source, "deliver")
        return None

    def designated(self, target: int) -> int | None:
        """The seat that records ``target``'s departure: the lowest other active seat."""
        return next((s for s in self.active() if s != target), None)

    def take_events(self) -> list[Event]:
        out, self._events = self._events, []
        return out

    # -- the record of voided claims ---------------------------------------------------
    def holds_voided(self, env: Envelope) -> bool:
        """Whether the record holds a claim of ``env``'s writer at its seq already (one per seat and seq:
        another one it signed there, on the same chain, would say nothing more)."""
        return any((v.claimant, v.seq) == (env.seat, env.seq) for v in self.voided)

    def record_voided(self, env: Envelope) -> bool:
        """Keep a two-seat claim that its target's own entry voids (or will); whether it is new on the record.

        A claim that is no valid claim (:func:`protocol.claims.claim_problem`) is not kept.  The game
        may have ended with a claim that this one contests: the verdict is then worked out again.
        """
        if self.holds_voided(env) or claim_problem(self, env) is not None:
            return False
        self.voided.append(VoidedClaim(env.seat, env.body["target"], env.seq, env))
        if self.verdict is not None and self.claim is not None:
            self.verdict = audit(self)
        return True

    def keep_voided(self, record: list[VoidedClaim], before: int) -> None:
        """A replica rebuilt from the log up to ``before`` keeps the voided claims of that part of the log."""
        self.voided = [v for v in record if v.seq < before]

    def voided_claims(self) -> list[VoidedClaim]:
        """The claims on the record that the log voids (what a saved game keeps beside the log)."""
        return [v for v in self.voided if voided(self, v.envelope)]

    def voided_problem(self, env: Envelope) -> str | None:
        """None if ``env`` is a two-seat claim that this log voids, else why not (the offline verifier's check)."""
        return voided_problem(self, env)

    @property
    def contested(self) -> VoidedClaim | None:
        """The voided claim that contests the claim of this game, if one does (see :func:`protocol.claims.contest`)."""
        if self.claim is None:
            return None
        claimant, target, seq, _ = self.claim
        return contest(self, self.voided, claimant, target, seq)

    # -- applying ------------------------------------------------------------------
    def apply(self, env: Envelope, own: OwnAction | None = None) -> None:  # noqa: C901 (tests/test_complexity.py)
        """Apply a verified entry at ``head + 1``; Misconduct names its author if it is wrong.

        ``own``: this replica's seat wrote ``env`` as an action and already computed its
        effect (see :class:`OwnAction`); it is taken instead of being worked out again.
        """
        expect = self.expected()
        if expect is None:
            raise Misconduct(env.seat, f"wrote entry {env.seq} after the game was over")
        if env.prev != self.head_digest:
            raise Misconduct(env.seat, f"broken chain: entry {env.seq} does not follow entry {self.head}")
        fingerprint = (env.seat, env.type, env.body_bytes())
        if fingerprint in self._bodies:
            raise Misconduct(env.seat, f"replayed entry: entry {env.seq} repeats entry {self._bodies[fingerprint]}")
        if env.type == "gone":
            self._check_gone(env, expect)
        else:
            if env.seat != expect.writer:
                raise Misconduct(env.seat, f"wrote entry {env.seq} out of turn (seat {expect.writer}'s to write)")
            if env.type != expect.type:
                raise Misconduct(env.seat, f"wrote a {env.type} entry where a {expect.type} entry was due")
        if own is not None and env.type == "action" and own.matches(env):
            self._on_action(env, own)
        else:
            handler = getattr(self, "_on_" + env.type.replace("-", "_"))
            handler(env)
        if env.body["hash"] != self.state_hash():
            raise Misconduct(env.seat, f"false state hash in entry {env.seq}")
        self.log.append(env)
        self._bodies[fingerprint] = env.seq
        self._events.append(Applied(env.seq, env.seat, env.type))
        if self.round is not None and self.round.writer == env.seat and env.type == self.round.type:
            self.round.index += 1
        if self.hooks is not None and env.type != "gone":
            self.hooks.entry_applied(self, env)
        self._settle(env.seq)

    def state_hash(self) -> bytes:
        """``state.hash()``, worked out again only when the state changed since the last time.

        Many entries (a key of a deal not yet complete, a commitment) leave the game state
        as it was; every entry's hash is compared.  The state changes only by being replaced
        (a checked probe) or through :meth:`_changed_in_place`, both seen here.
        """
        kept = self._hashed
        if kept is None or kept[0] is not self.state or kept[1] != self._changes:
            kept = self._hashed = (self.state, self._changes, self.state.hash())
        return kept[2]

    def _changed_in_place(self) -> None:
        self._changes += 1

    def _push(self, seq: int, seat: int, action: Action, knowledge: Any = None) -> None:
        self._changed_in_place()
        self.state.push(seat, action, knowledge)
        self.pushes.append((seq, seat, action))
        self._events.append(Moved(seq, seat, action))

    def _try(self, seat: int, what: str, action: Action) -> GameState:
        """The state after ``seat``'s ``action``, on a copy; Misconduct if the rules refuse it."""
        probe = self.state.clone()
        try:
            probe.push(seat, action)
        except Exception as exc:  # IllegalAction, or an engine choking on hostile input
            raise Misconduct(seat, f"illegal {what}: {exc}") from None
        return probe

    # -- one handler per entry type (validate fully, then change) --------------------
    def _on_seed_commit(self, env: Envelope) -> None:
        self.round.commits[env.seat] = env.body["c"]  # type: ignore[union-attr]  # a commit entry is expected only while its round is open

    def _on_chance_commit(self, env: Envelope) -> None:
        self.round.commits[env.seat] = env.body["c"]  # type: ignore[union-attr]  # a commit entry is expected only while its round is open

    def _on_seed_reveal(self, env: Envelope) -> None:
        self._reveal_share(env)

    def _on_chance_reveal(self, env: Envelope) -> None:
        self._reveal_share(env)

    def _reveal_share(self, env: Envelope) -> None:
        r = self.round
        assert r is not None
        if not opens_share(r.commits[env.seat], self.room, env.seat, r.label, env.body["share"]):
            raise Misconduct(env.seat, f"false reveal: the share does not open its commitment ({r.label})")
        r.shares[env.seat] = env.body["share"]

    def _on_action(self, env: Envelope, own: OwnAction | None = None) -> None:
        """A seat's action: legal, its shown cards the ones it holds, its commitments new.

        ``own``: this replica's own action (see :meth:`apply`).  Its author worked out the
        state after it (the hash it signed) and opened each card it shows itself when it was
        dealt, with the same keys, so the rules and the card check are not run a second
        time; the bookkeeping is the same, and the state hash is still compared.
        """
        action: Action = env.body["action"]
        seat = env.seat
        keys = env.body["keys"]
        for secret in env.body["commits"]:
            if secret in self.commits:
                raise Misconduct(seat, f"commits again to sealed value {secret}")
        if own is None:
            need = self._shows_to_check(env)
            for slot, card in need.items():
                if not self.ledger.verify_shown(slot, keys[slot], card):
                    raise Misconduct(seat, f"showed a card it does not hold: slot {slot} is not card {card}")
            probe = self._try(seat, "action", action)
        else:
            need, probe = own.shows, own.state
        for slot, card in need.items():
            try:
                self.ledger.accept_shown(seat, slot, keys[slot], card, verified=own is not None)
            except CardProtocolError as exc:
                if exc.seat is not None:
                    raise Misconduct(exc.seat, f"showed a card it does not hold: {exc.reason}") from None
                self._abandon(exc.reason)  # one card in two slots: a dispute, stop the game here
                continue
            self.entries_of[("show", seat, slot)] = env.seq
        for secret, digest in env.body["commits"].items():
            self.commits[secret] = (seat, digest, env.seq)
        self.state = probe
        self.pushes.append((env.seq, seat, action))
        self._events.append(Moved(env.seq, seat, action))

    def _shows_to_check(self, env: Envelope) -> dict[int, Any]:
        """Slot -> card for each card the action shows that is not public yet (each needs a key)."""
        seat, action, keys = env.seat, env.body["action"], env.body["keys"]
        try:
            shown = tuple(self.state.shown(seat, action))
        except Exception as exc:
            raise Misconduct(seat, f"illegal action: {exc}") from None
        need = {}
        for slot, card in shown:
            try:
                deck = self.ledger.deck_for(slot)
                known = deck.public_card(slot)
            except CardProtocolError as exc:
                raise Misconduct(seat, f"showed a card it does not hold: {exc.reason}") from None
            if known is not None:
                if known != card:
                    raise Misconduct(
                        seat, f"showed a card it does not hold: slot {slot} is public and holds another card"
                    )
                continue
            need[slot] = card
        if set(keys) != set(need):
            raise Misconduct(seat, f"showed cards {sorted(need)} with keys for {sorted(keys)}")
        return need

    def _on_reveal(self, env: Envelope) -> None:
        p = self.state.pending()
        secret, value, salt = env.body["secret"], env.body["value"], env.body["salt"]
        assert isinstance(p, RevealOwed)
        if secret != p.secret:
            raise Misconduct(env.seat, f"revealed sealed value {secret} where {p.secret} is owed")
        committed = self.commits.get(secret)
        if committed is None or committed[0] != env.seat:
            raise Misconduct(env.seat, f"owes a reveal of sealed value {secret} it never committed to")
        if not opens(committed[1], SEALED_TAG, self.room, env.seat, salt, value):
            raise Misconduct(env.seat, f"false reveal: the value does not open the commitment of entry {committed[2]}")
        action = ("reveal", secret, value)
        self.state = self._try(env.seat, "reveal", action)
        self.opened[secret] = (salt, value)
        self.pushes.append((env.seq, env.seat, action))
        self._events.append(Moved(env.seq, env.seat, action))

    def _on_shuffle(self, env: Envelope) -> None:
        self._pass(env, "shuffle")

    def _on_lock(self, env: Envelope) -> None:
        self._pass(env, "lock")

    def _pass(self, env: Envelope, kind: str) -> None:
        deck = self.ledger.rounds[-1]
        body = env.body["passed"]
        if not isinstance(body, dict) or body.get("kind") != kind or body.get("round") != deck.round:
            raise Misconduct(env.seat, f"a {kind} entry must carry a {kind} pass of round {deck.round}")
        try:
            self.ledger.accept_pass(env.seat, body)
        except CardProtocolError as exc:
            raise Misconduct(env.seat, f"bad {kind} pass: {exc.reason}") from None
        self.entries_of[(kind, env.seat, deck.round)] = env.seq

    def _on_keys(self, env: Envelope) -> None:
        need = sorted(slot for slot, seat in self.batch if seat != env.seat and self._key_missing(slot, env.seat))
        keys = env.body["keys"]
        if sorted(keys) != need:
            raise Misconduct(env.seat, f"keys entry must hold keys for slots {need}, not {sorted(keys)}")
        staged = []
        for slot in need:
            deck = self.ledger.deck_for(slot)
            try:
                deck.position(slot)
            except CardProtocolError as exc:  # pragma: no cover - slots come from the batch
                raise Misconduct(env.seat, exc.reason) from None
            staged.append((slot, keys[slot]))
        for slot, key in staged:
            if not is_scalar(key):
                raise Misconduct(env.seat, f"the key for slot {slot} is not a valid scalar")
        for slot, key in staged:
            try:
                self.ledger.accept_key(env.seat, slot, key)
            except CardProtocolError as exc:
                raise Misconduct(env.seat, f"bad key: {exc.reason}") from None
            self.entries_of[("key", env.seat, slot)] = env.seq

    def _key_missing(self, slot: int, seat: int) -> bool:
        return seat not in self.ledger.deck_for(slot).published_keys(slot)

    def _on_deliver(self, env: Envelope) -> None:
        p = self.state.pending()
        assert isinstance(p, PrivateDelivery)
        passed = env.body["passed"]
        if p.fresh:  # the shown hand moves to fresh slots (SL-10): the source's proven re-slotting
            try:
                self.ledger.accept_reslot(p.source, p.slots, p.fresh, passed)
            except CardProtocolError as exc:
                raise Misconduct(env.seat, f"bad re-slotting: {exc.reason}") from None
        elif passed is not None:
            raise Misconduct(env.seat, "a delivery that moves no slots carries no re-slotting pass")
        probe = self._try(TABLE, "delivery", ("delivered",))
        self.deliveries.append((env.seq, p.source, p.target, env.body["box"]))
        self.state = probe
        self.pushes.append((env.seq, TABLE, ("delivered",)))
        self._events.append(Moved(env.seq, TABLE, ("delivered",)))
        if self.hooks is not None:
            self.hooks.delivered(self, env, p.source, p.target)

    def _on_secrets(self, env: Envelope) -> None:
        self._take_secrets(env.seat, env.body["secrets"])
        self.entries_of[("secrets", env.seat, 0)] = env.seq

    def _take_secrets(self, seat: int, secrets: dict[str, Any]) -> None:
        """A seat's published end-of-game secrets: checked as far as they can be now.

        ``deliveries`` holds the delivery key of each box the seat sent (never its agreement
        key, which opens the boxes it received: see :mod:`protocol.crypto.private`); each
        must be the key of a box of this seat in the log, checked against the box at once.
        """
        self._check_delivery_keys(seat, secrets["deliveries"])
        self._check_shares(seat, secrets["escrow"])
        try:
            rounds = self.ledger.secrets_from_body(seat, secrets["cards"])
        except CardProtocolError as exc:
            raise Misconduct(seat, f"bad card secrets: {exc.reason}") from None
        self.published[seat] = secrets
        self.card_secrets[seat] = rounds

    def _check_delivery_keys(self, seat: int, deliveries: Any) -> None:
        """Each published delivery key must be the key of a box of ``seat``'s in the log."""
        if not isinstance(deliveries, dict):
            raise Misconduct(seat, "published delivery keys that are not a map")
        sent = {seq: box for seq, source, _target, box in self.deliveries if source == seat}
        for seq, key in deliveries.items():
            if seq not in sent:
                raise Misconduct(seat, f"published a delivery key for entry {seq}, which is no delivery of its own")
            try:
                public = AgreementKey.from_private_bytes(key).public_bytes()
            except SealError:
                raise Misconduct(seat, f"published an invalid delivery key for entry {seq}") from None
            if public != sent[seq][:32]:
                raise Misconduct(seat, f"published a false delivery key: it is not the key of the box of entry {seq}")

    def _check_shares(self, seat: int, shares: dict[int, bytes]) -> None:
        """The escrow shares ``seat`` publishes: each the one the leaver's signed notice names for it."""
        for leaver, share in shares.items():
            held = self.escrows.get(leaver)
            entry = held[1]["shares"].get(seat) if held is not None else None  # (notice seq, escrow)
            if entry is None:
                raise Misconduct(seat, f"published an escrow share for seat {leaver}, which sealed none to it")
            if share_digest(self.game_id, leaver, seat, share) != entry["digest"]:
                raise Misconduct(seat, f"published a false escrow share for seat {leaver}")

    def _take_leave(self, seat: int, notice: Envelope) -> None:
        """A leave notice: the keys play needs (checked at the departure), sealed values, the escrow.

        Nothing in it opens the leaver's hand (after a Hacker Attack took a card from it,
        that would show the card in the attacker's hand); its card secrets and the delivery
        keys of the boxes it sent open at the end from the escrow (:meth:`open_escrows`).
        """
        secrets, escrow = notice.body["secrets"], notice.body["escrow"]
        if secrets["deliveries"]:
            raise Misconduct(seat, "left publishing delivery keys: they open the hands it showed")
        problem = check_escrow_shape(escrow, seat, self.n)
        stays = [s for s in self.active() if s != seat]
        if problem is None and not set(stays) <= set(escrow["shares"]):
            problem = f"an escrow that leaves out seats {sorted(set(stays) - set(escrow['shares']))}"
        if problem is not None:
            raise Misconduct(seat, f"left with {problem}")
        try:
            keys_from_body(seat, secrets["cards"])
        except CardProtocolError as exc:
            raise Misconduct(seat, f"left with malformed keys: {exc.reason}") from None
        self._check_shares(seat, secrets["escrow"])
        self.published[seat] = secrets
        self.escrows[seat] = (notice.seq, escrow)

    def open_escrows(self) -> None:
        """Join the shares published so far; each leaver whose every share is in opens its secrets.

        Called before the audit.  A share missing (its holder gone silent) leaves that escrow
        closed; secrets that do not follow the leaver's passes and keys name the leaver (at the
        entry that recorded its leave), and its escrow stays closed.
        """
        from engines.core import decode

        failed = {seat for seat, _, _ in self.escrow_faults}
        for leaver, (seq, escrow) in sorted(self.escrows.items()):
            if leaver in failed:
                continue  # stays closed: the audit names the leaver, and checks nothing of its secrets
            shares = {}
            for holder in escrow["shares"]:
                share = self.published.get(holder, {}).get("escrow", {}).get(leaver)
                if share is None:
                    break
                shares[holder] = share
            else:
                try:
                    late = decode(open_escrow(self.game_id, leaver, escrow["box"], shares))
                    if not isinstance(late, dict) or set(late) != {"cards", "deliveries"}:
                        raise EscrowError("the escrowed secrets are malformed")
                    cards = late["cards"]
                    if isinstance(cards, dict) and isinstance(cards.get("rounds"), tuple):  # not an abandoned round
                        cards = {"rounds": cards["rounds"][: len(self.ledger.participation(leaver))]}
                    full = {**self.published[leaver], "deliveries": late["deliveries"], "escrow": {}}
                    self._check_delivery_keys(leaver, full["deliveries"])
                    self.card_secrets[leaver] = self.ledger.accept_late_secrets(leaver, cards)
                except Exception as exc:  # the leaver's signed bytes, whatever they decode to: name the leaver
                    reason = exc.reason if isinstance(exc, (CardProtocolError, Misconduct)) else str(exc)
                    at = self.gone[leaver][1] if leaver in self.gone else seq  # the entry that recorded the leave
                    self.escrow_faults.append((leaver, at, f"left with false secrets in its escrow: {reason}"))
                    continue
                del self.escrows[leaver]
                self.published[leaver] = full

    # -- leaving and being declared gone --------------------------------------------
    def _check_gone(self, env: Envelope, expect: Expect) -> None:  # noqa: C901 (tests/test_complexity.py)
        from protocol.envelope import parse

        target = env.body["target"]
        if target != expect.writer:
            raise Misconduct(env.seat, f"declared seat {target} gone, but seat {expect.writer} owes entry {env.seq}")
        if env.seat != self.designated(target):
            raise Misconduct(env.seat, f"recorded a departure it is not designated to record (entry {env.seq})")
        proofs = []
        for raw in env.body["proofs"]:
            try:
                proofs.append(parse(raw))
            except ProtocolError as exc:
                raise Misconduct(env.seat, f"a departure with a malformed proof: {exc.reason}") from None
        if env.body["reason"] == "left":
            ok = (
                len(proofs) == 1
                and proofs[0].type == "leave"
                and proofs[0].seat == target
                and proofs[0].room == self.room
                and proofs[0].game == self.game_id
                and proofs[0].signed_by(self.seats[target].sign)
            )
            if not ok:
                raise Misconduct(env.seat, f"recorded seat {target} as having left without its signed notice")
            if proofs[0].seq > env.seq:  # the leaver wrote every entry before its notice: they come first
                raise Misconduct(env.seat, f"recorded seat {target}'s leave at entry {env.seq}, before its notice")
            self._gone_proof = proofs[0]
        else:
            voters = set()
            for vote in proofs:
                if (
                    vote.type != "vote"
                    or vote.room != self.room
                    or vote.game != self.game_id
                    or vote.seq != env.seq
                    or vote.prev != self.head_digest
                    or vote.body["target"] != target
                    or vote.seat == target
                    or not 0 <= vote.seat < self.n
                    or not vote.signed_by(self.seats[vote.seat].sign)
                ):
                    raise Misconduct(env.seat, f"declared seat {target} gone with an invalid vote")
                voters.add(vote.seat)
            missing = [s for s in self.active() if s != target and s not in voters]
            if missing:
                raise Misconduct(env.seat, f"declared seat {target} gone without the votes of seats {missing}")
            self._gone_proof = None

    def _on_gone(self, env: Envelope) -> None:
        target, reason = env.body["target"], env.body["reason"]
        if reason == "silent" and len(self.active()) == 2:  # the only voter is the writer, who benefits
            self.claim = (env.seat, target, env.seq, self.result is None and not self.state.is_over())
        if self.ledger.rounds and self.ledger.rounds[-1].phase != "ready":
            self.ledger.abandon_round()  # an unfinished shuffle starts again without the seat
            if self.round is not None and self.round.type in ("shuffle", "lock"):
                self.round = None
        if reason == "left":
            self._take_leave(target, self._gone_proof)  # type: ignore[arg-type]  # a "left" departure always carries its proof
        self.gone[target] = (reason, env.seq)
        if self.round is not None and target in self.round.writers[self.round.index :]:
            self.round.writers.remove(target)  # shuffle rounds were abandoned above
        if self.departure_waits():
            # Mid-batch: the deals already keyed must go to the seats they were keyed for, so the
            # leaver's keys for them are taken from its notice and the departure waits for the batch.
            if reason == "left":
                self._key_batch_for(target)
            else:
                self.ledger.declare_gone(target)
            self._deferred.append((env.seq, target, reason))
        else:
            self._depart(env.seq, target, reason)
        claimed = self.claim is not None and self.claim[1:3] == (target, env.seq)
        self._events.append(Gone(target, env.seq, reason, claimed))

    def departure_waits(self) -> bool:
        """Whether a departure recorded now takes effect only after the current batch of deals."""
        return self.round is not None and self.round.type == "keys"

    def _key_batch_for(self, seat: int) -> None:
        keys = keys_from_body(seat, self.published[seat]["cards"])  # checked in _take_leave
        for slot, receiver in self.batch:
            deck = self.ledger.deck_for(slot)
            if receiver != seat and seat in deck.participants and seat not in deck.published_keys(slot):
                if slot not in keys:
                    raise Misconduct(seat, f"left without its key for slot {slot}, being dealt")
                try:
                    deck.accept_key(seat, slot, keys[slot])
                except CardProtocolError as exc:
                    raise Misconduct(seat, f"left with a false key: {exc.reason}") from None

    def _depart(self, seq: int, target: int, reason: str) -> None:
        """The departure's effect: the ledger publishes (or loses) the seat's keys; the engine forfeits."""
        if reason == "left":
            try:
                self.ledger.accept_departure(target, self.published[target]["cards"])
            except CardProtocolError as exc:
                raise Misconduct(target, f"left with false card keys: {exc.reason}") from None
        elif target not in self.ledger.departed:
            self.ledger.declare_gone(target)
        if self.result is None and not self.state.is_over():
            self._changed_in_place()
            self.state.forfeit(target)
            self.pushes.append((seq, target, None))

    # -- resolving what nobody writes -----------------------------------------------
    def _abandon(self, reason: str) -> None:
        if self.abandoned is None:
            self.abandoned = reason
            self.round = None
            self._events.append(Abandoned(reason))
            self.open_escrows()
            self.verdict = audit(self)

    def _settle(self, seq: int) -> None:
        guard = 0
        while not self.finished:
            guard += 1
            if guard > 100_000:  # pragma: no cover - an engine that never stops resolving
                self._abandon("the engine kept resolving without end")
                return
            r = self.round
            if r is not None:
                while r.writer is not None and r.writer in self.gone:
                    if not self._stand_in(r, seq):
                        return
                if r.writer is not None:
                    return
                self.round = None
                self._complete(r, seq)
                continue
            if self.phase == "secrets":
                self.open_escrows()
                self.verdict = audit(self)
                self.audit_done = True
                return
            if not self._resolve(seq):
                return

    def _stand_in(self, r: Round, seq: int) -> bool:
        """A gone seat's turn in a round is skipped (shuffles restart without it, see _on_gone)."""
        r.writers.pop(r.index)
        return True

    def _complete(self, r: Round, seq: int) -> None:  # noqa: C901 (tests/test_complexity.py)
        if r.type in ("chance-commit", "chance-reveal") and not self._chance_waits():
            return  # a departure ended the event it was for (a forfeit ended the game): no outcome is drawn
        if r.type == "seed-commit":
            writers = [s for s in r.writers if s in r.commits and s not in self.gone]
            self.round = Round("seed-reveal", writers, label="seed", commits=r.commits)
        elif r.type == "seed-reveal":
            if not r.shares:
                self._abandon("nobody revealed a share of the joint seed")
                return
            self.seed = joint_value([r.shares[s] for s in sorted(r.shares)], "seed")
            self.phase = "play"
        elif r.type == "chance-commit":
            writers = [s for s in r.writers if s in r.commits and s not in self.gone]
            self.round = Round("chance-reveal", writers, label=r.label, outcomes=r.outcomes, commits=r.commits)
        elif r.type == "chance-reveal":
            if not r.shares:
                self._abandon("nobody revealed a share of a chance event")
                return
            joint = joint_value([r.shares[s] for s in sorted(r.shares)], r.label)
            self._push(seq, TABLE, ("chance", outcome(joint, r.label, r.outcomes)))
        elif r.type == "shuffle":
            self.round = Round("lock", list(self.ledger.rounds[-1].participants))
        elif r.type == "lock":
            self._push(seq, TABLE, ("shuffled",))
        elif r.type == "keys":
            batch, self.batch = self.batch, []
            for slot, seat in batch:
                p = self.state.pending()
                if p != Deal(slot, seat) or self.ledger.blocked(slot):
                    break  # a slot whose keys left with a gone seat is set aside by _resolve instead
                try:
                    self.ledger.deal(slot, seat)
                except CardProtocolError as exc:
                    self._abandon(f"the engine dealt slot {slot} to seat {seat}, which cannot hold it: {exc.reason}")
                    return
                self._push(seq, TABLE, ("deal", slot))
                if self.hooks is not None:
                    self.hooks.dealt(self, slot, seat)
            deferred, self._deferred = self._deferred, []
            for at, target, reason in deferred:
                try:
                    self._depart(at, target, reason)
                except Misconduct as exc:  # the leaver's secrets were false: name it, stop
                    self._abandon(f"seat {exc.seat} {exc.reason}")
                    return

    def _chance_waits(self) -> bool:
        """Whether the engine still waits for an interactive chance outcome."""
        p = self.state.pending()
        return isinstance(p, Chance) and p.kind is ChanceKind.INTERACTIVE

    def _resolve(self, seq: int) -> bool:  # noqa: C901 (tests/test_complexity.py)
        """Resolve or start what the engine waits for; False when an entry must come first."""
        if self.phase == "seed":
            return False
        p = self.state.pending()
        if isinstance(p, GameOver):
            if self.result is None:
                self.result = p
                self._events.append(GameEnded(p))
            self.phase = "secrets"
            # A win claimed after disconnection is no result to audit: the claimant keeps its secrets,
            # so that the silent seat's own entry, if it exists, can void the claim and play go on.
            claimed = self.claim is not None and self.claim[3]
            self.round = Round("secrets", [] if claimed else [s for s in self.active() if s not in self.published])
            return True
        if isinstance(p, (Decision, RevealOwed, PrivateDelivery)):
            seat = p.source if isinstance(p, PrivateDelivery) else p.seat
            if seat in self.gone and not self._deferred:
                self._abandon(f"the engine waits for seat {seat}, which is gone")
            return False
        if isinstance(p, Chance) and p.kind is ChanceKind.PUBLIC_SEEDED:
            assert self.seed is not None
            value = derive_outcome(self.seed, "public", self.public_index, p.outcomes)
            self.public_index += 1
            self._push(seq, TABLE, ("chance", value))
            return True
        if isinstance(p, Chance) and p.kind is ChanceKind.INTERACTIVE:
            label = f"chance/{self.chance_index}"
            self.chance_index += 1
            self.round = Round("chance-commit", self.active(), label=label, outcomes=p.outcomes)
            return True
        if isinstance(p, Chance):
            try:
                deck = self.ledger.open_round(p.cards, p.slots)
            except ValueError as exc:
                self._abandon(f"the engine asked for an impossible shuffle: {exc}")
                return False
            self.rounds_opened += 1
            if self.hooks is not None:
                self.hooks.round_opened(self, deck, self.rounds_opened)
            self.round = Round("shuffle", list(deck.participants))
            return True
        if isinstance(p, Deal):
            if self._is_blocked(p.slot):
                return self._set_aside_blocked(seq)
            return self._start_batch(seq)
        raise AssertionError(f"unknown pending {p!r}")  # pragma: no cover

    def _is_blocked(self, slot: int) -> bool:
        """Whether ``slot`` can never be opened: a seat declared gone took its key for it."""
        try:
            return self.ledger.blocked(slot)
        except CardProtocolError:
            return False  # a slot of no shuffled deck: _start_batch says so

    def _set_aside_blocked(self, seq: int) -> bool:
        """The engine sets aside every undealt slot whose keys left with a gone seat.

        Called when the engine wants to deal such a slot: a point of the log every
        peer reaches identically, so every replica sets aside the same slots at the
        same entry.  The slots are all undealt slots the ledger reports blocked
        (in System Launch, the rest of the deck); the engine's rules say what
        follows (a reshuffle without the gone seat, or SL-9).
        """
        slots = tuple(
            slot
            for deck in self.ledger.rounds
            if deck.phase == "ready"
            for slot in deck.slots
            if slot not in self.set_aside and deck.dealt_to(slot) is None and self.ledger.blocked(slot)
        )
        try:
            self._changed_in_place()
            self.state.set_aside(slots)
        except Exception as exc:  # IllegalAction: the engine cannot take them; stop, saying why
            self._abandon(f"slots {list(slots)} cannot be opened and the game cannot set them aside: {exc}")
            return False
        self.set_aside.update(slots)
        self.set_asides.append((seq, slots))
        self.pushes.append((seq, TABLE, ("set-aside", slots)))
        self._events.append(SetAside(seq, slots))
        return True

    def _start_batch(self, seq: int) -> bool:
        batch: list[tuple[int, int]] = []
        probe = self.state.clone()
        while len(batch) < MAX_BATCH:
            p = probe.pending()
            if not isinstance(p, Deal) or self._is_blocked(p.slot):
                break
            batch.append((p.slot, p.seat))
            try:
                probe.push(TABLE, ("deal", p.slot))
            except Exception:
                break
        writers = set()
        for slot, receiver in batch:
            try:
                deck = self.ledger.deck_for(slot)
                published = deck.published_keys(slot)
            except CardProtocolError as exc:
                self._abandon(f"the engine dealt a slot of no shuffled deck: {exc.reason}")
                return False
            for owner in deck.participants:
                if owner == receiver or owner in published:
                    continue
                if owner in self.gone:
                    self._abandon(f"seat {owner} was declared gone holding the key of slot {slot}")
                    return False
                writers.add(owner)
        self.batch = batch
        self.round = Round("keys", sorted(writers))
        return True
