"""Real PeerSessions (System Launch, greedy bots) on in-process transports over a real broker, for the
relay trust tests: the bots hold back their decisions until the test lets them go."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from engines.core import SeededStream, registry
from protocol.crypto.signing import SigningKey
from protocol.events import YourTurn
from protocol.session import PeerSession
from relay.transport.room import RoomTransport, monotonic_ms


@dataclass
class RealGame:
    room: str
    sessions: list[PeerSession]
    transports: list[RoomTransport]
    keys: list[SigningKey]
    #: Set it and the bots decide; until then every seat waits at its first decision.
    go: asyncio.Event = field(default_factory=asyncio.Event)

    async def stalled(self, timeout: float = 20.0) -> int:
        """Wait until every seat has the same head and waits for a decision; that head."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            heads = {s.table.head if s.table is not None else -1 for s in self.sessions}
            if len(heads) == 1 and heads.pop() > 0 and all(t._synced for t in self.transports):
                await asyncio.sleep(0.3)
                again = {s.table.head if s.table is not None else -1 for s in self.sessions}
                if len(again) == 1:
                    return again.pop()
            await asyncio.sleep(0.05)
        raise TimeoutError("the seats never agreed on a head")

    async def finish_fair(self, runs: list[asyncio.Future[None]], timeout: float = 60.0) -> None:
        """Let the bots decide and play to the end: every seat finishes with a fair verdict."""
        self.go.set()
        await asyncio.wait_for(asyncio.gather(*runs), timeout)
        assert all(s.finished and s.verdict is not None and s.verdict.fair for s in self.sessions)

    async def stop(self, runs: list[asyncio.Future[None]]) -> None:
        """Stop every transport and wait for their runs to end (whatever happened to them)."""
        for t in self.transports:
            t.stop()
        await asyncio.gather(*runs, return_exceptions=True)


def real_game(address: str, room: str, seats: int = 3, seed: bytes = b"real") -> RealGame:
    spec = registry.get("system-launch")
    keys = [SigningKey.generate(SeededStream(seed, f"k{s}").token(32)) for s in range(seats)]
    secrets = [SeededStream(seed, f"s{s}").token(32) for s in range(seats)]
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(seats)]
    creator = keys[0].public_bytes()
    sessions = [PeerSession.create(room, "system-launch", {}, cards, keys[0], secrets[0], now_ms=monotonic_ms())]
    sessions += [PeerSession.join(room, s, keys[s], secrets[s], creator) for s in range(1, seats)]
    game = RealGame(room, sessions, [], keys)
    waiting: set[asyncio.Future[None]] = set()

    def driver(seat: int):  # type: ignore[no-untyped-def]
        session = sessions[seat]

        def decide(seq: int) -> None:
            if session.finished or session.table is None or session.table.head + 1 != seq:
                return
            legal = session.legal_actions()
            if legal:
                bot = spec.bots["greedy"](seat, secrets[seat] + seq.to_bytes(8, "big"))
                session.submit(bot.choose(session.state, session.knowledge, legal), settle=False)
                game.transports[seat].flush()

        async def later(seq: int) -> None:
            await game.go.wait()
            decide(seq)

        def drive(events: list[object]) -> None:
            for e in events:
                if isinstance(e, YourTurn):
                    if game.go.is_set():
                        decide(e.seq)
                    else:
                        task = asyncio.ensure_future(later(e.seq))
                        waiting.add(task)
                        task.add_done_callback(waiting.discard)

        return drive

    game.transports = [RoomTransport(address, sessions[s], f"peer{s}", driver(s), tick_ms=50) for s in range(seats)]
    return game
