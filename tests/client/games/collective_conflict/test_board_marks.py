"""Network letters and trap marks are painted last on the board: no tile, route or flash covers them."""

from __future__ import annotations

from typing import Any

from client.games.collective_conflict import board as board_module
from client.games.collective_conflict.board import HexBoard
from client.play.local import LocalGame


def _midgame() -> LocalGame:
    game = LocalGame("collective-conflict", 4, b"marks", 0, ["A", "B", "C", "D"], bot_kind="greedy")
    while game.over() is None and game.state.round < 9:
        game.act(game.legal()[0]) if game.human_to_move() else game.step()
    return game


def test_letters_and_trap_marks_come_after_every_tile_and_arrow(qtbot, monkeypatch):
    game = _midgame()
    calls: list[str] = []
    paint = board_module.paint
    for name in ("unit", "unit_letter", "trap"):
        real = getattr(paint, name)

        def recording(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> None:
            calls.append(_name if _name != "unit" or kwargs.get("letter", True) is False else "unit+letter")
            _real(*args, **kwargs)

        monkeypatch.setattr(paint, name, recording)
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    before = game.view()
    game.act(game.legal()[0]) if game.human_to_move() else game.step()
    board.set_view(before, ())
    board.set_view(game.view(), ())  # one move: its route is drawn
    real_arrow = board._arrow
    monkeypatch.setattr(board, "_arrow", lambda *a, **k: (calls.append("arrow"), real_arrow(*a, **k)))
    calls.clear()
    board.grab()
    letters = [i for i, c in enumerate(calls) if c == "unit_letter"]
    tiles = [i for i, c in enumerate(calls) if c in ("unit", "arrow")]
    assert letters and tiles, calls[:20]
    assert min(letters) > max(tiles), "every letter is painted after every tile and route"
    assert len(letters) == len(board.scene.stacks()), "one letter per stack's top unit"
    traps = [i for i, c in enumerate(calls) if c == "trap"]
    assert all(i > max(tiles) for i in traps)
