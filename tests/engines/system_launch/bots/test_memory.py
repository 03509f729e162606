"""MemoryBot: it remembers what its seat was shown, and nothing it was not shown changes its play."""

from __future__ import annotations

from typing import ClassVar

import pytest

from engines.core import Knowledge, Referee
from engines.system_launch import SPEC, GreedyBot, MemoryBot
from engines.system_launch.bots import memory


@pytest.fixture
def small_lookahead(monkeypatch):
    """A small rollout budget: this checks what the MemoryBot may know and that it repeats itself, not how
    well it plays, and whole games at the full budget are slow."""
    monkeypatch.setattr(memory, "SCHEDULE", (4, 4))


class Twin:
    """Seat of a MemoryBot played twice: once with its own knowledge, once told every secret.

    Both copies must choose the same action at every decision; the copy told
    everything would differ the moment it used a card its seat was never shown.
    """

    def __init__(self, seat: int, seed: bytes, referee_box: list[Referee]) -> None:
        self.seat = seat
        self.honest = MemoryBot(seat, seed)
        self.told = MemoryBot(seat, seed)
        self.box = referee_box
        self.decisions = 0

    def choose(self, state, knowledge, legal):
        everything = Knowledge(self.seat, dict(self.box[0].truth.cards), dict(knowledge.sealed))
        a = self.honest.choose(state, knowledge, legal)
        b = self.told.choose(state, everything, legal)
        assert a == b, (state.round, a, b)
        self.decisions += 1
        return a


def test_secrets_it_was_never_shown_do_not_change_a_single_choice(small_lookahead):
    decisions = 0
    for g in range(8):
        seed = f"peek/{g}".encode()
        players = 3 + g % 4
        state = SPEC.new_state(players, {})
        box: list[Referee] = []
        referee = Referee(state, seed)
        box.append(referee)
        bots = [Twin(s, seed, box) if s == g % players else GreedyBot(s, seed) for s in range(players)]
        referee.play(bots)
        decisions += sum(b.decisions for b in bots if isinstance(b, Twin))
    assert decisions > 20


class Recorder(MemoryBot):
    """A MemoryBot that checks, at each decision, that every card it remembers is where it says."""

    truth: ClassVar[dict[int, int]] = {}
    remembered_elsewhere = 0

    def lookahead(self, state, scored):
        return self.pick(scored)  # the memory is under test here, not the look-ahead (and 30 games must be quick)

    def choose(self, state, knowledge, legal):
        action = super().choose(state, knowledge, legal)
        for seat in range(state.n):
            for c in self.recall.held_by(state, seat):
                slot = next(s for s in state.hands[seat] if self.recall.shown.get(s) == c)
                assert Recorder.truth[slot] == c
                if seat != self.seat:
                    Recorder.remembered_elsewhere += 1
        return action


def test_it_remembers_the_hands_it_saw_and_its_memory_is_true():
    Recorder.remembered_elsewhere = 0
    for g in range(30):
        seed = f"mem/{g}".encode()
        state = SPEC.new_state(4, {})
        referee = Referee(state, seed)
        Recorder.truth = referee.truth.cards
        referee.play([Recorder(s, seed) for s in range(4)])
    # some Hacker Attack! views (or cards taken from it) were remembered across later decisions
    assert Recorder.remembered_elsewhere > 0
