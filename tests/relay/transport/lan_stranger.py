"""A stranger on the LAN (for the handover test): a real relay, announced for someone else's room.

``python -m tests.relay.transport.lan_stranger ROOM GAME_HEX`` starts an embedded relay on loopback and
announces it with zeroconf as "seat 0's relay" of that room and game — signed with its own key,
since it has no seat's.  It prints ``stranger PORT`` and runs until killed.
"""

from __future__ import annotations

import asyncio
import sys

from protocol.crypto.signing import SigningKey
from relay.broker.discovery import advertise
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.transport.handover import room_txt


async def main(room: str, game: bytes) -> None:
    relay = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
    await relay.start()
    txt = {"sealed-table": "1", **room_txt(room, game, 0, ("127.0.0.1",), relay.port, SigningKey.generate())}
    await advertise(f"Sealed Table room {room} seat 1", relay.port, txt, interfaces=["127.0.0.1"])
    print(f"stranger {relay.port}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], bytes.fromhex(sys.argv[2])))
