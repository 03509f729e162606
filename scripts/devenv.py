"""The developer's environment, on any platform: ``.venv`` with the project installed, and system packages.

``python -m scripts.devenv [EXTRAS]`` makes ``.venv`` in the checkout (when it is not there) and
installs the project into it, editable, with the extras named (``test``, ``sound``); re-running is
cheap, pip skips what is satisfied.  It is what ``scripts/_venv.sh`` does, without a shell, so that
Windows and macOS have it too; :mod:`scripts.play`, :mod:`scripts.test` and :mod:`scripts.bundle`
start with it.  Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


def venv_python(folder: Path = VENV) -> Path:
    """The interpreter of the virtual environment at ``folder`` (``Scripts\\python.exe`` on Windows)."""
    if sys.platform == "win32":
        return folder / "Scripts" / "python.exe"
    return folder / "bin" / "python"


def venv_command(name: str, folder: Path = VENV) -> Path:
    """A command the environment installed (``sealed-table``, ``ruff``...)."""
    if sys.platform == "win32":
        return folder / "Scripts" / f"{name}.exe"
    return folder / "bin" / name


def pip(python: Path, *args: str) -> None:
    """``python -m pip install ARGS``, quietly; raises CalledProcessError when pip fails."""
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args], check=True)


def ensure_venv(extras: str = "") -> Path:
    """``.venv`` with the project (and ``extras``) installed; its interpreter."""
    if sys.version_info < (3, 11):  # noqa: UP036  (run by whatever python3 a person has, before anything is installed)
        raise SystemExit(f"Sealed Table needs Python 3.11 or newer (found: {sys.version.split()[0]}).")
    python = venv_python()
    if not python.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip(python, "--upgrade", "pip")
    pip(python, "-e", f".[{extras}]" if extras else ".")
    return python


def qt_version(python: Path) -> str:
    """The PySide6 the environment has, so that an added Qt part is of exactly its version."""
    done = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('PySide6-Essentials'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def add_sound(python: Path) -> bool:
    """Qt Multimedia (PySide6-Addons) of the installed PySide6's version; False (and a note) when it cannot be."""
    try:
        pip(python, f"PySide6-Addons=={qt_version(python)}")
    except subprocess.CalledProcessError:
        print("Note: Qt Multimedia could not be installed; the program plays no sound.", file=sys.stderr)
        return False
    return True


def can_apt() -> bool:
    """Whether system packages can be installed here: Linux, as root, with apt-get."""
    return sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0 and bool(
        shutil.which("apt-get")
    )


def apt_install(packages: list[str]) -> None:
    """Install Debian packages (as root); raises CalledProcessError when apt-get fails."""
    print(f"Installing with apt-get: {' '.join(packages)}…", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env, stdout=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    os.chdir(ROOT)
    print(ensure_venv(args[0] if args else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
