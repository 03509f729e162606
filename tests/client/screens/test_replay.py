"""Small things a first-time player stumbled over: F1, the replay's play button, the maze replay's start."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from client.play import local_file
from client.play.local import LocalGame


def _press_f1(qtbot, window):  # type: ignore[no-untyped-def]
    window.activateWindow()
    QTest.keyClick(window, Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: window.rules is not None and window.rules.isVisible(), timeout=5_000)
    return window.rules.current_game()


def test_f1_opens_the_rules_of_the_game_in_front_of_the_player(qtbot, window):
    window.start_local("collective-conflict", 2, seed=b"f1")
    assert _press_f1(qtbot, window) == "collective-conflict"
    window.rules.close()
    qtbot.waitUntil(lambda: window.rules is None, timeout=5_000)
    window.ask_before_abandoning = False
    window.to_lobby()
    window.lobby.local.game.setCurrentIndex(window.lobby.local.game.findData("anomaly-maze"))
    assert _press_f1(qtbot, window) == "anomaly-maze"


def _finished_maze(tmp_path):  # type: ignore[no-untyped-def]
    game = LocalGame("anomaly-maze", 2, b"replay-start", 0, ["Ann", "AI"], bot_kind="easy")
    while game.over() is None and len(game.history) < 120:
        if game.human_to_move():
            game.act(game.legal()[0])
        else:
            game.step()
    return local_file.save(game, tmp_path / "maze.sealed")


def test_the_maze_replay_opens_on_a_laid_out_board(qtbot, window, tmp_path):
    viewer = window.open_replay_file(_finished_maze(tmp_path))
    assert viewer is not None and viewer.index == 0
    tiles = viewer.table.view["tiles"]
    assert all(t["open"] for t in tiles), "every tile of the first frame has corridors"
    assert viewer.log.texts(), "the opening's lines are in the log of the first frame"


def test_the_replay_play_button_shows_pause_while_playing(qtbot, window, tmp_path):
    viewer = window.open_replay_file(_finished_maze(tmp_path))
    assert viewer is not None and not viewer.play_button.property("playing")
    viewer.play_button.click()
    assert viewer.timer.isActive() and viewer.play_button.property("playing")
    pause = viewer.style().standardIcon(viewer.style().StandardPixmap.SP_MediaPause)
    assert viewer.play_button.icon().pixmap(16).toImage() == pause.pixmap(16).toImage()
    viewer.play_button.click()
    assert not viewer.timer.isActive() and not viewer.play_button.property("playing")
