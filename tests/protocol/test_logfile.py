"""Saved games and ``python -m protocol verify``: fair, cheating, tampered and unreadable files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from protocol.sim.network import play
from protocol.verify import SaveFileError, dump, load, verify_bytes
from tests.protocol.helpers import finished_log

ROOM_LOG = finished_log("system-launch", 2, b"save")


def room_of(entries):
    from protocol.envelope import parse

    return parse(entries[0]).room


def write(tmp_path, data: bytes):
    path = tmp_path / "game.sealed"
    path.write_bytes(data)
    return path


def verify_cli(path):
    return subprocess.run(
        [sys.executable, "-m", "protocol", "verify", str(path)], capture_output=True, text=True, timeout=120
    )


def test_a_fair_game_verifies_offline(tmp_path):
    data = dump(room_of(ROOM_LOG), ROOM_LOG)
    assert load(data).entries == ROOM_LOG
    assert verify_bytes(data).fair
    result = verify_cli(write(tmp_path, data))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == {"verdict": "fair"}


def test_a_flipped_byte_is_reported_as_damage(tmp_path):
    entries = list(ROOM_LOG)
    raw = bytearray(entries[7])
    raw[-5] ^= 1
    entries[7] = bytes(raw)
    data = dump(room_of(ROOM_LOG), entries)
    with pytest.raises(SaveFileError):
        verify_bytes(data)
    result = verify_cli(write(tmp_path, data))
    assert result.returncode == 3 and "entry 7" in result.stderr and "damaged file" in result.stderr


def test_a_rewritten_and_re_signed_entry_names_its_author(tmp_path):
    run = play("system-launch", 3, b"tamper", "tampered-saved-game", 2)
    result = verify_cli(write(tmp_path, run.saved))
    assert result.returncode == 1
    verdict = json.loads(result.stdout.splitlines()[-1])
    assert verdict["seat"] == 2 and "tampered" in verdict["reason"]


def test_not_a_saved_game(tmp_path):
    for data in (b"", b"hello world", b"SEALTBL\x01\xc1", dump("r", [])):
        result = verify_cli(write(tmp_path, data))
        assert result.returncode == 2 and "not a valid saved game" in result.stderr


def test_a_cheat_inside_a_saved_game_is_found_offline():
    run = play("toy", 3, b"offline", "wrong-card-key", 1)
    data = dump(room_of(run.log), run.log)
    verdict = verify_bytes(data)
    assert not verdict.fair and verdict.seat == 1


@pytest.mark.parametrize(
    "cheat",
    [
        "forged-signature",
        "out-of-turn",
        "illegal-action",
        "equivocation",
        "broken-chain",
        "false-state-hash",
        "duplicated-card",
        "show-not-held",
        "withhold",
    ],
)
def test_an_honest_peers_saved_game_carries_the_proof_of_a_cheat(cheat):
    # A game stopped by a cheat is saved with the offending signed entries: the verifier reaches
    # the same verdict offline.
    run = play("toy", 3, f"evidence/{cheat}".encode(), cheat, 1)
    live = next(iter(run.verdicts.values()))
    offline = verify_bytes(run.honest_save)
    assert (offline.seat, offline.reason) == (live.seat, live.reason)
