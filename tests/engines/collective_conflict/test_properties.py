"""Invariants over random games: one structure, stacks of Climbers only, stable hashes and clones."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.collective_conflict import CollectiveConflictState
from engines.core import Decision, IllegalAction, Knowledge, RandomBot, Referee
from engines.core.encoding import canonical_encode
from engines.core.hexgrid import is_connected


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 5, 9]))
def test_random_games_keep_every_invariant(seed, players):
    state = CollectiveConflictState(players, {"max_rounds": 12})
    referee = Referee(state, f"prop/{seed}".encode())
    bots = [RandomBot(s, f"prop-bot/{seed}".encode()) for s in range(players)]
    while True:
        pending = referee.run_table()
        assert is_connected(state.stacks)  # CC-11 after every action
        for h, stack in state.stacks.items():
            assert stack and all(state.p_pos[p] == h for p in stack)
            assert all(state.p_kind[p] == 4 for p in stack[1:])  # only Climbers stand on stacks
        if not isinstance(pending, Decision):
            break
        copy = state.clone()
        assert copy.hash() == state.hash()
        canonical_encode(state.public())
        seat = pending.seat
        other = (seat + 1) % players
        before = state.hash()
        legal = state.legal_actions(seat, referee.seats[seat])
        try:
            state.check(other, ("move", (0, 0), (0, 1)))
            raise AssertionError("a seat acted out of turn")
        except IllegalAction:
            pass
        assert state.hash() == before
        assert state.legal_actions(other, Knowledge(other)) == []
        referee.decide(seat, bots[seat].choose(state, referee.seats[seat], legal))
        assert copy.hash() == before  # the clone did not move with the original


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 5)), max_size=25))
def test_articulation_points_match_removing_each_hex(steps):
    from engines.core.hexgrid import DELTAS, ORIGIN, articulation_points

    cells = [ORIGIN]
    for index, direction in steps:  # grow a connected group one neighbour at a time
        cell = cells[index % len(cells)] + DELTAS[direction]
        if cell not in cells:
            cells.append(cell)
    ids = set(cells)
    brute = {h for h in ids if not is_connected(ids - {h})}
    assert articulation_points(ids) == brute
