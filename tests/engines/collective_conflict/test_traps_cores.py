"""Traps (CC-14, CC-23), the Runner's Data Core hop and the Virus's targets (CC-16, CC-18, CC-24)."""

from __future__ import annotations

import pytest

from engines.core import Decision, IllegalAction, Knowledge, RevealOwed
from engines.core.hexgrid import hex_id
from tests.engines.collective_conflict.helpers import build, dests
from tests.engines.collective_conflict.reference import reference_actions


def _lay_trap(state, truth, owner, qr, armed=True):
    """A live trap of ``owner`` on ``qr`` (as a NetCaster leaving that hex this round would leave it)."""
    sid = state.next_sid
    state._seal(sid, owner, "trap", list(qr))
    state.traps.append((hex_id(*qr), owner, sid))
    truth.sealed[sid] = armed
    state._legal = None
    return sid


def _unit(state, qr, level=-1):
    return state.stacks[hex_id(*qr)][level]


# -- CC-23: every foreign unit that ends its action on a live trap is caught ----------------------------------

# seat 0 left a trap on (1, 1); seat 1's Runner can reach it, then seat 2's Climber can climb onto it
SEVERAL = {
    (0, 0): "0M",
    (1, 0): "0R",
    (2, 0): "1M",
    (3, 0): "1R",
    (0, 1): "2C",
    (-1, 1): "2M",
}


def test_a_live_trap_catches_every_foreign_unit_that_ends_on_it():
    state, truth = build(SEVERAL, players=3, current=1)
    sid = _lay_trap(state, truth, 0, (1, 1))
    assert (1, 1) in dests(state, (3, 0))
    state.push(1, ("move", (3, 0), (1, 1)))
    assert state.pending() == RevealOwed(0, sid, "trap")
    state.push(0, ("reveal", sid, True), truth)
    first = _unit(state, (1, 1))
    assert first in state.frozen_next
    assert state.pending() == Decision(2, "turn")
    assert (1, 1) in dests(state, (0, 1))  # seat 2's Climber climbs onto the caught Runner
    state.push(2, ("move", (0, 1), (1, 1)))
    second = _unit(state, (1, 1))
    assert second != first and state.p_owner[second] == 2
    assert state.pending() == Decision(0, "turn")  # the trap was revealed already: no second reveal
    assert {first, second} <= state.frozen_next


def test_a_revealed_bluff_catches_nobody_else_either():
    state, truth = build(SEVERAL, players=3, current=1)
    sid = _lay_trap(state, truth, 0, (1, 1), armed=False)
    state.push(1, ("move", (3, 0), (1, 1)))
    state.push(0, ("reveal", sid, False), truth)
    state.push(2, ("move", (0, 1), (1, 1)))
    assert state.pending() == Decision(0, "turn") and state.frozen_next == set()


def test_a_unit_placed_on_a_live_trap_is_caught():
    # (1, 1) touches seat 1's three units and seat 0's none: seat 1 may place there
    units = {(-1, 0): "0M", (0, 0): "0R", (1, 0): "1M", (2, 0): "1R", (2, 1): "1J", (0, 2): "1R", (1, 2): "1J"}
    state, truth = build(units, current=1)
    sid = _lay_trap(state, truth, 0, (1, 1))
    place = ("place", "runner", (1, 1))
    assert place in state._public_legal()
    state.push(1, place)
    assert state.pending() == RevealOwed(0, sid, "trap")
    state.push(0, ("reveal", sid, True), truth)
    placed = _unit(state, (1, 1))
    assert placed in state.frozen_next
    state.push(0, next(a for a in state._public_legal() if a[0] == "place"))
    assert state.pending() == Decision(1, "turn") and placed in state.blocked
    assert dests(state, (1, 1)) == set()


def test_a_trap_revealed_after_its_victim_left_catches_no_wreck():
    state, truth = build(SEVERAL, players=3, current=1)
    sid = _lay_trap(state, truth, 0, (1, 1))
    state.push(1, ("move", (3, 0), (1, 1)))
    victim = _unit(state, (1, 1))
    state.forfeit(1)  # seat 1 leaves before seat 0 reveals: its Runner is a Wreck now
    assert state.pending() == RevealOwed(0, sid, "trap")
    state.push(0, ("reveal", sid, True), truth)
    assert state.p_owner[victim] == -1
    assert state.frozen_next == set() and state.public()["frozen_next"] == []
    assert state.pending() == Decision(2, "turn")


# -- CC-24: a hop reaches only a Data Core on a free hex; the Virus may name a covered unit ---------------------


def test_a_runner_cannot_hop_onto_a_data_core_under_a_unit():
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "1R", (-1, 0): "0R", (3, 0): "1J"}
    state, _ = build(units)
    state.cores = {hex_id(-1, -1), hex_id(2, 0)}  # the second one lies under seat 1's Runner
    state._legal = None
    hops = {a[3] for a in state._public_legal() if a[0] == "move" and len(a) == 4}
    assert hops == {(-1, -1)}
    assert set(state._public_legal()) == reference_actions(state)
    with pytest.raises(IllegalAction):
        state.check(0, ("move", (-1, 0), (3, -1), (2, 0)))
    state.cores = {hex_id(2, 0)}
    state._legal = None
    assert not [a for a in state._public_legal() if a[0] == "move" and len(a) == 4]


def test_a_runner_leaving_a_data_core_may_hop_back_onto_it():
    # a Runner standing on a core (it arrived holding the Virus, then spent it) may collect it after leaving
    units = {(0, 0): "0M", (1, 0): "1M", (-1, 0): "0R"}
    state, _ = build(units)
    state.cores = {hex_id(-1, 0)}
    state._legal = None
    back = [a for a in state._public_legal() if a[0] == "move" and len(a) == 4]
    assert back and all(a[3] == (-1, 0) for a in back)
    assert set(state._public_legal()) == reference_actions(state)


def test_the_virus_may_name_a_foreign_unit_under_the_designators_own_climber():
    units = {(0, 0): "0M", (-1, 0): "0R", (1, 0): ["1R", "0C"], (2, 0): "1M", (2, -1): "1J"}
    state, _ = build(units)
    state.virus[0] = True
    state._legal = None
    covered = ("virus", (-1, 0), (1, 0), 0)
    legal = state._public_legal()
    assert covered in legal
    assert ("virus", (-1, 0), (1, 0)) not in legal  # the top of that stack is seat 0's own Climber
    assert set(legal) == reference_actions(state)
    runner = _unit(state, (1, 0), 0)
    state.push(0, covered)
    assert state.pending() == Decision(1, "turn")
    assert runner in state.blocked
    assert _unit(state, (2, 0)) in state.blocked  # seat 1's unit next to the designated one
    assert _unit(state, (2, -1)) in state.blocked
    assert state.legal_actions(1, Knowledge(None))  # it may still place


def test_a_virus_target_level_must_name_a_covered_foreign_unit():
    units = {(0, 0): "0M", (-1, 0): "0R", (1, 0): ["1R", "0C"], (2, 0): "1M"}
    state, _ = build(units)
    state.virus[0] = True
    state._legal = None
    for bad in [
        ("virus", (-1, 0), (1, 0), 1),  # the top: seat 0's own Climber
        ("virus", (-1, 0), (1, 0), 5),
        ("virus", (-1, 0), (2, 0), 0),  # an uncovered unit is named without a level
        ("virus", (-1, 0), (1, 0), True),
    ]:
        with pytest.raises(IllegalAction):
            state.check(0, bad)
