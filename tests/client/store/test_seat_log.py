"""The seat's own log file: kept whole, read back, a torn last write dropped, damage and forgeries refused."""

from __future__ import annotations

import hashlib
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from client.store.seat_log import LOG_FILE, MAGIC, SeatLog, SeatLogDamaged, check, read_records
from engines.core import SeededStream
from protocol.crypto.signing import SigningKey
from protocol.envelope import parse
from protocol.sim.network import play

SEED = b"seat log"
ROOM = "sim-" + hashlib.sha256(SEED).hexdigest()[:12]
CREATOR = SigningKey.generate(SeededStream(SEED, "sign/0").token(32)).public_bytes()


@pytest.fixture(scope="module")
def entries() -> list[bytes]:
    """A whole two-seat game's signed log."""
    return [bytes(e) for e in play("system-launch", 2, SEED).log]


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    for seat_log in list(_open_logs()):
        seat_log.close()


def _open_logs() -> list[SeatLog]:
    from client.store import seat_log

    return list(seat_log._OPEN.values())


def _write(folder: Path, entries: list[bytes]) -> SeatLog:
    seat_log = SeatLog.open(folder)
    for seq, data in enumerate(entries):
        seat_log.keep(f"log/{seq}", data, sync=seq == len(entries) - 1)
    seat_log.close()
    return seat_log


def test_every_entry_is_kept_once_and_read_back_in_order(folder: Path, entries: list[bytes]) -> None:
    _write(folder, entries)
    path = folder / LOG_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    size = path.stat().st_size
    again = SeatLog.open(folder)
    assert again.records == [(f"log/{seq}", data) for seq, data in enumerate(entries)]
    again.keep("log/3", entries[3], sync=True)  # an entry kept already is not written again
    assert path.stat().st_size == size and again.torn == 0
    check(again.records, ROOM, CREATOR, path)


def test_a_torn_last_write_is_dropped_and_the_file_goes_on_from_the_last_whole_record(
    folder: Path, entries: list[bytes]
) -> None:
    _write(folder, entries[:5])
    path = folder / LOG_FILE
    whole = path.read_bytes()
    path.write_bytes(whole + _frame_start(entries[5]))  # a power cut in the middle of appending entry 5
    seat_log = SeatLog.open(folder)
    assert [t for t, _ in seat_log.records] == [f"log/{s}" for s in range(5)] and seat_log.torn > 0
    seat_log.keep("log/5", entries[5], sync=True)
    seat_log.close()
    records, _ = read_records(path)
    assert [data for _, data in records] == entries[:6], "appended after the last whole record"


def test_a_last_record_whose_checksum_fails_is_a_torn_write(folder: Path, entries: list[bytes]) -> None:
    _write(folder, entries[:4])
    path = folder / LOG_FILE
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0xFF  # the last record's body did not reach the disk whole
    path.write_bytes(bytes(raw))
    records, end = read_records(path)
    assert [data for _, data in records] == entries[:3] and end < len(raw)


def test_damage_before_the_end_is_refused_and_nothing_is_changed(folder: Path, entries: list[bytes]) -> None:
    _write(folder, entries[:6])
    path = folder / LOG_FILE
    raw = bytearray(path.read_bytes())
    raw[len(MAGIC) + 40] ^= 0xFF  # inside the first record
    path.write_bytes(bytes(raw))
    with pytest.raises(SeatLogDamaged, match=r"record 1 at byte \d+ is damaged"):
        SeatLog.open(folder)
    assert path.read_bytes() == bytes(raw)


def test_a_file_that_is_no_seat_log_is_refused(folder: Path) -> None:
    (folder / LOG_FILE).write_bytes(b"{'not': 'a seat log'}")
    with pytest.raises(SeatLogDamaged, match="is not a seat log"):
        SeatLog.open(folder)


def test_an_entry_that_does_not_verify_is_refused(folder: Path, entries: list[bytes]) -> None:
    env = parse(entries[4])
    forged = bytearray(entries[4])
    at = forged.index(env.sig)
    forged[at] ^= 0x01  # the signature no longer holds (the record's checksum does)
    seat_log = _write(folder, [*entries[:4], bytes(forged)])
    records = SeatLog.open(folder).records
    assert records[4][1] == bytes(forged)
    with pytest.raises(SeatLogDamaged, match=rf"record 5 \(log/4\) is not signed by seat {env.seat}'s key"):
        check(records, ROOM, CREATOR, seat_log.path)
    other = [bytes(e) for e in play("system-launch", 2, b"another game").log]
    with pytest.raises(SeatLogDamaged, match="not an entry of this game"):
        check([*records[:4], ("log/4", other[4])], ROOM, CREATOR, seat_log.path)
    with pytest.raises(SeatLogDamaged, match="genesis is not room"):
        check(records[:4], ROOM, SigningKey.generate(b"\x07" * 32).public_bytes(), seat_log.path)


def _frame_start(data: bytes) -> bytes:
    """The first half of the record :meth:`SeatLog.keep` would append for ``data``."""
    from client.store.seat_log import _frame

    frame = _frame("log/5", data)
    return frame[: len(frame) // 2]


def test_two_programs_appending_to_one_log_lose_nothing(folder: Path, entries: list[bytes]) -> None:
    first = SeatLog.open(folder)
    first.keep("log/0", entries[0], sync=True)
    first.close()
    second = SeatLog.open(folder)  # read afresh: what the first wrote is there
    first.keep("log/1", entries[1], sync=True)  # the first goes on writing (it opens the file again)
    second.keep("log/2", entries[2], sync=True)
    first.close()
    second.close()
    records, _ = read_records(folder / LOG_FILE)
    assert sorted(data for _, data in records) == sorted(entries[:3])
