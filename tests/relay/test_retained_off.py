"""A public broker that keeps no retained messages at all (issue 25, item 3c): the games end fair there.

The emulation is a Mosquitto with ``retain_available false`` (which disconnects a client that
publishes a retained message, its last will included) behind the public brokers' proxy.  The
program learns it by asking once (relay/retained_probe.py) and plays live only
(relay/retain_mode.py): nothing retained is sent, the seats serve each other the log
(relay/transport/wants.py runs), and the lobby's host publishes its card and seat list again for a
joiner who says hello.  Shown: the three games whole; a host and a guest who joins by invitation,
then a game in which the guest's seat restarts mid-game with nothing of its own and catches up
from the host's seat.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from engines.core import registry
from protocol.crypto.signing import SigningKey
from protocol.events import YourTurn
from protocol.seats import SeatInfo
from protocol.session import PeerSession
from relay import retain_mode
from relay.address import RelayAddress
from relay.lobby.host import RoomHost
from relay.lobby.join import join_room
from relay.lobby.seat_card import check_card
from relay.public import PUBLIC_BROKERS, RETAIN_OFF
from relay.transport.room import Restored, RoomTransport, monotonic_ms
from tests.relay.any_game import SHORT_OPTIONS, assert_fair, play_whole_game
from tests.relay.lobby.people import Person
from tests.relay.public_emulation import Emulation, emulate

#: The first public broker's limits, with retained messages off entirely.
OFF = replace(PUBLIC_BROKERS[0], name="a public broker without retained messages", retain=RETAIN_OFF)
GAMES = ("system-launch", "collective-conflict", "anomaly-maze")
#: The guest's seat is killed once it holds this many entries: more than two runs of the others'
#: answers (relay/transport/wants.py MAX_RUN) to catch up.
RESTART_AT = 80


def _within_limits(emulation: Emulation) -> None:
    counts = emulation.counts
    assert counts.broken == [], counts.broken
    assert counts.busiest_second <= OFF.max_publish_rate
    assert retain_mode.known(emulation.address) is False, "the program learnt it by asking"


async def _three_games(binary: str, tmp: Path) -> None:
    async with emulate(binary, OFF, tmp) as emulation:
        played = await asyncio.wait_for(
            asyncio.gather(*(play_whole_game(emulation.address, g, seed=g.encode(), timeout=25) for g in GAMES)), 30
        )
        for sessions in played:
            assert_fair(sessions)
        _within_limits(emulation)
        print(f"{OFF.name}: {emulation.counts.publishes} publishes, {emulation.counts.retained} retained (the probes')")


@pytest.mark.timeout(60)
def test_the_three_games_end_fair_on_a_broker_that_keeps_no_retained_messages(
    mosquitto_path: str, tmp_path: Path
) -> None:
    asyncio.run(_three_games(mosquitto_path, tmp_path))


@dataclass
class Table:
    """The seats of one game over one relay, each a transport driven by its random bot."""

    address: RelayAddress
    game: str
    sessions: list[PeerSession]
    seed: bytes
    transports: list[RoomTransport] = field(default_factory=list)
    runs: list[asyncio.Future[None]] = field(default_factory=list)

    def seat(self, s: int) -> None:
        """(Re)start seat ``s``'s transport on its session, with a fresh bot."""
        session, bot = self.sessions[s], registry.get(self.game).bots["random"](s, self.seed + bytes([len(self.runs)]))

        def drive(events: list[object]) -> None:
            for e in events:
                if not isinstance(e, YourTurn) or session.finished or session.table is None:
                    continue
                if session.table.head + 1 == e.seq and (legal := session.legal_actions()):
                    session.submit(bot.choose(session.state, session.knowledge, legal), settle=False)
                    transport.flush()

        transport = RoomTransport(self.address, session, f"p{s}", drive, tick_ms=50)
        if s < len(self.transports):
            self.transports[s] = transport
        else:
            self.transports.append(transport)
        self.runs.append(asyncio.ensure_future(transport.run()))

    async def stop(self) -> None:
        for t in self.transports:
            t.stop()
        await asyncio.gather(*self.runs, return_exceptions=True)


def _head(session: PeerSession) -> int:
    return session.table.head if session.table is not None else -1


async def _lobby_then_restart(binary: str, tmp: Path) -> None:
    # Keys, secrets and bots from fixed seeds: the same System Launch table every time.
    host_person, guest = (
        Person(n, key=SigningKey.generate((n.encode() * 8)[:32]), secret=(n.encode() * 8)[:32])
        for n in ("Host", "Guest")
    )
    game = "system-launch"
    async with emulate(binary, OFF, tmp) as emulation:
        address = emulation.address
        # The lobby: an unlisted room, the guest joining by the invitation (fingerprint and token).
        host = RoomHost(address, game, 2, "hostpeer", "Host", host_person.card, key=host_person.key, listed=False)
        gathering = asyncio.ensure_future(host.gather(20))
        await asyncio.wait_for(host.opened.wait(), 10)  # the host's own seat list came back, live
        invitation = host.invitation()
        joining = join_room(
            address, invitation.code, **guest.join_args(), host_key=invitation.fingerprint, token=invitation.token,
            timeout=15, until_started=True,
        )  # fmt: skip
        seated = await asyncio.wait_for(joining, 20)
        cards = await gathering
        assert seated.seat == 1 and cards == [host_person.card, guest.card]
        assert host.hellos >= 1, "the guest's hello reached the host through the room's seal"
        code = host.code
        creator = host_person.key.public_bytes()
        seats = [SeatInfo(c.name, c.sign, c.box) for c in map(check_card, cards)]
        sessions = [
            PeerSession.create(
                code, game, SHORT_OPTIONS[game], seats, host_person.key, host_person.secret, now_ms=monotonic_ms()
            ),
            PeerSession.join(code, 1, guest.key, guest.secret, creator=seated.creator),
        ]
        assert seated.creator == creator
        table = Table(address, game, sessions, b"h")  # (a table of 132 entries with these seeds)
        table.seat(0)
        table.seat(1)
        try:
            # Mid-game the guest's seat is killed: its session and all it held are gone.
            async with asyncio.timeout(20):
                while _head(sessions[1]) < RESTART_AT:
                    await asyncio.sleep(0.01)
            killed = table.runs[1]
            killed.cancel()
            await asyncio.gather(killed, return_exceptions=True)
            at_restart = _head(sessions[0])
            sessions[1] = PeerSession.join(code, 1, guest.key, guest.secret, creator=creator)
            started = time.monotonic()
            table.seat(1)  # nothing of its own: the relay keeps nothing either; the host's seat serves the log
            async with asyncio.timeout(20):
                while _head(sessions[1]) < at_restart:
                    await asyncio.sleep(0.01)
            caught_up = time.monotonic() - started
            await asyncio.wait_for(asyncio.gather(*table.runs[:1], table.runs[-1]), 30)
        finally:
            await table.stop()
        assert_fair(sessions)
        for transport in table.transports:
            assert all(isinstance(r, Restored) for r in transport.reports), "nothing was rejected, nobody cheated"
        served = {r.topic for r in table.transports[0].reports if r.reason == "asked for by seat 1"}
        assert len(served) >= at_restart + 1, "the host's seat served the restarted seat the whole log"
        _within_limits(emulation)
        print(f"the restarted seat caught up {at_restart + 1} entries from the other seat in {caught_up:.2f} s")


@pytest.mark.timeout(90)
def test_a_guest_joins_and_a_restarted_seat_catches_up_from_the_others_without_retained_messages(
    mosquitto_path: str, tmp_path: Path
) -> None:
    asyncio.run(_lobby_then_restart(mosquitto_path, tmp_path))
