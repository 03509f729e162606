"""A room private from its relay: opaque topic names and sealed, padded payloads, sans I/O.

The relay is untrusted: signatures already keep it from forging or reordering the game, but a
plain MQTT room shows anyone subscribed to ``#`` who plays, every move and the room's names.  A
:class:`RoomSeal` turns each of the room's *logical* topics (:mod:`relay.topics`, which name the
room code, seats and sequence numbers) into a *wire* topic of opaque letters, and each payload
into a ChaCha20-Poly1305 ciphertext of a few fixed sizes, under keys that only holders of the
invitation can derive.

Keys.  Everything derives from the room code and the host key's readable fingerprint (its first
20 letters): exactly what both forms of an invitation carry, the link and the words read out, and
nothing the relay sees — the host's key travels only inside sealed messages, and an unlisted
room's code never appears on the wire.  The relay would have to guess about 25 + 83 bits.  A
listed room shows its code and fingerprint in the relay's listing, so the relay can derive its
keys: listing a room opens it to the relay, and the lobby says so.

Topics.  A logical topic ``parent/leaf`` becomes ``sealed/v2/{room}/{group}/{leaf'}``: ``room``
is the same for every topic of the room, ``leaf'`` is a keyed hash of the whole topic, and
``group`` one of ``parent`` where the room is read by a wildcard ``parent/+``
(:data:`relay.topics.WILDCARD_KINDS`: join requests, rematch answers), so that the wildcard still
selects the same topics on the wire — and of the whole topic everywhere else, so that the log,
notices and presence do not even fall into kinds.  Five levels stay within every public broker's
depth limit.  A receiver cannot invert a hash, so
the plaintext names its logical topic and :meth:`RoomSeal.open` accepts it only if that topic
seals to the wire topic it arrived on: a relay cannot move a message to another topic unnoticed.

Payloads.  ``nonce(12) | ChaCha20-Poly1305(key, nonce, pad(topic-length | topic | payload),
ad=wire topic)``, the whole exactly one of :data:`BUCKETS` bytes long (then whole multiples of the
largest): what the relay learns of a message is which bucket it falls in and when it was sent.
An empty payload stays empty: it is how MQTT deletes a retained message, and it says nothing.

Listings (``sealed/v2/lobby/…``) are public by intent and pass through unchanged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from protocol.crypto.padding import PaddingError, pad, unpad
from relay import topics
from relay.fingerprint import READABLE_LETTERS, fingerprint, squeezed

#: The sizes a sealed message takes on the wire; beyond the largest, whole multiples of it.
BUCKETS = (512, 2048, 8192, 32768, 131072)
NONCE_BYTES = 12
TAG_BYTES = 16
#: What sealing adds before padding: nonce, tag, the padding's length field, the topic's length and the topic.
FIXED_OVERHEAD = NONCE_BYTES + TAG_BYTES + 4 + 2
#: The longest logical topic a seal carries (:mod:`relay.topics` makes them well under it).
MAX_TOPIC_BYTES = 128
#: The most a seal adds to a payload before padding to a bucket.
MAX_OVERHEAD = FIXED_OVERHEAD + MAX_TOPIC_BYTES

_KDF_INFO = b"sealed-table room seal v2"
_LETTERS = 16  # base32 letters of a topic level: 80 bits


class SealError(ValueError):
    """A topic or payload that cannot be sealed (too long a topic, an unsupported wildcard)."""


def sealed_size(payload_bytes: int, topic_bytes: int = MAX_TOPIC_BYTES) -> int:
    """The size on the wire of a payload of ``payload_bytes`` sealed under a topic of ``topic_bytes``."""
    need = payload_bytes + topic_bytes + FIXED_OVERHEAD
    for bucket in BUCKETS:
        if need <= bucket:
            return bucket
    top = BUCKETS[-1]
    return top * -(-need // top)


def _fingerprint_part(fp: str) -> str:
    letters = squeezed(fp)
    if len(letters) < READABLE_LETTERS:
        raise SealError(f"a room is sealed by its host key's fingerprint: its first {READABLE_LETTERS} letters")
    return letters[:READABLE_LETTERS]


class RoomSeal:
    """The keys of one room, and what they do to its topics and payloads.

    Built from what an invitation carries, or from the host's key (:meth:`for_host_key`).  Every
    call is pure except the nonce of :meth:`seal`, drawn fresh from the OS, and a memo of the wire
    topics this seal made, so that an empty payload (a deleted retained message) on one of them can
    be named.
    """

    def __init__(self, code: str, fingerprint: str) -> None:
        secret = f"{code}\x00{_fingerprint_part(fingerprint)}".encode()
        keys = HKDF(hashes.SHA256(), 64, salt=None, info=_KDF_INFO).derive(secret)
        self._topic_key = keys[:32]
        self._aead = ChaCha20Poly1305(keys[32:])
        self._room = self._letters(b"room", b"")
        self._wire: dict[str, str] = {}
        self._logical: dict[str, str] = {}

    @classmethod
    def for_host_key(cls, code: str, host_key: bytes) -> RoomSeal:
        """The seal of room ``code`` hosted with the Ed25519 public key ``host_key``."""
        return cls(code, fingerprint(host_key))

    # -- topics ---------------------------------------------------------------------------
    def _letters(self, kind: bytes, text: bytes) -> str:
        digest = hmac.new(self._topic_key, kind + b"\x00" + text, hashlib.sha256).digest()
        return base64.b32encode(digest[:10]).decode().lower()[:_LETTERS]

    @staticmethod
    def public(topic: str) -> bool:
        """Whether ``topic`` is one of the relay's public listings, which pass through unsealed."""
        return topic.startswith(topics.LOBBY_ROOT)

    def topic(self, logical: str) -> str:
        """The wire topic of a logical one."""
        if self.public(logical):
            return logical
        wire = self._wire.get(logical)
        if wire is None:
            if "+" in logical.split("/") or "#" in logical:
                raise SealError(f"{logical!r} is a filter, not a topic")
            if len(logical.encode()) > MAX_TOPIC_BYTES:
                raise SealError(f"topic {logical!r} is longer than {MAX_TOPIC_BYTES} bytes")
            parent = logical.rpartition("/")[0]
            grouped = parent.rpartition("/")[2] in topics.WILDCARD_KINDS
            group = self._letters(b"group", parent.encode()) if grouped else self._letters(b"alone", logical.encode())
            leaf = self._letters(b"leaf", logical.encode())
            wire = f"{topics.ROOT}/{self._room}/{group}/{leaf}"
            self._wire[logical] = wire
            self._logical[wire] = logical
        return wire

    def topic_filter(self, logical: str) -> str:
        """The wire filter of a logical topic or of a ``parent/+`` filter (the only wildcard the room uses)."""
        if self.public(logical):
            return logical
        parent, _, leaf = logical.rpartition("/")
        if leaf != "+":
            return self.topic(logical)
        if "+" in parent.split("/") or "#" in logical:
            raise SealError(f"only a last-level '+' can be sealed, not {logical!r}")
        if parent.rpartition("/")[2] not in topics.WILDCARD_KINDS:
            raise SealError(f"{logical!r}: a sealed room is read by a wildcard only where {topics.WILDCARD_KINDS} say")
        return f"{topics.ROOT}/{self._room}/{self._letters(b'group', parent.encode())}/+"

    def logical(self, wire: str) -> str | None:
        """The logical topic of a wire topic this seal made, or None.

        A wildcard's topics were not made here: their payloads name them.
        """
        if self.public(wire):
            return wire
        return self._logical.get(wire)

    # -- payloads -------------------------------------------------------------------------
    def seal(self, logical: str, payload: bytes) -> bytes:
        """The ciphertext of ``payload`` for ``logical``'s wire topic, one bucket long (empty stays empty)."""
        if not payload or self.public(logical):
            return bytes(payload)
        wire = self.topic(logical)
        name = logical.encode()
        inner = len(name).to_bytes(2, "big") + name + bytes(payload)
        total = sealed_size(len(payload), len(name))
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, pad(inner, total - NONCE_BYTES - TAG_BYTES), wire.encode())

    def open(self, wire: str, data: bytes) -> tuple[str, bytes] | None:
        """``(logical topic, payload)`` of a message that arrived on ``wire``, or None for anything not ours.

        None for a ciphertext that does not open under this room's key (a stranger's garbage, another
        room's message), a payload that does not name a topic sealing to ``wire``, and an empty
        payload on a topic this seal never named.
        """
        if self.public(wire):
            return wire, bytes(data)
        if not data:
            logical = self.logical(wire)
            return (logical, b"") if logical is not None else None
        if len(data) < NONCE_BYTES + TAG_BYTES or len(data) not in _sizes(len(data)):
            return None
        try:
            inner = unpad(self._aead.decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], wire.encode()))
        except (InvalidTag, PaddingError):
            return None
        length = int.from_bytes(inner[:2], "big")
        try:
            logical = inner[2 : 2 + length].decode()
        except UnicodeDecodeError:
            return None
        if len(inner) < 2 + length or self.public(logical):
            return None
        try:
            if self.topic(logical) != wire:
                return None
        except SealError:
            return None
        return logical, inner[2 + length :]


def _sizes(length: int) -> tuple[int, ...]:
    """The bucket sizes a sealed message of ``length`` bytes may rightly have (itself, if it is one)."""
    top = BUCKETS[-1]
    return (*BUCKETS, length) if length > top and length % top == 0 else BUCKETS
