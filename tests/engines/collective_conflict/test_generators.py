"""Classic perft against published numbers; the fast generator against the reference one."""

from __future__ import annotations

import io
import json
import os

import pytest

from engines.collective_conflict import CollectiveConflictState
from engines.collective_conflict.perft import PUBLISHED, perft_command, perft_counts, perft_state
from engines.core import Decision, RandomBot, Referee
from tests.engines.collective_conflict.reference import reference_actions


def test_classic_perft_matches_the_published_numbers():
    counts = perft_counts(4)
    assert counts[1:] == [PUBLISHED[d] for d in range(1, 5)]


@pytest.mark.skipif(not os.environ.get("CC_PERFT_DEEP"), reason="set CC_PERFT_DEEP=1 for depth 5 and 6")
def test_classic_perft_deep():
    assert perft_counts(6)[5:] == [PUBLISHED[5], PUBLISHED[6]]


def test_the_engine_itself_agrees_with_the_published_numbers():
    state = CollectiveConflictState(2, {"classic": True})
    assert [perft_state(state, d) for d in (1, 2, 3)] == [PUBLISHED[1], PUBLISHED[2], PUBLISHED[3]]


def test_perft_command_prints_every_depth_then_json():
    out = io.StringIO()
    assert perft_command(depth=3, classic=True, out=out) == 0
    lines = out.getvalue().strip().splitlines()
    assert lines[:3] == ["depth 1: 4", "depth 2: 96", "depth 3: 1440"]
    report = json.loads(lines[-1])
    assert report["depth"] == 3 and report["nodes"] == 1440 and report["nodes_per_second"] > 0


@pytest.mark.parametrize(
    ("classic", "players", "seeds"),
    [(True, 2, 6), (False, 2, 3), (False, 3, 2), (False, 5, 2), (False, 8, 1)],
)
def test_fast_and_reference_generators_agree_on_random_positions(classic, players, seeds):
    checked = 0
    for seed in range(seeds):
        options = {"classic": True} if classic else {"max_rounds": 40}
        state = CollectiveConflictState(players, options)
        referee = Referee(state, f"diff/{seed}".encode())
        bots = [RandomBot(s, f"diff-bot/{seed}".encode()) for s in range(players)]
        for _ in range(400 if classic else 10_000):
            pending = referee.run_table()
            if not isinstance(pending, Decision):
                break
            fast = state._public_legal()
            assert len(fast) == len(set(fast)), "the fast generator listed an action twice"
            assert set(fast) == reference_actions(state), (classic, players, seed, checked)
            checked += 1
            seat = pending.seat
            legal = state.legal_actions(seat, referee.seats[seat])
            referee.decide(seat, bots[seat].choose(state, referee.seats[seat], legal))
    assert checked > 50
