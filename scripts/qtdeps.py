"""What Qt's X11 platform plugin (and Qt Multimedia) lack on this machine, and the command that installs it.

A minimal Linux has no X client libraries beyond the core ones; PySide6's wheel links its xcb
plugin against a dozen ``libxcb-*`` companions that such a machine does not have, and Qt then
says only "xcb-cursor0 is needed", which names the wrong package.  So before the desktop program
starts, ``scripts/play.sh`` asks this module: we run the dynamic linker over the plugin (``ldd``
lists every library it would load and marks the missing ones), add the cursor library that Qt
loads by hand at run time, and map each missing library to its Debian package.  As root with
``apt-get`` we install them; otherwise we print the command and stop, because a program that
cannot open its window helps nobody.

Run as ``python scripts/qtdeps.py [--install]``; exit status 0 when nothing is missing (or all of
it was installed), 1 when something still is.  No Qt import: it must work where Qt cannot load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Debian's package for each library the xcb plugin needs (the soname as ldd prints it).
DEBIAN_PACKAGES: dict[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libICE.so.6": "libice6",
    "libSM.so.6": "libsm6",
}

# Qt Multimedia (PySide6-Addons, for the sound cues) needs PulseAudio's client library.  Sound is
# optional: what it lacks is installed as root, else named, and the program starts either way.
SOUND_PACKAGES = {
    "libpulse.so.0": "libpulse0",
    "libpulse-mainloop-glib.so.0": "libpulse-mainloop-glib0",
    "libasound.so.2": "libasound2",
}

# Qt 6.5+ opens the cursor library with dlopen, so ldd never lists it.
LOADED_AT_RUN_TIME = ("libxcb-cursor.so.0",)

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def qt_root() -> Path | None:
    """The ``Qt`` folder of the installed PySide6 wheel, found without importing Qt."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations))) / "Qt"
    return root if root.is_dir() else None


def missing_from_ldd(output: str) -> list[str]:
    """The sonames that ``ldd`` reported as not found, each once, in order."""
    seen: dict[str, None] = {}
    for soname in _NOT_FOUND.findall(output):
        seen.setdefault(soname, None)
    return list(seen)


def _ldd(path: Path) -> str:
    done = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=False)
    return done.stdout


def _loadable(soname: str) -> bool:
    """Whether the dynamic linker knows ``soname`` (``ldconfig -p`` lists its cache)."""
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    if not Path(ldconfig).exists():
        return True  # we cannot tell; let Qt say
    done = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False)
    return soname in done.stdout


def missing_libraries(root: Path) -> list[str]:
    """Every library the xcb platform plugin needs and this machine lacks."""
    files = [root / "plugins" / "platforms" / "libqxcb.so", *sorted((root / "lib").glob("libQt6XcbQpa.so*"))]
    found: dict[str, None] = {}
    for file in files:
        if file.exists():
            for soname in missing_from_ldd(_ldd(file)):
                found.setdefault(soname, None)
    for soname in LOADED_AT_RUN_TIME:
        if not _loadable(soname):
            found.setdefault(soname, None)
    return list(found)


def missing_for_sound(root: Path) -> list[str]:
    """Every library Qt Multimedia needs and this machine lacks (none when it is not installed)."""
    found: dict[str, None] = {}
    for file in sorted((root / "lib").glob("libQt6Multimedia.so*")):
        for soname in missing_from_ldd(_ldd(file)):
            found.setdefault(soname, None)
    return list(found)


def packages_for(sonames: list[str]) -> tuple[list[str], list[str]]:
    """(Debian packages to install, sonames we know no package for)."""
    packages: dict[str, None] = {}
    unknown = []
    for soname in sonames:
        package = DEBIAN_PACKAGES.get(soname) or SOUND_PACKAGES.get(soname)
        if package:
            packages.setdefault(package, None)
        else:
            unknown.append(soname)
    return list(packages), unknown


def install_command(packages: list[str]) -> list[str]:
    return ["apt-get", "install", "-y", "--no-install-recommends", *packages]


def _can_install() -> bool:
    return os.geteuid() == 0 and shutil.which("apt-get") is not None


def _apt_install(packages: list[str]) -> bool:
    """``apt-get install`` the packages, quietly (as root); whether it succeeded."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, check=False, stdout=subprocess.DEVNULL)
    done = subprocess.run([*install_command(packages), "-qq"], env=env, check=False, stdout=subprocess.DEVNULL)
    return done.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/qtdeps.py", description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="store_true", help="install what is missing (as root, with apt-get)")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        return 0
    root = qt_root()
    if root is None:
        print("PySide6 is not installed; run scripts/play.sh to install it.", file=sys.stderr)
        return 1
    _sound(root, args.install)
    missing = missing_libraries(root)
    if not missing:
        return 0
    packages, unknown = packages_for(missing)
    if unknown:
        print("Qt's window system plugin also lacks: " + ", ".join(unknown), file=sys.stderr)
    if packages and args.install and _can_install():
        print("Installing what Qt needs to open a window: " + " ".join(packages), file=sys.stderr)
        if _apt_install(packages) and not missing_libraries(root):
            return 0
        print("Installing them failed.", file=sys.stderr)
    if packages:
        print(
            "The desktop program needs system libraries that this machine lacks. Install them with:\n"
            "    sudo " + " ".join(install_command(packages)),
            file=sys.stderr,
        )
    return 1


def _sound(root: Path, install: bool) -> None:
    """Install (as root) or name what Qt Multimedia lacks; never stops the program (it plays silent)."""
    missing = missing_for_sound(root)
    if not missing:
        return
    packages, _unknown = packages_for(missing)
    if packages and install and _can_install():
        print("Installing what the sound cues need: " + " ".join(packages), file=sys.stderr)
        _apt_install(packages)
        missing = missing_for_sound(root)
        if not missing:
            return
    print(
        "The program will play no sound: Qt Multimedia lacks " + ", ".join(missing)
        + (". Install with:\n    sudo " + " ".join(install_command(packages)) if packages else "."),
        file=sys.stderr,
    )


if __name__ == "__main__":
    sys.exit(main())
