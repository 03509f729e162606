"""MemoryBot reads the other players' public plays as the greedy scoring plays, and its deals respect the reading."""

from __future__ import annotations

from typing import ClassVar

from engines.core import Referee
from engines.core.seeded import SeededStream
from engines.system_launch import SPEC, GreedyBot, MemoryBot
from engines.system_launch.bots.reading import HandReading
from engines.system_launch.cards import (
    ANTIVIRUS,
    CARD_KIND,
    CRASH,
    HACKER_ATTACK,
    PARTS,
    PHISHING,
    PROCESSOR,
    RAM,
)
from tests.engines.system_launch.helpers import Table, card


def _protection_before_parts() -> tuple[Table, MemoryBot]:
    """Seat 1 (greedy) holds no Part and builds its Antivirus; then seat 0 (memory) is to act."""
    hands = [
        [card(PROCESSOR, 0), card(RAM, 0), card(PROCESSOR, 1), card(RAM, 1)],
        [card(ANTIVIRUS, 0), card(CRASH, 0), card(HACKER_ATTACK, 0), card(PHISHING, 0)],
    ]
    t = Table(2, hands, top=[card(CRASH, 1), card(PROCESSOR, 2)], first=1)
    bot = MemoryBot(0, b"read")
    bot.observe(t.state, t.seats[0])  # its opening hand, before seat 1's turn
    greedy = GreedyBot(1, b"read")
    action = greedy.choose(t.state, t.seats[1], t.state.legal_actions(1, t.seats[1]))
    assert action[0] == "build" and CARD_KIND[action[2]] == ANTIVIRUS  # the set-up: it had no Part to build
    t.do(1, action)
    assert t.state.pending().seat == 0
    bot.observe(t.state, t.seats[0])
    return t, bot


def test_a_protection_built_while_short_of_parts_tells_the_hand_holds_none_of_them():
    t, bot = _protection_before_parts()
    hand = t.state.hands[1]
    assert hand and all(bot.reading.forbidden.get(slot, frozenset()) >= PARTS for slot in hand)
    for _ in range(40):
        dealt = dict(bot.deal(t.state) or ())
        assert not any(CARD_KIND[dealt[slot]] in PARTS for slot in hand)


def test_without_the_reading_the_same_deal_gives_that_hand_parts():
    # the control: the same cards dealt with no reading put Parts in that hand most of the time
    t, bot = _protection_before_parts()
    hand = t.state.hands[1]
    bot.reading.forbidden.clear()
    with_parts = sum(any(CARD_KIND[dict(bot.deal(t.state) or ())[s]] in PARTS for s in hand) for _ in range(40))
    assert with_parts > 20


def test_a_reading_nothing_fits_is_ignored_rather_than_failing_the_deal():
    reading = HandReading(0)
    reading.forbidden = {7: frozenset(range(11))}  # no kind at all
    dealt = reading.deal([7, 8], [card(RAM, 0), card(CRASH, 0)], SeededStream(b"x"))
    assert sorted(c for _, c in dealt) == sorted([card(RAM, 0), card(CRASH, 0)])


class Reader(MemoryBot):
    """Checks at every decision that each reading is true of the card really in that slot."""

    truth: ClassVar[dict[int, int]] = {}
    read = 0

    def lookahead(self, state, scored):
        return self.pick(scored)  # the reading is under test here, not the look-ahead

    def observe(self, state, knowledge):
        super().observe(state, knowledge)
        for slot, kinds in self.reading.forbidden.items():
            assert CARD_KIND[Reader.truth[slot]] not in kinds, (state.round, slot, kinds)
            Reader.read += 1


def test_the_readings_of_greedy_players_are_true():
    Reader.read = 0
    for g in range(40):
        seed = f"reading/{g}".encode()
        players = 3 + g % 4
        referee = Referee(SPEC.new_state(players, {}), seed)
        Reader.truth = referee.truth.cards
        referee.play([Reader(s, seed) if s == g % players else GreedyBot(s, seed) for s in range(players)])
    assert Reader.read > 100
