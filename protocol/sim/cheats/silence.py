"""Cheats that play with silence: declaring the other seat gone alone (the two-seat rule).

In a two-seat game the only seat that can vote the other gone is the one that benefits.
These cheaters receive their opponent's prompt entry, do not apply it, and write instead a
``gone`` record backed by their own vote alone.  The two-seat rule (docs/protocol.md) makes
that a *claim*, never a result: the opponent's own signed entry for that seq, chained to the
same previous entry, voids it, and play goes on from that entry; a cheater that will not go
on is silent in turn, and the honest seat claims it gone.  That claim is *contested*: the
record holds the cheater's voided claim and no entry of the cheater since, the very record a
seat leaves that claimed, left, and was answered late (:mod:`protocol.claims`), so nobody is
awarded the game.  No one is named a cheater for it (neither seat's silence is signed
evidence), and the cheater gains nothing: the die or card the entry was owed stays what that
entry makes it.
"""

from __future__ import annotations

from typing import Any

from protocol.crypto.randomness import joint_value, outcome
from protocol.envelope import Envelope, Header
from protocol.sim.cheats.base import Cheater, DiceCheater
from protocol.table import Expect


class Ejector(Cheater):
    """Writes a claim in place of the opponent's entry that is already here (once)."""

    seats = 2
    stages = "contested"
    ejected: int | None = None

    def _eject(self, exp: Expect, entry: Envelope) -> bool:
        return True

    def _drain(self) -> None:
        table = self.table
        if not self.staged and table is not None and not self.finished and len(table.active()) == 2:
            exp = table.expected()
            if exp is not None:
                waiting = self._buffer.waiting(exp.seq)
                entry = next((e for e in waiting if e.seat == exp.writer and e.type == exp.type), None)
                ours = entry is not None and exp.writer != self.seat and self._ready(exp)
                if ours and entry is not None and self._eject(exp, entry):
                    self._claim(exp)
                    return
        super()._drain()

    def _claim(self, exp: Expect) -> None:
        self.staged, self.ejected = True, exp.seq
        self._buffer.pop(exp.seq)  # not applied: it is "gone"
        vote = self._sign(exp.seq, "vote", {"target": exp.writer})
        self._writer.queue_notice(vote, "vote")
        self._departures.take_vote(self.table, vote, self.my_seat)
        self._departures.cast(exp.seq, exp.writer)
        body: dict[str, Any] | None = self._gone_body(exp)
        assert body is not None
        self._write(exp, "gone", body)

    def _claim_open(self, env: Envelope | Header) -> bool:
        return False if self.ejected is not None else super()._claim_open(env)

    def _take_entry(self, env: Envelope) -> None:
        if self.ejected is not None and env.seq == self.ejected and env.type != "gone":
            return  # it never takes the entry it declared missing
        super()._take_entry(env)


class TwoSeatEjection(Ejector):
    kind = "two-seat-ejection"
    text = "two seats: declares its opponent gone on its own vote alone right after receiving its prompt entry"


class DiceVeto(Ejector, DiceCheater):
    """Knows its own share: with the opponent's it knows the die, and ejects when it dislikes it."""

    kind = "dice-veto"
    text = "declares its opponent gone on its own vote alone when the opponent's dice share makes the die bad for it"

    def _eject(self, exp: Expect, entry: Envelope) -> bool:
        r = self.my_table.round
        if exp.type != "chance-reveal" or r is None or self.my_seat not in r.writers:
            return False
        shares = dict(r.shares)
        shares[exp.writer] = entry.body["share"]
        shares[self.my_seat] = self._share(r.label)
        if set(shares) != set(r.writers):
            return False
        value = outcome(joint_value([shares[s] for s in sorted(shares)], r.label), r.label, r.outcomes)
        return self._worth(value) < self._worth((r.outcomes - 1) / 2)


SILENCE: tuple[type[Cheater], ...] = (TwoSeatEjection, DiceVeto)
