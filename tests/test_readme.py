"""The README's first command, as a person on a machine without a display runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="scripts/test.sh makes .venv first")
def test_play_script_installs_and_runs_the_headless_demo():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHON"] = sys.executable
    done = subprocess.run(
        ["bash", "scripts/play.sh", "--players", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No display found" in done.stderr
    assert "every peer audited the game as fair" in done.stdout
