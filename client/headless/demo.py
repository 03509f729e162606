"""The headless demo: bots play one networked game on an embedded relay in this process.

This is what ``sealed-table`` runs where there is no display.  It is the real
thing end to end — an amqtt relay on a free loopback port, one headless peer per
seat (each its own keys, session and MQTT connection), mental-poker dealing,
the end-of-game audit — just without a window, so a fresh machine shows in a
few seconds that everything works.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from client.headless.peer import parse_args, play, setup_logging
from relay import event_loop
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.lobby.invitation import LISTED_CODE_LENGTH, new_code
from relay.lobby.listing import list_rooms


async def _wait_for_room(relay: str, code: str, seconds: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        if any(card.is_room(code) for card in await list_rooms(relay, timeout=1.0)):
            return
        await asyncio.sleep(0.1)
    raise TimeoutError(f"room {code} did not open on {relay}")


async def run_demo(game: str, players: int, bot: str | None, folder: Path) -> int:
    """Start a relay, seat ``players`` bots, play to the end; 0 if every peer's audit says fair."""
    relay = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
    await relay.start()
    print(f"Embedded relay on {relay.address}; {players} bots play {game}.", flush=True)
    try:
        code = new_code(LISTED_CODE_LENGTH)  # the demo's room is listed: its joiners find it by code

        def peer(seat: int, mode: list[str]) -> argparse.Namespace:
            state = str(folder / f"seat{seat}")
            chosen = ["--seat-bot", bot] if bot else []
            return parse_args(["--relay", relay.address, *mode, *chosen, "--state-dir", state, "-q"])

        host = asyncio.create_task(
            play(peer(0, ["--create", game, "--players", str(players), "--room", code, "--accept-all", "--listed"]))
        )
        await _wait_for_room(relay.address, code)
        joiners = []
        for seat in range(1, players):
            joiners.append(asyncio.create_task(play(peer(seat, ["--join", code]))))
            await asyncio.sleep(0.05)  # seats in a stable order, for a readable demo
        codes = await asyncio.gather(host, *joiners)
    finally:
        await relay.stop()
    fair = all(c == 0 for c in codes)
    print(f"Demo finished: {'every peer audited the game as fair' if fair else 'not every peer found it fair'}.")
    saved = folder / "seat0" / "game.sealed"
    if saved.exists():
        verify = "sealed-table verify" if getattr(sys, "frozen", False) else "python -m protocol verify"  # a bundle
        print(f"The signed game file is {saved}; audit it yourself with: {verify} {saved}")
    return 0 if fair else 1


def headless_demo(game: str, players: int, bot: str | None = None) -> int:
    """The demo as ``sealed-table`` runs it (``bot``: every seat's; the game's own when None)."""
    setup_logging()
    folder = Path(tempfile.mkdtemp(prefix="sealed-table-demo-"))
    return event_loop.run(run_demo(game, players, bot, folder))
