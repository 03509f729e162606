"""The headless peer keeps its seat in the desktop's files: the desktop reads them, a damaged folder stops it."""

from __future__ import annotations

import stat
from pathlib import Path

import msgpack
import pytest

from client.headless import peer
from client.headless.state_dir import StateDir, StateDirError
from client.net.resume import resume_seat
from client.store import kept_seats
from client.store.kept_seats import INFO_FILE, KEY_FILE


def test_a_new_state_dir_is_kept_in_the_desktop_s_format_before_anything_is_sent(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    store = StateDir(folder)
    assert not folder.exists(), "nothing is written before the relay is known"
    store.kept.relay = "127.0.0.1:1883"
    store.keep()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in (INFO_FILE, KEY_FILE):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    kept = kept_seats.load(folder)
    assert not kept.seated and kept.peer == store.peer and kept.secret == store.secret
    again = StateDir(folder)
    assert (again.peer, again.secret, again.signing_key.public_bytes()) == (
        store.peer,
        store.secret,
        store.signing_key.public_bytes(),
    ), "a restart asks again as the same seat"


def test_a_seated_state_dir_is_a_seat_the_desktop_program_takes_again(tmp_path: Path) -> None:
    store = StateDir(tmp_path / "state")
    kept = store.kept
    kept.room, kept.seat, kept.game, kept.relay = "ROOMAB", 1, "system-launch", "127.0.0.1:1883"
    kept.creator, kept.moved_to = bytes(32), "127.0.0.1:2883"
    store.keep()
    game = resume_seat(kept_seats.load(tmp_path / "state"))
    assert (game.session.room, game.human, game.peer_id) == ("ROOMAB", 1, store.peer)
    assert str(game.relay) == "127.0.0.1:2883" and game.fallbacks == ("127.0.0.1:1883",), "where the game moved first"


def test_a_state_dir_of_another_version_stops_the_peer_and_is_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    old_key = msgpack.packb({"sign": bytes(32), "secret": bytes(32)})  # no version: an older headless peer's
    (folder / KEY_FILE).write_bytes(old_key)
    (folder / INFO_FILE).write_text('{"peer": "p1", "room": "ROOMAB", "seat": 1}')
    with pytest.raises(StateDirError, match="another version"):
        StateDir(folder)
    argv = ["--relay", "127.0.0.1:1", "--join", "ROOMAB", "--state-dir", str(folder), "-q"]
    assert peer.main(argv) == 2
    assert "another version" in capsys.readouterr().err
    assert (folder / KEY_FILE).read_bytes() == old_key, "the keys are never written over"


def test_a_state_dir_with_half_its_files_is_refused(tmp_path: Path) -> None:
    store = StateDir(tmp_path / "state")
    store.kept.relay = "127.0.0.1:1883"
    store.keep()
    (tmp_path / "state" / INFO_FILE).unlink()
    with pytest.raises(StateDirError, match=r"missing: seat\.json"):
        StateDir(tmp_path / "state")
