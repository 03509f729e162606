"""Signed ``want`` requests: a seat that cannot get entry ``k`` from the relay asks the other seats for it.

A peer answers a request by publishing the entry itself again (retained, at ``log/{k}``): the
answer is checked by the asker's session like any entry, so it is never trusted.  The request is
what must not be forgeable, because it makes every peer publish: a stranger's requests would turn
each honest peer into an amplifier, and a spoofed one would speak for a seat.  So a request is

    msgpack {"body": BODY, "sig": SIG}      BODY = canonical {"kind": "want", "room", "game", "seat", "seq", "n"}

signed by the asking seat's key (``SIG`` over ``frame(protocol.session.REQUEST_TAG, BODY)``, a tag no
log entry can have), bound to the room and to the game (the genesis's hash: a request of an earlier
game in the same room does not verify in this one), published at ``want/{seat}`` (one exact topic
per seat, never a wildcard), at most :data:`MAX_BYTES` long.  ``n`` grows with every request of a
seat, so a request replayed is seen as old; answering peers also limit each seat to a few requests
a second.  ``count`` (left out when 1) asks for a run of entries from ``seq``, at most
:data:`MAX_RUN`: a seat catching up on a relay that keeps no retained messages
(:mod:`relay.retain_mode`) gets the log from the others a window at a time.  A seat that has no
genesis yet knows no game: it asks for the run from entry 0 with an empty ``game``, which the
others answer too (only from 0, so nothing but the start of this room's game is ever asked so).
:func:`check` says why a request is refused, never raising anything else and never quoting a key
or a secret.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack

from engines.core import canonical_encode
from protocol.crypto.framing import frame
from protocol.crypto.signing import verify
from protocol.session import REQUEST_TAG

#: The largest request read at all (a real one is about 150 bytes).
MAX_BYTES = 256
#: The furthest a request may ask beyond what any honest peer could hold.
MAX_SEQ = 1 << 32
#: The most entries one request asks for (the transport's window of log topics).
MAX_RUN = 64


class BadWant(ValueError):
    """A request that is not answered; ``str()`` is the reason (safe to log)."""


@dataclass(frozen=True)
class Want:
    """A checked request: ``seat`` asks for entries ``seq`` .. ``seq + count - 1``; ``n`` orders its requests."""

    seat: int
    seq: int
    n: int
    count: int = 1


def body(room: str, game: bytes, seat: int, seq: int, n: int, count: int = 1) -> bytes:
    """The canonical bytes a seat signs to ask for entry ``seq`` (and the ``count - 1`` after it).

    ``game`` is empty for a seat that has no genesis yet (then ``seq`` is 0).
    """
    fields: dict[str, object] = {"kind": "want", "room": room, "game": game, "seat": seat, "seq": seq, "n": n}
    if count != 1:
        fields["count"] = count
    return canonical_encode(fields)


def encode(raw: bytes, sig: bytes) -> bytes:
    return msgpack.packb({"body": raw, "sig": sig}, use_bin_type=True)


def _field(value: object, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadWant(f"{what} is not a whole number from {low} to {high}")
    return value


def check(data: bytes, room: str, game: bytes, topic_seat: int, keys: list[bytes]) -> Want:  # noqa: C901 (tests/test_complexity.py)
    """The request on ``want/{topic_seat}`` if it is signed by that seat's key for this room and game.

    The cheap checks come first (size, shape, room, game, seat); the one signature check, against
    the key of the seat the topic names, last.
    """
    if not data:
        raise BadWant("an empty request")
    if len(data) > MAX_BYTES:
        raise BadWant(f"a request of {len(data)} bytes (at most {MAX_BYTES})")
    try:
        outer = msgpack.unpackb(data, raw=False)
        raw, sig = outer["body"], outer["sig"]
        if not isinstance(raw, bytes) or not isinstance(sig, bytes) or len(sig) != 64:
            raise TypeError
        fields = msgpack.unpackb(raw, raw=False)
    except Exception:
        raise BadWant("not a signed request") from None
    if not isinstance(fields, dict) or fields.get("kind") != "want":
        raise BadWant("not a want request")
    if fields.get("room") != room:
        raise BadWant("a request for another room")
    before_genesis = fields.get("game") == b"" and fields.get("seq") == 0  # it has no genesis to name yet
    if fields.get("game") != game and not before_genesis:
        raise BadWant("a request for another game in this room")
    seat = _field(fields.get("seat"), 0, len(keys) - 1, "the seat")
    if seat != topic_seat:
        raise BadWant(f"a request on want/{topic_seat} in the name of seat {seat}")
    seq = _field(fields.get("seq"), 0, MAX_SEQ, "the entry asked for")
    n = _field(fields.get("n"), 0, 1 << 62, "the request number")
    count = _field(fields.get("count", 1), 1, MAX_RUN, "the number of entries asked for")
    try:
        if canonical_encode(fields) != raw:
            raise BadWant("a request not in canonical form")
    except BadWant:
        raise
    except Exception:
        raise BadWant("a request not in canonical form") from None
    if not verify(keys[seat], frame(REQUEST_TAG, raw), sig):
        raise BadWant(f"a request not signed by seat {seat}")
    return Want(seat, seq, n, count)
