"""The cheats that any game offers: on signatures, the chain, turns, state hashes, the seed, cards, saves.

Each is staged among honest peers by the simulator; every honest peer must name the cheater's
seat.  ``tampered-saved-game`` is staged after the game: the cheater hands out a saved file with
one of its own entries rewritten and re-signed.  The card cheats here act on the first deck a game
shuffles and the cards a seat shows, and stay honest in a game that has none.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.core import Action
from protocol.cards.deck import SHUFFLE
from protocol.crypto.group import card_element, mul, scalar_from
from protocol.envelope import Envelope, parse
from protocol.envelope import seal as seal_envelope
from protocol.events import Event
from protocol.logfile import dump
from protocol.session import PeerSession
from protocol.sim.cheats.base import Cheater, OnWrite
from protocol.table import Expect, Table


class ForgedSignature(Cheater):
    kind = "forged-signature"
    text = "signs an entry in another seat's name"

    def _pump(self) -> None:
        super()._pump()
        exp = self.my_table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.my_seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, exp.writer, "keys", {"keys": {}, "hash": self.my_table.state.hash()}))


class OutOfTurn(Cheater):
    kind = "out-of-turn"
    text = "writes an entry that is another seat's to write"

    def _pump(self) -> None:
        super()._pump()
        exp = self.my_table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.my_seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, self.my_seat, "keys", {"keys": {}, "hash": self.my_table.state.hash()}))


class IllegalAction(OnWrite):
    kind = "illegal-action"
    text = "publishes an action the rules forbid"
    types = ("action",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["action"] = ("no-such-move", 12345)
        body["commits"], body["keys"], body["memo"] = {}, {}, b""
        return self._raw(exp.seq, self.my_seat, type_, body)


class ReplayedEntry(OnWrite):
    kind = "replayed-entry"
    text = "re-sends an earlier entry of its own at a later sequence number"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        assert self.table is not None
        old = next(e for e in self.my_table.log if e.seat == self.my_seat and e.type != "genesis")
        return self._raw(exp.seq, self.my_seat, old.type, dict(old.body))


class BrokenChain(OnWrite):
    kind = "broken-chain"
    text = "writes an entry that does not link to the previous one"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        return self._raw(exp.seq, self.my_seat, type_, body, prev=hashlib.sha256(b"elsewhere").digest())


class FalseStateHash(OnWrite):
    kind = "false-state-hash"
    text = "writes an entry with a false public state hash"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["hash"] = hashlib.sha256(body["hash"]).digest()
        return self._raw(exp.seq, self.my_seat, type_, body)


class FalseReveal(OnWrite):
    kind = "false-reveal"
    text = "opens its seed commitment with another share"
    types = ("seed-reveal",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["share"] = hashlib.sha256(body["share"]).digest()
        return self._raw(exp.seq, self.my_seat, type_, body)


class SubstitutedCard(OnWrite):
    kind = "substituted-card"
    text = "replaces a card by a foreign one in its shuffle pass"
    stages = "false-shuffle-pass"  # the proof shows the pass false, not how it was falsified
    types = ("shuffle",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        if passed["kind"] != SHUFFLE:
            return None
        stranger = card_element(self.room, 1_000_003)  # not a card of the game
        elements[0] = mul(stranger, scalar_from(hashlib.sha512(b"cheat").digest()))
        return self._with_elements(exp, type_, body, elements)


class DuplicatedCard(OnWrite):
    kind = "duplicated-card"
    text = "duplicates a card in its shuffle pass"
    types = ("shuffle",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        elements[1] = elements[0]
        return self._with_elements(exp, type_, body, elements)


class WrongCardKey(OnWrite):
    kind = "wrong-card-key"
    text = "publishes a false key for a card dealt to another seat"
    types = ("keys",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        if not body["keys"]:
            return None
        keys = dict(body["keys"])
        slot = min(keys)
        keys[slot] = scalar_from(hashlib.sha512(b"false key" + keys[slot]).digest())
        body["keys"] = keys
        return self._raw(exp.seq, self.my_seat, type_, body)


class ShowNotHeld(Cheater):
    """Chooses an action that shows a card, and claims another card for it."""

    kind = "show-not-held"
    text = "shows a card it does not hold"

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        table = self.table
        if not self.staged and table is not None:
            for candidate in self.legal_actions():
                shown = table.state.shown(self.my_seat, candidate)
                if not shown:
                    continue
                forged = self._forge(candidate, *shown[0])
                if forged is None:
                    continue
                self.staged = True
                slot = shown[0][0]
                keys = {slot: table.ledger.secret_key(slot, self.ring)}
                exp = table.expected()
                assert exp is not None  # its own decision is due: legal_actions offered one
                body = {"action": forged, "commits": {}, "keys": keys, "memo": b"", "hash": table.state.hash()}
                env = self._raw(exp.seq, self.my_seat, "action", body)
                self._emit(env)
                self._take_entry(env)
                self._drain()
                return self.take_events()
        return super().submit(action, settle=settle)

    def _forge(self, candidate: Action, slot: int, card: int) -> Action | None:
        """The same action claiming another card for the same slot (the engine's own encoding)."""
        for index, item in enumerate(candidate):
            if index == 0 or item != card:
                continue
            for fake in range(card + 1, card + 64):
                forged = (*candidate[:index], fake, *candidate[index + 1 :])
                try:
                    if self.my_table.state.shown(self.my_seat, forged) == ((slot, fake),):
                        return forged
                except Exception:
                    continue
        return None


class Equivocate(Cheater):
    kind = "equivocation"
    text = "signs two different decisions for one sequence number"

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        legal = self.legal_actions()
        others = [a for a in legal if tuple(a) != tuple(action) and not self.my_table.state.shown(self.my_seat, a)]
        if self.staged or not others or self.my_table.phase != "play":
            return super().submit(action, settle=settle)
        self.staged = True
        before = len(self._writer.queued())
        events = super().submit(action)
        first = self._writer.queued()[before]
        exp = Expect(first.seq, self.my_seat, "action")
        alt = tuple(others[0])
        original = parse(first.data)  # applied already: the second is derived from the state before it
        body = {"action": alt, "commits": {}, "keys": {}, "memo": b"", "hash": _hash_after(self, original, alt)}
        self._emit(self._raw(exp.seq, self.my_seat, "action", body, prev=original.prev))
        return events


def _hash_after(session: PeerSession, original: Envelope, alt: Action) -> bytes:
    """The state hash after ``alt`` instead of the original decision (replayed from the log)."""

    table = session.table
    assert table is not None
    replica = Table(table.log[0])
    for env in table.log[1 : original.seq]:
        replica.apply(env)
    probe = replica.state.clone()
    try:
        probe.push(original.seat, alt)
    except Exception:
        return bytes(32)
    return probe.hash()


class Withhold(Cheater):
    kind = "withhold"
    text = "stops answering when it owes a key (until declared gone)"

    def _pump(self) -> None:
        exp = self.my_table.expected() if self.table and not self.finished else None
        if self.staged or (exp is not None and exp.writer == self.my_seat and self._ready(exp) and self._owed(exp)):
            self.staged = True
            return  # silent from now on
        super()._pump()

    def _owed(self, exp: Expect) -> bool:
        """A key, reveal, share or delivery it owes; in a game without them, a decision late in play."""
        return exp.type in ("keys", "reveal", "chance-reveal", "deliver") or (
            exp.type == "action" and self.table is not None and self.my_table.head > 60
        )

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        if self.staged:
            return []
        exp = self.my_table.expected() if self.table is not None else None
        if exp is not None and self._ready(exp) and self._owed(exp):
            self.staged = True
            return []
        return super().submit(action, settle=settle)


class TamperedSave(Cheater):
    """Honest in play; hands out a saved game with one of its own entries rewritten."""

    kind = "tampered-saved-game"
    text = "rewrites and re-signs one of its entries in the saved game it hands out"

    def saved_game(self) -> bytes:
        key = self._writer.key
        assert self.table is not None and key is not None
        entries = [e.data for e in self.my_table.log]
        log = self.my_table.log
        target = next(e for e in reversed(log[1:-1]) if e.seat == self.my_seat and e.type not in ("secrets", "gone"))
        body = dict(target.body)
        body["hash"] = hashlib.sha256(b"rewritten").digest()
        forged = seal_envelope(
            key, self.room, target.seq, target.prev, self.my_seat, target.type, body, game=target.game
        )
        entries[target.seq] = forged.data
        return dump(self.room, entries)


GENERIC: tuple[type[Cheater], ...] = (
    ForgedSignature,
    OutOfTurn,
    IllegalAction,
    ReplayedEntry,
    Equivocate,
    BrokenChain,
    FalseStateHash,
    FalseReveal,
    SubstitutedCard,
    DuplicatedCard,
    WrongCardKey,
    ShowNotHeld,
    Withhold,
    TamperedSave,
)
