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

from engines.core import Action, Knowledge, RevealOwed
from protocol.cards.deck import SHUFFLE
from protocol.crypto.group import card_element, mul, scalar_from
from protocol.envelope import Envelope, parse
from protocol.envelope import seal as seal_envelope
from protocol.events import Event
from protocol.logfile import dump
from protocol.session import PeerSession
from protocol.sim.cheats.base import Cheater, DiceCheater, OnWrite
from protocol.sim.cheats.binding import BINDING_CATALOGUE, BINDING_CHEATS
from protocol.sim.cheats.cards import CARD_CATALOGUE, CARD_CHEATS
from protocol.sim.cheats.silence import SILENCE_CATALOGUE, SILENCE_CHEATS
from protocol.table import Expect, Table

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


class ForgedSignature(Cheater):
    kind = "forged-signature"

    def _pump(self) -> None:
        super()._pump()
        exp = self.my_table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.my_seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, exp.writer, "keys", {"keys": {}, "hash": self.my_table.state.hash()}))


class OutOfTurn(Cheater):
    kind = "out-of-turn"

    def _pump(self) -> None:
        super()._pump()
        exp = self.my_table.expected() if self.table and not self.finished else None
        if exp is not None and exp.writer != self.my_seat and self._ready(exp):
            self.staged = True
            self._emit(self._raw(exp.seq, self.my_seat, "keys", {"keys": {}, "hash": self.my_table.state.hash()}))


class IllegalAction(OnWrite):
    kind = "illegal-action"
    types = ("action",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["action"] = ("no-such-move", 12345)
        body["commits"], body["keys"], body["memo"] = {}, {}, b""
        return self._raw(exp.seq, self.my_seat, type_, body)


class ReplayedEntry(OnWrite):
    kind = "replayed-entry"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        assert self.table is not None
        old = next(e for e in self.my_table.log if e.seat == self.my_seat and e.type != "genesis")
        return self._raw(exp.seq, self.my_seat, old.type, dict(old.body))


class BrokenChain(OnWrite):
    kind = "broken-chain"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        return self._raw(exp.seq, self.my_seat, type_, body, prev=hashlib.sha256(b"elsewhere").digest())


class FalseStateHash(OnWrite):
    kind = "false-state-hash"

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["hash"] = hashlib.sha256(body["hash"]).digest()
        return self._raw(exp.seq, self.my_seat, type_, body)


class FalseReveal(OnWrite):
    kind = "false-reveal"
    types = ("seed-reveal",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        body["share"] = hashlib.sha256(body["share"]).digest()
        return self._raw(exp.seq, self.my_seat, type_, body)


class SubstitutedCard(OnWrite):
    kind = "substituted-card"
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
    types = ("shuffle",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        passed = dict(body["passed"])
        elements = list(passed["elements"])
        elements[1] = elements[0]
        return self._with_elements(exp, type_, body, elements)


class WrongCardKey(OnWrite):
    kind = "wrong-card-key"
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
        pub = self.table  # the first entry is applied; derive the second from the state before it
        del pub
        body = {"action": alt, "commits": {}, "keys": {}, "memo": b"", "hash": bytes(32)}
        original = parse(first.data)
        body["hash"] = _hash_after(self, original, alt)
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


# -- game-specific cheats ------------------------------------------------------------------
# Each is staged through the same entries as the generic ones, at the moment its game offers
# the chance: the dice of Anomaly Maze (an interactive commit-reveal round after an attack is
# declared) and the sealed identities and traps of Collective Conflict (commitments in the
# action, opened by ``reveal`` entries when the engine says ``RevealOwed``).  They work on any
# game with the same kind of step; the game named is the one they are written for.

#: Game-specific cheats: name -> (the game they are written for, what the cheater does).
GAME_CATALOGUE: dict[str, tuple[str, str]] = {
    "forged-die": ("anomaly-maze", "opens its dice-share commitment with another share (the best die it can grind)"),
    "withheld-die": ("anomaly-maze", "stops answering when it owes the reveal of its dice share (until declared gone)"),
    "die-abort": ("anomaly-maze", "reveals its dice share last and withholds it when the die would go against it"),
    "early-die-reveal": ("anomaly-maze", "publishes its dice share where its commitment is due (reveal before commit)"),
    "copied-die-commitment": ("anomaly-maze", "copies the other seat's dice commitment, then reveals its share"),
    "decoy-as-mothership": ("collective-conflict", "reveals its surrounded Decoy as the MotherShip"),
    "mothership-as-decoy": ("collective-conflict", "reveals its surrounded MotherShip as the Decoy"),
    "tenth-move-breach": (
        "collective-conflict",
        "places another unit from its tenth own move on while its MotherShip is off the board (CC-7)",
    ),
    "hidden-tenth-move-breach": (
        "collective-conflict",
        "breaks CC-7 as above and opens its Decoy as the MotherShip in its end-of-game secrets",
    ),
    "trap-claimed-armed": ("collective-conflict", "claims a trap it sealed unarmed was armed (a foreign unit hit it)"),
    "trap-claimed-unarmed": ("collective-conflict", "claims a trap it sealed armed was unarmed (hides how it plays)"),
    "refused-reveal": ("collective-conflict", "stops answering when it owes a reveal (until declared gone)"),
}


class ForgedDie(OnWrite, DiceCheater):
    """Opens its share commitment with another share; revealing last, it grinds for the best die."""

    kind = "forged-die"
    types = ("chance-reveal",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        honest = body["share"]
        tries = 32 if self._reveals_last() else 1
        fakes = [hashlib.sha256(b"forged die" + honest + bytes([i])).digest() for i in range(tries)]
        if tries > 1:
            fakes.sort(key=lambda share: -self._worth(self._die_with(share)))
        body["share"] = fakes[0]
        return self._raw(exp.seq, self.my_seat, type_, body)


class WithheldDie(Withhold, DiceCheater):
    """Goes silent when it owes the reveal of its dice share."""

    kind = "withheld-die"

    def _owed(self, exp: Expect) -> bool:
        return exp.type == "chance-reveal"


class DieAbort(Withhold, DiceCheater):
    """Reveals last, computes the die first, and withholds its share when the die is bad for it.

    The one lever commit-reveal leaves (``protocol/crypto/randomness.py``): it is
    answered by declaring the seat gone, which forfeits, and naming it.
    """

    kind = "die-abort"

    def _owed(self, exp: Expect) -> bool:
        if exp.type != "chance-reveal" or not self._reveals_last():
            return False
        r = self.my_round
        value = self._die_with(self._share(r.label))
        return self._worth(value) < self._worth((r.outcomes - 1) / 2)


class EarlyDieReveal(OnWrite, DiceCheater):
    """Publishes its share in the log where its commitment is due."""

    kind = "early-die-reveal"
    types = ("chance-commit",)

    def _tamper(self, exp: Expect, type_: str, body: dict[str, Any]) -> Envelope | None:
        share = self._share(self.my_round.label)
        return self._raw(exp.seq, self.my_seat, "chance-reveal", {"share": share, "hash": body["hash"]})


class CopiedDieCommitment(DiceCheater):
    """Copies another seat's dice commitment, then reveals that seat's share as its own.

    Had a commitment not named its seat, the copier would have added nothing of its
    own to the die while seeming to; here the copied commitment cannot be opened by it.
    """

    kind = "copied-die-commitment"
    copied: int | None = None

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        r = self.my_table.round if self.table is not None else None
        if r is not None and type_ == "chance-commit" and not self.staged:
            other = next((s for s in sorted(r.commits) if s != self.my_seat), None)
            if other is not None:
                self.staged, self.copied = True, other
                body = dict(body, c=r.commits[other])
        elif r is not None and type_ == "chance-reveal" and self.copied is not None:
            body = dict(body, share=r.shares.get(self.copied, body["share"]))
        super()._write(exp, type_, body)


# -- Collective Conflict (sealed identities and traps) ----------------------------------------------
_IDENTITIES = ("mothership", "decoy")


def _neighbours(q: int, r: int) -> set[tuple[int, int]]:
    return {(q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1)}


def _hexes(action: Action) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """(from, to) of a Collective Conflict action: placements have no source."""
    verb = action[0]
    if verb == "place":
        return None, tuple(action[2])
    if verb == "jump":
        return tuple(action[1]), tuple(action[3])
    if verb in ("move", "cast"):
        return tuple(action[1]), tuple(action[2])
    return None, None


class _Steered(Cheater):
    """A cheater that steers its own choices (always legal ones) toward its chance to cheat.

    ``legal_actions`` offers the bot a preferred subset of the legal actions; the
    subset is a function of the state, so the decision passes ``submit``'s check.
    """

    #: The identity placed first and, with ``surround``, the command unit it crowds with its own units.
    first: str = "decoy"
    surround: bool = False
    #: The trap value cast when it can (None: no preference).
    cast: bool | None = None

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.staged or not legal or self.table is None:
            return legal
        chosen = self._identity_first(legal)
        if self.cast is not None:
            casts = [a for a in chosen if a[0] == "cast" and a[3] is self.cast]
            chosen = casts or [a for a in chosen if a[0] != "cast"] or chosen
        if self.surround:
            chosen = self._crowding(chosen) or chosen
        return chosen

    def _identity_first(self, legal: list[Action]) -> list[Action]:
        other = next(name for name in _IDENTITIES if name != self.first)
        if any(a[0] == "place" and a[1] == self.first for a in legal):
            return [a for a in legal if not (a[0] == "place" and a[1] == other)]
        return legal

    def _unit_hex(self, identity: str) -> tuple[int, int] | None:
        """Where this seat's command unit sealed as ``identity`` stands (from the public view)."""
        view = self.my_table.state.public()
        sids = {sid for sid, value in self.knowledge.sealed.items() if value == identity}
        pieces = {pid for pid, sid in view.get("command_units", ()) if sid in sids}
        for q, r, stack in view.get("stacks", ()):
            if any(unit[0] in pieces for unit in stack):
                return (q, r)
        return None

    def _crowding(self, legal: list[Action]) -> list[Action]:
        """The actions that put one more unit next to the target command unit (none: no preference)."""
        target = self._unit_hex(self.first)
        if target is None:
            return []
        ring = _neighbours(*target)
        occupied = {(q, r): len(stack) for q, r, stack in self.my_table.state.public().get("stacks", ())}

        def gain(action: Action) -> int:
            src, dst = _hexes(action)
            if src == target:
                return -2
            score = 1 if dst in ring and dst not in occupied else 0
            if src in ring and occupied.get(src, 0) == 1:
                score -= 1
            return score

        scored = [(gain(a), a) for a in legal]
        best = max(score for score, _ in scored)
        return [a for score, a in scored if score == best] if best > 0 else []


class _FalseOpening(_Steered):
    """Opens a sealed value of the kind ``what`` that holds ``sealed`` as ``claim`` instead."""

    what = ""
    sealed: Any = None
    claim: Any = None

    def _write(self, exp: Expect, type_: str, body: dict[str, Any]) -> None:
        p = self.my_table.state.pending() if self.table is not None else None
        lie = type_ == "reveal" and not self.staged
        if lie and isinstance(p, RevealOwed) and p.what == self.what and body["value"] == self.sealed:
            self.staged = True
            body = dict(body, value=self.claim)
            probe = self.my_table.state.clone()
            try:
                probe.push(self.my_seat, ("reveal", p.secret, self.claim))
                body["hash"] = probe.hash()
            except Exception:
                pass  # the lie is refused on its face; the commitment check comes first anyway
        super()._write(exp, type_, body)


class DecoyAsMothership(_FalseOpening):
    kind = "decoy-as-mothership"
    first, surround = "decoy", True
    what, sealed, claim = "command-unit", "decoy", "mothership"


class MothershipAsDecoy(_FalseOpening):
    kind = "mothership-as-decoy"
    first, surround = "mothership", True
    what, sealed, claim = "command-unit", "mothership", "decoy"


class TrapClaimedArmed(_FalseOpening):
    kind = "trap-claimed-armed"
    cast = False
    what, sealed, claim = "trap", False, True


class TrapClaimedUnarmed(_FalseOpening):
    kind = "trap-claimed-unarmed"
    cast = True
    what, sealed, claim = "trap", True, False


class RefusedReveal(_Steered, Withhold):
    """Crowds its own Decoy until it is surrounded, then never opens it."""

    kind = "refused-reveal"
    first, surround = "decoy", True

    def _owed(self, exp: Expect) -> bool:
        return exp.type == "reveal"


class TenthMoveBreach(_Steered):
    """Places its Decoy first, keeps its MotherShip back, then breaks CC-7 on a later placement.

    The public check cannot see the breach (it does not know which command unit is
    the MotherShip); the end-of-game audit replays the move with full knowledge.
    """

    kind = "tenth-move-breach"
    first = "decoy"

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.staged:
            return legal
        kept = [a for a in legal if not (a[0] == "place" and a[1] == "mothership")]
        return kept or legal

    def submit(self, action: Action, *, settle: bool = True) -> list[Event]:
        table = self.table
        if not self.staged and table is not None and self.seat is not None:
            breach = self._breach()
            if breach is not None:
                self.staged = True
                exp = table.expected()
                assert exp is not None  # its own decision is due: legal_actions offered one
                probe = table.state.clone()
                probe.push(self.my_seat, breach)
                body = {"action": breach, "commits": {}, "keys": {}, "memo": b"", "hash": probe.hash()}
                self._write(exp, "action", body)
                self._pump()
                return self.take_events()
        return super().submit(action, settle=settle)

    def _breach(self) -> Action | None:
        """A placement the public rules allow and this seat's own knowledge forbids, if any."""
        state = self.my_table.state
        own = set(state.legal_actions(self.my_seat, self.knowledge))
        public = state.legal_actions(self.my_seat, Knowledge(self.my_seat))
        for action in public:
            if action[0] == "place" and action[1] not in _IDENTITIES and action not in own:
                return tuple(action)
        return None


class HiddenTenthMoveBreach(TenthMoveBreach):
    """Breaks CC-7 as above, then opens its Decoy as the MotherShip in its end-of-game secrets.

    With that opening the full-knowledge replay would find the MotherShip on the board
    and the placement legal; the audit checks every opening against its commitment first.
    """

    kind = "hidden-tenth-move-breach"

    def _secrets_body(self) -> dict[str, Any]:
        body = super()._secrets_body()
        if self.staged:
            sealed = body["sealed"].items()
            body["sealed"] = {sid: [salt, "mothership" if value == "decoy" else value] for sid, (salt, value) in sealed}
        return body


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
        ForgedDie,
        WithheldDie,
        DieAbort,
        EarlyDieReveal,
        CopiedDieCommitment,
        DecoyAsMothership,
        MothershipAsDecoy,
        TenthMoveBreach,
        HiddenTenthMoveBreach,
        TrapClaimedArmed,
        TrapClaimedUnarmed,
        RefusedReveal,
    )
}
GAME_CATALOGUE.update(BINDING_CATALOGUE)
CHEATS.update(BINDING_CHEATS)
GAME_CATALOGUE.update(SILENCE_CATALOGUE)
CHEATS.update(SILENCE_CHEATS)
GAME_CATALOGUE.update(CARD_CATALOGUE)
CHEATS.update(CARD_CHEATS)
assert set(CHEATS) == set(CATALOGUE) | set(GAME_CATALOGUE) and not set(CATALOGUE) & set(GAME_CATALOGUE)

#: The kind of verdict each cheat stages (``protocol.sim.network.classify``), where it is not the
#: cheat's own name: the kind names what the evidence proves.  A failing shuffle proof shows a
#: false shuffle pass, not whether a card was substituted or a pair tagged; a seat that goes
#: silent, in a two-seat game after a claim too, is caught withholding (disconnected).
STAGES: dict[str, str] = {
    "substituted-card": "false-shuffle-pass",
    "tagged-duplicate-card": "false-shuffle-pass",
    "copied-lock": "false-lock-pass",
    "forged-die": "false-reveal",
    "copied-die-commitment": "false-reveal",
    "early-die-reveal": "wrong-entry-type",
    "withheld-die": "withhold",
    "die-abort": "withhold",
    "dice-veto": "withhold",
    "two-seat-ejection": "withhold",
    "decoy-as-mothership": "false-reveal",
    "mothership-as-decoy": "false-reveal",
    "hidden-tenth-move-breach": "false-reveal",
    "trap-claimed-armed": "false-reveal",
    "trap-claimed-unarmed": "false-reveal",
    "tenth-move-breach": "illegal-action",
    "refused-reveal": "withhold",
}


def staged_kind(cheat: str) -> str:
    """The verdict kind ``cheat`` stages (what ``classify`` must call the honest peers' verdicts)."""
    if cheat not in CHEATS:
        raise KeyError(f"unknown cheat {cheat!r}")
    return STAGES.get(cheat, cheat)
