"""SL-10: after a Hacker Attack take, only the attacker and the target know which card moved.

Seat 2 looks at seat 1's hand with its own Hacker Attack; then seat 0 attacks seat 1 and takes
one card.  At a real table seat 2 sees only a face-down card change hands; its view must not
show which card seat 0 now holds, nor which of the cards it saw seat 1 still has.
"""

from __future__ import annotations

from engines.core import Decision
from engines.system_launch.cards import GRAPHICS_CARD, HACKER_ATTACK, HARD_DRIVE, PROCESSOR, RAM
from tests.engines.system_launch.helpers import Table, card

P0, R0, H0, G0 = card(PROCESSOR, 0), card(RAM, 0), card(HARD_DRIVE, 0), card(GRAPHICS_CARD, 0)
HA0, HA1 = card(HACKER_ATTACK, 0), card(HACKER_ATTACK, 1)
F = [card(GRAPHICS_CARD, i) for i in range(1, 6)] + [card(HARD_DRIVE, i) for i in range(2, 6)]


def attacked_twice() -> Table:
    t = Table(3, [[HA1, F[0], F[1], F[2]], [P0, R0, H0, G0], [HA0, F[3], F[4], F[5]]], first=2)
    t.play(2, HA0, 1)  # seat 2 sees seat 1's hand ...
    assert t.state.view(t.seats[2])["seen"][1]
    assert t.do(2, ("take-none",)) == Decision(0, "action")
    t.play(0, HA1, 1)  # ... then seat 0 attacks seat 1 and takes the RAM
    t.do(0, ("take", t.slot_of(1, R0)))  # (then seat 1's turn begins: it draws its Phase 1 card)
    return t


def test_a_third_seat_that_saw_the_hand_cannot_tell_which_card_moved():
    t = attacked_twice()
    third = t.state.view(t.seats[2])
    assert third["seen"] == {}, third["seen"]  # not the attacker's new card, not the target's rest
    assert not any(slot in t.seats[2].cards for slot in t.state.hands[0] + t.state.hands[1])


def test_the_attacker_and_the_target_both_know_where_the_card_went():
    t = attacked_twice()
    taken = next(s for s in t.state.hands[0] if t.truth.cards[s] == R0)
    assert [taken, R0] in t.state.view(t.seats[1])["seen"][0]  # the target saw it go
    assert sorted(c for _, c in t.state.view(t.seats[0])["seen"][1]) == sorted([P0, H0, G0])
