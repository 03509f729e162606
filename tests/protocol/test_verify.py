"""The offline verifier blames no one for damage and knows whose game it is.

Every signature is checked first: a flipped bit is "damaged file" (exit 3), never "tampered by
seat N"; only a valid signature of N on a replaced entry names N.  The verifier prints every
seat's name and key fingerprint, and ``--creator`` / ``--seat-key`` compare the file with the
identities the user knows: a game signed with other keys verifies, but not as theirs (exit 4).
A game without a cheat and without a proven result (a seat disconnected, a claim) exits 5.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engines.core import SeededStream
from protocol.envelope import parse
from protocol.sim.network import play
from protocol.verify import DamagedFile, SaveFileError, check_bytes, dump, fingerprint, verify_bytes
from tests.protocol.helpers import finished_log, seat_keys

LOG = finished_log("system-launch", 2, b"verify")
ROOM = parse(LOG[0]).room


def cli(tmp_path, data: bytes, *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.sealed"
    path.write_bytes(data)
    argv = [sys.executable, "-m", "protocol", "verify", str(path), *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_random_bit_flips_are_damage_never_a_seat_s_fault():
    data = dump(ROOM, LOG)
    pick = SeededStream(b"flips", "bits")
    damaged = 0
    for _ in range(60):
        raw = bytearray(data)
        at = 8 + pick.below(len(raw) - 8)  # past the magic
        raw[at] ^= 1 << pick.below(8)
        try:
            verdict = verify_bytes(bytes(raw))
        except DamagedFile:
            damaged += 1
            continue
        except SaveFileError:
            continue  # not a saved game any more (the container's framing): nobody is named either
        assert verdict.seat is None and verdict.fair, verdict  # a flip that changed nothing signed
    assert damaged >= 40


def test_a_damaged_entry_has_its_own_exit_code(tmp_path):
    entries = list(LOG)
    raw = bytearray(entries[5])
    raw[len(raw) // 2] ^= 0x10
    entries[5] = bytes(raw)
    result = cli(tmp_path, dump(ROOM, entries))
    assert result.returncode == 3, result
    assert "damaged file" in result.stderr and "entry 5" in result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["verdict"] == "damaged"


def test_every_seat_is_printed_with_its_key_fingerprint_and_pinned_identities_are_checked(tmp_path):
    keys, _ = seat_keys(b"verify", 2)  # the keys finished_log's game was played with
    result = cli(tmp_path, dump(ROOM, LOG), "--creator", keys[0].public_bytes().hex())
    assert result.returncode == 0, result
    for seat, key in enumerate(keys):
        assert f"seat {seat}: 'bot {seat}', key fingerprint {fingerprint(key.public_bytes())}" in result.stdout
    pinned = ["--creator", fingerprint(keys[0].public_bytes()), "--seat-key", f"1={keys[1].public_bytes().hex()}"]
    assert cli(tmp_path, dump(ROOM, LOG), *pinned).returncode == 0


def test_a_game_signed_with_other_keys_is_not_the_users_game(tmp_path):
    keys, _ = seat_keys(b"verify", 2)
    other = finished_log("system-launch", 2, b"verify-resigned")  # the same kind of game, every entry signed afresh
    data = dump(parse(other[0]).room, other)
    assert verify_bytes(data).fair  # on its own it is a fair game ...
    result = cli(tmp_path, data, "--creator", fingerprint(keys[0].public_bytes()))
    assert result.returncode == 4, result  # ... but not one created by the key the user knows
    assert "NOT YOUR GAME" in result.stderr and "creator" in result.stderr
    checked = check_bytes(data, seat_keys={1: keys[1].public_bytes().hex()})
    assert checked.verdict.fair and len(checked.mismatches) == 1 and "seat 1" in checked.mismatches[0]


def test_tampering_is_named_only_on_a_valid_signature_of_the_replaced_entry(tmp_path):
    run = play("system-launch", 3, b"verify-tamper", "tampered-saved-game", 2)
    result = cli(tmp_path, run.saved)
    assert result.returncode == 1, result
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["verdict"] == "cheat" and report["seat"] == 2 and "tampered" in report["reason"]


@pytest.mark.parametrize(("players", "kind"), [(3, "disconnected"), (2, "claimed")])
def test_a_disconnection_is_no_cheat_and_no_proven_result(tmp_path, players, kind):
    run = play("system-launch", players, f"verify-silent/{players}".encode(), "withhold", 1)
    result = cli(tmp_path, run.honest_save)
    assert result.returncode == 5, result
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["verdict"] == kind and report["seat"] == 1
    assert "CHEAT:" not in result.stdout and "NO CHEAT, NO PROVEN RESULT" in result.stdout
