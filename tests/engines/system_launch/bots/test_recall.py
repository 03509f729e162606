"""What the System Launch bots remember (Recall), and that MemoryBot's look-ahead deals only what it has not seen."""

from __future__ import annotations

from typing import ClassVar

from engines.core import Decision, Referee
from engines.system_launch import SPEC, GreedyBot, MemoryBot
from engines.system_launch.cards import GRAPHICS_CARD, HACKER_ATTACK, HARD_DRIVE, PROCESSOR, RAM
from tests.engines.system_launch.helpers import Table, card

P0, R0, H0, G0 = card(PROCESSOR, 0), card(RAM, 0), card(HARD_DRIVE, 0), card(GRAPHICS_CARD, 0)
HA0, HA1 = card(HACKER_ATTACK, 0), card(HACKER_ATTACK, 1)
F = [card(GRAPHICS_CARD, i) for i in range(1, 6)] + [card(HARD_DRIVE, i) for i in range(2, 6)]


def test_the_hand_it_saw_is_forgotten_when_the_hand_moves_and_a_card_taken_from_it_is_remembered():
    t = Table(3, [[HA1, F[0], F[1], F[2]], [P0, R0, H0, G0], [HA0, F[3], F[4], F[5]]], first=2)
    watcher, victim, forgetful = MemoryBot(2, b"r"), MemoryBot(1, b"r"), GreedyBot(1, b"r")
    t.play(2, HA0, 1)  # seat 2 looks at seat 1's hand with its own Hacker Attack!
    watcher.observe(t.state, t.seats[2])
    assert sorted(watcher.recall.held_by(t.state, 1)) == sorted([P0, R0, H0, G0])
    assert t.do(2, ("take-none",)) == Decision(0, "action")
    for bot in (victim, forgetful):
        bot.observe(t.state, t.seats[1])
    t.play(0, HA1, 1)  # seat 0 attacks seat 1 and takes the RAM
    pending = t.do(0, ("take", t.slot_of(1, R0)))
    assert pending == Decision(1, "action")
    victim.observe(t.state, t.seats[1])
    forgetful.observe(t.state, t.seats[1])
    assert victim.recall.held_by(t.state, 0) == [R0]  # the card taken from its own hand
    assert forgetful.recall.held_by(t.state, 0) == []  # greedy remembers nothing
    watcher.observe(t.state, t.seats[2])
    # SL-10: seat 1's hand moved to fresh slots; seat 2 cannot tell which card went where
    assert watcher.recall.held_by(t.state, 1) == [] and watcher.recall.held_by(t.state, 0) == []


class Dealer(MemoryBot):
    """A MemoryBot that checks every deal of its look-ahead against the truth it never reads."""

    truth: ClassVar[dict[int, int]] = {}
    deals = 0

    def deal(self, state):
        dealt = super().deal(state)
        assert dealt is not None, "the memory must account for every card"
        face_up = {c for row in state.system + state.discard for c in row} | ({state.in_play} - {-1})
        known = {self.recall.shown[s] for hand in state.hands for s in hand if s in self.recall.shown}
        cards = [c for _, c in dealt]
        assert len(set(cards)) == len(cards)
        assert not set(cards) & (face_up | known)  # only cards it has not seen are dealt ...
        assert set(cards) | face_up | known == set(range(44))  # ... and all of them
        for slot, _ in dealt:  # ... to the places it cannot see
            assert slot not in self.recall.shown
        for seat, hand in enumerate(state.hands):  # its memory is true
            for slot in hand:
                if slot in self.recall.shown:
                    assert Dealer.truth[slot] == self.recall.shown[slot], (seat, slot)
        Dealer.deals += 1
        return dealt


def test_the_look_ahead_deals_exactly_the_unseen_cards_to_the_unseen_places():
    Dealer.deals = 0
    for g in range(3):
        seed = f"deal/{g}".encode()
        players = 3 + g
        referee = Referee(SPEC.new_state(players, {}), seed)
        Dealer.truth = referee.truth.cards
        referee.play([Dealer(s, seed) if s == g else GreedyBot(s, seed) for s in range(players)])
    assert Dealer.deals > 20
