"""Private messages between two seats over a public log (e.g. Hacker Attack).

Each seat makes a fresh X25519 *agreement key* per game and announces its
public half in the game's first entry, next to its long-term signing key.

A sealed message (a *box*) is ``E || nonce || ChaCha20-Poly1305(plaintext)``: ``E`` is
the public half of a *delivery key*, an X25519 key used for this one message only,
which the sender derives from its agreement private key and the message's *context*
(room, sender, recipient and the log sequence number it is written at).  The message
key is HKDF-SHA256 of the X25519 secret between the delivery key and the recipient's
agreement key, with the context, both seats' agreement keys and ``E`` in the info; the
context is the AEAD's associated data too.  The same box cannot be replayed into
another game, to another seat, or at another entry: the recipient derives another key.

Who can open a box, and why it matters:

- the recipient, with its agreement private key, which it *never* publishes: a seat
  that leaves mid-game would otherwise hand everyone the deliveries it received (in
  System Launch, the Hacker Attack victim's whole hand, while the game goes on);
- anyone given that one box's delivery private key: the sender publishes, at the end of
  the game or when it leaves, the delivery key of each box *it sent* and nothing more.
  That opens exactly its own secrets (its hand keys, which it publishes anyway), and the
  audit checks each: the published key's public half must be the ``E`` in the box, so a
  sender cannot show the audit another plaintext than the recipient got (the message key
  is fixed by ``E`` and the recipient's key, both public; ChaCha20-Poly1305 alone is not
  key-committing, the derivation is).

Agreement public keys are checked when they enter the game (:func:`valid_agreement_key`):
a low-order key (for example 32 zero bytes) gives every peer the all-zero secret.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from protocol.crypto.framing import frame, int_bytes, text_bytes
from protocol.crypto.padding import PaddingError, pad, unpad

KEY_BYTES = 32
NONCE_BYTES = 12
TAG_BYTES = 16
BOX_OVERHEAD = KEY_BYTES + NONCE_BYTES + TAG_BYTES
HKDF_INFO = b"sealed-table/private/v2"
CONTEXT_DOMAIN = b"sealed-table/private-context/v1"
DELIVERY_KEY_DOMAIN = b"sealed-table/delivery-key/v1\x00"
#: 2^255 - 19: an X25519 public key (a u-coordinate) is canonical when below it.
_P = (1 << 255) - 19
#: A fixed private key to test public keys with: the exchange fails exactly for small-order points.
_PROBE = X25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


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


def valid_agreement_key(public: object) -> bool:
    """Whether ``public`` is an X25519 key a seat may announce: 32 bytes, canonical, not of small order.

    A small-order point (32 zero bytes, or one of the few others) makes every shared
    secret with it all zeros: a box sealed to it cannot be made (the sealing seat's
    session would fail), and its content would be no secret.  Every private scalar is a
    multiple of the cofactor, so the exchange with any key gives zeros exactly for those
    points (``cryptography`` refuses them).  Non-canonical encodings (u >= p, or the top
    bit set) are refused too: two byte strings for one key.
    """
    if not isinstance(public, (bytes, bytearray)) or len(public) != KEY_BYTES:
        return False
    if int.from_bytes(bytes(public), "little") >= _P:
        return False
    try:
        _PROBE.exchange(X25519PublicKey.from_public_bytes(bytes(public)))
    except ValueError:
        return False
    return True


def delivery_context(room: str, sender: int, recipient: int, sequence: int) -> bytes:
    """The context that binds a sealed message to its room, seats and log position."""
    return frame(CONTEXT_DOMAIN, text_bytes(room), int_bytes(sender), int_bytes(recipient), int_bytes(sequence))


def delivery_key(sender_private: AgreementKey, context: bytes) -> AgreementKey:
    """The one-message X25519 key for the box ``sender_private`` seals in ``context``.

    Derived, so a restarted seat makes the same box keys again and can publish them
    from its secret alone; one context, one key, so publishing it opens that box only.
    """
    if not isinstance(context, (bytes, bytearray)):
        raise SealError("the context must be bytes")
    seed = hashlib.sha256(DELIVERY_KEY_DOMAIN + sender_private.private_bytes() + bytes(context)).digest()
    return AgreementKey.from_private_bytes(seed)


def _message_key(
    own: AgreementKey,
    peer_public: bytes,
    sender_public: bytes,
    ephemeral_public: bytes,
    recipient_public: bytes,
    context: bytes,
) -> bytes:
    """HKDF of the secret between ``own`` and ``peer_public`` (one of them is the delivery key)."""
    for key in (peer_public, sender_public, ephemeral_public, recipient_public):
        if not isinstance(key, (bytes, bytearray)) or len(key) != KEY_BYTES:
            raise SealError("an X25519 public key is exactly 32 bytes")
    if not isinstance(context, (bytes, bytearray)):
        raise SealError("the context must be bytes")
    try:
        shared = own._key.exchange(X25519PublicKey.from_public_bytes(bytes(peer_public)))
    except ValueError as exc:  # a low-order point gives the all-zero secret
        raise SealError("the peer's agreement key is invalid (low order)") from exc
    info = frame(HKDF_INFO, bytes(sender_public), bytes(ephemeral_public), bytes(recipient_public), bytes(context))
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=info).derive(shared)


def seal(
    sender_private: AgreementKey,
    recipient_public: bytes,
    context: bytes,
    plaintext: bytes,
    nonce_source: Callable[[int], bytes],
    size: int | None = None,
) -> bytes:
    """``E || nonce || ChaCha20-Poly1305(pad(plaintext), aad=context)`` for the recipient only.

    The plaintext is padded (:mod:`.padding`) to ``size`` bytes, by default the next
    whole block, so the length on the wire depends on public facts only, never on the
    value sealed; pass ``size`` when the caller can fix it from public counts.

    ``E`` is the public half of :func:`delivery_key` for this context.  ``nonce_source(12)``
    gives the nonce (``SeededStream.token`` or ``SystemEntropy().token``).  The key is unique
    per (pair, context) already; the nonce is a second line of defence.
    """
    if not isinstance(plaintext, (bytes, bytearray)):
        raise SealError("the plaintext must be bytes")
    if not valid_agreement_key(recipient_public):
        raise SealError("the recipient's agreement key is invalid (low order or malformed)")
    ephemeral = delivery_key(sender_private, context)
    e_public = ephemeral.public_bytes()
    key = _message_key(ephemeral, recipient_public, sender_private.public_bytes(), e_public, recipient_public, context)
    nonce = nonce_source(NONCE_BYTES)
    if not isinstance(nonce, (bytes, bytearray)) or len(nonce) != NONCE_BYTES:
        raise SealError("the nonce source must give 12 bytes")
    try:
        padded = pad(bytes(plaintext), size)
    except PaddingError as exc:
        raise SealError(str(exc)) from None
    return e_public + bytes(nonce) + ChaCha20Poly1305(key).encrypt(bytes(nonce), padded, bytes(context))


def open_sealed(recipient_private: AgreementKey, sender_public: bytes, context: bytes, ciphertext: bytes) -> bytes:
    """The plaintext, or :class:`SealError` if it was not sealed by that sender, to us, in that context."""
    e_public = _ephemeral_of(ciphertext)
    key = _message_key(recipient_private, e_public, sender_public, e_public, recipient_private.public_bytes(), context)
    return _decrypt(key, context, ciphertext, "wrong sender, recipient or context, or tampered")


def open_with_delivery_key(
    delivery_private: bytes, sender_public: bytes, recipient_public: bytes, context: bytes, ciphertext: bytes
) -> bytes:
    """Open a box with the delivery key its sender published (the audit of what was sent).

    The key must be the box's own (its public half is the box's ``E``): then the message
    key is the one the recipient derived, and the plaintext is the one it read.
    """
    key_obj = AgreementKey.from_private_bytes(delivery_private)
    e_public = _ephemeral_of(ciphertext)
    if key_obj.public_bytes() != e_public:
        raise SealError("the published delivery key is not the one this box was sealed with")
    key = _message_key(key_obj, recipient_public, sender_public, e_public, recipient_public, context)
    return _decrypt(key, context, ciphertext, "it was not sealed with the published delivery key in this context")


def open_as_auditor(sender_private: AgreementKey, recipient_public: bytes, context: bytes, ciphertext: bytes) -> bytes:
    """Open a box with the *sender's* agreement key (tests and rehearsals; the log audit uses delivery keys)."""
    ephemeral = delivery_key(sender_private, context)
    return open_with_delivery_key(
        ephemeral.private_bytes(), sender_private.public_bytes(), recipient_public, context, ciphertext
    )


def _ephemeral_of(ciphertext: object) -> bytes:
    if not isinstance(ciphertext, (bytes, bytearray)) or len(ciphertext) < BOX_OVERHEAD:
        raise SealError("the sealed message is too short")
    return bytes(ciphertext[:KEY_BYTES])


def _decrypt(key: bytes, context: bytes, ciphertext: bytes, why: str) -> bytes:
    body = bytes(ciphertext[KEY_BYTES:])
    nonce, sealed = body[:NONCE_BYTES], body[NONCE_BYTES:]
    try:
        padded = ChaCha20Poly1305(key).decrypt(nonce, sealed, bytes(context))
    except InvalidTag as exc:
        raise SealError(f"the sealed message does not open: {why}") from exc
    try:
        return unpad(padded)
    except PaddingError as exc:
        raise SealError(f"the sealed message is not padded correctly: {exc}") from None
