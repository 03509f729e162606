"""The UHP engine driven over a pipe, self-play determinism, and the bots' manners."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engines.collective_conflict import CollectiveConflictState, GreedyBot, SearchBot
from engines.collective_conflict.uhp import UhpGame
from engines.core import Decision, GameOver, Knowledge, RandomBot, Referee, get
from engines.core.selfplay import selfplay


def _uhp(commands: list[str]) -> list[list[str]]:
    """Run the engine, send the commands, return each answer's lines (without the closing ``ok``)."""
    proc = subprocess.run(
        [sys.executable, "-m", "engines.collective_conflict.uhp"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers: list[list[str]] = [[]]
    for line in proc.stdout.splitlines():
        if line == "ok":
            answers.append([])
        else:
            answers[-1].append(line)
    return answers[:-1]


def test_uhp_session_round_trip():
    answers = _uhp(
        [
            "newgame Base",
            "validmoves",
            "play wS1",
            "play bG1 -wS1",
            "play wQ wS1/",
            "validmoves",
            "undo",
            "play wQ wS1\\",
            "play bQ wS1-",
            "play wQ -bQ",
            "bestmove depth 1",
            "options",
            "frobnicate",
        ]
    )
    info, new, moves, *rest = answers
    assert info[0].startswith("id ")
    assert new == ["Base;NotStarted;White[1]"]
    assert sorted(moves[0].split(";")) == ["wA1", "wB1", "wG1", "wS1"]  # no MotherShip on the first turn
    assert rest[0] == ["Base;InProgress;Black[1];wS1"]
    assert rest[1] == ["Base;InProgress;White[2];wS1;bG1 -wS1"]
    assert rest[2] == ["Base;InProgress;Black[2];wS1;bG1 -wS1;wQ wS1/"]
    black = rest[3][0].split(";")
    assert all(m.startswith("b") for m in black) and "bQ wS1-" not in black  # it would touch white only
    assert rest[4] == ["Base;InProgress;White[2];wS1;bG1 -wS1"]
    assert rest[5][0].endswith(";wQ wS1\\")
    assert rest[6][0].startswith("invalidmove")  # bQ may not touch a white unit
    assert rest[7][0].startswith("invalidmove")  # not white's turn, and bQ is not on the board
    assert rest[8] and rest[8][0].startswith("b")  # a best move for black, in move-string form
    assert rest[9] == []
    assert rest[10][0].startswith("err")


def test_uhp_game_strings_replay_and_every_valid_move_parses_back():
    game = UhpGame()
    bot = RandomBot(0, b"uhp")
    for _ in range(30):
        legal = game.legal()
        if not legal:
            break
        for action in legal:
            assert game.parse(game.to_move_string(action)) == action
        game.play(bot.choose(game.state, Knowledge(None), legal))
    replayed = UhpGame()
    for text in game.game_string().split(";")[3:]:
        replayed.play(replayed.parse(text))
    assert replayed.game_string() == game.game_string()
    assert replayed.state.hash() == game.state.hash()


@pytest.mark.parametrize(("players", "games"), [(2, 3), (4, 2), (6, 1), (10, 1)])
def test_selfplay_ends_and_is_deterministic_by_seed(players, games):
    spec = get("collective-conflict")
    options = {"max_rounds": 30}
    a = selfplay(spec, players, games, "s1", "random", options)
    b = selfplay(spec, players, games, "s1", "random", options)
    c = selfplay(spec, players, games, "s2", "random", options)
    assert a.digest == b.digest and a.wins == b.wins and a.draws == b.draws
    assert a.digest != c.digest
    assert sum(a.wins) + a.draws == games


def test_bots_choose_legal_actions_from_their_own_view_only():
    state = CollectiveConflictState(3, {"max_rounds": 6})
    referee = Referee(state, b"bots")
    bots = [GreedyBot(0, b"g"), SearchBot(1, b"s"), RandomBot(2, b"r")]
    seen = 0
    while True:
        pending = referee.run_table()
        if isinstance(pending, GameOver):
            break
        assert isinstance(pending, Decision)
        seat = pending.seat
        knowledge = referee.seats[seat]
        assert all(state.secrets[sid][0] == seat for sid in knowledge.sealed)  # nothing of anyone else
        legal = state.legal_actions(seat, knowledge)
        before = state.hash()
        action = bots[seat].choose(state, knowledge, legal)
        assert state.hash() == before  # thinking does not touch the real state
        assert action in legal
        referee.decide(seat, action)
        seen += 1
    assert seen > 10


def test_search_bot_is_deterministic():
    def run() -> list:
        state = CollectiveConflictState(2, {"max_rounds": 5})
        referee = Referee(state, b"det")
        referee.play([SearchBot(0, b"x"), GreedyBot(1, b"x")])
        return referee.history

    assert run() == run()
