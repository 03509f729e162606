"""A real X display for the tests that open the program as a person would: a private Xvfb server.

``x_display`` (a fixture) starts one and gives its name; :func:`wait_for_window` watches it with
``xwininfo`` until a window of the title shows (or the program ends, or the time runs out).  Both
programs come from Debian's xvfb and x11-utils, which scripts/test.sh installs; CI must have them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

TITLE = "Sealed Table"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have {name} (scripts/test.sh installs it with apt-get)")
        pytest.skip(f"{name} is not installed")
    return path


def start_xvfb(xvfb: str) -> tuple[subprocess.Popen[bytes], str]:
    """A private Xvfb server (the program at ``xvfb``) and the display name it chose ("" if it said none)."""
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
    return server, f":{number}" if number else ""


@pytest.fixture
def x_display() -> Iterator[str]:
    """A private Xvfb server; the display name it chose."""
    server, display = start_xvfb(tool("Xvfb"))
    assert display, "Xvfb did not report its display"
    yield display
    server.terminate()
    server.wait(timeout=10)


def shows_window(argv: list[str], cwd: object, env: dict[str, str], display: str, seconds: float) -> tuple[bool, str]:
    """Start ``argv`` on ``display``: whether its window showed within ``seconds``, and what it printed."""
    program = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        shown = wait_for_window(program, display, seconds)
    finally:
        if program.poll() is None:
            os.killpg(program.pid, signal.SIGTERM)
        output = program.communicate(timeout=30)[0]
    return shown, output


def window_titles(display: str) -> str:
    done = subprocess.run(
        [tool("xwininfo"), "-root", "-tree", "-display", display], capture_output=True, text=True, check=False
    )
    return done.stdout


def wait_for_window(program: subprocess.Popen[str], display: str, seconds: float, title: str = TITLE) -> bool:
    """Whether a window called ``title`` appeared on ``display`` while ``program`` ran, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and program.poll() is None:
        if f'"{title}"' in window_titles(display):
            return True
        time.sleep(0.5)
    return False
