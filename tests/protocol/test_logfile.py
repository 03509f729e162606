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


# -- the claims a log voided, kept beside it ------------------------------------------------------------
def test_a_file_keeps_the_claims_its_log_voided_and_reads_contested_as_the_players_did(tmp_path, capsys):
    from protocol.__main__ import EXIT_NO_RESULT, main
    from tests.protocol.contest import aborted

    room, a, b, n, _ = aborted(b"file-contested")
    data = room.peers[a].save()
    saved = load(data)
    claim = room.relay[f"notice/{b}/{n}/claim"]  # B's claim, as B signed it and the relay kept it
    assert saved.voided == [claim] and saved.entries == room.peers[a].log_entries()
    assert dump(saved.room, saved.entries, saved.evidence, saved.voided) == data
    assert verify_bytes(data) == room.peers[a].verdict and verify_bytes(data).kind == "contested"
    assert main(["verify", str(write(tmp_path, data))]) == EXIT_NO_RESULT  # in this process: it knows the toy game
    out = capsys.readouterr().out
    assert json.loads(out.splitlines()[-1])["verdict"] == "contested" and "NO CHEAT, NO RESULT (contested)" in out
    # Without the claim it voided, the same log reads as the aborter's claimed win: the record is the difference.
    bare = verify_bytes(dump(saved.room, saved.entries))
    assert bare.kind == "claimed" and bare.seat == b


def test_a_file_without_voided_claims_is_byte_for_byte_the_older_format_and_still_verifies():
    import msgpack

    from engines.core import canonical_encode
    from protocol.logfile import MAGIC

    room = room_of(ROOM_LOG)
    older = MAGIC + canonical_encode({"version": 1, "room": room, "entries": list(ROOM_LOG), "evidence": []})
    assert dump(room, ROOM_LOG) == dump(room, ROOM_LOG, (), ()) == older
    assert "voided" not in msgpack.unpackb(older[len(MAGIC) :], raw=False)
    assert load(older).voided == [] and verify_bytes(older).fair


def test_a_voided_claim_in_a_file_is_checked_like_every_entry():
    from protocol.verify import DamagedFile
    from tests.protocol.contest import aborted

    room, a, b, n, _ = aborted(b"file-checked")
    saved = load(room.peers[a].save())
    flipped = bytearray(saved.voided[0])
    flipped[-3] ^= 1
    with pytest.raises(DamagedFile, match="voided claim 0"):
        verify_bytes(dump(saved.room, saved.entries, (), [bytes(flipped)]))
    # B's own record ends with its claim at n: nothing there voids it, so it cannot be kept as voided.
    claimant = load(room.peers[b].save())
    assert claimant.voided == []
    with pytest.raises(SaveFileError, match="voided claim 0 is refused"):
        verify_bytes(dump(claimant.room, claimant.entries, (), saved.voided))
    # Nor can an entry that is no claim, however validly signed.
    with pytest.raises(SaveFileError, match="voided claim 0 is refused"):
        verify_bytes(dump(saved.room, saved.entries, (), [saved.entries[n]]))
