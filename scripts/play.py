"""``python -m scripts.play [ARGS]``: install into ``.venv`` and play (what ``scripts/play.sh`` runs, on any platform).

Where there is a display (always on Windows and macOS) the desktop program also gets Qt Multimedia
for the sound cues and, on Linux, the X client libraries Qt's window plugin loads
(:mod:`scripts.qtdeps`: installed as root with apt-get, else the one command that does is
printed); with no display it runs the headless demo.  Arguments go to ``sealed-table``.
"""

from __future__ import annotations

import os
import subprocess
import sys

from scripts import devenv


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    os.chdir(devenv.ROOT)
    python = devenv.ensure_venv()
    display = sys.platform in ("win32", "darwin") or any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY"))
    if display and "--headless" not in args:
        devenv.add_sound(python)
        if subprocess.run([str(python), str(devenv.ROOT / "scripts" / "qtdeps.py"), "--install"]).returncode:
            return 1
    return subprocess.run([str(devenv.venv_command("sealed-table")), *args]).returncode


if __name__ == "__main__":
    sys.exit(main())
