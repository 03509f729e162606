"""Private messages between two seats over a public log (e.g. Hacker Attack).

Each seat makes a fresh X25519 *agreement key* per game and announces its
public half in the game's first entry, next to its long-term signing key.
A sealed message is ChaCha20-Poly1305 under a key derived with HKDF-SHA256
from the X25519 shared secret and a *context* that binds the room, sender,
recipient and the log sequence number it is written at: the same ciphertext
cannot be replayed into another game, to another seat, or at another entry,
because the recipient derives a different key and the tag fails.

The agreement keys are per game, not per user, so every seat may publish its
agreement private key at the end of the game; the audit then decrypts every
private delivery and checks what was really sent (a target that handed over
false card keys is named).  Since both ends derive the same key from revealed
keys fixed in the first entry, nobody can claim another plaintext.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from .framing import frame, int_bytes, text_bytes
from .padding import PaddingError, pad, unpad

KEY_BYTES = 32
NONCE_BYTES = 12
TAG_BYTES = 16
HKDF_INFO = b"sealed-table/private/v1"
CONTEXT_DOMAIN = b"sealed-table/private-context/v1"


class SealError(ValueError):
    """A sealed message that cannot be opened or made; ``str()`` says why (never the plaintext)."""


class AgreementKey:
    """A per-game X25519 key pair."""

    __slots__ = ("_key",)

    def __init__(self, key: X25519PrivateKey) -> None:
        self._key = key

    @classmethod
    def generate(cls, seed32: bytes | None = None) -> AgreementKey:
        """From 32 bytes (seeded tests, or bytes from an Entropy); ``None`` uses the OS."""
        if seed32 is None:
            seed32 = os.urandom(KEY_BYTES)
        return cls.from_private_bytes(seed32)

    @classmethod
    def from_private_bytes(cls, data: bytes) -> AgreementKey:
        if not isinstance(data, (bytes, bytearray)) or len(data) != KEY_BYTES:
            raise SealError("an X25519 private key is exactly 32 bytes")
        return cls(X25519PrivateKey.from_private_bytes(bytes(data)))

    def private_bytes(self) -> bytes:
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def public_bytes(self) -> bytes:
        return self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def matches(self, public: bytes) -> bool:
        """Whether a revealed private key belongs to the announced public key."""
        return self.public_bytes() == public

    def __repr__(self) -> str:
        return f"AgreementKey(public={self.public_bytes().hex()[:16]}…)"


def delivery_context(room: str, sender: int, recipient: int, sequence: int) -> bytes:
    """The context that binds a sealed message to its room, seats and log position."""
    return frame(CONTEXT_DOMAIN, text_bytes(room), int_bytes(sender), int_bytes(recipient), int_bytes(sequence))


def _message_key(
    own: AgreementKey, peer_public: bytes, sender_public: bytes, recipient_public: bytes, context: bytes
) -> bytes:
    if not isinstance(peer_public, (bytes, bytearray)) or len(peer_public) != KEY_BYTES:
        raise SealError("an X25519 public key is exactly 32 bytes")
    if not isinstance(context, (bytes, bytearray)):
        raise SealError("the context must be bytes")
    try:
        shared = own._key.exchange(X25519PublicKey.from_public_bytes(bytes(peer_public)))
    except ValueError as exc:  # a low-order point gives the all-zero secret
        raise SealError("the peer's agreement key is invalid (low order)") from exc
    info = frame(HKDF_INFO, bytes(sender_public), bytes(recipient_public), bytes(context))
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=info).derive(shared)


def seal(
    sender_private: AgreementKey,
    recipient_public: bytes,
    context: bytes,
    plaintext: bytes,
    nonce_source: Callable[[int], bytes],
    size: int | None = None,
) -> bytes:
    """``nonce || ChaCha20-Poly1305(pad(plaintext), aad=context)`` for the recipient only.

    The plaintext is padded (:mod:`.padding`) to ``size`` bytes, by default the next
    whole block, so the length on the wire depends on public facts only, never on the
    value sealed; pass ``size`` when the caller can fix it from public counts.

    ``nonce_source(12)`` gives the nonce (``SeededStream.token`` or
    ``SystemEntropy().token``).  The key is unique per (pair, context) already;
    the random nonce is a second line of defence.
    """
    if not isinstance(plaintext, (bytes, bytearray)):
        raise SealError("the plaintext must be bytes")
    key = _message_key(sender_private, recipient_public, sender_private.public_bytes(), recipient_public, context)
    nonce = nonce_source(NONCE_BYTES)
    if not isinstance(nonce, (bytes, bytearray)) or len(nonce) != NONCE_BYTES:
        raise SealError("the nonce source must give 12 bytes")
    try:
        padded = pad(bytes(plaintext), size)
    except PaddingError as exc:
        raise SealError(str(exc)) from None
    return bytes(nonce) + ChaCha20Poly1305(key).encrypt(bytes(nonce), padded, bytes(context))


def open_sealed(recipient_private: AgreementKey, sender_public: bytes, context: bytes, ciphertext: bytes) -> bytes:
    """The plaintext, or :class:`SealError` if it was not sealed by that sender, to us, in that context."""
    key = _message_key(recipient_private, sender_public, sender_public, recipient_private.public_bytes(), context)
    return _decrypt(key, context, ciphertext, "wrong sender, recipient or context, or tampered")


def open_as_auditor(sender_private: AgreementKey, recipient_public: bytes, context: bytes, ciphertext: bytes) -> bytes:
    """Open a delivery with the *sender's* revealed key (end-of-game audit of what was sent).

    X25519 is symmetric, so either end's private key derives the same message key.
    """
    key = _message_key(sender_private, recipient_public, sender_private.public_bytes(), recipient_public, context)
    return _decrypt(key, context, ciphertext, "it was not sealed with the sender's revealed key in this context")


def _decrypt(key: bytes, context: bytes, ciphertext: bytes, why: str) -> bytes:
    if not isinstance(ciphertext, (bytes, bytearray)) or len(ciphertext) < NONCE_BYTES + TAG_BYTES:
        raise SealError("the sealed message is too short")
    nonce, body = bytes(ciphertext[:NONCE_BYTES]), bytes(ciphertext[NONCE_BYTES:])
    try:
        padded = ChaCha20Poly1305(key).decrypt(nonce, body, bytes(context))
    except InvalidTag as exc:
        raise SealError(f"the sealed message does not open: {why}") from exc
    try:
        return unpad(padded)
    except PaddingError as exc:
        raise SealError(f"the sealed message is not padded correctly: {exc}") from None
