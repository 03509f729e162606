"""How a game ends without a round limit (CC-22): the repetition draw; the limit only as an option."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from engines.__main__ import main as engines_main
from engines.collective_conflict import CollectiveConflictState
from engines.core import Decision
from tests.engines.collective_conflict.helpers import build

# seat 0's Runner at (-1, 0) and seat 1's Runner at (2, 0) can each step back and forth
SHUFFLE = {(0, 0): "0M", (1, 0): "1M", (-1, 0): "0R", (2, 0): "1R"}


def _shuffle_state(**options):
    state, _ = build(SHUFFLE, moves=10, **options)
    state.reserve = [{}, {}]
    state._legal = None
    state._begin_turn()  # the position before the first move counts as its first occurrence
    return state


def test_no_round_limit_by_default():
    assert CollectiveConflictState(2, {}).settings.max_rounds is None
    state = _shuffle_state()
    state.round = 500
    state.push(0, ("move", (-1, 0), (-1, 1)))
    state.push(1, ("move", (2, 0), (2, -1)))
    assert state.result() is None and state.round == 501


def test_the_same_position_a_third_time_is_a_shared_draw():
    state = _shuffle_state()
    there = [("move", (-1, 0), (-1, 1)), ("move", (2, 0), (2, -1))]
    back = [("move", (-1, 1), (-1, 0)), ("move", (2, -1), (2, 0))]
    cycle = [(0, there[0]), (1, there[1]), (0, back[0]), (1, back[1])]
    assert state.public()["repetitions"] == 1
    for seat, action in cycle:
        state.push(seat, action)
    assert state.pending() == Decision(0, "turn") and state.public()["repetitions"] == 2
    for seat, action in cycle[:3]:
        state.push(seat, action)
        assert state.result() is None  # each of these positions has occurred twice at most
    state.push(*cycle[3])
    over = state.result()
    assert over is not None and over.reason == "position repeated" and over.winners == (0, 1) and over.draw


def test_the_seat_to_move_is_part_of_the_position():
    state = _shuffle_state()
    # seat 0's Runner goes round three hexes while seat 1's steps back and forth: the start board comes back
    # after 5, 12 and 17 actions, with seat 1 to move after 5 and 17; each whole position recurs every 12
    three = [("move", (-1, 0), (-1, 1)), ("move", (-1, 1), (0, 1)), ("move", (0, 1), (-1, 0))]
    two = [("move", (2, 0), (2, -1)), ("move", (2, -1), (2, 0))]
    start_board = state.public()["stacks"]
    boards = 1
    for i in range(23):
        seat = i % 2
        state.push(seat, three[(i // 2) % 3] if seat == 0 else two[(i // 2) % 2])
        assert state.result() is None
        boards += state.public()["stacks"] == start_board
    assert boards == 4
    state.push(1, two[11 % 2])
    over = state.result()
    assert over is not None and over.reason == "position repeated"


def test_the_repetition_draw_is_a_setting():
    state = _shuffle_state(repetition=None)
    for _ in range(5):
        state.push(0, ("move", (-1, 0), (-1, 1)))
        state.push(1, ("move", (2, 0), (2, -1)))
        state.push(0, ("move", (-1, 1), (-1, 0)))
        state.push(1, ("move", (2, -1), (2, 0)))
    assert state.result() is None
    with pytest.raises(ValueError):
        CollectiveConflictState(2, {"repetition": 1})
    with pytest.raises(ValueError):
        CollectiveConflictState(2, {"max_rounds": 0})


def test_a_round_limit_for_self_play_ends_in_a_draw():
    state = _shuffle_state(max_rounds=3, repetition=None)
    moves = [
        ("move", (-1, 0), (-1, 1)),
        ("move", (2, 0), (2, -1)),
        ("move", (-1, 1), (-1, 0)),
        ("move", (2, -1), (2, 0)),
    ]
    for i in range(6):
        state.push(i % 2, moves[i % 4])
    over = state.result()
    assert over is not None and over.reason == "move limit" and over.winners == (0, 1)


def test_selfplay_takes_a_round_limit_option():
    out = io.StringIO()
    args = ["selfplay", "collective-conflict", "--players", "4", "--games", "1", "--option", "max_rounds=3"]
    with redirect_stdout(out):
        assert engines_main(args) == 0
    summary = json.loads(out.getvalue())
    assert summary["results"]["draws"] + sum(summary["results"]["wins"]) == 1
    assert summary["mean_actions"] < 30  # three rounds of four seats, a few reveals and chances
