"""The one kept-seat format: what is written reads back, an older file still reads, damage is named."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import msgpack
import pytest

from client.store import kept_seats
from client.store.kept_seats import INFO_FILE, KEY_FILE, NOT_SEATED, SavedBot, SavedSeat, Unreadable


def _seat(**fields: object) -> SavedSeat:
    base: dict[str, object] = dict(
        room="ROOMAB",
        seat=1,
        game="system-launch",
        relay="127.0.0.1:1883",
        peer="p0123456789",
        creator=bytes(range(32)),
        sign=bytes(range(1, 33)),
        secret=bytes(range(2, 34)),
    )
    base.update(fields)
    return SavedSeat(**base)  # type: ignore[arg-type]


def test_every_fact_reads_back_and_the_files_are_private(tmp_path: Path) -> None:
    seat = _seat(
        genesis=b"\x01\x02",
        bots=[SavedBot(2, "greedy", "Bot 3", "pbot", bytes(32), bytes(range(32)))],
        timeout_ms=86_400_000,
        names=["Ann", "Bo", "Bot 3"],
        turn="Ann",
        turn_seat=0,
        started=1.5,
        last_activity=2.5,
        finished=True,
        verdict="fair",
        lan_port=1883,
        fallbacks=["relay.example:1883"],
        moved_to="other.example:1883",
    )
    kept_seats.save(seat, tmp_path)
    assert seat.folder == kept_seats.games_dir(tmp_path) / "ROOMAB-p0123456789"
    assert kept_seats.load(seat.folder) == seat
    for folder in (kept_seats.games_dir(tmp_path), seat.folder):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in (INFO_FILE, KEY_FILE):
        assert stat.S_IMODE((seat.folder / name).stat().st_mode) == 0o600
    public = (seat.folder / INFO_FILE).read_text()
    assert seat.secret.hex() not in public and seat.sign.hex() not in public


def test_a_seat_kept_in_a_folder_of_its_own_and_not_seated_yet_reads_back(tmp_path: Path) -> None:
    """The headless peer's --state-dir before its room starts: keys and peer id, no room, seat or creator yet."""
    seat = _seat(room="", seat=NOT_SEATED, game="", creator=b"", folder=tmp_path / "state")
    kept_seats.save(seat, tmp_path / "config")
    assert not (tmp_path / "config").exists(), "a seat with its own folder leaves the config directory alone"
    loaded = kept_seats.load(tmp_path / "state")
    assert loaded == seat and not loaded.seated and not loaded.in_progress


def test_a_file_written_before_the_newest_fields_still_reads(tmp_path: Path) -> None:
    """``seat.json`` as the desktop wrote it before ``moved_to`` (and with only the fields it needs)."""
    folder = tmp_path / "ROOMAB-p1"
    folder.mkdir()
    seat = _seat()
    facts = {
        k: v for k, v in seat.public().items() if k in ("version", "room", "seat", "game", "relay", "peer", "creator")
    }
    (folder / INFO_FILE).write_text(json.dumps(facts))
    (folder / KEY_FILE).write_bytes(msgpack.packb({"version": 1, "sign": seat.sign, "secret": seat.secret}))
    loaded = kept_seats.load(folder)
    assert (loaded.room, loaded.seat, loaded.creator, loaded.secret) == (seat.room, 1, seat.creator, seat.secret)
    assert loaded.moved_to == "" and loaded.bots == [] and loaded.turn_seat == -1 and loaded.in_progress


@pytest.mark.parametrize(
    ("change", "why", "detail"),
    [
        ({"seat": 16}, "damaged", "seat"),
        ({"seat": True}, "damaged", "seat"),
        ({"room": ""}, "damaged", "the room"),
        ({"creator": "not hex"}, "damaged", "the host's key"),
        ({"timeout_ms": "a day"}, "damaged", "the answer time"),
        ({"peer": None}, "damaged", "the peer id"),
        ({"version": 2}, "version", ""),
    ],
)
def test_a_damaged_fact_is_named(tmp_path: Path, change: dict[str, object], why: str, detail: str) -> None:
    seat = kept_seats.save(_seat(), tmp_path)
    assert seat.folder is not None
    facts = {**seat.public(), **change}
    (seat.folder / INFO_FILE).write_text(json.dumps(facts))
    with pytest.raises(Unreadable) as caught:
        kept_seats.load(seat.folder)
    assert (caught.value.why, caught.value.detail) == (why, detail)
