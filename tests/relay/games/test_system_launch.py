"""Four headless peers, each its own process, play System Launch over a real broker — and survive faults."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from protocol.crypto.signing import SigningKey
from protocol.envelope import ZERO_HASH
from protocol.envelope import seal as seal_envelope
from protocol.verify import load, verify_bytes
from relay import topics
from relay.lobby.invitation import parse_invitation
from tests.relay.helpers import (
    BrokerProcess,
    TcpProxy,
    finished_fair,
    insider_client,
    mosquitto,
    start_table,
    wait_for_line,
)


def test_four_peers_play_to_the_end(any_relay: BrokerProcess, tmp_path: Path) -> None:
    table = start_table(any_relay.address, tmp_path)
    try:
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
    saved = (tmp_path / "peer2" / "game.sealed").read_bytes()
    assert verify_bytes(saved).fair
    assert load(saved).room == table.code
    # Every peer saved the same log.
    logs = {(tmp_path / f"peer{i}" / "game.sealed").read_bytes() for i in range(4)}
    assert len(logs) == 1


def test_broker_restart_with_persistence_loses_nothing(mosquitto_path: str, tmp_path: Path) -> None:
    broker = mosquitto(mosquitto_path, tmp_path).start()
    table = start_table(broker.address, tmp_path, extra=["--think-ms", "80"])
    try:
        wait_for_line(table.peers[0].out, r"^\[seat 0\] wrote entry", 30)  # into the game
        broker.stop(signal.SIGTERM)  # Mosquitto writes its database on the way down
        time.sleep(1.0)
        broker.start()
        codes = table.wait(90)
    finally:
        table.kill_all()
        broker.stop()
    finished_fair(table, codes)
    log_text = (tmp_path / "mosquitto.log").read_text()
    assert "Saving in-memory database" in log_text
    assert any("reconnected" in p.text() for p in table.peers)


@pytest.mark.parametrize("victim_index", [0, 2], ids=["host", "joiner"])
def test_peer_killed_and_restarted_resumes_its_seat(
    mosquitto_relay: BrokerProcess, tmp_path: Path, victim_index: int
) -> None:
    table = start_table(mosquitto_relay.address, tmp_path, extra=["--timeout-ms", "60000", "--think-ms", "80"])
    try:
        victim = table.peers[victim_index]
        wait_for_line(victim.out, r"^\[seat \d\] wrote entry", 30)  # into the game
        victim.kill()
        assert victim.proc is None or victim.proc.returncode == -signal.SIGKILL
        time.sleep(1.0)
        victim.start()  # same arguments, same state dir
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
    assert "resuming seat" in victim.text()


def test_peer_cut_off_catches_up(mosquitto_relay: BrokerProcess, tmp_path: Path) -> None:
    proxy = TcpProxy(mosquitto_relay.port)
    table = start_table(
        mosquitto_relay.address,
        tmp_path,
        extra=["--timeout-ms", "60000", "--think-ms", "80"],
        relay_for={3: proxy.address},
    )
    try:
        late = table.peers[3]  # talks to the relay through the proxy
        wait_for_line(late.out, r"^\[seat \d\] wrote entry", 30)  # into the game
        proxy.cut()
        time.sleep(3.0)  # the others play on; this peer's connection is gone
        proxy.restore()
        codes = table.wait(90)
    finally:
        table.kill_all()
        proxy.close()
    finished_fair(table, codes)
    assert "Disconnected" in late.text() or "reconnected" in late.text()


def test_peer_gone_for_good_is_declared_gone(mosquitto_relay: BrokerProcess, tmp_path: Path) -> None:
    # Only the seat that will vanish thinks slowly, so it is killed mid-game and the rest finish fast.
    table = start_table(
        mosquitto_relay.address,
        tmp_path,
        bot="random",
        extra=["--timeout-ms", "3000"],
        extra_for={1: ["--think-ms", "150"]},
    )
    try:
        gone = table.peers[1]
        wait_for_line(gone.out, r"^seat (\d) room", 20)
        seat = int(wait_for_line(gone.out, r"^seat (\d) room").group(1))
        time.sleep(1.0)
        gone.kill()
        rest = [p for p in table.peers if p is not gone]
        codes = [p.wait(60) for p in rest]
    finally:
        table.kill_all()
    outputs = "\n\n".join(p.text() for p in rest)
    assert all(c in (0, 1) for c in codes), outputs
    assert all(f"Gone(seat={seat}" in p.text() for p in rest), outputs
    hashes = {p.field("final state hash") for p in rest}
    assert len(hashes) == 1 and None not in hashes, outputs
    verdicts = {p.field("verdict") for p in rest}
    assert len(verdicts) == 1, outputs
    # Either the game finished without the seat (fair), or it could not go on without the
    # gone seat's card keys, and the verdict names that seat for withholding them.
    verdict = verdicts.pop() or ""
    assert verdict == "fair" or verdict.startswith(f"seat {seat}:"), outputs


FORGED_BODY = {"action": ["pass"], "commits": {}, "keys": {}, "memo": b"", "hash": bytes(32)}


async def _vandalise(address: str, room: str, fp: str, rounds: int) -> int:
    """A stranger who read the invitation (it holds the room's key, ``fp`` the host's fingerprint):
    overwrite retained log entries with garbage, forged entries and deletions, all of it sealed so that
    it opens for the peers."""
    stranger = SigningKey.generate(os.urandom(32))
    sent = 0
    async with insider_client(address, room, fp, "stranger") as client:
        for r in range(rounds):
            for seq in (r + 1, r + 3, r + 8):
                topic = topics.log(room, seq)
                forged = seal_envelope(
                    stranger, room, seq, ZERO_HASH, r % 4, "action", FORGED_BODY, game=bytes([1]) * 32
                )
                for payload in (b"\x00garbage" * 7, forged.data, b""):
                    await client.publish(topic, payload, qos=1, retain=True)
                    sent += 1
            await client.publish(f"{topics.ROOT}/room/{room}/log/notanumber", b"junk", qos=1, retain=True)
            await asyncio.sleep(0.2)
    return sent


def test_stranger_garbage_and_forgeries_are_reported_not_applied(
    mosquitto_relay: BrokerProcess, tmp_path: Path
) -> None:
    table = start_table(mosquitto_relay.address, tmp_path, extra=["--think-ms", "50"])
    try:
        wait_for_line(table.peers[0].out, r"^seat 0 room", 20)
        link = wait_for_line(table.peers[0].out, r"^invitation (sealed\S+)$").group(1)
        fp = parse_invitation(link).fingerprint
        sent = asyncio.run(_vandalise(mosquitto_relay.address, table.code, fp, 10))
        codes = table.wait(90)
    finally:
        table.kill_all()
    assert sent > 0
    finished_fair(table, codes)
    rejected = sum(int(p.field("restored").split("rejected ")[1].split()[0]) for p in table.peers)
    restored = sum(int(p.field("restored").split()[0]) for p in table.peers)
    outputs = "\n\n".join(p.text() for p in table.peers)
    assert rejected > 0, outputs
    assert restored > 0, outputs


def test_random_bots_two_players(mosquitto_relay: BrokerProcess, tmp_path: Path) -> None:
    table = start_table(mosquitto_relay.address, tmp_path, players=2, bot="random")
    try:
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
