"""The base classes of the cheat catalogue (:mod:`protocol.sim.cheats.catalogue` and its companions).

Kept apart from the catalogue so that the cheats written in other modules (:mod:`.binding`,
:mod:`.cards`, :mod:`.dice`, :mod:`.sealed`, :mod:`.silence`) build on them and the catalogue
imports those modules: every import goes one way.

Each cheat says what it attacks in protocol terms only: ``needs`` is the kind of pending a game's
engine must produce for the cheat to have its chance (a pending class, or a :class:`ChanceKind`
for a chance), ``seats`` a number of seats it needs, ``stages`` the verdict kind its evidence
proves.  The catalogue learns from each game's engine folder which games offer what it needs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engines.core import Action, Chance, ChanceKind
from protocol.crypto.randomness import joint_value, outcome
from protocol.crypto.signing import SigningKey
from protocol.envelope import Envelope
from protocol.envelope import seal as seal_envelope
from protocol.session import PeerSession
from protocol.table import Expect, Round, Table


class Cheater(PeerSession):
    """A peer that stages ``kind`` once, at its first opportunity after the seed exchange."""

    kind: ClassVar[str] = ""
    #: What the cheater does, as ``--list-cheats`` says it.
    text: ClassVar[str] = ""
    #: The kind of pending a game must produce for this cheat to be staged in it (None: any game).
    needs: ClassVar[object | None] = None
    #: The number of seats the cheat needs (None: any number the game allows).
    seats: ClassVar[int | None] = None
    #: The verdict kind the cheat's evidence proves (``protocol.sim.network.classify``); "": its own name.
    stages: ClassVar[str] = ""
    staged = False

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
        super().__init__(room, seat, signing_key, secret, creator, auto_vote, dev_timeout_ms)
        #: The cheater's own per-game secret, which it may use in ways no honest seat does.
        self.secret = secret or b""

    @property
    def my_table(self) -> Table:
        """The replica, once the genesis is in (every cheat is staged after it)."""
        assert self.table is not None
        return self.table

    @property
    def my_round(self) -> Round:
        """The round of commitments or shares now open (a dice cheat acts only while one is)."""
        r = self.my_table.round
        assert r is not None
        return r

    @property
    def my_seat(self) -> int:
        """The cheater's seat: a cheater always sits (an observer has nothing to cheat with)."""
        assert self.seat is not None
        return self.seat

    def _ready(self, exp: Expect) -> bool:
        return not self.staged and self.table is not None and self.my_table.phase == "play"

    def _emit(self, env: Envelope) -> None:
        self._writer.queue_entry(env)

    def _raw(self, seq: int, seat: int, type_: str, body: dict[str, Any], prev: bytes | None = None) -> Envelope:
        key = self._writer.key
        assert key is not None and self.table is not None
        return seal_envelope(
            key, self.room, seq, prev or self.my_table.head_digest, seat, type_, body, game=self.my_table.game_id
        )


class OnWrite(Cheater):
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

    def _with_elements(self, exp: Expect, type_: str, body: dict[str, Any], elements: list[Any]) -> Envelope:
        """The entry ``body`` again with its card pass carrying ``elements``, signed by this seat."""
        body["passed"] = {**body["passed"], "elements": elements}
        return self._raw(exp.seq, self.my_seat, type_, body)


# -- dice (interactive chance) -----------------------------------------------------------------
class DiceCheater(Cheater):
    """A dice cheater: it seeks the decisions that roll dice, and knows what its share does.

    Its decisions (always legal ones) are the decisions after which an interactive chance is
    pending, whenever there is one; otherwise those of its game's ``easy`` AI, which walks
    toward its goals.  ``legal_actions`` offers the bot that choice (computed once per entry:
    the AI keeps state between calls, and is asked only when no decision rolls).
    """

    needs = ChanceKind.INTERACTIVE
    _ai: Any = None
    _plan: tuple[int, Any] | None = None
    _rolling: tuple[int, list[Action]] | None = None

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.staged or len(legal) <= 1 or self.table is None:
            return legal
        rolling = self._rolls(legal)
        if rolling:
            return rolling
        make = self.my_table.spec.bots.get("easy")
        if make is None:
            return legal
        if self._plan is None or self._plan[0] != self.my_table.head:
            if self._ai is None:
                self._ai = make(self.my_seat, b"sealed-table/cheater")
            choice = tuple(self._ai.choose(self.my_table.state, self.knowledge, legal))
            self._plan = (self.my_table.head, choice if choice in legal else legal[0])
        return [self._plan[1]]

    def _rolls(self, legal: list[Action]) -> list[Action]:
        """The legal decisions after which an interactive chance is pending (worked out once per entry)."""
        head = self.my_table.head
        if self._rolling is None or self._rolling[0] != head:
            state, knowledge = self.my_table.state, self.knowledge
            found = []
            for action in legal:
                probe = state.clone()
                probe.push(self.my_seat, action, knowledge)
                pending = probe.pending()
                if isinstance(pending, Chance) and pending.kind is ChanceKind.INTERACTIVE:
                    found.append(action)
            self._rolling = (head, found)
        return self._rolling[1]

    def _reveals_last(self) -> bool:
        r = self.table.round if self.table is not None else None
        return r is not None and r.type == "chance-reveal" and r.index == len(r.writers) - 1

    def _die_with(self, share: bytes) -> int:
        """The outcome if this seat reveals ``share`` now (only meaningful when it reveals last)."""
        r = self.my_round
        shares = dict(r.shares)
        shares[self.my_seat] = share
        label = r.label
        return outcome(joint_value([shares[s] for s in sorted(shares)], label), label, r.outcomes)

    def _worth(self, value: float) -> float:
        """How much the cheater likes an outcome: high when its own decision called for the roll, low otherwise."""
        caller = next((e.seat for e in reversed(self.my_table.log) if e.type == "action"), None)
        return value if caller == self.my_seat else -value
