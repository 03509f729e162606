"""Relay failover: the room's relay dies for good and the game finishes on its fallback.

Real processes and real brokers: two Mosquittos, three headless peers.  The host names the second
broker as the fallback; it travels in the invitation (the joiners are given nothing else) and in
the genesis.  The first broker is killed mid-game (SIGKILL: nothing is saved, nothing said).
Every peer moves after the failover time, re-publishes the log it holds to the fallback, and the
game ends there with one final state and a fair audit.  A running peer can also be moved by hand
(``move ADDRESS`` on the headless peer's standard input).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

from protocol.envelope import parse
from protocol.verify import load, verify_bytes
from relay.lobby.invitation import parse_invitation
from tests.relay.helpers import ROOT, env, finished_fair, mosquitto, start_table, wait_for_line

FAST = ["--timeout-ms", "30000", "--think-ms", "100", "--failover-after", "1"]


def test_the_relay_killed_mid_game_and_the_room_finishes_on_its_fallback(mosquitto_path: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = mosquitto(mosquitto_path, tmp_path / "a").start()
    fallback = mosquitto(mosquitto_path, tmp_path / "b").start()
    table = start_table(
        first.address, tmp_path, players=3, extra=FAST, extra_for={0: ["--fallback-relay", fallback.address]}
    )
    late = table.peers[2]
    try:
        invitation = parse_invitation(wait_for_line(table.peers[0].out, r"^invitation (sealed\S+)$").group(1))
        assert invitation.fallbacks == (fallback.address,)
        wait_for_line(table.peers[0].out, r"^\[seat 0\] wrote entry [2-9]\d$", 30)  # well into the game
        first.stop(signal.SIGKILL)
        late.kill()  # one peer is down with the relay, and comes back after the others moved
        for peer in table.peers[:2]:
            wait_for_line(peer.out, rf"moved to relay {fallback.address} ", 20)
        late.start()  # the same command line, naming the dead relay: it finds the game on the fallback
        codes = table.wait(90)
    finally:
        table.kill_all()
        first.stop()
        fallback.stop()
    finished_fair(table, codes)
    outputs = "\n\n".join(p.text() for p in table.peers)
    for peer in table.peers[:2]:
        assert f"moved to relay {fallback.address} ({first.address} unreachable for" in peer.text(), outputs
    assert f"moved to relay {fallback.address} ({first.address} does not answer)" in late.text(), outputs
    saved = (tmp_path / "peer1" / "game.sealed").read_bytes()
    assert verify_bytes(saved).fair
    assert parse(load(saved).entries[0]).body["relays"] == (first.address, fallback.address)
    # The fallback started empty: the peers put the whole log there again (retained) before going on.
    restored = sum(int((p.field("restored") or "0").split()[0]) for p in table.peers)
    assert restored >= 20, outputs
    assert "Gone(" not in outputs and "CheatDetected" not in outputs, outputs


def test_a_running_peer_is_moved_to_another_relay_by_a_command(mosquitto_path: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = mosquitto(mosquitto_path, tmp_path / "a").start()
    other = mosquitto(mosquitto_path, tmp_path / "b").start()
    peers: list[subprocess.Popen[bytes]] = []
    outs = [tmp_path / "peer0.out", tmp_path / "peer1.out"]
    try:
        host_args = ["--relay", first.address, "--create", "system-launch", "--players", "2", "--accept-all"]
        peers.append(_with_commands([*host_args, "--state-dir", str(tmp_path / "peer0"), *FAST], outs[0]))
        invitation = wait_for_line(outs[0], r"^invitation (sealed\S+)$").group(1)
        peers.append(_with_commands(["--join", invitation, "--state-dir", str(tmp_path / "peer1"), *FAST], outs[1]))
        wait_for_line(outs[1], r"^\[seat \d\] wrote entry", 30)  # playing on the first relay
        for proc in peers:  # each player types the new address, as a person would
            assert proc.stdin is not None
            proc.stdin.write(f"move {other.address}\n".encode())
            proc.stdin.flush()
        for out in outs:
            wait_for_line(out, rf"moved to relay {other.address} \(asked to move\)", 20)
        first.stop(signal.SIGKILL)  # the first relay is gone: the game can only go on where it was moved
        # The joiner's program is killed and started again with its command line, which names only the
        # dead relay: it resumes where it last played (its saved state says where the game went).
        peers[1].kill()
        peers[1].wait()
        peers[1] = _with_commands(["--join", invitation, "--state-dir", str(tmp_path / "peer1"), *FAST], outs[1])
        codes = [proc.wait(90) for proc in peers]
    finally:
        for proc in peers:
            proc.kill()
            proc.wait()
        first.stop()
        other.stop()
    texts = [out.read_text() for out in outs]
    assert codes == [0, 0], texts
    assert all(re.search(r"^verdict: fair$", t, re.M) for t in texts), texts
    hashes = {re.findall(r"^final state hash (\w+)$", t, re.M)[-1] for t in texts}
    assert len(hashes) == 1, texts
    assert "resuming seat" in texts[1] and "error" not in texts[1], texts


def _with_commands(args: list[str], out_path: Path) -> subprocess.Popen[bytes]:
    """A headless peer with ``--commands`` and a pipe on its standard input."""
    with open(out_path, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "client.headless", *args, "--commands"],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env(),
            cwd=ROOT,
        )
