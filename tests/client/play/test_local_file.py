"""Saved games: save from the report, open in the replay viewer, and refuse damaged files clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from client.play import local_file, replays
from client.play.local import LocalGame
from client.screens.replay import ReplayScreen
from tests.client.drive import play_to_end


def finished_game(seed: bytes, players: int = 3) -> LocalGame:
    game = LocalGame("system-launch", players, seed, 0, [f"P{i}" for i in range(players)])
    turn = 0
    while game.over() is None:
        if game.human_to_move():
            legal = game.legal()
            game.act(legal[turn % len(legal)])
            turn += 1
        else:
            game.step()
    return game


def test_saved_game_opens_in_the_replay_viewer(qtbot, window, tmp_path, monkeypatch):
    window.start_local("system-launch", 3, seed=b"save-and-replay")
    play_to_end(qtbot, window)
    qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
    report = window.report
    target = tmp_path / "my game"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(report.save_button, Qt.MouseButton.LeftButton)
    saved = target.with_name("my game.sealed")
    assert saved.is_file() and str(saved) in report.status.text()
    final_hash = window.game.state.hash()
    history = list(window.game.history)

    qtbot.mouseClick(report.lobby_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.lobby
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(saved), ""))
    qtbot.mouseClick(window.lobby.replay_button, Qt.MouseButton.LeftButton)
    viewer = window.stack.currentWidget()
    assert isinstance(viewer, ReplayScreen)
    frames = viewer.replay.frames
    assert len(frames) == len(history) + 1 and frames[-1].state.hash() == final_hash
    assert viewer.index == 0 and not viewer.full.isEnabled()

    # Public view: no hand is shown face up while stepping through.
    for _ in range(10):
        qtbot.mouseClick(viewer.next_button, Qt.MouseButton.LeftButton)
    assert viewer.index == 10
    assert all(p.hand.faces == [None] * len(p.hand.faces) for p in viewer.table.seat_panels.values())
    qtbot.mouseClick(viewer.prev_button, Qt.MouseButton.LeftButton)
    assert viewer.index == 9 and viewer.table.view == frames[9].state.view(viewer.table.knowledge)

    # The end unlocks the full view: every hand face up.
    qtbot.mouseClick(viewer.last_button, Qt.MouseButton.LeftButton)
    assert viewer.index == len(frames) - 1 and viewer.full.isEnabled()
    viewer.full.setChecked(True)
    hands = {s: p.hand.faces for s, p in viewer.table.seat_panels.items()}
    assert sum(len(f) for f in hands.values()) == sum(len(h) for h in frames[-1].state.hands)
    assert all(face is not None for faces in hands.values() for face in faces)
    assert viewer.table.action_buttons == [] and not viewer.table.side.isVisible()


def test_replay_rebuilds_every_frame_and_the_secrets(tmp_path: Path):
    game = finished_game(b"frames")
    path = local_file.save(game, tmp_path / "g.sealed")
    replay = replays.open_replay(path)
    assert [(f.seat, f.action) for f in replay.frames[1:]] == [(s, a) for s, a in game.history]
    assert replay.result == game.over()
    assert replay.frames[-1].truth.cards == {**game.referee.truth.cards}
    assert replay.frames[-1].human.cards == game.knowledge.cards


def _bad_decision(record: local_file.GameRecord) -> None:
    record.decisions[3] = (record.decisions[3][0], ("pass", 1))


def _rewrite(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    record = local_file.load(path)
    change(record)
    path.write_bytes(local_file.dumps(record))


@pytest.mark.parametrize(
    ("damage", "code"),
    [
        (lambda p: p.write_bytes(b"PK\x03\x04 a zip file"), "not-a-game"),
        (lambda p: p.write_bytes(p.read_bytes()[:40]), "corrupt"),
        (lambda p: p.write_bytes(local_file.MAGIC + b"\xc1\xc1\xc1"), "corrupt"),
        (lambda p: _rewrite(p, lambda r: setattr(r, "final_hash", b"\x00" * 32)), "does-not-replay"),
        (
            lambda p: _rewrite(p, lambda r: r.decisions.__setitem__(3, (r.decisions[3][0], ("pass", 1)))),
            "does-not-replay",
        ),
        (lambda p: _rewrite(p, lambda r: setattr(r, "game", "chess")), "unknown-game"),
        (lambda p: _rewrite(p, lambda r: setattr(r, "seed", b"another seed")), "does-not-replay"),
        (lambda p: p.unlink(), "unreadable"),
    ],
)
def test_damaged_files_are_refused_with_a_reason(tmp_path: Path, damage, code):
    path = local_file.save(finished_game(b"damage"), tmp_path / "g.sealed")
    damage(path)
    with pytest.raises(local_file.GameFileError) as err:
        replays.open_replay(path)
    assert err.value.code == code
    assert err.value.message() and not err.value.message().startswith("file.")


def test_a_corrupt_file_shows_a_clear_message_in_the_window(qtbot, window, tmp_path):
    bad = tmp_path / "bad.sealed"
    bad.write_bytes(b"this is not a game")
    assert window.open_replay_file(bad) is None
    box = window.message_box
    assert box is not None and box.isVisible()
    assert box.text() == local_file.GameFileError("not-a-game").message()
    assert window.stack.currentWidget() is window.lobby
    box.close()
