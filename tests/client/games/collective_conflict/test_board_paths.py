"""Collective Conflict's board draws a planned move along the engine's route (``paths.move_path``)."""

from __future__ import annotations

import itertools
import random
from typing import Any

from client.games.collective_conflict.board import HexBoard
from client.games.collective_conflict.choices import source_of, target_of
from client.games.collective_conflict.showcase import player_bot
from client.play.local import LocalGame
from engines.collective_conflict.paths import move_path, public_move_path
from engines.core.hexgrid import distance

GAME = "collective-conflict"


def _board(qtbot: Any) -> tuple[HexBoard, list[list[Any]]]:
    """A shown board whose arrows are recorded as the points actually handed to the painter."""
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    arrows: list[list[Any]] = []
    real = board._arrow

    def recording(p: Any, pts: list[Any], *args: Any, **kwargs: Any) -> None:
        arrows.append(list(pts))
        real(p, pts, *args, **kwargs)

    board._arrow = recording  # type: ignore[method-assign]
    return board, arrows


def _plan(board: HexBoard, action: tuple[Any, ...]) -> None:
    """Plan ``action`` as a person does: pick its unit, click its target, pick its variant."""
    board.cancel()
    board.click_hex(source_of(action)[1])
    board.click_hex(target_of(action))
    board.choose_variant(board.variants().index(action))
    assert board.planned_action() == action


def test_the_planned_route_drawn_is_the_engines_route(qtbot):
    game = LocalGame(GAME, 2, b"cc-route", 0, ["Me", "Bot"], bot_kind="random")
    board, arrows = _board(qtbot)
    rng = random.Random(5)
    seen: dict[str, int] = {}
    turns = 0
    while game.over() is None and turns < 40:
        if not game.human_to_move():
            game.step()
            continue
        turns += 1
        board.set_view(game.view(), game.legal())
        units = [tuple(a) for a in game.legal() if a[0] in ("move", "cast", "jump")]
        for action in rng.sample(units, min(5, len(units))):
            _plan(board, action)
            arrows.clear()
            board.grab()  # paints
            expected = move_path(game.state, action)
            assert board.drawn_route == expected, action
            plan = arrows[-1]  # the plan is painted after the last move's arrow
            assert [board.hit(pt) for pt in plan] == expected, "the polyline passes through the route's hexes"
            kind = board.scene.stacks()[action[1]][-1].kind
            seen[kind] = max(seen.get(kind, 0), len(expected))
        game.act(rng.choice(game.legal()))
    assert seen.get("runner", 0) > 2, f"a Runner's route with turns was drawn: {seen}"
    assert {"runner", "netcaster", "jumper"} <= set(seen), f"the routes of several unit kinds were drawn: {seen}"


def test_the_last_move_is_drawn_along_its_route(qtbot):
    game = LocalGame(GAME, 3, b"cc-last-route", 0, ["Me", "B", "C"], bot_kind="greedy")
    me = player_bot(game.seed)
    board, arrows = _board(qtbot)
    checked = 0
    while game.over() is None and checked < 6 and len(game.history) < 300:
        before = game.view()
        mark = len(game.history)
        game.act(me.choose(game.state, game.knowledge, game.legal())) if game.human_to_move() else game.step()
        moves = [a for _, a in game.history[mark:] if a[0] in ("move", "cast", "jump")]
        if len(moves) != 1 or len(game.history) - mark != 1:
            continue
        board.set_view(before, ())
        board.set_view(game.view(), ())
        if len(board.changes.moved) != 1:
            continue
        action = tuple(moves[0])
        (pid, src, dst) = board.changes.moved[0]
        route = board.moved_routes[pid]
        assert route[0] == src and route[-1] == dst
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(route))
        if action[0] != "jump":  # a single move: exactly the engine's route in the view before it
            assert route == public_move_path(before, action)
        arrows.clear()
        board.grab()
        assert [board.hit(pt) for pt in arrows[0]] == route
        checked += 1
    assert checked >= 3
