"""Ed25519 signatures: who wrote a log entry, checkable by anyone.

A thin wrapper over ``cryptography`` so the rest of the protocol deals in raw
bytes (32-byte public keys, 64-byte signatures) that travel in msgpack bodies,
and so that verification is a plain boolean that never raises on hostile input.
"""

from __future__ import annotations

import os
from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from nacl.bindings import crypto_sign_open

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


def _sodium_accepts(public: bytes, data: bytes, signature: bytes) -> bool:
    """libsodium's verdict, a fast path: twice as fast as OpenSSL's on this machine.

    libsodium checks the same (cofactorless) equation as OpenSSL and refuses strictly
    more (small-order keys and ``R``, non-canonical encodings), so whatever it accepts
    OpenSSL accepts too.  It is only trusted to say yes: on a no, OpenSSL decides, so
    every verdict is exactly OpenSSL's (tests/protocol/test_ps_fastpaths.py).
    """
    try:
        crypto_sign_open(signature + data, public)
    except Exception:  # BadSignatureError, or anything odd: OpenSSL decides
        return False
    return True


@lru_cache(maxsize=256)
def _public_key(public: bytes) -> Ed25519PublicKey:
    """The parsed public key, kept: a table checks thousands of entries against the same few seats.

    ``from_public_bytes`` raises on a bad key; exceptions are not cached, so a bad key is
    refused every time exactly as before.
    """
    return Ed25519PublicKey.from_public_bytes(public)


def verify(public: bytes, data: bytes, signature: bytes) -> bool:
    """True when ``signature`` is ``public``'s signature over ``data``; False on any bad input."""
    try:
        if not isinstance(public, (bytes, bytearray)) or len(public) != PUBLIC_BYTES:
            return False
        if not isinstance(signature, (bytes, bytearray)) or len(signature) != SIGNATURE_BYTES:
            return False
        if not isinstance(data, (bytes, bytearray)):
            return False
        public, signature, data = bytes(public), bytes(signature), bytes(data)
        if _sodium_accepts(public, data, signature):
            return True
        _public_key(public).verify(signature, data)
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False
