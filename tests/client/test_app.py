"""``run_app()`` opens the window on qasync's loop and returns when it is closed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from client.app import make_application, run_app
app = make_application([])
QTimer.singleShot(600, QApplication.closeAllWindows)
raise SystemExit(run_app([]))
"""


def test_run_app_opens_the_lobby_and_closes_cleanly(tmp_path: Path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", SEALED_TABLE_CONFIG_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    saved = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert saved["language"] == "en" and saved["name"]


GUARD = """
import client.qtguard
from PySide6.QtCore import QObject, QPoint, Signal
class Probe(QObject):
    ping = Signal()
point, probe = QPoint(), Probe()
for _ in range(200_000):
    point.setX(1)
    probe.ping.emit()
print("survived")
"""


def test_the_pyside_guard_keeps_long_sessions_alive():
    """200,000 void calls and signal emissions: without the guard CPython 3.11 aborts long before."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", GUARD], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "survived" in done.stdout, done.stderr[-500:]
