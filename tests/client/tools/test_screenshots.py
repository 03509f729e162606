"""Rules pages are found (or their absence explained), and every screen renders to PNG."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from client.i18n import tr
from client.screens import rules_pages
from client.screens.rules_dialog import RulesDialog


def test_rules_pages_come_from_the_repository():
    path = rules_pages.rules_path("system-launch")
    assert path is not None and path.parent.name == "rules"
    assert "System Launch" in (rules_pages.read_rules("system-launch") or "")


def test_a_missing_rules_page_is_explained(qtbot, monkeypatch, tmp_path):
    monkeypatch.setattr(rules_pages, "rules_dirs", lambda: [tmp_path])
    dialog = RulesDialog(None, "anomaly-maze")
    qtbot.addWidget(dialog)
    text = dialog.browsers["anomaly-maze"].toPlainText()
    assert text.startswith(tr("rules.missing", game=tr("game.anomaly-maze"), where=str(tmp_path))[:30])
    assert str(tmp_path) in text


def test_screenshots_render_every_screen(tmp_path: Path):
    from client.tools import screenshots

    assert screenshots.main([str(tmp_path), "--check-text"]) == 0, "no label or button text is cut off"
    names = sorted(p.stem for p in tmp_path.glob("*.png"))
    for screen in ("lobby", "relay-error", "table-mid-game", "hacker-attack-view", "rules", "report", "replay-public"):
        assert any(screen in n for n in names), screen
    for path in tmp_path.glob("*.png"):
        image = QImage(str(path))
        assert not image.isNull() and image.width() >= 300 and image.height() >= 200


@pytest.mark.parametrize("language", ["pl", "ru"])  # English: the test above
def test_no_label_or_button_text_is_clipped_on_any_screen(tmp_path: Path, language: str, capsys):
    from client.tools import screenshots

    code = screenshots.main([str(tmp_path), "--language", language, "--check-text"])
    assert code == 0, capsys.readouterr().err


def test_the_clipping_check_finds_a_cut_off_label_and_button(qtbot):
    from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

    from client.ui.clipping import clipped_texts
    from client.ui.wrap_button import WrapButton

    panel = QWidget()
    qtbot.addWidget(panel)
    panel.setFixedWidth(160)
    layout = QVBoxLayout(panel)
    long = "Сыграть «Хакерская атака!» против игрока Селина"
    label, button, wrapped = QLabel(long), QPushButton(long), WrapButton(long)
    for w in (label, button, wrapped):
        layout.addWidget(w)
    panel.show()
    qtbot.waitExposed(panel)
    found = {c.text for c in clipped_texts(panel)}
    assert found == {long}, "the plain label and the plain button are cut off"
    assert len([c for c in clipped_texts(panel) if c.text == long]) == 2
    assert wrapped.full_text == long and wrapped.text().replace("\n", " ") == long and "\n" in wrapped.text()
