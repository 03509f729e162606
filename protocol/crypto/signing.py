"""Ed25519 signatures: who wrote a log entry, checkable by anyone.

A thin wrapper so the rest of the protocol deals in raw bytes (32-byte public
keys, 64-byte signatures) that travel in msgpack bodies, and so that verification
is a plain boolean that never raises on hostile input.  Signing uses
``cryptography``; verifying uses libsodium alone, strictly (see :func:`verify`).
"""

from __future__ import annotations

import os
from functools import lru_cache

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from nacl.bindings import crypto_core_ed25519_is_valid_point, crypto_sign_open

PUBLIC_BYTES = 32
SIGNATURE_BYTES = 64
SEED_BYTES = 32


class SigningKey:
    """A long-term (per user) or test signing key; holds the 32-byte seed."""

    __slots__ = ("_key",)

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key

    @classmethod
    def generate(cls, seed32: bytes | None = None) -> SigningKey:
        """A key from a 32-byte seed; ``None`` draws the seed from the OS (real use only)."""
        if seed32 is None:
            seed32 = os.urandom(SEED_BYTES)
        return cls.from_private_bytes(seed32)

    @classmethod
    def from_private_bytes(cls, data: bytes) -> SigningKey:
        """Rebuild a key from :meth:`private_bytes` (e.g. the user's config file)."""
        if not isinstance(data, (bytes, bytearray)) or len(data) != SEED_BYTES:
            raise ValueError("an Ed25519 private key is exactly 32 bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(bytes(data)))

    def private_bytes(self) -> bytes:
        """The 32-byte seed (keep it secret; it *is* the identity)."""
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def public_bytes(self) -> bytes:
        """The 32-byte public key written into the game's first entry."""
        return self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def sign(self, data: bytes) -> bytes:
        """A 64-byte signature over ``data``."""
        return self._key.sign(bytes(data))

    def __repr__(self) -> str:  # never print the secret
        return f"SigningKey(public={self.public_bytes().hex()[:16]}…)"


def valid_public_key(public: object) -> bool:
    """Whether ``public`` is a key a seat may sign with: 32 bytes, canonical, on the curve, in the prime-order group.

    A small-order key (the identity, or one of the seven other torsion points) is refused:
    for it a cofactorless check accepts a "signature" that anybody can make for any message
    (``R = S·B``), so everyone could write that seat's entries.  Refused too: non-canonical
    encodings and points outside the prime-order subgroup, which no honest key generator
    makes.  Checked wherever a key enters the game (seat cards, the lobby, the genesis).
    """
    if not isinstance(public, (bytes, bytearray)) or len(public) != PUBLIC_BYTES:
        return False
    try:
        return bool(crypto_core_ed25519_is_valid_point(bytes(public)))
    except Exception:  # pynacl raises on anything odd: not a valid key
        return False


def verify(public: bytes, data: bytes, signature: bytes) -> bool:
    """True when ``signature`` is ``public``'s signature over ``data``; False on any bad input.

    The one verifier of the protocol: libsodium's ``crypto_sign_open`` (the semantics of
    ``crypto_sign_verify_detached``), which refuses small-order and non-canonical keys,
    small-order ``R`` and non-canonical ``S``.  There is no second opinion: a fallback that
    accepts more (OpenSSL's cofactorless check accepts every signature for a small-order
    key) would make the verdict depend on which library answered.  The key is also checked
    with :func:`valid_public_key` here, so a key that slipped past validation still signs
    nothing.
    """
    if not isinstance(public, (bytes, bytearray)) or len(public) != PUBLIC_BYTES:
        return False
    if not isinstance(signature, (bytes, bytearray)) or len(signature) != SIGNATURE_BYTES:
        return False
    if not isinstance(data, (bytes, bytearray)):
        return False
    public = bytes(public)
    if not _valid_cached(public):
        return False
    try:
        crypto_sign_open(bytes(signature) + bytes(data), public)
    except Exception:  # BadSignatureError, or anything odd: not a valid signature
        return False
    return True


@lru_cache(maxsize=256)
def _valid_cached(public: bytes) -> bool:
    """:func:`valid_public_key`, kept: a table checks thousands of entries against the same few seats."""
    return valid_public_key(public)
