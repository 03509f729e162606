"""Any game, whole, between in-process transports over a real broker: random bots without think time.

The short way to play each of the three games over a relay in a test (``real_game.py`` holds a
System Launch table back for the trust tests; the headless peers are processes): real
:class:`PeerSession` objects, one :class:`RoomTransport` each, the seats' bots deciding as soon as
their turn comes.
"""

from __future__ import annotations

import asyncio
import secrets as random_secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from engines.core import SeededStream, registry
from protocol.crypto.signing import SigningKey
from protocol.events import YourTurn
from protocol.session import PeerSession
from relay.address import RelayAddress
from relay.transport.failover import FailoverTransport
from relay.transport.room import RoomTransport, monotonic_ms

#: Short tables for every game (the point is a whole game over the relay, not a long one).
SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "system-launch": {},
    "collective-conflict": {"max_rounds": 6},
    "anomaly-maze": {"round_limit": 12},
}


async def play_whole_game(
    address: str | RelayAddress,
    game: str,
    seats: int = 2,
    seed: bytes = b"any",
    timeout: float = 60.0,
    fallbacks: Sequence[str | RelayAddress] = (),
    meanwhile: Callable[[list[PeerSession]], Awaitable[None]] | None = None,
) -> list[PeerSession]:
    """Play ``game`` to its end at ``seats`` seats over ``address``; the sessions, every one finished.

    With ``fallbacks`` each seat plays on a :class:`FailoverTransport` that moves after one second
    without its relay; ``meanwhile`` runs beside the game (to take a relay away, say).
    """
    spec = registry.get(game)
    room = "any" + random_secrets.token_hex(5)
    keys = [SigningKey.generate(SeededStream(seed, f"k{s}").token(32)) for s in range(seats)]
    seat_secrets = [SeededStream(seed, f"s{s}").token(32) for s in range(seats)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], seat_secrets[s]) for s in range(seats)]
    creator = keys[0].public_bytes()
    options = SHORT_OPTIONS.get(game, {})
    sessions = [PeerSession.create(room, game, options, cards, keys[0], seat_secrets[0], now_ms=monotonic_ms())]
    sessions += [PeerSession.join(room, s, keys[s], seat_secrets[s], creator) for s in range(1, seats)]
    bots = [spec.bots["random"](s, seed) for s in range(seats)]
    transports: list[RoomTransport] = []

    def driver(seat: int):  # type: ignore[no-untyped-def]  # the transport's driver callback
        session = sessions[seat]

        def drive(events: list[object]) -> None:
            for e in events:
                if not isinstance(e, YourTurn):
                    continue
                if session.finished or session.table is None or session.table.head + 1 != e.seq:
                    continue
                legal = session.legal_actions()
                if legal:
                    session.submit(bots[seat].choose(session.state, session.knowledge, legal), settle=False)
                    transports[seat].flush()

        return drive

    for s in range(seats):
        if fallbacks:
            transports.append(
                FailoverTransport([address, *fallbacks], sessions[s], f"p{s}", driver(s), failover_s=1.0, tick_ms=50)
            )
        else:
            transports.append(RoomTransport(address, sessions[s], f"p{s}", driver(s), tick_ms=50))
    runs = [asyncio.ensure_future(t.run()) for t in transports]
    beside = asyncio.ensure_future(meanwhile(sessions)) if meanwhile is not None else None
    try:
        await asyncio.wait_for(asyncio.gather(*runs, *([beside] if beside else [])), timeout)
    finally:
        for t in transports:
            t.stop()
        await asyncio.gather(*runs, return_exceptions=True)
    return sessions


def assert_fair(sessions: list[PeerSession]) -> None:
    """Every seat finished with a fair verdict and the same final state."""
    assert all(s.finished and s.verdict is not None and s.verdict.fair for s in sessions), [s.verdict for s in sessions]
    hashes = {s.state.hash() for s in sessions if s.state is not None}
    assert len(hashes) == 1, "the seats ended in different states"
