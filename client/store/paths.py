"""Where the program keeps its files on each platform: settings, kept games, caches.

The folders are each platform's own, found by ``platformdirs`` without Qt (so the headless peer,
the relay and the tools agree with the desktop without loading Qt or naming a QApplication first):

- Linux: settings and keys in ``$XDG_CONFIG_HOME/sealed-table`` (``~/.config/sealed-table``), kept
  games in ``$XDG_DATA_HOME/sealed-table`` (``~/.local/share/sealed-table``);
- macOS: both in ``~/Library/Application Support/sealed-table``;
- Windows: both in ``%LOCALAPPDATA%\\Sealed Table\\sealed-table``;

and caches in :func:`cache_dir` (``~/.cache``, ``~/Library/Caches``, ``%LOCALAPPDATA%\\…\\Cache``).
Windows keeps them in the local, never the roaming, part of the profile: a signing key does not
travel to other machines of a domain.  What keeps them private there is the profile's own access
list, which every file and folder below it inherits: the user, SYSTEM and the Administrators
group, nobody else (POSIX systems get mode 0600/0700 besides, :mod:`client.store.private`).

``SEALED_TABLE_CONFIG_DIR`` puts everything in one folder (tests, and a portable install on a
memory stick): settings and keys in it, kept games in it too, caches in its ``cache``.

Before this module the desktop asked Qt (``QStandardPaths.AppConfigLocation`` with the
organisation "Sealed Table"), which put everything under ``~/.config/Sealed Table/sealed-table``
on Linux; :func:`adopt_earlier_folder` moves such a folder's files to their places once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

import platformdirs

CONFIG_ENV = "SEALED_TABLE_CONFIG_DIR"
APP_NAME = "sealed-table"
APP_AUTHOR = "Sealed Table"
CACHE = "cache"


def _override() -> Path | None:
    value = os.environ.get(CONFIG_ENV)
    return Path(value) if value else None


def _dirs() -> platformdirs.PlatformDirs:
    return platformdirs.PlatformDirs(APP_NAME, APP_AUTHOR, roaming=False)


def config_dir() -> Path:
    """Settings, the signing key and relay passwords: the override, else the platform's config folder."""
    return _override() or Path(_dirs().user_config_dir)


def data_dir() -> Path:
    """The kept seats of network games: the override, else the platform's data folder."""
    return _override() or Path(_dirs().user_data_dir)


def cache_dir() -> Path:
    """What may be thrown away at any time: the override's ``cache``, else the platform's cache folder."""
    override = _override()
    return override / CACHE if override else Path(_dirs().user_cache_dir)


def earlier_folder() -> Path | None:
    """The folder Qt gave earlier versions on this platform (None where it is the new one, or unknown)."""
    home = Path.home()
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return Path(local) / APP_AUTHOR / APP_NAME if local else None  # where platformdirs puts it now too
    if sys.platform == "darwin":
        return home / "Library" / "Preferences" / APP_AUTHOR / APP_NAME
    base = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    return Path(base) / APP_AUTHOR / APP_NAME


def adopt_earlier_folder(earlier: Path | None = None) -> list[Path]:
    """Move an earlier version's files to today's folders, once; the files moved.

    Only when the override is not set, the earlier folder exists and is not today's, and today's
    config folder has no settings or key yet (never overwrite a newer file).  The games folder goes
    to :func:`data_dir`, everything else to :func:`config_dir`.  A file that cannot be moved stays
    where it was (the player loses nothing; it is simply not used).
    """
    earlier = earlier_folder() if earlier is None else earlier
    config, data = config_dir(), data_dir()
    if _override() is not None or earlier is None or not earlier.is_dir() or earlier in (config, data):
        return []
    if any((config / name).exists() for name in ("settings.json", "identity.key")):
        return []
    moved: list[Path] = []
    for entry in sorted(earlier.iterdir()):
        target = (data if entry.name == "games" else config) / entry.name
        if target.exists():
            continue
        with contextlib.suppress(OSError):
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            shutil.move(str(entry), str(target))
            moved.append(target)
    return moved
