"""The base classes of the cheat catalogue (:mod:`protocol.sim.cheats.catalogue` and its companions).

Kept apart from the catalogue so that the cheats written in other modules
(:mod:`.cheats_binding`, :mod:`.cheats_cards`, :mod:`.cheats_silence`) build on them
and the catalogue imports those modules: every import goes one way.
"""

from __future__ import annotations

from typing import Any

from engines.core import Action
from protocol.crypto.randomness import joint_value, outcome
from protocol.crypto.signing import SigningKey
from protocol.envelope import Envelope
from protocol.envelope import seal as seal_envelope
from protocol.session import PeerSession
from protocol.table import Expect, Round, Table


class Cheater(PeerSession):
    """A peer that stages ``kind`` once, at its first opportunity after the seed exchange."""

    kind = ""
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
    """A dice cheater: it seeks fights so that dice get rolled, and knows what its share does.

    Its decisions (always legal ones) are those of its game's ``easy`` AI, which walks
    toward its goals and attacks whenever it may; ``legal_actions`` offers the bot that
    one action (computed once per entry: the AI keeps state between calls).
    """

    _ai: Any = None
    _plan: tuple[int, Any] | None = None

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if self.staged or len(legal) <= 1 or self.table is None:
            return legal
        if ("attack",) in legal:
            return [("attack",)]
        make = self.my_table.spec.bots.get("easy")
        if make is None:
            return legal
        if self._plan is None or self._plan[0] != self.my_table.head:
            if self._ai is None:
                self._ai = make(self.my_seat, b"sealed-table/cheater")
            choice = tuple(self._ai.choose(self.my_table.state, self.knowledge, legal))
            self._plan = (self.my_table.head, choice if choice in legal else legal[0])
        return [self._plan[1]]

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
        """How much the cheater likes an outcome: a high die on its own turn, a low one on the other's."""
        turn = getattr(self.my_table.state, "turn", None)
        return value if turn == self.my_seat else -value
