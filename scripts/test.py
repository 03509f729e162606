"""``python -m scripts.test [PYTEST ARGS]``: install, lint, type-check and run the whole test suite.

What ``scripts/test.sh`` runs, on any platform: ``.venv`` with the test extra, the system programs
the tests need (Mosquitto, and Xvfb with ``xwininfo`` for the tests on a real display: installed
with apt-get as root on Linux; elsewhere their tests are skipped, and CI fails without them), Aedes
with npm, then ``ruff``, ``lint-imports``, ``mypy`` and pytest in two processes
(``TEST_WORKERS=0`` for one), stopping at the first that fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scripts import devenv

AEDES = devenv.ROOT / "tests" / "relay" / "games" / "aedes"


def system_programs() -> int:
    """Mosquitto (the real relay, and mosquitto_passwd for the login tests), Xvfb and xwininfo.

    Mosquitto's Debian package also starts a system broker on port 1883; the tests start their own
    brokers on free ports, so it does no harm either way.
    """
    need = []
    if not (shutil.which("mosquitto") or Path("/usr/sbin/mosquitto").exists()):
        need.append("mosquitto")
    if sys.platform.startswith("linux"):
        for command, package in (("Xvfb", "xvfb"), ("xwininfo", "x11-utils")):
            if not shutil.which(command):
                need.append(package)
    if not need:
        return 0
    if devenv.can_apt():
        devenv.apt_install(need)
    elif os.environ.get("CI"):
        print(f"CI needs {' '.join(need)} and cannot install them (not root, or no apt-get).", file=sys.stderr)
        return 1
    else:
        print(f"Note: {' '.join(need)} not installed; their tests will be skipped.", file=sys.stderr)
    return 0


def aedes() -> int:
    """Aedes, the second broker a whole game is played on: npm installs the locked version beside its test."""
    if (AEDES / "node_modules" / "aedes").is_dir():
        return 0
    npm = shutil.which("npm")
    if npm is None:
        print("Note: npm is not installed; the Aedes test will be skipped.", file=sys.stderr)
        return 1 if os.environ.get("CI") else 0
    quiet = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]
    for verb in ("ci", "install"):
        if subprocess.run([npm, verb, *quiet], cwd=AEDES, stdout=subprocess.DEVNULL).returncode == 0:
            return 0
    print("Note: Aedes could not be installed; its test will be skipped.", file=sys.stderr)
    return 1 if os.environ.get("CI") else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    os.chdir(devenv.ROOT)
    python = devenv.ensure_venv("test")
    if system_programs() or aedes():
        return 1
    for tool in (["ruff", "check", "."], ["lint-imports", "--no-cache"], ["mypy"]):
        if subprocess.run([str(devenv.venv_command(tool[0])), *tool[1:]]).returncode:
            return 1
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    # Two worker processes: most tests wait on relays and child processes, so two share two cores well.
    workers = os.environ.get("TEST_WORKERS", "2")
    command = [str(python), "-m", "pytest", "-n", workers, *args]
    return subprocess.run(command, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
