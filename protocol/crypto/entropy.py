"""Where fresh randomness comes from: an injected generator, never a hidden call.

Pure protocol code asks an :class:`Entropy` for bytes and bounded integers.
Real peers pass :class:`SystemEntropy` (the operating system's generator);
tests and the simulator pass an ``engines.core.SeededStream``, which has the
same two methods, so a whole game's secrets are reproducible from one seed.
"""

from __future__ import annotations

import os
import secrets
from typing import Protocol, runtime_checkable


@runtime_checkable
class Entropy(Protocol):
    """The two questions protocol code asks of a randomness source."""

    def token(self, size: int = 32) -> bytes:
        """``size`` fresh random bytes."""
        ...

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        ...


class SystemEntropy:
    """The operating system's cryptographic generator, for real games."""

    def token(self, size: int = 32) -> bytes:
        return os.urandom(size)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return secrets.randbelow(n)
