"""The opponent's last anomaly, walk and dice stay in view when the player's turn begins."""

from __future__ import annotations

from typing import Any

from client.games.anomaly_maze.showcase import player_bot
from client.games.anomaly_maze.table import AnomalyMazeTable
from client.play.local import LocalGame


def _table(qtbot: Any, game: LocalGame) -> AnomalyMazeTable:
    table = AnomalyMazeTable(2, game.names)
    qtbot.addWidget(table)
    table.resize(1000, 760)
    table.show()
    return table


def _play_until(game: LocalGame, table: AnomalyMazeTable, found: Any, limit: int = 2000) -> bool:
    """Step the game, showing the table each view the player acts on, until ``found(game)``."""
    me = player_bot(game.seed)
    for _ in range(limit):
        if game.over() is not None:
            return False
        if game.human_to_move():
            table.show_view(game.view(), game.knowledge, game.legal())
            if found(game):
                return True
            game.act(me.choose(game.state, game.knowledge, game.legal()))
        else:
            game.step()
    return False


def _opponent_turn(game: LocalGame) -> list[list[Any]]:
    """The events of the opponent's turn just ended (between the last two "turn" events)."""
    events = game.view()["events"]
    turns = [i for i, e in enumerate(events) if e[0] == "turn"]
    if len(turns) < 2 or events[turns[-1]][1] != game.human:
        return []
    return events[turns[-2] : turns[-1]]


def test_the_opponents_shift_and_walk_stay_drawn_at_the_start_of_my_turn(qtbot):
    for n in range(6):
        game = LocalGame("anomaly-maze", 2, f"last/{n}".encode(), 0, ["Me", "AI"], bot_kind="normal")
        table = _table(qtbot, game)

        def opponent_shifted_and_walked(g: LocalGame) -> bool:
            turn = _opponent_turn(g)
            return (
                g.view()["phase"] == "anomaly"
                and any(e[0] in ("shift", "rotate") for e in turn)
                and any(e[0] == "move" and len(e) > 2 for e in turn)
            )

        if _play_until(game, table, opponent_shifted_and_walked):
            turn = _opponent_turn(game)
            anomaly = next(e for e in reversed(turn) if e[0] in ("shift", "rotate"))
            walk = next(e for e in reversed(turn) if e[0] == "move")
            assert table.board._last_anomaly() == tuple(anomaly)
            assert table.board.trail is not None and table.board.trail[0] == 1
            assert table.board.trail[1][-len(walk[2:]) :] == tuple(walk[2:])
            return
    raise AssertionError("no game showed an opponent's shift and walk")


def test_the_opponents_last_die_is_held_on_my_turn(qtbot):
    for n in range(12):
        game = LocalGame("anomaly-maze", 2, f"dice/{n}".encode(), 0, ["Me", "AI"], bot_kind="easy")
        table = _table(qtbot, game)

        def opponent_rolled(g: LocalGame) -> bool:
            return any(e[0] == "die" for e in _opponent_turn(g))

        if _play_until(game, table, opponent_rolled):
            rolled = [e[2] for e in _opponent_turn(game) if e[0] == "die"]
            table.dice.finish()
            assert table.dice.isVisibleTo(table), "the dice are still shown"
            assert table.dice.faces == rolled
            return
    raise AssertionError("no game had the AI attack the player")


def test_a_walk_in_the_log_starts_at_the_cell_it_left():
    from client.games.anomaly_maze.present import MazeLogWriter
    from engines.anomaly_maze.board import name as cell_name

    game = LocalGame("anomaly-maze", 2, b"walk-start", 0, ["Me", "AI"], bot_kind="easy")
    writer = MazeLogWriter(0, 2)
    me = player_bot(game.seed)
    while game.over() is None and len(game.history) < 400:
        before = [pl["cell"] for pl in game.view()["players"]]
        if game.human_to_move():
            action = me.choose(game.state, game.knowledge, game.legal())
            entries = game.act(action)
        else:
            entries = game.step()
        for entry in entries:
            for e in entry.events:
                if e[0] == "move" and len(e) > 2:
                    assert e[2] == before[e[1]], "the walk's first cell is where the pawn stood"
                    lines = writer.lines(entry, game.knowledge)
                    walk = "–".join(cell_name(c) for c in e[2:])
                    assert any(walk in line.text(game.names) for line in lines)
                    return
    raise AssertionError("nobody walked")


def test_a_ghost_never_covers_the_pawn_blocking_its_respawn(qtbot, monkeypatch):
    from client.games.anomaly_maze import board as board_module
    from client.games.anomaly_maze.board import MazeBoard

    game = LocalGame("anomaly-maze", 2, b"ghost", 0, ["Me", "AI"], bot_kind="easy")
    while game.view()["phase"] == "setup":
        game.step()
    view = game.view()
    ghost, blocker = view["players"][1], view["players"][0]
    ghost["cell"], blocker["cell"] = None, ghost["respawn"]
    board = MazeBoard()
    qtbot.addWidget(board)
    board.resize(700, 700)
    board.show()
    board.set_view(view, ())
    order: list[str] = []
    real_pawn, real_ghost = board_module.paint.paint_pawn, board._paint_ghost
    monkeypatch.setattr(board_module.paint, "paint_pawn", lambda *a, **k: (order.append("pawn"), real_pawn(*a, **k)))
    monkeypatch.setattr(board, "_paint_ghost", lambda *a, **k: (order.append("ghost"), real_ghost(*a, **k)))
    board.grab()
    assert order == ["pawn", "ghost"], "the blocked ghost is drawn after the pawn, in the corner"
    corner = board.ghost_rect(ghost, blocked=True)
    cell = board.cell_rect(ghost["respawn"])
    assert not corner.contains(cell.center()), "the corner ghost leaves the pawn's middle free"
    assert corner.width() < cell.width() / 2


def test_a_shift_is_previewed_before_it_is_taken(qtbot):
    from PySide6.QtCore import Qt

    from engines.anomaly_maze import board as geo

    game = LocalGame("anomaly-maze", 2, b"shift-preview", 0, ["Me", "AI"], bot_kind="easy")
    while not (game.human_to_move() and game.view()["phase"] == "anomaly"):
        game.act(game.legal()[0]) if game.human_to_move() else game.step()
    table = _table(qtbot, game)
    table.show_view(game.view(), game.knowledge, game.legal())
    board = table.board
    chosen: list[Any] = []
    table.action_chosen.connect(chosen.append)
    shift = sorted(board.offered_shifts())[0]
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.arrow_center(*shift))
    assert chosen == [] and board.shift_plan == shift, "the first click only previews"
    assert table.buttons["confirm"].isVisible() and table.buttons["cancel"].isVisible()
    masks = [t["mask"] for t in game.view()["tiles"]]
    assert geo.shift_tiles(masks, *shift) != masks
    table.buttons["cancel"].click()
    assert board.shift_plan is None and chosen == []
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.arrow_center(*shift))
    table.buttons["confirm"].click()
    assert chosen == [("shift", *shift)]
    board.set_view(game.view(), game.legal())
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.arrow_center(*shift))
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.arrow_center(*shift))
    assert chosen[-1] == ("shift", *shift), "a second click on the same arrow takes the shift"
