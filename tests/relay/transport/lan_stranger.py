"""A stranger on the LAN (for the handover test): a real relay, announced for someone else's room.

``python -m tests.relay.transport.lan_stranger`` starts an embedded relay on loopback, prints
``ready``, reads ``ROOM GAME_HEX`` from its standard input and announces the relay with zeroconf as
"seat 0's relay" of that room and game — signed with its own key, since it has no seat's.  It
prints ``stranger PORT`` and runs until killed.  (Started before the game, it announces within
moments of being told the game: a game is short, a Python start under load is not.)
"""

from __future__ import annotations

import asyncio
import sys

from protocol.crypto.signing import SigningKey
from relay.broker.discovery import advertise
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.transport.handover import room_txt


async def main() -> None:
    relay = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
    await relay.start()
    print("ready", flush=True)
    room, game_hex = (await asyncio.to_thread(sys.stdin.readline)).split()
    game = bytes.fromhex(game_hex)
    txt = {"sealed-table": "1", **room_txt(room, game, 0, ("127.0.0.1",), relay.port, SigningKey.generate())}
    await advertise(f"Sealed Table room {room} seat 1", relay.port, txt, interfaces=["127.0.0.1"])
    print(f"stranger {relay.port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
