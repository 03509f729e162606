"""The README's first command on a machine with a display: the lobby window appears.

Run as a person would: a real X server (Xvfb), ``bash scripts/play.sh`` with ``DISPLAY`` set and
no offscreen override.  On a minimal Linux, Qt's xcb plugin lacks system libraries; play.sh must
install them itself (as root with apt-get) or stop with the one command that does.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from scripts import qtdeps
from tests.display import TITLE, shows_window

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="scripts/test.sh makes .venv first")
def test_play_script_opens_the_lobby_window_on_a_display(x_display, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=x_display, PYTHON=sys.executable, XDG_CONFIG_HOME=str(tmp_path / "config"))
    env["HOME"] = str(tmp_path)
    shown, output = shows_window(["bash", "scripts/play.sh"], ROOT, env, x_display, 240)
    assert shown, f"no {TITLE} window; play.sh said:\n{output}"


def test_missing_libraries_are_read_from_ldd_and_named_by_debian_package():
    ldd = (
        "\tlinux-vdso.so.1 (0x00007ffd)\n"
        "\tlibxcb-icccm.so.4 => not found\n"
        "\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f)\n"
        "\tlibxcb-keysyms.so.1 => not found\n"
        "\tlibxcb-icccm.so.4 => not found\n"
    )
    missing = qtdeps.missing_from_ldd(ldd)
    assert missing == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert qtdeps.packages_for([*missing, "libmystery.so.9"]) == (
        ["libxcb-icccm4", "libxcb-keysyms1"],
        ["libmystery.so.9"],
    )
