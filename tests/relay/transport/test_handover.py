"""LAN handover: the host's program, and the relay inside it, killed mid-game.

Real processes: a ``--lan`` host runs the room's relay in its own process and announces it with
zeroconf; two guests join by its invitation.  The host is killed (SIGKILL) mid-game: its relay is
gone with it.  A surviving seat (the lowest one still in the game) starts a relay in its own process
and announces it for the room, signed by its seat key; the other guest finds it by zeroconf; and
the host, started again with the same arguments, finds the game there too.  Nobody types an
address.  The game ends with one final state and a fair audit.

Zeroconf runs on the loopback interface (``--lan-interface 127.0.0.1``), as the other LAN tests:
multicast on ``lo`` works on Linux without any network, so the test runs the same everywhere.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

from protocol.envelope import parse
from tests.relay.helpers import ROOT, Peer, Table, env, finished_fair, wait_for_line

LAN = ["--lan", "--lan-interface", "127.0.0.1", "--failover-after", "1", "--timeout-ms", "30000"]


def _lan_table(tmp: Path, players: int = 3) -> Table:
    table = Table()
    host_args = ["--create", "system-launch", "--players", str(players), "--accept-all", "--think-ms", "100"]
    host = Peer(0, [*host_args, "--state-dir", str(tmp / "peer0"), *LAN], tmp / "peer0", tmp / "peer0.out").start()
    table.peers.append(host)
    invitation = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
    for i in range(1, players):
        args = ["--join", invitation, "--think-ms", "100", "--state-dir", str(tmp / f"peer{i}"), *LAN]
        table.peers.append(Peer(i, args, tmp / f"peer{i}", tmp / f"peer{i}.out").start())
    return table


def test_the_lan_hosts_program_killed_and_the_others_finish_on_a_relay_a_survivor_started(tmp_path: Path) -> None:
    # A stranger announces a working relay as "seat 0's" for this very room and game (both public).
    # It is started first and told the game once there is one, so it is announced while the game runs.
    stranger = subprocess.Popen(
        [sys.executable, "-m", "tests.relay.transport.lan_stranger"],
        stdin=subprocess.PIPE,
        stdout=open(tmp_path / "stranger.out", "wb"),  # noqa: SIM115 - closed with the process
        env=env(),
        cwd=ROOT,
    )
    table = Table()
    try:
        wait_for_line(tmp_path / "stranger.out", r"^ready$")
        table = _lan_table(tmp_path)
        host, guests = table.peers[0], table.peers[1:]
        first_relay = wait_for_line(host.out, r"^invitation sealed://([\d.]+:\d+)/").group(1)
        code = wait_for_line(host.out, r"^seat 0 room ([A-Z]{6})$").group(1)  # the genesis is saved
        game = parse(bytes.fromhex(json.loads((tmp_path / "peer0" / "seat.json").read_text())["genesis"])).digest
        assert stranger.stdin is not None
        stranger.stdin.write(f"{code} {game.hex()}\n".encode())
        stranger.stdin.flush()
        strange_port = wait_for_line(tmp_path / "stranger.out", r"^stranger (\d+)$").group(1)
        wait_for_line(host.out, r"^\[seat 0\] wrote entry [2-9]\d$", 30)  # well into the game
        host.proc.send_signal(signal.SIGKILL)  # the program and the relay in it, at once
        host.proc.wait()
        for guest in guests:
            wait_for_line(guest.out, r"moved to relay .*on the LAN\)$", 20)
        host.start()  # the same command line: it resumes its seat and looks for the room on the LAN
        codes = table.wait(90)
    finally:
        table.kill_all()
        stranger.kill()
        stranger.wait()
    finished_fair(table, codes)
    assert f":{strange_port} " not in outputs_of(table) and f":{strange_port})" not in outputs_of(table)
    outputs = outputs_of(table)
    started = [g for g in guests if "the relay this seat started on the LAN" in g.text()]
    assert len(started) == 1, outputs  # exactly one survivor started a relay
    new_relay = re.search(r"moved to relay (\S+) \(.*the relay this seat started", started[0].text()).group(1)
    seat = int(re.search(r"^seat (\d) room", started[0].text(), re.M).group(1))
    (other,) = [g for g in guests if g is not started[0]]
    assert f"seat {seat}'s relay, found on the LAN" in other.text(), outputs
    assert seat == 1  # the lowest seat still there (seat 0 ran the dead relay)
    # The restarted host was given no address: its old relay did not answer and it found the new one.
    assert f"{first_relay} does not answer; seat {seat}'s relay, found on the LAN" in host.text(), outputs
    assert new_relay.rsplit(":", 1)[1] != first_relay.rsplit(":", 1)[1]
    assert "Gone(" not in outputs and "CheatDetected" not in outputs, outputs


def outputs_of(table: Table) -> str:
    return "\n\n".join(p.text() for p in table.peers)
