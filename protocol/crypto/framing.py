"""Unambiguous framing of several byte strings before hashing or key derivation.

Concatenating ``room`` and ``seat`` naively lets ``("ab", "c")`` and
``("a", "bc")`` hash alike; prefixing each part with its 4-byte length makes
the framed bytes decode to exactly one tuple of parts.
"""

from __future__ import annotations


def frame(*parts: bytes) -> bytes:
    """Each part as a 4-byte big-endian length followed by its bytes."""
    out = bytearray()
    for part in parts:
        if not isinstance(part, (bytes, bytearray)):
            raise TypeError("frame() takes bytes only")
        if len(part) >= 2**32:
            raise ValueError("part too long to frame")
        out += len(part).to_bytes(4, "big")
        out += part
    return bytes(out)


def int_bytes(value: int) -> bytes:
    """A signed 64-bit big-endian integer (seats, card identities, sequence numbers)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an int")
    return value.to_bytes(8, "big", signed=True)


def text_bytes(value: str) -> bytes:
    """A string as UTF-8 (rooms, tags, labels)."""
    if not isinstance(value, str):
        raise TypeError("expected a str")
    return value.encode("utf-8")
