"""System Launch bots: ties broken by the seeded stream (not by seat), no lock-outs, determinism."""

from __future__ import annotations

import pytest

from engines.core import Knowledge, Referee
from engines.system_launch import SPEC, GreedyBot, MemoryBot
from engines.system_launch.bots import memory
from engines.system_launch.cards import ANTIVIRUS, CRASH, HARD_DRIVE, PHISHING, PROCESSOR, RAM, UPGRADE
from engines.system_launch.state import ACTION
from tests.engines.system_launch.helpers import Table, card

BOTS = [GreedyBot, MemoryBot]


@pytest.fixture
def small_lookahead(monkeypatch):
    """A small rollout budget: this checks what the MemoryBot may know and that it repeats itself, not how
    well it plays, and whole games at the full budget are slow."""
    monkeypatch.setattr(memory, "SCHEDULE", (4, 4))


def _tied_table(event: int) -> Table:
    """Seat 3 to act holding ``event``; seats 0, 1 and 2 have built exactly the same (one Part each)."""
    hands = [
        [card(RAM, 0), card(RAM, 1), card(RAM, 2), card(RAM, 3)],
        [card(HARD_DRIVE, 0), card(HARD_DRIVE, 1), card(HARD_DRIVE, 2), card(HARD_DRIVE, 3)],
        [card(ANTIVIRUS, 0), card(ANTIVIRUS, 1), card(ANTIVIRUS, 2), card(ANTIVIRUS, 3)],
        [event, card(RAM, 5), card(HARD_DRIVE, 5), card(UPGRADE, 0)],
    ]
    # Seat 3 has built RAM and HardDrive and draws an Upgrade!: nothing to build, only junk and events.
    system = {0: [card(PROCESSOR, 0)], 1: [card(PROCESSOR, 1)], 2: [card(PROCESSOR, 2)]}
    system[3] = [card(RAM, 4), card(HARD_DRIVE, 4)]
    t = Table(4, hands, top=[card(UPGRADE, 1)], first=3, system=system)
    assert t.state.pending().seat == 3 and t.state.stage == ACTION
    return t


def _attack_targets(bot_class, event: int, seeds: int) -> set[int]:
    targets = set()
    for i in range(seeds):
        t = _tied_table(event)
        s = t.state
        legal = s.legal_actions(3, t.seats[3])
        action = bot_class(3, f"tie/{i}".encode()).choose(s, t.seats[3], legal)
        if action[0] == "play" and action[2] == event:
            targets.add(action[3])
    return targets


def test_greedy_breaks_a_tie_between_targets_by_its_stream_not_by_the_lowest_seat():
    # seats 0, 1 and 2 are equal in every way the bot can see: each must be the target for some seed
    assert _attack_targets(GreedyBot, card(CRASH, 0), 24) == {0, 1, 2}


def test_six_greedy_bots_do_not_gang_up_on_seat_0():
    games = 150
    wins = [0] * 6
    for g in range(games):
        seed = f"fair/{g}".encode()
        state = SPEC.new_state(6, {})
        over = Referee(state, seed).play([GreedyBot(s, seed) for s in range(6)])
        for w in over.winners:
            wins[w] += 1
    # fair share 1/6 (25 of 150); the lowest-seat tie-break gave seat 0 about 1 game in 150
    assert min(wins) >= 10, wins


def test_no_phishing_on_a_player_already_due_to_skip_or_seen_skipping_lately():
    for bot_class in BOTS:
        t = _tied_table(card(PHISHING, 0))
        s = t.state
        s.skip[0] = s.skip[1] = True  # Phishing! does not stack (SL-6): wasted on them
        bot = bot_class(3, b"lock")
        bot.skipped_round[2] = s.round - 1  # seen skipping in the last round
        action = bot.choose(s, t.seats[3], s.legal_actions(3, t.seats[3]))
        assert not (action[0] == "play" and action[2] == card(PHISHING, 0)), (bot_class, action)


def test_the_same_phishing_is_played_when_nobody_was_skipping():
    # the control: the position above without the skip history draws a Phishing! at someone
    t = _tied_table(card(PHISHING, 0))
    s = t.state
    for i in range(8):
        action = GreedyBot(3, f"ctl/{i}".encode()).choose(s, t.seats[3], s.legal_actions(3, t.seats[3]))
        assert action[0] == "play" and action[2] == card(PHISHING, 0)


def test_bots_are_deterministic_given_their_seed(small_lookahead):
    for players in (4, 6):
        hashes = []
        for _ in range(2):
            seed = f"det/{players}".encode()
            state = SPEC.new_state(players, {})
            bots = [(MemoryBot if s % 2 else GreedyBot)(s, seed) for s in range(players)]
            Referee(state, seed).play(bots)
            hashes.append(state.hash())
        assert hashes[0] == hashes[1]


def test_the_registry_offers_every_bot_name():
    assert {"random", "greedy", "memory"} <= set(SPEC.bots)
    assert isinstance(SPEC.bots["memory"](0, b"s"), MemoryBot)
    assert Knowledge(0).cards == {}
