"""Three languages for every string; a switch in the settings re-labels the program; settings persist."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from client_drive import play_to_end
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from client import settings as settings_mod
from client.i18n import LANGUAGE, tr, tr_in
from client.messages import CATALOGUE, LANGUAGES

CLIENT = Path(__file__).resolve().parents[2] / "client"


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_in_every_language_with_the_same_fields():
    for key, texts in CATALOGUE.items():
        assert set(texts) == set(LANGUAGES), key
        assert all(t.strip() for t in texts.values()), key
        assert fields(texts["pl"]) == fields(texts["en"]) == fields(texts["ru"]), key


def test_every_message_id_used_in_the_code_exists():
    used: set[str] = set()
    for path in CLIENT.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\btr\(\s*["']([\w.\- ]+)["']""", source))
        used |= set(re.findall(r"""LogLine\(\s*["']([\w.\- ]+)["']""", source))
    assert used, "the scan found no message ids"
    missing = sorted(key for key in used if key not in CATALOGUE)
    assert not missing, missing
    # Ids built at run time from data: card kinds, games, reasons, speeds, languages.
    from client.resources import GAMES
    from client.settings import BOT_SPEEDS
    from engines.system_launch.cards import KIND_NAMES

    dynamic = [f"card.{k}" for k in KIND_NAMES] + [f"game.{g}" for g in GAMES] + [f"game.blurb.{g}" for g in GAMES]
    dynamic += [f"speed.{ms}" for ms in BOT_SPEEDS] + [f"lang.{c}" for c in LANGUAGES]
    dynamic += [
        f"report.reason.{r}" for r in ("system launched", "deck exhausted", "round limit", "last seat standing")
    ]
    assert [k for k in dynamic if k not in CATALOGUE] == []


def test_translation_fills_fields_and_falls_back():
    assert tr_in("pl", "lobby.welcome", name="Ola") == "Witaj, Ola!"
    assert tr_in("ru", "table.deck", n=7) == "Колода: 7"
    assert tr("no.such.message") == "no.such.message"
    assert tr_in("en", "lobby.welcome") == "Welcome, {name}!"  # a missing field never raises


def test_language_switch_in_settings_relabels_the_program(qtbot, window, private_config):
    window.start_local("system-launch", 3, seed=b"relabel")
    game, screen = window.game, window.game_screen
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    log_before = screen.log.texts()
    assert screen.rules_button.text() == "Rules"

    dialog = window.open_settings()
    dialog.language.setCurrentIndex(LANGUAGES.index("pl"))
    dialog.name.setText("Ola")
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.settings_dialog is None)

    assert LANGUAGE.code == "pl"
    assert screen.rules_button.text() == tr_in("pl", "menu.rules")
    assert screen.log_title.text() == tr_in("pl", "table.log")
    assert window.lobby.start.text() == tr_in("pl", "lobby.start")
    assert window.game_menu.title() == tr_in("pl", "menu.game")
    assert tr_in("pl", "phase.action") in screen.table.status.text()
    log_after = screen.log.texts()
    assert len(log_after) == len(log_before) and log_after != log_before
    assert tr_in("pl", "log.shuffled", n=44) in log_after
    saved = json.loads((private_config / settings_mod.FILE_NAME).read_text(encoding="utf-8"))
    assert saved["language"] == "pl" and saved["name"] == "Ola"

    LANGUAGE.set("ru")
    assert screen.rules_button.text() == "Правила"
    play_to_end(qtbot, window)
    qtbot.mouseClick(screen.table.report_button, Qt.MouseButton.LeftButton)
    assert window.report.save_button.text() == tr_in("ru", "report.save")


def test_cancelled_settings_restore_the_language(qtbot, window):
    dialog = window.open_settings()
    dialog.language.setCurrentIndex(LANGUAGES.index("ru"))
    assert window.lobby.start.text() == tr_in("ru", "lobby.start")  # a live preview
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert LANGUAGE.code == "en" and window.lobby.start.text() == "Start the game"


def test_settings_round_trip_and_damage(tmp_path: Path):
    s = settings_mod.Settings(name="Ola", language="pl", bot_delay_ms=250, players=5)
    for relay in ("a:1883", "b:1883", "a:1883"):
        s.remember_relay(relay)
    assert s.relays == ["a:1883", "b:1883"]
    settings_mod.save(s, tmp_path)
    assert settings_mod.load(tmp_path) == s
    (tmp_path / settings_mod.FILE_NAME).write_text('{"name": 5, "language": "xx", "bot_delay_ms": -1, "players": 9}')
    assert settings_mod.load(tmp_path) == settings_mod.Settings()
    (tmp_path / settings_mod.FILE_NAME).write_text("{not json")
    assert settings_mod.load(tmp_path) == settings_mod.Settings()
