"""Files only their owner may read, written so that a crash leaves each one whole or not there at all.

Every file this program keeps with a secret or a player's choice in it (the identity key, relay
passwords, settings, kept seats, the headless peer's ``--state-dir``) goes through
:func:`write_private`: the bytes go to a temporary file beside the target, created with mode 0600
(never readable by others, not even for a moment), and are flushed and synced to the disk before
the temporary file is renamed onto the target in one step.  The folder is synced too where the
system allows it, so that the rename itself survives a power cut.  A reader thus sees the old
file or the new one, never half of one.  :func:`private_folder` makes the folders such files
live in, readable by their owner only (mode 0700).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def private_folder(path: Path) -> Path:
    """Make ``path`` (and its parents) if needed, and leave it readable by its owner only.  Raises OSError."""
    path.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    with contextlib.suppress(OSError):  # a folder of another owner, or a system without modes, keeps its own
        os.chmod(path, FOLDER_MODE)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` in one step, mode 0600 from the first byte on, on the disk.  Raises OSError.

    The folder must exist.  On any failure the target is left as it was and the temporary file is removed.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Put the folder's entries (the rename) on the disk; a system that cannot open a folder skips it."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:  # a system that cannot open a folder as a file (Windows) has nothing to sync here
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a folder
            os.fsync(fd)
    finally:
        os.close(fd)
