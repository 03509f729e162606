"""Counting positions for the repetition draw (CC-22), cheaply across the many copies a search makes.

A position is identified by a 16-byte BLAKE2b digest of its key, a list of
integers written as 64-bit little-endian words (the same bytes on every
machine): a long game keeps thousands of positions, and a digest is a small,
fixed price for each.  Two different positions sharing a digest is far less
likely than any hardware fault.
"""

from __future__ import annotations

import hashlib
import struct

#: Records kept privately by one copy before they are folded into a fresh shared base.
FOLD = 64


def digest(key: list[int]) -> bytes:
    """The identity of a position key (booleans count as 0 and 1)."""
    return hashlib.blake2b(struct.pack(f"<{len(key)}q", *key), digest_size=16).digest()


class PositionCounts:
    """How often each position occurred: a shared base nobody writes to, and a small private overlay.

    A search clones the state for every position it looks at, and each clone
    records the position it reaches; copying a whole game's history for each
    would cost more than building the position.  Copies share the base and copy
    only the overlay, which is folded into a new base (never into the shared
    one) when it grows.
    """

    __slots__ = ("_base", "_new")

    def __init__(self, base: dict[bytes, int] | None = None, new: dict[bytes, int] | None = None) -> None:
        self._base: dict[bytes, int] = base if base is not None else {}
        self._new: dict[bytes, int] = new if new is not None else {}

    def add(self, key: bytes) -> int:
        """Count one more occurrence of ``key``; return how often it has occurred now."""
        count = self._new.get(key)
        if count is None:
            count = self._base.get(key, 0)
        count += 1
        self._new[key] = count
        if len(self._new) >= FOLD:
            self._base = {**self._base, **self._new}
            self._new = {}
        return count

    def get(self, key: bytes) -> int:
        count = self._new.get(key)
        return count if count is not None else self._base.get(key, 0)

    def copy(self) -> PositionCounts:
        return PositionCounts(self._base, dict(self._new))

    def __len__(self) -> int:
        return len(self._base) + sum(1 for k in self._new if k not in self._base)
