"""The UHP front end refuses bad input with ``err`` and keeps its loop and its game."""

from __future__ import annotations

import io

import pytest

from engines.collective_conflict.uhp import UhpEngine


def _session(commands: list[str]) -> list[list[str]]:
    """Each command's answer lines (without the closing ``ok``), from one engine in this process."""
    out = io.StringIO()
    engine = UhpEngine(out)
    for line in commands:
        engine.command(line)
    answers: list[list[str]] = [[]]
    for line in out.getvalue().splitlines():
        if line == "ok":
            answers.append([])
        else:
            answers[-1].append(line)
    assert answers[-1] == []  # every answer ends with ``ok``
    return answers[:-1]


@pytest.mark.parametrize(
    "bad",
    ["undo abc", "undo 1.5", "undo -1", "bestmove depth x", "bestmove depth", "bestmove time 1s", "bestmove sideways"],
)
def test_a_malformed_number_is_an_err_and_the_loop_and_game_go_on(bad):
    answers = _session(["newgame Base", "play wS1", bad, "play bG1 -wS1"])
    assert answers[2][0].startswith("err ")
    assert answers[3] == ["Base;InProgress;White[2];wS1;bG1 -wS1"]  # nothing played is lost


# White's Climber (beetle) climbs onto White's Runner (ant): wA1 is covered; then Black moves.
_BEETLE_ON_ANT = [
    "newgame Base",
    "play wA1",
    "play bA1 wA1-",
    "play wQ -wA1",
    "play bQ bA1-",
    "play wB1 /wQ",
    "play bG1 bQ-",
    "play wB1 wQ",
    "play bG2 bG1-",
    "play wB1 wA1",
    "play bG3 bG2-",
]


def test_a_covered_unit_cannot_be_moved_by_its_name():
    # north-west of bA1 is one step from the stack: the beetle could go there, the covered ant cannot
    answers = _session([*_BEETLE_ON_ANT, "play wA1 \\bA1", "play wB1 \\bA1"])
    assert answers[9][0].endswith(";wB1 wA1")
    assert answers[11][0].startswith("invalidmove") and "wA1" in answers[11][0]
    assert answers[12][0].endswith(";bG3 bG2-;wB1 wA1/")  # the unit on top still moves (the same hex, NE of wA1)


def test_info_names_the_engine_without_an_empty_capabilities_line():
    answers = _session(["info"])
    assert answers[0][0].startswith("id ")
    assert all(line.strip() for line in answers[0])


@pytest.mark.parametrize(
    "game_string",
    [
        "Base;NotStarted;White[1];wS1",  # one move played: in progress
        "Base;InProgress;White[1];wS1",  # after one move it is Black's turn
        "Base;InProgress;Black[2];wS1",  # ... in turn 1
        "Base;InProgress",  # no turn part
        "Base;Sideways;Black[1];wS1",  # no such state
        "Base;WhiteWins;Black[1];wS1",
    ],
)
def test_newgame_checks_the_state_and_turn_of_its_game_string(game_string):
    answers = _session(["newgame Base", "play wS1", "play bG1 -wS1", f"newgame {game_string}", "play wQ wS1/"])
    assert answers[3][0].startswith("err ")
    assert answers[4][0].endswith(";wS1;bG1 -wS1;wQ wS1/")  # the game in progress was kept


def test_newgame_accepts_a_true_game_string():
    answers = _session(["newgame Base;InProgress;White[2];wS1;bG1 -wS1", "newgame Base;NotStarted;White[1]"])
    assert answers[0] == ["Base;InProgress;White[2];wS1;bG1 -wS1"]
    assert answers[1] == ["Base;NotStarted;White[1]"]
