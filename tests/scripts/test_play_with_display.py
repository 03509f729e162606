"""The README's first command on a machine with a display: the lobby window appears.

Run as a person would: a real X server (Xvfb), ``bash scripts/play.sh`` with ``DISPLAY`` set and
no offscreen override.  On a minimal Linux, Qt's xcb plugin lacks system libraries; play.sh must
install them itself (as root with apt-get) or stop with the one command that does.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts import qtdeps

ROOT = Path(__file__).resolve().parents[2]
TITLE = "Sealed Table"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have {name} (scripts/test.sh installs it with apt-get)")
        pytest.skip(f"{name} is not installed")
    return path


@pytest.fixture
def x_display():
    """A private Xvfb server; the display name it chose."""
    xvfb = _tool("Xvfb")
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number, "Xvfb did not report its display"
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def _window_titles(display: str) -> str:
    done = subprocess.run(
        [_tool("xwininfo"), "-root", "-tree", "-display", display], capture_output=True, text=True, check=False
    )
    return done.stdout


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="scripts/test.sh makes .venv first")
def test_play_script_opens_the_lobby_window_on_a_display(x_display, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=x_display, PYTHON=sys.executable, XDG_CONFIG_HOME=str(tmp_path / "config"))
    env["HOME"] = str(tmp_path)
    program = subprocess.Popen(
        ["bash", "scripts/play.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    seen = ""
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and program.poll() is None:
            seen = _window_titles(x_display)
            if f'"{TITLE}"' in seen:
                break
            time.sleep(0.5)
    finally:
        if program.poll() is None:
            os.killpg(program.pid, signal.SIGTERM)
        output = program.communicate(timeout=30)[0]
    assert f'"{TITLE}"' in seen, f"no lobby window; play.sh said:\n{output}"


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
