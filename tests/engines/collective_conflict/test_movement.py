"""Every unit kind's movement: gates, coherence, stacks, double jumps, exact walks."""

from __future__ import annotations

from engines.core.hexgrid import distance
from tests.engines.collective_conflict.helpers import build, dests
from tests.engines.collective_conflict.reference import reference_actions

RING5 = {(1, 0): "1R", (1, -1): "0M", (0, -1): "1M", (-1, 0): "1J", (-1, 1): "0J"}


def test_runner_cannot_enter_a_gate_but_reaches_the_rest_of_the_perimeter():
    state, _ = build({**RING5, (2, -1): "0R"})
    reach = dests(state, (2, -1))
    assert (0, 0) not in reach  # both hexes flanking the only way in are occupied
    assert (0, 1) in reach
    assert (-2, 1) in reach  # far side of the structure
    assert set(state._public_legal()) == reference_actions(state)


def test_a_unit_holding_the_structure_together_cannot_move():
    state, _ = build({(0, 0): "0M", (1, 0): "0R", (2, 0): "1M"})
    assert dests(state, (1, 0)) == set()
    assert dests(state, (0, 0))  # the end of the line may move


def test_a_unit_under_a_climber_cannot_move_but_the_climber_can():
    state, _ = build({(0, 0): "0M", (1, 0): ["0R", "1C"], (2, 0): "1M"}, current=0)
    assert dests(state, (1, 0)) == set()
    state.current = 1
    state._legal = None
    assert dests(state, (1, 0))


def test_mothership_and_decoy_step_one_hex_along_the_perimeter():
    state, _ = build({(0, 0): "0D", (1, 0): "1M", (2, 0): "0M"})
    assert dests(state, (0, 0)) == {(1, -1), (0, 1)}


def _line_with_netcaster(classic: bool):
    units = {(q, 0): "1R" for q in range(1, 6)}
    units[(0, 0)] = "0Q" if classic else "0M"
    units[(1, -1)] = "0N"
    return build(units, classic=True) if classic else build(units)


def test_netcaster_walks_exactly_four_steps_and_casts_a_sealed_trap():
    state, _ = _line_with_netcaster(classic=False)
    reach = dests(state, (1, -1))
    assert (5, -1) in reach and (4, -1) not in reach and (3, -1) not in reach
    casts = [a for a in state._public_legal() if a[0] == "cast"]
    assert casts and all(a[3] == state.next_sid for a in casts)


def test_classic_netcaster_walks_exactly_three_steps():
    state, _ = _line_with_netcaster(classic=True)
    reach = dests(state, (1, -1))
    assert (4, -1) in reach and (5, -1) not in reach
    assert not [a for a in state._public_legal() if a[0] == "cast"]


JUMP = {(-1, 0): "0J", (0, 0): "0M", (1, 0): "1R", (1, 1): "1M", (2, 1): "0R"}


def test_jumper_single_and_double_jumps_never_back_to_the_start():
    state, _ = build(JUMP)
    legal = state._public_legal()
    assert ("move", (-1, 0), (2, 0)) in legal
    assert ("jump", (-1, 0), (2, 0), (2, 2)) in legal
    assert not [a for a in legal if a[0] == "jump" and a[3] == (-1, 0)]
    assert set(legal) == reference_actions(state)


def test_classic_jumper_jumps_once():
    state, _ = build({(-1, 0): "0J", (0, 0): "0Q", (1, 0): "1R", (1, 1): "1Q", (2, 1): "0R"}, classic=True)
    assert not [a for a in state._public_legal() if a[0] == "jump"]


def test_wreck_removal_after_the_first_landing_ends_the_jump():
    units = {(-1, 0): "0J", (0, 0): "W", (1, 0): "0M", (1, 1): "1M", (2, 1): "1R"}
    state, _ = build(units)
    legal = state._public_legal()
    assert ("move", (-1, 0), (2, 0)) in legal
    assert not [a for a in legal if a[0] == "jump" and a[2] == (2, 0)]
    unremoved, _ = build(units, wreck_removal=False)
    assert [a for a in unremoved._public_legal() if a[0] == "jump" and a[2] == (2, 0)]
    state.push(0, ("move", (-1, 0), (2, 0)))
    assert state.stacks.get(_h(0, 0)) is None  # the freed Wreck went at once


def _h(q, r):
    from engines.core.hexgrid import hex_id

    return hex_id(q, r)


def test_climber_climbs_from_board_level_one_step_only():
    state, _ = build({(0, 0): "0C", (1, 0): "1R", (2, 0): "0M", (1, -1): "1M"})
    reach = dests(state, (0, 0))
    assert (1, 0) in reach and (1, -1) in reach  # up onto stacks
    assert all(distance((0, 0), d) == 1 for d in reach)


def test_climber_on_top_goes_two_steps_across_or_across_then_down():
    units = {(0, 0): ["0R", "0C"], (1, 0): "1R", (2, 0): "1J", (0, 1): "0M", (-1, 0): "1M"}
    state, _ = build(units)
    reach = dests(state, (0, 0))
    assert (2, 0) in reach  # across (1, 0), across (2, 0)
    assert (2, -1) in reach  # across (1, 0), then down
    occupied = set(units)
    for d in reach:
        assert distance((0, 0), d) <= 2
        if distance((0, 0), d) == 2:  # nothing after stepping down: the first step went across a stack
            assert any(distance(m, d) == 1 and distance(m, (0, 0)) == 1 for m in occupied)
    classic, _ = build({(0, 0): ["0R", "0C"], (1, 0): "1R", (2, 0): "1J", (0, 1): "0Q", (-1, 0): "1Q"}, classic=True)
    assert all(distance((0, 0), d) == 1 for d in dests(classic, (0, 0)))


def test_height_gate_blocks_a_climber_between_two_higher_stacks():
    # one-step Climber (classic) so that no way round over a stack exists
    units = {(0, 0): ["0R", "0C"], (1, -1): ["1R", "1C"], (0, 1): ["1J", "0J"], (-1, 0): "0Q", (-1, 1): "1Q"}
    state, _ = build(units, classic=True)
    assert (1, 0) not in dests(state, (0, 0))
    lower = dict(units)
    lower[(1, -1)] = "1R"
    lower[(0, 1)] = "1J"
    state2, _ = build(lower, classic=True)
    assert (1, 0) in dests(state2, (0, 0))
    assert set(state._public_legal()) == reference_actions(state)


def test_stack_top_decides_the_owner_for_placement():
    # seat 0's only unit next to the free hexes is covered by seat 1's Climber
    state, _ = build({(0, 0): "0R", (1, 0): ["0J", "1C"], (-1, 0): "1M"}, moves=1)
    hexes = {a[2] for a in state._public_legal() if a[0] == "place"}
    assert (2, 0) not in hexes and (2, -1) not in hexes  # touch only the covered Jumper
    assert (1, -1) in hexes and (0, 1) in hexes  # touch the free runner (before activation, foreign is fine)
