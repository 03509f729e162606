"""Commitments: seal a value now, prove later that it was this value all along.

``SHA-256(frame(DOMAIN, tag, room, seat, salt, canonical_encode(value)))``.
The tag names what is being committed to (a Decoy's identity, a trap, a share
of randomness) so a commitment made for one purpose can never be opened as
another; the room and seat stop a commitment being copied into another game or
claimed by another seat; the fresh 32-byte salt hides even a value drawn from
a tiny set (a trap is armed or not); and the length-prefixed framing makes the
hashed bytes decode to exactly one (tag, room, seat, salt, value).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from engines.core import EncodingError, canonical_encode
from protocol.crypto.framing import frame, int_bytes, text_bytes

DOMAIN = b"sealed-table/commit/v1"
COMMIT_SALT_BYTES = 32
DIGEST_BYTES = 32


def commitment(tag: str, room: str, seat: int, salt: bytes, value: Any) -> bytes:
    """The 32-byte commitment; raises ``ValueError``/``TypeError`` on malformed arguments."""
    if not isinstance(salt, (bytes, bytearray)) or len(salt) != COMMIT_SALT_BYTES:
        raise ValueError("a commitment salt is exactly 32 bytes")
    encoded = canonical_encode(value)
    return hashlib.sha256(
        frame(DOMAIN, text_bytes(tag), text_bytes(room), int_bytes(seat), bytes(salt), encoded)
    ).digest()


def opens(digest: bytes, tag: str, room: str, seat: int, salt: bytes, value: Any) -> bool:
    """True when (salt, value) opens ``digest``; False on any mismatch or malformed input."""
    if not isinstance(digest, (bytes, bytearray)) or len(digest) != DIGEST_BYTES:
        return False
    try:
        expected = commitment(tag, room, seat, salt, value)
    except (ValueError, TypeError, EncodingError):
        return False
    return hmac.compare_digest(expected, bytes(digest))
