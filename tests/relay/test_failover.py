"""Relay failover (issue 13): the room's relay dies for good and the game finishes on its fallback.

Real processes and real brokers: two Mosquittos, three headless peers.  The host names the second
broker as the fallback; it travels in the invitation (the joiners are given nothing else) and in
the genesis.  The first broker is killed mid-game (SIGKILL: nothing is saved, nothing said).
Every peer moves after the failover time, re-publishes the log it holds to the fallback, and the
game ends there with one final state and a fair audit.  A running peer can also be moved by hand
(``move ADDRESS`` on the headless peer's standard input).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from relay_helpers import ROOT, Peer, env, mosquitto, start_table, wait_for_line
from test_games import finished_fair

from protocol.envelope import parse
from protocol.savefile import load, verify_bytes
from relay.invitation import parse_invitation

FAST = ["--timeout-ms", "30000", "--think-ms", "150", "--failover-after", "1.5"]


def test_the_relay_killed_mid_game_and_the_room_finishes_on_its_fallback(mosquitto_path: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = mosquitto(mosquitto_path, tmp_path / "a").start()
    fallback = mosquitto(mosquitto_path, tmp_path / "b").start()
    table = start_table(
        first.address, tmp_path, players=3, extra=FAST, extra_for={0: ["--fallback-relay", fallback.address]}
    )
    try:
        invitation = parse_invitation(wait_for_line(table.peers[0].out, r"^invitation (sealed\S+)$").group(1))
        assert invitation.fallbacks == (fallback.address,)
        wait_for_line(table.peers[0].out, r"^\[seat 0\] wrote entry [2-9]\d$", 30)  # well into the game
        first.stop(signal.SIGKILL)
        codes = table.wait(90)
    finally:
        table.kill_all()
        first.stop()
        fallback.stop()
    finished_fair(table, codes)
    for peer in table.peers:
        assert f"moved to relay {fallback.address}" in peer.text(), peer.text()
    saved = (tmp_path / "peer1" / "game.sealed").read_bytes()
    assert verify_bytes(saved).fair
    assert parse(load(saved).entries[0]).body["relays"] == (first.address, fallback.address)
    # The fallback started empty: the peers put the whole log there again (retained) before going on.
    restored = sum(int((p.field("restored") or "0").split()[0]) for p in table.peers)
    assert restored >= 20, "\n\n".join(p.text() for p in table.peers)


def test_a_running_peer_is_moved_to_another_relay_by_a_command(mosquitto_path: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = mosquitto(mosquitto_path, tmp_path / "a").start()
    other = mosquitto(mosquitto_path, tmp_path / "b").start()
    table = start_table(first.address, tmp_path, players=2, extra=FAST)
    try:
        wait_for_line(table.peers[1].out, r"^\[seat \d\] wrote entry", 30)
        # Both peers are told the new address on their standard input, as a person would type it.
        for peer in table.peers:
            peer.proc.kill()
            peer.proc.wait()
        movers = [_with_commands(peer) for peer in table.peers]
        # Resumed, read back and playing again (the second run's first entry), then told to move.
        wait_for_line(movers[0].out, r"(?ms)^seat 0 room.*^seat 0 room.*^\[seat 0\] wrote entry", 30)
        for peer in movers:
            peer.proc.stdin.write(f"move {other.address}\n".encode())
            peer.proc.stdin.flush()
        codes = table.wait(90)
    finally:
        table.kill_all()
        first.stop()
        other.stop()
    finished_fair(table, codes)
    for peer in table.peers:
        assert f"moved to relay {other.address} (asked to move)" in peer.text(), peer.text()


def _with_commands(peer: Peer) -> Peer:
    """Restart ``peer`` (it resumes its seat) with ``--commands`` and a pipe on its standard input."""
    peer.runs += 1
    with open(peer.out, "ab") as out:
        peer.proc = subprocess.Popen(
            [sys.executable, "-m", "client.headless", *peer.args, "--commands"],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env(),
            cwd=ROOT,
        )
    return peer
