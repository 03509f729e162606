"""A deterministic random stream from a seed, identical on every machine.

Used wherever chance must be reproducible from a shared seed: the protocol's
public-seeded chance (the joint seed committed by every seat) and the
in-process referee of self-play.  SHA-256 in counter mode, with rejection
sampling, so ``below(n)`` is exactly uniform and never touches floats or the
platform's ``random`` module.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


class SeededStream:
    """Uniform integers drawn from SHA-256(seed || label || counter)."""

    __slots__ = ("_counter", "_seed")

    def __init__(self, seed: bytes | int | str, label: str = "") -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes((seed.bit_length() + 8) // 8 or 1, "big", signed=True)
        elif isinstance(seed, str):
            seed = seed.encode()
        self._seed = hashlib.sha256(b"sealed-table/seeded\x00" + seed + b"\x00" + label.encode()).digest()
        self._counter = 0

    def _next64(self) -> int:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``; ``n`` must be positive."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def token(self, size: int = 32) -> bytes:
        """Fresh-looking bytes (for seeded salts and keys in tests)."""
        out = b""
        while len(out) < size:
            out += self._next64().to_bytes(8, "big")
        return out[:size]


def derive_outcome(seed: bytes, label: str, index: int, outcomes: int) -> int:
    """The ``index``-th public-seeded outcome in ``range(outcomes)``.

    Each chance event gets its own stream (``label`` and ``index``), so peers
    agree without having to replay earlier draws.
    """
    return SeededStream(seed, f"{label}/{index}").below(outcomes)
