"""Rules pages are found (or their absence explained), and every screen renders to PNG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from client import resources
from client.i18n import tr
from client.rules_dialog import RulesDialog


def test_rules_pages_come_from_the_repository():
    path = resources.rules_path("system-launch")
    assert path is not None and path.parent.name == "rules"
    assert "System Launch" in (resources.read_rules("system-launch") or "")


def test_a_missing_rules_page_is_explained(qtbot, monkeypatch, tmp_path):
    monkeypatch.setattr(resources, "rules_dirs", lambda: [tmp_path])
    dialog = RulesDialog(None, "anomaly-maze")
    qtbot.addWidget(dialog)
    text = dialog.browsers["anomaly-maze"].toPlainText()
    assert text.startswith(tr("rules.missing", game=tr("game.anomaly-maze"), where=str(tmp_path))[:30])
    assert str(tmp_path) in text


def test_screenshots_render_every_screen(tmp_path: Path):
    from client import screenshots

    assert screenshots.main([str(tmp_path)]) == 0
    names = sorted(p.stem for p in tmp_path.glob("*.png"))
    for screen in ("lobby", "relay-error", "table-mid-game", "hacker-attack-view", "rules", "report", "replay-public"):
        assert any(screen in n for n in names), screen
    for path in tmp_path.glob("*.png"):
        image = QImage(str(path))
        assert not image.isNull() and image.width() >= 300 and image.height() >= 200
