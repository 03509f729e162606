"""The route of a move (``paths.move_path``): each unit kind, gates, stacks, jumps, and a property over random games.

Routes are checked against the reference generator's own step rules
(:mod:`tests.engines.collective_conflict.reference`), which are written from the
rule text independently of the route finder.
"""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.collective_conflict import CollectiveConflictState
from engines.collective_conflict.paths import move_path, public_move_path
from engines.collective_conflict.rules import CLIMBER, COMMAND_KINDS, JUMPER, NETCASTER, RUNNER
from engines.core import Decision, IllegalAction, RandomBot, Referee
from engines.core.hexgrid import axial_neighbours, distance, hex_id, hex_qr
from tests.engines.collective_conflict.helpers import build
from tests.engines.collective_conflict.reference import _can_slide, _connected, _step_ok

RING5 = {(1, 0): "1R", (1, -1): "0M", (0, -1): "1M", (-1, 0): "1J", (-1, 1): "0J"}


def unit_actions(state: CollectiveConflictState) -> list[tuple]:
    return [a for a in state._public_legal() if a[0] in ("move", "cast", "jump")]


def test_mothership_slides_one_hex():
    state, _ = build({(0, 0): "0D", (1, 0): "1M", (2, 0): "0M"})
    assert move_path(state, ("move", (0, 0), (1, -1))) == [(0, 0), (1, -1)]
    assert move_path(state, ("move", (0, 0), (0, 1))) == [(0, 0), (0, 1)]


def test_runner_route_goes_round_a_gate_it_cannot_pass():
    # (0, 0) is the mouth of the ring: both hexes flanking the way in are occupied.
    state, _ = build({**RING5, (0, 1): "0R"})
    with pytest.raises(IllegalAction):
        move_path(state, ("move", (0, 1), (0, 0)))
    route = move_path(state, ("move", (0, 1), (-2, 1)))
    assert route == [(0, 1), (-1, 2), (-2, 2), (-2, 1)]
    assert (0, 0) not in route


def test_runner_route_detours_to_keep_contact():
    # The straight slide (1, 0) -> (2, -1) touches nothing on either side: it would leave the structure.
    units = {(0, -1): "0M", (0, 0): "1M", (0, 1): "1R", (1, -2): "0D", (1, 0): "1R", (2, -2): "0R"}
    state, _ = build(units, current=1)
    assert move_path(state, ("move", (1, 0), (2, -1))) == [(1, 0), (1, -1), (2, -1)]


def test_runner_route_is_shortest_with_ties_to_the_earliest_direction():
    state, _ = build({**RING5, (2, -1): "0R"})
    # Going north round the ring is shorter than going south.
    assert move_path(state, ("move", (2, -1), (-1, -1))) == [(2, -1), (2, -2), (1, -2), (0, -2), (-1, -1)]
    # (-2, 1) is six slides either way; the tie goes to the earlier first step (NW before SE).
    north = move_path(state, ("move", (2, -1), (-2, 1)))
    south = [(2, -1), (2, 0), (1, 1), (0, 1), (-1, 2), (-2, 2), (-2, 1)]
    assert all(_can_slide(a, b, set(RING5)) for a, b in itertools.pairwise(south))
    assert len(north) == 7 and north[1] == (2, -2)


def test_runner_route_with_a_data_core_hop_is_the_slide_alone():
    state, _ = build({(0, 0): "0M", (1, 0): "1M", (-1, 0): "0R"})
    state.cores.add(hex_id(2, 0))
    state._legal = state._legal_set = None
    hop = [a for a in unit_actions(state) if a[0] == "move" and len(a) == 4]
    assert hop
    for action in hop:
        assert move_path(state, action) == move_path(state, action[:3])
        assert action[3] not in move_path(state, action)[1:]


def test_netcaster_route_is_exactly_four_distinct_slides():
    units = {(q, 0): "1R" for q in range(1, 6)}
    units[(0, 0)] = "0M"
    units[(1, -1)] = "0N"
    state, _ = build(units)
    casts = [a for a in unit_actions(state) if a[0] == "cast"]
    assert casts
    for action in casts:
        route = move_path(state, action)
        assert len(route) == 5 and len(set(route)) == 5
    assert move_path(state, ("cast", (1, -1), (5, -1), True)) == [(1, -1), (2, -1), (3, -1), (4, -1), (5, -1)]
    # The private form and the public form (with the secret id) give the same route.
    public = next(a for a in casts if a[2] == (5, -1))
    assert move_path(state, public) == move_path(state, ("cast", (1, -1), (5, -1), False))


def test_classic_netcaster_route_is_three_slides():
    units = {(q, 0): "1R" for q in range(1, 6)}
    units[(0, 0)] = "0Q"
    units[(1, -1)] = "0N"
    state, _ = build(units, classic=True)
    assert move_path(state, ("move", (1, -1), (4, -1))) == [(1, -1), (2, -1), (3, -1), (4, -1)]
    with pytest.raises(IllegalAction):
        move_path(state, ("cast", (1, -1), (4, -1), True))


def test_climber_steps_up_across_and_down():
    units = {(0, 0): ["0R", "0C"], (1, 0): "1R", (2, 0): "1J", (0, 1): "0M", (-1, 0): "1M"}
    state, _ = build(units)
    assert move_path(state, ("move", (0, 0), (1, 0))) == [(0, 0), (1, 0)]  # one step across
    assert move_path(state, ("move", (0, 0), (2, 0))) == [(0, 0), (1, 0), (2, 0)]  # two steps across
    assert move_path(state, ("move", (0, 0), (2, -1))) == [(0, 0), (1, 0), (2, -1)]  # across, then down
    ground, _ = build({(0, 0): "0C", (1, 0): "1R", (2, 0): "0M", (1, -1): "1M"})
    assert move_path(ground, ("move", (0, 0), (1, 0))) == [(0, 0), (1, 0)]  # up from board level


def test_climber_height_gate_forces_the_way_over_a_stack():
    units = {(0, 0): ["0R", "0C"], (1, -1): ["1R", "1C"], (0, 1): ["1J", "0J"], (-1, 0): "0M", (-1, 1): "1M"}
    state, _ = build(units)
    # The direct step to (1, 0) passes between two stacks higher than both ends; up and over is allowed.
    assert move_path(state, ("move", (0, 0), (1, 0))) == [(0, 0), (1, -1), (1, 0)]


def test_jumper_routes_are_their_straight_lines():
    state, _ = build({(-1, 0): "0J", (0, 0): "0M", (1, 0): "1R", (1, 1): "1M", (2, 1): "0R"})
    assert move_path(state, ("move", (-1, 0), (2, 0))) == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert move_path(state, ("jump", (-1, 0), (2, 0), (2, 2))) == [(-1, 0), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]


def test_anything_but_a_legal_unit_move_is_refused_and_changes_nothing():
    state, _ = build({**RING5, (2, -1): "0R"})
    before = state.hash()
    for bad in [
        ("move", (2, -1), (0, 0)),  # gated pocket
        ("move", (1, 0), (2, 0)),  # seat 1's unit
        ("move", (2, -1), (2, -1)),
        ("cast", (2, -1), (2, 0), True),  # a Runner does not cast
        ("jump", (2, -1), (2, 0)),
        ("place", "runner", (3, -1)),
        ("move", (2, -1)),
        ("move", "x", (2, 0)),
        (),
        None,
    ]:
        with pytest.raises(IllegalAction):
            move_path(state, bad)
    assert state.hash() == before


# -- the property: every legal unit move of random positions, checked step by step ---------------
def _check_route(state: CollectiveConflictState, action: tuple, route: list[tuple[int, int]]) -> None:
    src, dst = action[1], action[3] if action[0] == "jump" else action[2]
    s = state.settings
    occupied = {hex_qr(h) for h in state.stacks}
    heights = {hex_qr(h): len(stack) for h, stack in state.stacks.items()}
    kind = state.p_kind[state.stacks[hex_id(*src)][-1]]
    assert route[0] == src and route[-1] == dst, (action, route)
    assert all(distance(a, b) == 1 for a, b in itertools.pairwise(route)), (action, route)
    alone = heights[src] == 1
    rest = occupied - {src} if alone else occupied
    assert _connected(rest), "the structure without the moving unit stays connected"
    assert _connected(rest | {dst}), "and with it at its end"
    if kind == CLIMBER:
        height = dict(heights)
        height[src] -= 1
        assert len(route) in (2, 3)
        assert all(_step_ok(a, b, height) for a, b in itertools.pairwise(route)), (action, route)
        if len(route) == 3:
            assert height[src] > 0 and height.get(route[1], 0) > 0  # two steps only across the top (CC-13)
            assert distance(src, dst) == 2 or not _step_ok(src, dst, height)  # the shortest route is taken
        return
    if kind == JUMPER:
        legs = (
            [route] if action[0] == "move" else [route[: route.index(action[2]) + 1], route[route.index(action[2]) :]]
        )
        occ = rest
        for leg in legs:
            step = (leg[1][0] - leg[0][0], leg[1][1] - leg[0][1])
            assert all((b[0] - a[0], b[1] - a[1]) == step for a, b in itertools.pairwise(leg))
            assert all(h in occ for h in leg[1:-1]) and len(leg) >= 3 and leg[-1] not in occ
            occ = occ | {leg[-1]}
        return
    # Sliding units: every step a legal slide in contact with the structure, no hex twice.
    assert len(set(route)) == len(route)
    assert all(_can_slide(a, b, rest) for a, b in itertools.pairwise(route)), (action, route)
    if kind in COMMAND_KINDS:
        assert len(route) == 2
    elif kind == NETCASTER:
        assert len(route) == s.netcaster_steps + 1
    else:
        assert kind == RUNNER
        assert len(route) - 1 == _slide_distance(src, dst, rest), "a Runner's route is a shortest one"


def _slide_distance(src: tuple[int, int], dst: tuple[int, int], occupied: set[tuple[int, int]]) -> int:
    seen = {src: 0}
    todo = deque([src])
    while todo:
        a = todo.popleft()
        for b in axial_neighbours(*a):
            if b not in seen and _can_slide(a, b, occupied):
                seen[b] = seen[a] + 1
                todo.append(b)
    return seen[dst]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.sampled_from([2, 3, 6]),
    classic=st.booleans(),
    decisions=st.integers(8, 50),
)
def test_every_route_of_random_positions_is_made_of_legal_steps(seed, players, classic, decisions):
    players = 2 if classic else players
    options = {"classic": True} if classic else {"max_rounds": 20}
    state = CollectiveConflictState(players, options)
    referee = Referee(state, f"paths/{seed}".encode())
    bots = [RandomBot(s, f"paths-bot/{seed}".encode()) for s in range(players)]
    checked = 0
    for _ in range(decisions):
        pending = referee.run_table()
        if not isinstance(pending, Decision):
            break
        public = state.public()
        before = state.hash()
        for action in unit_actions(state):
            route = move_path(state, action)
            _check_route(state, action, route)
            assert public_move_path(public, action) == route, "the client's view gives the same route"
            checked += 1
        assert state.hash() == before, "asking for routes changes nothing"
        seat = pending.seat
        referee.decide(
            seat, bots[seat].choose(state, referee.seats[seat], state.legal_actions(seat, referee.seats[seat]))
        )
