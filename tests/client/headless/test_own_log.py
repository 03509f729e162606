"""The headless peer's own log (``seat.log`` in its ``--state-dir``), through real relays in their own processes.

- Killed after signing, on a relay that kept no copy of that entry (a proxy clears the RETAIN flag of
  the publish and cuts the peer off before anything comes back), the restarted peer reads its own
  log first and puts the entry back exactly as signed: the game ends fair, nobody named.
- A seat log that does not read is refused with a clear message, and left as it is.
- A table of four whose host dies together with the relay (a LAN game's relay runs in the host's
  program): the three others, killed too and started again against a new, empty relay with the same
  state folders, bring the game back from their own logs and finish it from where it was — every
  entry played before the host died is in the final log unchanged; the host is voted gone, and
  nobody is named a cheater.  Putting the whole log back keeps many publications in flight: the MQTT
  client's notes about them never reach the player's terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
from pathlib import Path

import pytest

from client.headless import peer
from client.headless.state_dir import StateDir
from client.store import kept_seats
from client.store.seat_log import LOG_FILE, MAGIC
from protocol.logfile import load
from relay import topics
from relay.address import parse_address
from relay.lobby.invitation import parse_invitation
from relay.mqtt import mqtt_client
from relay.seal import RoomSeal
from tests.relay.helpers import BrokerProcess, Peer, Table, finished_fair, start_table, wait_for_line
from tests.relay.retain_drop import RetainDropper


def _decisions(text: str, seat: int) -> int:
    return len(re.findall(rf"^\[seat {seat}\] wrote entry", text, re.M))


def _seal(table: Table) -> RoomSeal:
    """The room's seal, from the invitation its host printed (what every guest was given)."""
    link = wait_for_line(table.peers[0].out, r"^invitation (sealed\S+)$").group(1)
    invitation = parse_invitation(link)
    return RoomSeal(invitation.code, invitation.fingerprint)


def _saved(state_dir: Path) -> list[bytes]:
    return load((state_dir / "game.sealed").read_bytes()).entries


def test_a_headless_seat_killed_after_signing_puts_its_entry_back(any_broker: BrokerProcess, tmp_path: Path) -> None:
    proxy = RetainDropper(any_broker.port)
    table = start_table(
        any_broker.address, tmp_path, players=2, extra=["--think-ms", "20"], relay_for={1: proxy.address}
    )
    seat = table.peers[1]
    try:
        wait_for_line(seat.out, r"^\[seat 1\] wrote entry", 60)
        # Its next decision: forwarded to the other seat, never retained by the relay, then the crash.
        proxy.arm(r"/log/\d+$", cut_after=True, entry_type="action", seal=_seal(table))
        assert proxy.fired.wait(60), seat.text()
        seat.kill()
        assert proxy.dropped is not None
        topic, signed = proxy.dropped
        proxy.restore()
        seat.start()
        codes = table.wait(120)
    finally:
        table.kill_all()
        proxy.close()
    finished_fair(table, codes)
    again = seat.text().split("resuming seat 1", 1)[1]
    seq = int(topic.rsplit("/", 1)[1])
    assert f"wrote entry {seq}\n" not in again, "asked again for a decision it had signed"
    assert f"Restored(topic='{topic}'" in again, again
    assert _saved(seat.state_dir)[seq] == signed == _saved(table.peers[0].state_dir)[seq]


def _freeze(peer: Peer) -> None:
    assert peer.proc is not None
    peer.proc.send_signal(signal.SIGSTOP)


async def room_log(address: str, room: str, seal: RoomSeal) -> dict[int, bytes]:
    """Every entry the relay retains for ``room`` (read until it has been quiet for a second)."""
    got: dict[int, bytes] = {}
    async with mqtt_client(parse_address(address), "reader", seal=seal) as client:
        for first in range(0, 1024, 128):  # exact topics: a sealed room is not read by a wildcard
            await client.subscribe([(topics.log(room, seq), 1) for seq in range(first, first + 128)])
        with contextlib.suppress(TimeoutError):
            while True:
                message = await asyncio.wait_for(anext(aiter(client.messages)), 1.0)
                seq = topics.parse_log_seq(message.topic.value)
                if seq is not None and isinstance(message.payload, bytes) and message.payload:
                    got[seq] = message.payload
    return got


def test_the_seats_bring_a_game_back_on_an_empty_relay_after_the_host_and_its_relay_died(
    any_broker: BrokerProcess, another_broker: BrokerProcess, tmp_path: Path
) -> None:
    extra = ["--think-ms", "200", "--timeout-ms", "3000"]
    table = start_table(any_broker.address, tmp_path, players=4, extra=extra)
    host, others = table.peers[0], table.peers[1:]
    try:
        wait_for_line(host.out, r"^\[seat 0\] wrote entry \d+\n(.|\n)*^\[seat 0\] wrote entry", 90)  # into the game
        # The host stops first; what it published reaches the others (the log stops growing); then they stop.
        _freeze(host)
        seal = _seal(table)
        held = asyncio.run(room_log(any_broker.address, table.code, seal))
        while len(again := asyncio.run(room_log(any_broker.address, table.code, seal))) != len(held):
            held = again
        for peer in others:
            _freeze(peer)
        before = asyncio.run(room_log(any_broker.address, table.code, seal))
        host.kill()
        any_broker.stop(signal.SIGKILL)  # the host's program and its relay die together
        for peer in others:
            peer.kill()
        assert sorted(before) == list(range(len(before))) and len(before) > 8, sorted(before)

        another_broker.start()  # empty: it has never heard of this room
        for peer in others:
            peer.args = [another_broker.address if a == any_broker.address else a for a in peer.args]
            peer.start()
        codes = [peer.wait(180) for peer in others]
    finally:
        table.kill_all()
    outputs = "\n\n".join(p.text() for p in others)
    assert codes == [1, 1, 1], outputs  # a seat went gone: no fair verdict, but no cheat either
    for peer in others:
        assert (peer.field("verdict") or "").startswith("seat 0: disconnected at entry"), outputs
        entries = _saved(peer.state_dir)
        assert entries[: len(before)] == [before[seq] for seq in range(len(before))], (
            "the game went on from where it was"
        )
        assert len(entries) > len(before)
    assert len({p.field("final state hash") for p in others}) == 1, outputs
    assert "pending publish calls" not in outputs, "the MQTT client's backlog notes reached the terminal"


def test_a_damaged_seat_log_stops_the_peer_with_a_clear_message_and_is_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "state"
    store = StateDir(folder)
    kept = store.kept
    kept.room, kept.seat, kept.game, kept.relay, kept.creator = "ROOMAB", 1, "system-launch", "127.0.0.1:9", b"\1" * 32
    store.keep()
    damaged = MAGIC + b"\0\0\0\5" + b"\0" * 16 + b"hello" + b"\0\0\0\1" + b"\0" * 16 + b"x"  # a bad first record
    (folder / LOG_FILE).write_bytes(damaged)
    assert peer.main(["--state-dir", str(folder), "--seat-bot", "random"]) == 2
    error = capsys.readouterr().err
    assert f"{folder / LOG_FILE}: record 1 at byte {len(MAGIC)} is damaged" in error, error
    assert "nothing in it was changed" in error
    assert (folder / LOG_FILE).read_bytes() == damaged and kept_seats.load(folder).in_progress
