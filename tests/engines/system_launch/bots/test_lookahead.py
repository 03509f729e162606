"""MemoryBot's look-ahead: successive halving spends the later deals on the better half of the candidates."""

from __future__ import annotations

from engines.core import Referee
from engines.system_launch import SPEC, GreedyBot, MemoryBot
from engines.system_launch.bots import memory


class Scripted(MemoryBot):
    """Rollouts replaced by a script: candidate ``favourite`` always wins, ``early`` wins only its first deals."""

    favourite = 2
    early = 1

    def __init__(self, seat: int, seed: bytes) -> None:
        super().__init__(seat, seed)
        self.calls: dict[int, int] = {}
        self.order: list[tuple] = []

    def rollout(self, state, cards, action, seed):
        j = self.order.index(action)
        self.calls[j] = self.calls.get(j, 0) + 1
        if j == self.favourite:
            return 1
        return 1 if j == self.early and self.calls[j] <= memory.SCHEDULE[0] else 0

    def candidates(self, scored):
        self.order = super().candidates(scored)
        return self.order


def first_decision():
    state = SPEC.new_state(4, {})
    referee = Referee(state, b"look")
    pending = referee.run_table()
    return state, referee.seats[pending.seat], pending.seat


def test_the_better_half_gets_the_later_deals_and_the_most_wins_over_all_deals_decides(monkeypatch):
    monkeypatch.setattr(memory, "SCHEDULE", (4, 6))
    state, knowledge, seat = first_decision()
    bot = Scripted(seat, b"look")
    bot.observe(state, knowledge)
    scored = bot.act_scores(state, state.legal_actions(seat, knowledge))
    choice = bot.lookahead(state, scored)
    n = len(bot.order)
    assert n == memory.CANDIDATES, bot.order  # an opening hand offers a few different choices
    assert choice == bot.order[Scripted.favourite]
    better = {Scripted.favourite, Scripted.early}  # the two that won in the first round
    assert bot.calls == {j: 4 + (6 if j in better else 0) for j in range(n)}


def test_the_rollout_players_know_who_was_seen_skipping(monkeypatch):
    # Phishing! on a player seen skipping lately is held back by greedy players; so it is in their rollouts
    seen: list[dict[int, int]] = []

    class Spy(GreedyBot):
        def choose(self, state, knowledge, legal):
            seen.append(dict(self.skipped_round))
            return super().choose(state, knowledge, legal)

    state, knowledge, seat = first_decision()
    bot = MemoryBot(seat, b"look")
    bot.observe(state, knowledge)
    bot.skipped_round = {(seat + 1) % 4: state.round}
    cards = dict(bot.recall.shown)
    cards.update(bot.deal(state) or ())
    monkeypatch.setattr(memory, "GreedyBot", Spy)
    bot.rollout(state, cards, ("pass",), b"spy")
    assert seen and all(s.get((seat + 1) % 4, -1) >= state.round for s in seen)
