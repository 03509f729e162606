"""``python -m scripts.bundle``: the standalone program, one folder that runs with no Python installed.

Builds ``dist/sealed-table/`` (and on macOS ``dist/Sealed Table.app``) with PyInstaller from
``packaging/sealed-table.spec``, the same spec on Linux, Windows and macOS, out of ``.venv``: the
project, Qt Multimedia for the sound cues, and PyInstaller itself are installed there first.  On
Linux the X client libraries Qt's window plugin loads must be on the building machine (they go
into the bundle, so that the friend's machine needs none): :mod:`scripts.qtdeps` installs them as
root.  What ``scripts/bundle.sh`` runs.  Prints where the bundle is and its size; ``--check`` then
runs the bundle's own self-check (``sealed-table check``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from scripts import devenv

PYINSTALLER = "pyinstaller>=6.10,<7"
SPEC = devenv.ROOT / "packaging" / "sealed-table.spec"
DIST = devenv.ROOT / "dist"
WORK = devenv.ROOT / "build" / "pyinstaller"


def executable(dist: Path = DIST) -> Path:
    """The bundle's program inside ``dist``."""
    return dist / "sealed-table" / ("sealed-table.exe" if sys.platform == "win32" else "sealed-table")


def folder_size(folder: Path) -> int:
    """Bytes of every file below ``folder`` (what the friend downloads, unpacked)."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def build(dist: Path = DIST, work: Path = WORK) -> Path:
    """Build the bundle into ``dist``; its executable.  Raises CalledProcessError when a step fails."""
    python = devenv.ensure_venv()
    devenv.pip(python, PYINSTALLER)
    if not devenv.add_sound(python):
        raise SystemExit("The bundle carries Qt Multimedia for the sound cues, and it could not be installed.")
    if sys.platform.startswith("linux"):
        subprocess.run([str(python), str(devenv.ROOT / "scripts" / "qtdeps.py"), "--install"], check=True)
    command = [str(python), "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
    subprocess.run([*command, "--distpath", str(dist), "--workpath", str(work), str(SPEC)], check=True)
    return executable(dist)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bundle", description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=DIST, help="where the bundle goes (default: dist/)")
    parser.add_argument("--check", action="store_true", help="run the bundle's self-check after building it")
    args = parser.parse_args(argv)
    os.chdir(devenv.ROOT)
    program = build(args.dist.resolve())
    print(f"The bundle: {program.parent} ({folder_size(program.parent) / 1e6:.0f} MB); its program: {program}")
    if args.check:
        return subprocess.run([str(program), "check", "--require-sound"]).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
