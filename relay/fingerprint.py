"""Host key fingerprints in the room-code alphabet: what an invitation pins, and what seals a room.

SHA-256 over a domain tag and the 32-byte Ed25519 public key, written as letters that survive
being read out and typed back.  The full fingerprint (:data:`FINGERPRINT_LETTERS`) is what
programs compare; its first :data:`READABLE_LETTERS` are what people read out, and also what
derives a room's seal (:mod:`relay.seal`), so that both forms of an invitation open the room.
It lives below the lobby and the transport because both need it.
"""

from __future__ import annotations

import hashlib

#: No 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V: letters that survive being read out and typed back.
ALPHABET = "ACDEFGHJKMNPQRTWXY"
#: The full fingerprint, compared by programs: 32·log2(18) ≈ 133 bits (at least 128).
FINGERPRINT_LETTERS = 32
#: The readable fingerprint, read out and compared by people: its first 20 letters, ≈ 83 bits (at least 80).
READABLE_LETTERS = 20
_DOMAIN = b"sealed-table host key fingerprint v2\x00"


def letters(digest: bytes, count: int) -> str:
    """``count`` letters of the alphabet from a hash (its leading digits in base 18)."""
    number = int.from_bytes(digest, "big")
    out = []
    for _ in range(count):
        number, digit = divmod(number, len(ALPHABET))
        out.append(ALPHABET[digit])
    return "".join(out)


def fingerprint(public_key: bytes) -> str:
    """The full fingerprint of a host's Ed25519 public key: 32 letters, no dashes (see :func:`readable`)."""
    return letters(hashlib.sha256(_DOMAIN + bytes(public_key)).digest(), FINGERPRINT_LETTERS)


def squeezed(text: str) -> str:
    """``text`` in capitals without spaces and dashes (how fingerprints and codes are compared)."""
    return "".join(c for c in text.upper() if c not in " -_")


def readable(fp: str) -> str:
    """A fingerprint as a person reads it: its first 20 letters in groups of four, ``KMTX-RCAP-WHEJ-FDNQ-ACDE``."""
    head = squeezed(fp)[:READABLE_LETTERS]
    return "-".join(head[i : i + 4] for i in range(0, len(head), 4))
