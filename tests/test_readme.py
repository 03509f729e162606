"""The README's first command, as a person on a machine without a display runs it; its tools table, as true as
the programs' own ``--help``."""

from __future__ import annotations

import itertools
import os
import re
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


def _tools_table() -> list[tuple[str, list[str]]]:
    """The README's tools table: each row's commands (the backticked ``python -m …``, and the ``--…``
    alternatives after a ``/``, which are options of the same program)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Tools", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in table.splitlines()[2:]:
        command_cell = line.split(" | ", 1)[0].lstrip("| ")
        parts = re.findall(r"`([^`]+)`", command_cell)
        commands = [p for p in parts if p.startswith("python -m ")]
        if commands:
            rows.append((commands[0], [p for p in parts if p.startswith("python -m ") or p.startswith("--")]))
    return rows


def _usage(program: list[str]) -> tuple[set[str], set[str]]:
    """The options of ``program`` (from its ``--help``): every one, and the required ones (outside ``[…]``)."""
    done = subprocess.run(
        [sys.executable, "-m", *program, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    usage = done.stdout.split("\n\n", 1)[0]
    required = usage
    while (shorter := re.sub(r"\[[^\[\]]*\]", "", required)) != required:
        required = shorter
    return set(re.findall(r"--[\w-]+", done.stdout)), set(re.findall(r"--[\w-]+", required))


def test_the_tools_table_gives_every_option_a_program_requires_and_only_options_it_has() -> None:
    rows = _tools_table()
    assert any(first.startswith("python -m client.headless") for first, _ in rows), "the table lost a row"
    for first, commands in rows:
        words = first.split()[2:]
        # The program and its subcommand (the plain words before the first placeholder or option).
        lead = list(itertools.takewhile(lambda w: re.fullmatch(r"[a-z][\w.-]*", w) is not None, words))
        known, required = _usage(lead)
        for command in commands:
            given = set(re.findall(r"--[\w-]+", command))
            assert required <= given, f"{command!r} lacks {sorted(required - given)}"
            assert given <= known, f"{command!r}: no such option {sorted(given - known)}"
