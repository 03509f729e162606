"""The one private-file writer: a file is whole or not there, readable by its owner only, and on the disk."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from client.store import private
from client.store.private import private_folder, write_private
from tests.relay.helpers import ROOT, env

SIZE = 4 * 1024 * 1024  # large enough that a write takes many system calls


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_is_owner_only_whatever_the_umask_and_an_old_file_s_mode(tmp_path: Path) -> None:
    target = tmp_path / "secret"
    target.write_bytes(b"old")
    target.chmod(0o644)  # a file left from before, readable by others
    old = os.umask(0)
    try:
        write_private(target, b"new")
    finally:
        os.umask(old)
    assert target.read_bytes() == b"new" and _mode(target) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret"], "no temporary file is left behind"


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_or_none_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    kept, fresh = tmp_path / "kept", tmp_path / "fresh"
    write_private(kept, b"whole")

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if failing == "write":
        real_fdopen = os.fdopen

        class HalfFile:
            """Writes half the bytes, then the disk is full."""

            def __init__(self, fd: int, mode: str) -> None:
                self.file = real_fdopen(fd, mode)

            def __enter__(self) -> HalfFile:
                return self

            def __exit__(self, *exc: object) -> None:
                self.file.close()

            def write(self, data: bytes) -> None:
                self.file.write(data[: len(data) // 2])
                self.file.flush()
                refuse()

        monkeypatch.setattr(private.os, "fdopen", HalfFile)
    else:
        monkeypatch.setattr(private.os, failing, refuse)
    for target in (kept, fresh):
        with pytest.raises(OSError):
            write_private(target, b"x" * SIZE)
    monkeypatch.undo()
    assert kept.read_bytes() == b"whole" and not fresh.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept"], "the temporary file is removed"


def test_the_bytes_and_the_rename_are_synced_to_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(private.os, "fsync", fsync)
    write_private(tmp_path / "seat.key", b"keys")
    assert synced == ["file", "folder"], "the file before its rename, the folder after it"


_WRITER = """
import sys
from pathlib import Path
from client.store.private import write_private
target, size = Path(sys.argv[1]), int(sys.argv[2])
for n in range(1, 10_000):
    write_private(target, bytes([n % 256]) * size)
    print(n, flush=True)
"""


def test_a_writer_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path) -> None:
    """A real process rewrites the file over and over and is killed (SIGKILL) while it is at it."""
    target = tmp_path / "seat.key"
    writer = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(target), str(SIZE)], stdout=subprocess.PIPE, env=env(), cwd=ROOT
    )
    try:
        assert writer.stdout is not None
        for _ in range(3):  # a few whole writes first: the kill lands on a rewrite of a file that is there
            assert writer.stdout.readline()
    finally:
        writer.kill()
        writer.wait(10)
    data = target.read_bytes()
    assert len(data) == SIZE and data == bytes([data[0]]) * SIZE, "one whole version, never half of two"
    assert _mode(target) == 0o600


def test_a_private_folder_is_owner_only_even_when_it_was_there_before(tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir(mode=0o755)
    old.chmod(0o755)
    assert private_folder(old) == old and _mode(old) == 0o700
    new = private_folder(tmp_path / "a" / "b")
    assert new.is_dir() and _mode(new) == 0o700
