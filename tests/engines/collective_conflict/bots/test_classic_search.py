"""The classic-mode search behind UHP ``bestmove``: depth is plies, the stop callables are obeyed, the tables
persist, and the repetition draw (CC-22) is known to it."""

from __future__ import annotations

import io

from engines.collective_conflict.bots.classic_search import ClassicSearch, evaluate, position_key
from engines.collective_conflict.uhp import UhpEngine, UhpGame
from engines.core import Knowledge, RandomBot


def _game(plies: int, seed: bytes) -> UhpGame:
    game = UhpGame()
    bot = RandomBot(0, seed)
    for _ in range(plies):
        game.play(bot.choose(game.state, Knowledge(None), game.legal()))
    return game


def _one_ply_values(game: UhpGame) -> dict:
    """Each action's value for the mover after one ply (what depth 1 sees), and the child's position."""
    state = game.state
    seat = state.current
    out = {}
    for action in state._public_legal():
        child = state.clone()
        child.apply(seat, action)
        out[action] = (evaluate(child, seat), position_key(child))
    return out


def test_depth_n_finishes_exactly_n_plies_and_costs_more_each_ply():
    game = _game(14, b"depth")
    nodes = []
    for depth in (1, 2, 3):
        search = ClassicSearch()
        action = search.choose(game.state.clone(), game.seen(), depth=depth)
        assert action in game.legal()
        assert search.depth_done == depth
        nodes.append(search.nodes)
    assert nodes[0] < nodes[1] < nodes[2]


def test_stop_and_enough_end_the_deepening():
    game = _game(14, b"stop")
    search = ClassicSearch()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    action = search.choose(game.state.clone(), game.seen(), stop=stop)
    assert action in game.legal() and calls  # polled during the search, and a legal move still comes back
    assert search.depth_done < 4
    search = ClassicSearch()
    search.choose(game.state.clone(), game.seen(), enough=lambda: True)
    assert search.depth_done == 1  # told not to start another depth


def test_one_search_serves_the_session_and_keeps_its_table():
    out = io.StringIO()
    engine = UhpEngine(out)
    for line in ["newgame Base", "play wS1", "play bG1 -wS1", "bestmove depth 2"]:
        engine.command(line)
    search = engine.search
    size = len(search.table)
    assert size > 0
    engine.command("play wQ wS1/")
    engine.command("bestmove depth 2")
    assert engine.search is search and len(search.table) >= size


def test_a_side_ahead_avoids_the_third_repetition_and_a_side_behind_seeks_it():
    ahead = behind = None
    for i in range(40):
        game = _game(16 + i % 7, f"rep{i}".encode())
        if game.state.is_over() or game.legal() == [None]:
            continue
        values = _one_ply_values(game)
        best = max(v for v, _ in values.values())
        if ahead is None and best > 0 and sum(1 for v, _ in values.values() if v == best) == 1:
            ahead = (game, values)
        if behind is None and best < 0 and len(values) > 1:
            behind = (game, values)
        if ahead and behind:
            break
    assert ahead and behind
    game, values = ahead
    top = max(values, key=lambda a: values[a][0])
    assert ClassicSearch().choose(game.state.clone(), game.seen(), depth=1) == top
    seen = game.seen()
    seen[values[top][1]] += 2  # the position after ``top`` has occurred twice already: a third time is a draw
    assert ClassicSearch().choose(game.state.clone(), seen, depth=1) != top
    game, values = behind
    worst = min(values, key=lambda a: values[a][0])
    seen = game.seen()
    seen[values[worst][1]] += 2
    assert ClassicSearch().choose(game.state.clone(), seen, depth=1) == worst  # a draw beats every loss here


def test_the_game_remembers_its_positions_through_play_and_undo():
    game = _game(10, b"memory")
    assert sum(game.seen().values()) == 11  # the start and each move
    key = position_key(game.state)
    game.undo(2)
    assert sum(game.seen().values()) == 9 and game.seen()[key] == 0
