"""The desktop seat's own log (:mod:`client.store.seat_log`) over real relays, each in its own process.

**A crash after signing, on a relay that kept no copy of the entry.**

Two seats of System Launch on a real relay (the embedded one and Mosquitto, each its own process):
seat 0 a bot on its own session and transport, seat 1 the desktop program's network game
(:class:`~client.net.game.NetGame`, kept as the lobby keeps a joined seat).  At one of its
decisions the desktop's relay connection goes through a proxy that forwards the entry to the
broker with its RETAIN flag cleared — the other seat gets it, the relay's log never holds it — and
then cuts the desktop off before anything comes back: its machine crashed.  Taken again from the
kept seat (:func:`client.net.resume.resume_seat`), it must not be asked that decision again (a
player would choose differently, and two signed entries at one position name the seat a cheater):
it reads its own log first, puts the entry back on the relay exactly as signed, and the game ends
fair with nobody named.

**An empty relay.**  Three seats; every program stops at once and the relay dies with the host's
(a LAN game's relay runs in the host's program).  The desktop and the other bot are started again
on a new, empty relay (the desktop's kept seat pointed there, as when the game moves): they bring
the game back from their own logs, vote the host gone and finish — every entry the old relay held
is in the final log unchanged, and nobody is named a cheater.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from client.net.address import parse_relay_address
from client.net.bot_seat import BotSeat
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.resume import resume_seat
from client.store import kept_seats
from client.store.kept_seats import SavedSeat
from client.store.seat_log import LOG_FILE, MAGIC, SeatLog
from engines.core import Action
from protocol.audit import DISCONNECTED
from protocol.crypto.signing import SigningKey
from protocol.events import CheatDetected, Equivocation
from protocol.session import PeerSession
from relay.seal import RoomSeal
from relay.transport.room import Restored, RoomTransport, monotonic_ms
from tests.client.headless.test_own_log import room_log
from tests.relay.helpers import BrokerProcess
from tests.relay.retain_drop import RetainDropper

ROOM = "OWNLOG"
TIMEOUT_MS = 120_000
#: The desktop's decision at which its machine crashes (one with a choice, after a few of them).
CRASH_AT = 3


async def _play(game: NetGame, choose: Callable[[list[Action]], Action], crash: Callable[[int], bool]) -> int | None:
    """Decide the desktop's turns with ``choose`` until the game ends, or until ``crash(seq)`` says stop
    after making decision ``seq``: then that seq.  (TimeoutError if the game stands still for good.)"""
    async with asyncio.timeout(240):
        return await _decide(game, choose, crash)


async def _decide(game: NetGame, choose: Callable[[list[Action]], Action], crash: Callable[[int], bool]) -> int | None:
    made = 0
    while not game.session.finished:
        while game.has_steps():
            game.step()
        if game.human_to_move() and game.in_step():
            table = game.session.table
            assert table is not None
            seq = table.head + 1
            legal = game.legal()
            made += 1
            stop = made >= CRASH_AT and len(set(legal)) > 1 and crash(seq)
            game.act(choose(legal))
            if stop:
                return seq
        await asyncio.sleep(0.02)
    return None


async def _until(check: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)
    assert check(), what


async def _scenario(broker: BrokerProcess, proxy: RetainDropper, config: Path) -> None:
    keys = [SigningKey.generate(bytes([i + 41]) * 32) for i in range(2)]
    secrets = [bytes([i + 51]) * 32 for i in range(2)]
    cards = [PeerSession.seat_card(name, keys[i], secrets[i]) for i, name in enumerate(["Bot", "Desk"])]
    options = {"protections_to_win": 2}  # long enough to crash in the middle
    host = PeerSession.create(ROOM, "system-launch", options, cards, keys[0], secrets[0], TIMEOUT_MS, monotonic_ms())
    bot = BotSeat(host, "random", secrets[0], quiet=True)
    host_transport = RoomTransport(broker.address, host, "ownlog-bot", bot.handle)
    bot.transport = host_transport
    host_task = asyncio.ensure_future(host_transport.run())

    creator = keys[0].public_bytes()
    joined = PeerSession.join(ROOM, 1, keys[1], secrets[1], creator=creator)
    first = NetGame(joined, parse_relay_address(proxy.address), "ownlog-desk")
    kept = SavedSeat(
        ROOM, 1, "system-launch", proxy.address, "ownlog-desk", creator, keys[1].private_bytes(), secrets[1]
    )
    first.keep(kept, config)  # as the lobby keeps a joined seat, before its first entry
    first_task = asyncio.ensure_future(first.make_transport().run())

    def arm(seq: int) -> bool:
        proxy.arm(rf"/log/{seq}$", cut_after=True, seal=host_transport.seal)
        return True

    crashed_at = await _play(first, lambda legal: legal[0], arm)
    assert crashed_at is not None, "the game ended before the crash"
    await _until(proxy.fired.is_set, "the entry went out")
    await _until(lambda: host.table is not None and host.table.head >= crashed_at, "the other seat has the entry")
    first_task.cancel()  # the crash: nothing more of this process
    with pytest.raises(asyncio.CancelledError):
        await first_task
    assert proxy.dropped is not None
    signed = proxy.dropped[1]

    proxy.restore()
    [again] = kept_seats.in_progress(config)
    second = resume_seat(again)
    transport = second.make_transport()
    second_task = asyncio.ensure_future(transport.run())
    # A player taken back chooses differently: asked this decision again, the seat would equivocate.
    assert await _play(second, lambda legal: legal[-1], lambda seq: False) is None
    await asyncio.wait_for(asyncio.gather(second_task, host_task), 120)

    reports = [*host_transport.reports, *transport.reports]
    assert not [r for r in reports if isinstance(r, Equivocation | CheatDetected)], reports
    assert host.verdict is not None and host.verdict.fair, host.verdict
    assert second.session.verdict is not None and second.session.verdict.fair, second.session.verdict
    assert host.table is not None and second.session.table is not None
    assert bytes(host.table.log[crashed_at].data) == signed == bytes(second.session.table.log[crashed_at].data)
    put_back = [r for r in transport.reports if isinstance(r, Restored) and r.topic.endswith(f"/log/{crashed_at}")]
    assert put_back, "the resumed seat put its entry back on the relay"


def test_a_seat_that_crashed_after_signing_resumes_from_its_own_log(any_broker: BrokerProcess, tmp_path: Path) -> None:
    proxy = RetainDropper(any_broker.port)
    try:
        asyncio.run(_scenario(any_broker, proxy, tmp_path / "desk"))
    finally:
        proxy.close()


async def _empty_relay(old: BrokerProcess, new: BrokerProcess, tmp: Path) -> None:
    keys = [SigningKey.generate(bytes([i + 61]) * 32) for i in range(3)]
    secrets = [bytes([i + 71]) * 32 for i in range(3)]
    cards = [PeerSession.seat_card(name, keys[i], secrets[i]) for i, name in enumerate(["Host", "Desk", "Bot"])]
    room, creator, timeout_ms = "EMPTYR", keys[0].public_bytes(), 30_000  # the shortest answer time a host may pick
    host = PeerSession.create(room, "system-launch", {}, cards, keys[0], secrets[0], timeout_ms, monotonic_ms())

    def bot_seat(session: PeerSession, seat: int, relay: str) -> tuple[RoomTransport, asyncio.Future[None]]:
        bot = BotSeat(session, "random", secrets[seat], quiet=True)
        folder = tmp / f"bot{seat}"
        folder.mkdir(exist_ok=True)
        transport = RoomTransport(relay, session, f"empty-{seat}", bot.handle, journal=SeatLog.open(folder))
        bot.transport = transport
        return transport, asyncio.ensure_future(transport.run())

    _, host_task = bot_seat(host, 0, old.address)
    bot_session = PeerSession.join(room, 2, keys[2], secrets[2], creator=creator)
    _, bot_task = bot_seat(bot_session, 2, old.address)
    desk = NetGame(PeerSession.join(room, 1, keys[1], secrets[1], creator=creator), parse_relay_address(old.address))
    config = tmp / "desk"
    desk.keep(
        SavedSeat(room, 1, "system-launch", old.address, "empty-1", creator, keys[1].private_bytes(), secrets[1]),
        config,
    )
    desk_task = asyncio.ensure_future(desk.make_transport().run())
    await _play(desk, lambda legal: legal[0], lambda seq: True)  # a few decisions into the game
    host_task.cancel()  # the host stops; what it published reaches the others; then they stop too
    await asyncio.gather(host_task, return_exceptions=True)
    while True:
        before = await room_log(old.address, room, RoomSeal.for_host_key(room, creator))
        if all(s.table is not None and s.table.head >= max(before) for s in (desk.session, bot_session)):
            break
    for task in (bot_task, desk_task):
        task.cancel()
    await asyncio.gather(bot_task, desk_task, return_exceptions=True)
    before = await room_log(old.address, room, RoomSeal.for_host_key(room, creator))
    old.stop(signal.SIGKILL)
    assert sorted(before) == list(range(len(before))) and len(before) > 8, sorted(before)

    new.start()  # it has never heard of this room
    [kept] = kept_seats.in_progress(config)
    kept.moved_to = new.address
    again = resume_seat(kept)
    desk_transport = again.make_transport()
    desk_task = asyncio.ensure_future(desk_transport.run())
    bot_transport, bot_task = bot_seat(PeerSession.join(room, 2, keys[2], secrets[2], creator=creator), 2, new.address)
    assert await _play(again, lambda legal: legal[0], lambda seq: False) is None
    await asyncio.wait_for(asyncio.gather(desk_task, bot_task), 120)

    reports = [*desk_transport.reports, *bot_transport.reports]
    assert not [r for r in reports if isinstance(r, Equivocation | CheatDetected)], reports
    verdict = again.session.verdict
    assert verdict is not None and verdict.kind == DISCONNECTED and verdict.seat == 0, verdict
    table = again.session.table
    assert table is not None and len(table.log) > len(before)
    assert [bytes(e.data) for e in table.log[: len(before)]] == [before[seq] for seq in range(len(before))]


# On Mosquitto only: it waits out the shortest answer time a host may pick (30 s) for the host to be
# voted gone, and the headless variant (tests/client/headless/test_own_log.py) runs on both brokers.
@pytest.mark.parametrize("any_broker", ["mosquitto"], indirect=True)
def test_a_desktop_seat_brings_the_game_back_on_an_empty_relay(
    any_broker: BrokerProcess, another_broker: BrokerProcess, tmp_path: Path
) -> None:
    asyncio.run(_empty_relay(any_broker, another_broker, tmp_path))


def test_a_damaged_seat_log_is_refused_with_a_clear_message_and_the_seat_stays_listed(tmp_path: Path) -> None:
    config = tmp_path / "desk"
    key = SigningKey.generate(b"\5" * 32)
    seat = kept_seats.save(
        SavedSeat(
            "ROOMCD", 1, "system-launch", "127.0.0.1:9", "damaged-1", b"\1" * 32, key.private_bytes(), b"\2" * 32
        ),
        config,
    )
    assert seat.folder is not None
    path = seat.folder / LOG_FILE
    damaged = MAGIC + b"\0\0\0\5" + b"\0" * 16 + b"hello" + b"\0\0\0\1" + b"\0" * 16 + b"x"
    path.write_bytes(damaged)
    with pytest.raises(NetError) as refused:
        resume_seat(seat)
    assert refused.value.code == "seat-log-damaged"
    message = refused.value.message()
    assert f"{path.resolve()}: record 1 at byte {len(MAGIC)} is damaged" in message and "ROOMCD" in message
    assert path.read_bytes() == damaged
    assert [s.room for s in kept_seats.in_progress(config)] == ["ROOMCD"], "the seat is still there to try again"


def test_a_torn_last_write_is_dropped_and_the_seat_is_taken_again(tmp_path: Path) -> None:
    config = tmp_path / "desk"
    key = SigningKey.generate(b"\6" * 32)
    seat = kept_seats.save(
        SavedSeat("ROOMGH", 1, "system-launch", "127.0.0.1:9", "torn-1", b"\1" * 32, key.private_bytes(), b"\2" * 32),
        config,
    )
    assert seat.folder is not None
    (seat.folder / LOG_FILE).write_bytes(MAGIC + b"\0\0\1\0" + b"\0" * 7)  # a power cut in the first append
    game = resume_seat(seat)
    assert game.journal is not None and game.journal.records == [] and game.journal.torn == 11
