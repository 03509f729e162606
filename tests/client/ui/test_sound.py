"""Sound cues (client/ui/sound.py): heard when the turn comes, muted by the settings or the table, else quiet."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox

from client.store import settings as settings_mod
from client.ui import sound
from tests.client.drive import click_action, preferred

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def sound_on() -> Iterator[sound.Sound]:
    """Sound allowed for one test (the suite runs silent); the record starts empty."""
    player = sound.player()
    player.override, player.played, wanted = None, [], player.wanted
    yield player
    player.override, player.played, player.wanted = None, [], wanted


def _allow(player: sound.Sound, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lift the suite's SEALED_TABLE_SOUND=off for this test: the settings decide again."""
    assert player.override is None
    monkeypatch.delenv(sound.ENV, raising=False)


def test_the_suite_is_silent():
    assert not sound.player().on()


def test_the_turn_cue_sounds_each_time_the_turn_comes(qtbot, window, sound_on, monkeypatch):
    _allow(sound_on, monkeypatch)
    screen = window.start_local("system-launch", 3, seed=b"sound-turns")
    game = window.game
    turns = 0
    while turns < 3 and game.over() is None:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        turns += 1
        qtbot.waitUntil(lambda: screen.my_turn, timeout=5_000)
        assert sound_on.played.count("turn") == turns, sound_on.played
        click_action(qtbot, screen, preferred(game.legal(), turns))
    assert turns == 3


def test_muted_at_the_table_no_cue_and_the_settings_keep_it(qtbot, window, sound_on, monkeypatch, private_config):
    _allow(sound_on, monkeypatch)
    screen = window.start_local("system-launch", 3, seed=b"sound-muted")
    assert screen.sound_switch.isChecked()
    box = screen.sound_switch
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on its box
    assert not screen.sound_switch.isChecked() and not sound_on.on()
    saved = json.loads((private_config / settings_mod.FILE_NAME).read_text(encoding="utf-8"))
    assert saved["sound"] is False
    sound_on.played.clear()
    game = window.game
    for turn in range(2):
        qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
        click_action(qtbot, screen, preferred(game.legal(), turn))
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    assert sound_on.played == []


def test_the_settings_window_switches_sound_and_animation(qtbot, window, private_config):
    dialog = window.open_settings()
    assert dialog.sound.isChecked() and dialog.animations.isChecked()
    dialog.sound.setChecked(False)
    dialog.animations.setChecked(False)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.settings_dialog is None)
    loaded = settings_mod.load(private_config)
    assert loaded.sound is False and loaded.animations is False
    assert sound.player().wanted is False
    from client.ui import motion

    assert motion.clock().wanted is False
    window.settings.sound = window.settings.animations = True
    window.apply_switches()


def test_damaged_switches_fall_back(tmp_path: Path):
    (tmp_path / settings_mod.FILE_NAME).write_text('{"sound": "loud", "animations": 1}')
    loaded = settings_mod.load(tmp_path)
    assert loaded.sound is True and loaded.animations is True


def test_cues_play_or_stay_quiet_without_error(qapp, monkeypatch):
    monkeypatch.delenv(sound.ENV, raising=False)
    player = sound.Sound()
    effects = player.effects()  # real QSoundEffect objects where audio exists; none here, with a reason
    assert set(effects) <= set(sound.CUES)
    if not effects:
        assert player.silent_reason
    for cue in sound.CUES:
        player.play(cue)
    player.play("no-such-cue")
    assert player.played == list(sound.CUES)


def test_the_committed_sounds_are_what_the_script_makes(tmp_path: Path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "scripts" / "make_sounds.py")
    assert spec and spec.loader
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    cues = make.cues()
    assert set(cues) == set(sound.CUES)
    for name, samples in cues.items():
        made = make.write(name, samples, tmp_path)
        committed = sound.SOUNDS / f"{name}.wav"
        assert made.read_bytes() == committed.read_bytes(), name
        assert committed.stat().st_size < 40_000, "cues stay small"
