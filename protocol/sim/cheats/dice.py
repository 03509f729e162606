"""Cheats on the shares of an interactive chance (a die rolled by commit-reveal among the seats).

Each is staged in every game whose engine produces an interactive chance: a share opened as
another share (ground for the best die when revealing last), a share withheld (always, or only
when the die would go against the cheater), a share published where its commitment is due, and
another seat's commitment copied.  Registered by :mod:`protocol.sim.cheats.catalogue`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from protocol.envelope import Envelope
from protocol.sim.cheats.base import DiceCheater, OnWrite
from protocol.sim.cheats.generic import Withhold
from protocol.table import Expect


class ForgedDie(OnWrite, DiceCheater):
    """Opens its share commitment with another share; revealing last, it grinds for the best die."""

    kind = "forged-die"
    text = "opens its dice-share commitment with another share (the best die it can grind)"
    stages = "false-reveal"
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
    text = "stops answering when it owes the reveal of its dice share (until declared gone)"
    stages = "withhold"

    def _owed(self, exp: Expect) -> bool:
        return exp.type == "chance-reveal"


class DieAbort(Withhold, DiceCheater):
    """Reveals last, computes the die first, and withholds its share when the die is bad for it.

    The one lever commit-reveal leaves (``protocol/crypto/randomness.py``): it is
    answered by declaring the seat gone, which forfeits, and naming it.
    """

    kind = "die-abort"
    text = "reveals its dice share last and withholds it when the die would go against it"
    stages = "withhold"

    def _owed(self, exp: Expect) -> bool:
        if exp.type != "chance-reveal" or not self._reveals_last():
            return False
        r = self.my_round
        value = self._die_with(self._share(r.label))
        return self._worth(value) < self._worth((r.outcomes - 1) / 2)


class EarlyDieReveal(OnWrite, DiceCheater):
    """Publishes its share in the log where its commitment is due."""

    kind = "early-die-reveal"
    text = "publishes its dice share where its commitment is due (reveal before commit)"
    stages = "wrong-entry-type"
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
    text = "copies the other seat's dice commitment, then reveals its share"
    stages = "false-reveal"
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


DICE: tuple[type[DiceCheater], ...] = (ForgedDie, WithheldDie, DieAbort, EarlyDieReveal, CopiedDieCommitment)
