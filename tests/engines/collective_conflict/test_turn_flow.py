"""Whose turn it is after a leave, a skip or a block: leaving, skipping (CC-5), the no-action draw (CC-25)."""

from __future__ import annotations

from engines.core import Decision, GameOver, Knowledge, RevealOwed
from engines.core.hexgrid import articulation_points, hex_id
from tests.engines.collective_conflict.helpers import build, dests, reveal_all

# seat 1's command unit at the origin, five of six sides filled; seat 0's Runner at (1, 1) can close the gap
RING_AROUND_1 = {
    (0, 0): "1M",
    (1, 0): "0M",
    (1, -1): "0R",
    (0, -1): "1R",
    (-1, 0): "1J",
    (-1, 1): "0J",
    (1, 1): "0R",
    (2, -1): "2M",
}


def _legal(state, seat):
    return state.legal_actions(seat, Knowledge(None))


def _assert_turn(state, seat):
    """``seat`` is to move, is active and has something to do."""
    assert state.pending() == Decision(seat, "turn")
    assert state.active[seat]
    assert _legal(state, seat)


# -- leaving while owing the only queued reveal -------------------------------------------------------


def test_leaving_instead_of_revealing_passes_the_turn_to_the_next_seat():
    state, _ = build(RING_AROUND_1, players=3)
    assert (0, 1) in dests(state, (1, 1))
    state.push(0, ("move", (1, 1), (0, 1)))
    assert isinstance(state.pending(), RevealOwed) and state.pending().seat == 1
    state.forfeit(1)  # seat 1 leaves rather than reveal
    assert state.active == [True, False, True]
    _assert_turn(state, 2)  # not seat 0 a second time


def test_leaving_after_surrounding_ones_own_decoy_passes_the_turn():
    units = {
        (0, 0): "0D",
        (1, 0): "1M",
        (1, -1): "0R",
        (0, -1): "1R",
        (-1, 0): "1J",
        (-1, 1): "2M",
        (1, 1): "0R",
        (-1, -1): "0M",
    }
    state, _ = build(units, players=3)
    assert (0, 1) in dests(state, (1, 1))
    state.push(0, ("move", (1, 1), (0, 1)))  # closes the ring around its own Decoy
    decoy = state.piece_sid[state.stacks[hex_id(0, 0)][0]]
    assert state.pending() == RevealOwed(0, decoy, "command-unit")
    state.forfeit(0)
    assert state.active == [False, True, True]
    _assert_turn(state, 1)  # not a decision of the seat that left


def test_a_leave_while_another_seat_owes_a_reveal_waits_for_that_reveal():
    state, truth = build(RING_AROUND_1, players=3)
    state.push(0, ("move", (1, 1), (0, 1)))
    state.forfeit(2)  # out of turn, while seat 1 owes its reveal
    assert isinstance(state.pending(), RevealOwed) and state.pending().seat == 1
    reveal_all(state, truth)  # seat 1's MotherShip: it collapses, seat 0 is the last Network
    assert state.result() == GameOver((0,), "last active Network")


# -- leaving out of turn must not strand the player to move ---------------------------------------------------

# A ring of six around an empty hex. Seat 2 has no command unit, which holds up Wreck removal (CC-19).
# When seat 2 leaves, its Runner becomes a Wreck, removal starts and takes it, and the ring becomes a chain
# whose inner hexes hold seat 0's two units: both now split the structure if they move.
PINNED_BY_REMOVAL = {
    (1, 0): "0R",
    (1, -1): "0M",
    (0, -1): "1M",
    (-1, 0): "1J",
    (-1, 1): "2R",
    (0, 1): "1R",
}


def test_leaving_out_of_turn_skips_a_mover_it_left_without_any_action():
    state, _ = build(PINNED_BY_REMOVAL, players=3)
    state.reserve[0] = {}
    state._legal = None
    _assert_turn(state, 0)  # seat 0 can move before the leave
    state.forfeit(2)
    assert hex_id(-1, 1) not in state.stacks  # the Wreck was removed
    assert state.pending() != Decision(0, "turn")  # seat 0 has nothing left to do: skipped (CC-5)
    _assert_turn(state, 1)


# -- the "no Network can act" draw (CC-25) --------------------------------------------------------------

# A chain: a Wreck, seat 0's command unit and Runner (both split the chain if they move), seat 1's command unit
# (splits it too) and seat 1's Runner at the end.  Seat 0 holds the Virus; both reserves are empty.
VIRUS_CHAIN = {(-1, 0): "W", (0, 0): "0M", (1, 0): "0R", (2, 0): "1M", (3, 0): "1R"}


def test_a_virus_block_that_will_expire_is_no_reason_for_the_no_action_draw():
    state, _ = build(VIRUS_CHAIN, wreck_removal=False)
    state.reserve = [{}, {}]
    state.virus[0] = True
    state._legal = None
    assert ("virus", (1, 0), (2, 0)) in _legal(state, 0)
    state.push(0, ("virus", (1, 0), (2, 0)))  # seat 1's two units are blocked for its next turn
    # seat 1 is skipped (blocked), seat 0 is skipped (nothing to do): but seat 1's block has expired now
    assert state.result() is None
    _assert_turn(state, 1)
    assert dests(state, (3, 0))


def test_nobody_can_act_ends_in_a_shared_draw():
    stuck, _ = build({(-1, 0): "W", (0, 0): "0M", (1, 0): "1M", (2, 0): "W"}, wreck_removal=False)
    stuck.reserve = [{}, {}]
    stuck.current = 1
    stuck._begin_turn()  # both command units split the chain if they move; both reserves are empty
    over = stuck.result()
    assert over is not None and over.winners == (0, 1) and over.reason == "no Network can act"


# Seat 1's only unit lies under seat 2's Climber (no top of its own, no command unit); seat 0's two units split
# the chain if they move and its reserve is empty; seat 2 can act.
COVERED_CHAIN = {(-1, 0): ["1R", "2C"], (0, 0): "0M", (1, 0): "0R", (2, 0): "2M"}


def test_a_leave_that_frees_covered_units_is_no_reason_for_the_no_action_draw():
    state, _ = build(COVERED_CHAIN, players=3)
    state.reserve[0] = {}
    state._begin_turn()  # seat 0 and seat 1 are skipped
    _assert_turn(state, 2)
    state.forfeit(2)  # its Climber goes with it: seat 1's Runner is uncovered
    assert state.result() is None
    _assert_turn(state, 1)


# -- a Network whose only unit lies under a foreign Climber before it has a command unit ---------------


def test_a_covered_network_without_a_command_unit_is_skipped_until_uncovered():
    # seat 1's only unit under seat 0's Climber; seat 0 has a command unit, a Runner and a Wreck
    units = {(0, 0): ["1R", "0C"], (1, 0): "0M", (2, 0): "W", (3, 0): "0R"}
    state, _ = build(units, moves=1)
    state.moves[1] = 2  # seat 1's next own move is its third: it owes a command unit (CC-6)
    _assert_turn(state, 0)
    wreck = hex_id(2, 0)
    freeing = [
        a
        for a in _legal(state, 0)
        if a[0] == "move" and a[1] == (3, 0) and wreck not in articulation_points(_after(state, a).stacks)
    ]
    assert freeing, "a Runner move that would let the Wreck go"
    state.push(0, freeing[0])
    _assert_turn(state, 0)  # seat 1 can neither place (no top of its own) nor move (no command unit): skipped
    assert wreck in state.stacks  # Wreck removal waits for seat 1's command unit (CC-19)
    off = next(a for a in _legal(state, 0) if a[0] == "move" and a[1] == (0, 0))
    state.push(0, off)  # the Climber steps off
    _assert_turn(state, 1)
    assert {a[1] for a in _legal(state, 1) if a[0] == "place"} == {"mothership", "decoy"}


def _after(state, action):
    trial = state.clone()
    trial.push(0, action)
    return trial


def test_a_covered_network_cannot_hold_up_the_end_of_the_game():
    # seat 0 keeps its Climber on seat 1's only unit and walks its Runner back and forth: a repetition draw
    units = {(0, 0): ["1R", "0C"], (1, 0): "0M", (2, 0): "0R"}
    state, _ = build(units, moves=1)
    state.reserve[0] = {}
    state._legal = None
    for _ in range(200):
        if state.result() is not None:
            break
        _assert_turn(state, 0)
        moves = sorted(a for a in _legal(state, 0) if a[0] == "move" and a[1] != (0, 0))
        state.push(0, moves[0])
    over = state.result()
    assert over is not None and over.reason == "position repeated" and over.winners == (0, 1)
