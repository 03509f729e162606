"""The cheat catalogue: each cheat is one peer that breaks the protocol in one way.

A cheater is a :class:`PeerSession` subclass that behaves honestly until its
chance comes (after the opening seed exchange), stages its cheat once, and then
carries on.  The simulator runs it among honest peers; every honest peer must
name the cheater's seat.  ``tampered-saved-game`` is staged after the game: the
cheater hands out a saved file with one of its own entries rewritten and re-signed.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .cards.deck import SHUFFLE
from .crypto.group import card_element, scalar_from
from .envelope import Envelope
from .envelope import seal as seal_envelope
from .events import Outbound
from .savefile import dump
from .session import PeerSession
from .table import Expect

CATALOGUE: dict[str, str] = {
    "forged-signature": "signs an entry in another seat's name",
    "out-of-turn": "writes an entry that is another seat's to write",
    "illegal-action": "publishes an action the rules forbid",
    "replayed-entry": "re-sends an earlier entry of its own at a later sequence number",
    "equivocation": "signs two different decisions for one sequence number",
    "broken-chain": "writes an entry that does not link to the previous one",
    "false-state-hash": "writes an entry with a false public state hash",
    "false-reveal": "opens its seed commitment with another share",
    "substituted-card": "replaces a card by a foreign one in its shuffle pass",
    "duplicated-card": "duplicates a card in its shuffle pass",
    "wrong-card-key": "publishes a false key for a card dealt to another seat",
    "show-not-held": "shows a card it does not hold",
    "withhold": "stops answering when it owes a key (until declared gone)",
    "tampered-saved-game": "rewrites and re-signs one of its entries in the saved game it hands out",
}


class Cheater(PeerSession):
    """A peer that stages ``kind`` once, at its first opportunity after the seed exchange."""

    kind = ""
    staged = False

    def _ready(self, exp: Expect) -> bool:
        return not self.staged and self.table is not None and self.table.phase == "play"

    def _emit(self, env: Envelope) -> None:
        self._out.append(Outbound(env.seq, env.data, f"log/{env.seq}"))

    def _raw(self, seq: int, seat: int, type_: str, body: dict[str, Any], prev: bytes | None = None) -> Envelope:
        assert self._key is not None and self.table is not None
        return seal_envelope(self._key, self.room, seq, prev or self.table.head_digest, seat, type_, body)


class ForgedSignature(Cheater):
    kind = "forged-signature"

    def _pump(self) -> None:
        super()._pump()
        exp = self.table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, exp.writer, "keys", {"keys": {}, "hash": self.table.state.hash()}))


class OutOfTurn(Cheater):
    kind = "out-of-turn"

    def _pump(self) -> None:
        super()._pump()
        exp = self.table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, self.seat, "keys", {"keys": {}, "hash": self.table.state.hash()}))


class _OnWrite(Cheater):
    """Cheats that tamper with the cheater's own next entry of some type."""

    types: tuple[str, ...] = ()

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        wanted = type_ in self.types if self.types else self._ready(exp)
        if wanted and not self.staged:
            changed = self._tamper(exp, type_, dict(body))
            if changed is not None:
                self.staged = True
                self._emit(changed)
                self._take_entry(changed)
                self._drain()
                return
        super()._write(exp, type_, body)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        raise NotImplementedError


class IllegalAction(_OnWrite):
    kind = "illegal-action"
    types = ("action",)

    def _tamper(self, exp, type_, body):
        body["action"] = ("no-such-move", 12345)
        body["commits"], body["keys"], body["memo"] = {}, {}, b""
        return self._raw(exp.seq, self.seat, type_, body)


class ReplayedEntry(_OnWrite):
    kind = "replayed-entry"

    def _tamper(self, exp, type_, body):
        assert self.table is not None
        old = next(e for e in self.table.log if e.seat == self.seat and e.type != "genesis")
        return self._raw(exp.seq, self.seat, old.type, dict(old.body))


class BrokenChain(_OnWrite):
    kind = "broken-chain"

    def _tamper(self, exp, type_, body):
        return self._raw(exp.seq, self.seat, type_, body, prev=hashlib.sha256(b"elsewhere").digest())


class FalseStateHash(_OnWrite):
    kind = "false-state-hash"

    def _tamper(self, exp, type_, body):
        body["hash"] = hashlib.sha256(body["hash"]).digest()
        return self._raw(exp.seq, self.seat, type_, body)


class FalseReveal(_OnWrite):
    kind = "false-reveal"
    types = ("seed-reveal",)

    def _tamper(self, exp, type_, body):
        body["share"] = hashlib.sha256(body["share"]).digest()
        return self._raw(exp.seq, self.seat, type_, body)


class SubstitutedCard(_OnWrite):
    kind = "substituted-card"
    types = ("shuffle",)

    def _tamper(self, exp, type_, body):
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        if passed["kind"] != SHUFFLE:
            return None
        stranger = card_element(self.room, 1_000_003)  # not a card of the game
        from .crypto.group import mul

        elements[0] = mul(stranger, scalar_from(hashlib.sha512(b"cheat").digest()))
        passed["elements"] = elements
        body["passed"] = passed
        return self._raw(exp.seq, self.seat, type_, body)


class DuplicatedCard(_OnWrite):
    kind = "duplicated-card"
    types = ("shuffle",)

    def _tamper(self, exp, type_, body):
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        elements[1] = elements[0]
        passed["elements"] = elements
        body["passed"] = passed
        return self._raw(exp.seq, self.seat, type_, body)


class WrongCardKey(_OnWrite):
    kind = "wrong-card-key"
    types = ("keys",)

    def _tamper(self, exp, type_, body):
        if not body["keys"]:
            return None
        keys = dict(body["keys"])
        slot = min(keys)
        keys[slot] = scalar_from(hashlib.sha512(b"false key" + keys[slot]).digest())
        body["keys"] = keys
        return self._raw(exp.seq, self.seat, type_, body)


class ShowNotHeld(Cheater):
    """Chooses an action that shows a card, and claims another card for it."""

    kind = "show-not-held"

    def submit(self, action):
        table = self.table
        if not self.staged and table is not None:
            for candidate in self.legal_actions():
                shown = table.state.shown(self.seat, candidate)
                if not shown:
                    continue
                forged = self._forge(candidate, *shown[0])
                if forged is None:
                    continue
                self.staged = True
                slot = shown[0][0]
                keys = {slot: table.ledger.secret_key(slot, self.ring)}
                exp = table.expected()
                body = {"action": forged, "commits": {}, "keys": keys, "memo": b"", "hash": table.state.hash()}
                env = self._raw(exp.seq, self.seat, "action", body)
                self._emit(env)
                self._take_entry(env)
                self._drain()
                return self.take_events()
        return super().submit(action)

    def _forge(self, candidate: tuple, slot: int, card: int) -> tuple | None:
        """The same action claiming another card for the same slot (the engine's own encoding)."""
        for index, item in enumerate(candidate):
            if index == 0 or item != card:
                continue
            for fake in range(card + 1, card + 64):
                forged = (*candidate[:index], fake, *candidate[index + 1 :])
                try:
                    if self.table.state.shown(self.seat, forged) == ((slot, fake),):
                        return forged
                except Exception:
                    continue
        return None


class Equivocate(Cheater):
    kind = "equivocation"

    def submit(self, action):
        legal = self.legal_actions()
        others = [a for a in legal if tuple(a) != tuple(action) and not self.table.state.shown(self.seat, a)]
        if self.staged or not others or self.table.phase != "play":
            return super().submit(action)
        self.staged = True
        before = len(self._out)
        events = super().submit(action)
        first = self._out[before]
        exp = Expect(first.seq, self.seat, "action")
        alt = tuple(others[0])
        pub = self.table  # the first entry is applied; derive the second from the state before it
        del pub
        body = {"action": alt, "commits": {}, "keys": {}, "memo": b"", "hash": bytes(32)}
        from .envelope import parse

        original = parse(first.data)
        body["hash"] = _hash_after(self, original, alt)
        self._emit(self._raw(exp.seq, self.seat, "action", body, prev=original.prev))
        return events


def _hash_after(session: PeerSession, original: Envelope, alt: tuple) -> bytes:
    """The state hash after ``alt`` instead of the original decision (replayed from the log)."""
    from .table import Table

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

    def _pump(self) -> None:
        exp = self.table.expected() if self.table and not self.finished else None
        if self.staged or (exp is not None and exp.writer == self.seat and self._ready(exp) and self._owed(exp)):
            self.staged = True
            return  # silent from now on
        super()._pump()

    def _owed(self, exp: Expect) -> bool:
        """A key, reveal, share or delivery it owes; in a game without them, a decision late in play."""
        return exp.type in ("keys", "reveal", "chance-reveal", "deliver") or (
            exp.type == "action" and self.table is not None and self.table.head > 60
        )

    def submit(self, action):
        if self.staged:
            return []
        exp = self.table.expected() if self.table is not None else None
        if exp is not None and self._ready(exp) and self._owed(exp):
            self.staged = True
            return []
        return super().submit(action)


class TamperedSave(Cheater):
    """Honest in play; hands out a saved game with one of its own entries rewritten."""

    kind = "tampered-saved-game"

    def saved_game(self) -> bytes:
        assert self.table is not None
        entries = [e.data for e in self.table.log]
        log = self.table.log
        target = next(e for e in reversed(log[1:-1]) if e.seat == self.seat and e.type not in ("secrets", "gone"))
        body = dict(target.body)
        body["hash"] = hashlib.sha256(b"rewritten").digest()
        forged = seal_envelope(self._key, self.room, target.seq, target.prev, self.seat, target.type, body)
        entries[target.seq] = forged.data
        return dump(self.room, entries)


CHEATS: dict[str, type[Cheater]] = {
    cls.kind: cls
    for cls in (
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
}
assert set(CHEATS) == set(CATALOGUE)
