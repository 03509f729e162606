"""``want`` requests for a run of entries, and before the genesis (relay/transport/wants.py): what a seat
catching up on a relay that keeps no retained messages asks, and what the others answer.

The requests on the wire and the whole catch-up are in tests/relay/test_retained_off.py; here the rules.
"""

from __future__ import annotations

import pytest

from protocol.crypto.framing import frame
from protocol.crypto.signing import SigningKey
from protocol.session import REQUEST_TAG
from relay.transport import wants

ROOM, GAME = "ROOMAB", bytes(range(32))
KEYS = [SigningKey.generate(bytes([s]) * 32) for s in range(2)]
PUBLIC = [k.public_bytes() for k in KEYS]


def _request(seat: int, seq: int, count: int = 1, game: bytes = GAME, n: int = 5) -> bytes:
    raw = wants.body(ROOM, game, seat, seq, n, count)
    return wants.encode(raw, KEYS[seat].sign(frame(REQUEST_TAG, raw)))


def test_a_request_asks_for_a_run_of_entries_up_to_a_window() -> None:
    assert wants.check(_request(1, 7, 64), ROOM, GAME, 1, PUBLIC) == wants.Want(1, 7, 5, 64)
    assert wants.check(_request(1, 7), ROOM, GAME, 1, PUBLIC).count == 1
    assert wants.body(ROOM, GAME, 1, 7, 5) == wants.body(ROOM, GAME, 1, 7, 5, 1), "one entry: the request as before"
    with pytest.raises(wants.BadWant, match="the number of entries asked for"):
        wants.check(_request(1, 7, wants.MAX_RUN + 1), ROOM, GAME, 1, PUBLIC)
    with pytest.raises(wants.BadWant, match="the number of entries asked for"):
        wants.check(_request(1, 7, 0), ROOM, GAME, 1, PUBLIC)


def test_a_seat_without_the_genesis_asks_from_entry_0_only() -> None:
    """It knows no game yet: an empty game is answered for a run from 0, and for nothing else."""
    assert wants.check(_request(1, 0, 64, game=b""), ROOM, GAME, 1, PUBLIC) == wants.Want(1, 0, 5, 64)
    with pytest.raises(wants.BadWant, match="another game"):
        wants.check(_request(1, 3, 64, game=b""), ROOM, GAME, 1, PUBLIC)
    with pytest.raises(wants.BadWant, match="not signed by seat 1"):
        raw = wants.body(ROOM, b"", 1, 0, 5, 64)
        wants.check(wants.encode(raw, KEYS[0].sign(frame(REQUEST_TAG, raw))), ROOM, GAME, 1, PUBLIC)
