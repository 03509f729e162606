"""A listed room's door: what the relay's listing shows, and how a stranger who read it asks in.

A room is sealed from its relay under keys from its code and its host's fingerprint
(:mod:`relay.seal`).  A listing is public by intent, so a listed room's card there must not hand
the relay those keys: it shows what the host chose to list (game, seats taken, the host's name and
key, the answer time) and a *door* in place of the code.  The door is a keyed hash of the code and
the host's key: whoever knows the code finds the room in the listing (and then joins it as any
guest does), while the relay, which does not, cannot tell which room it is.  A listed room's code
is therefore long (:data:`relay.lobby.invitation.LISTED_CODE_LENGTH` letters, ≈ 100 bits): the door
and the host's key together must not let anyone search the codes.

A stranger who knows only the listing *knocks*: a join request signed by its seat card's key,
sealed to the door's X25519 key (in the listing card), on ``lobby/{door}/knock/{peer}``.  The host
decides as it decides any request (:mod:`relay.lobby.host`); once it seats the stranger it answers
on ``lobby/{door}/answer/{peer}``, sealed to the knock's one-time key, with the room's code — now
the stranger holds what an invitation would have given it and reads the room like any guest.  A
refusal is answered the same way.  The relay sees two ciphertexts of the seal's sizes; it learns
neither the stranger's name nor the room's code, and it cannot read the answer or forge one.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import msgpack
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from protocol.crypto.framing import frame
from protocol.crypto.padding import PaddingError, pad, unpad
from protocol.crypto.signing import SigningKey
from relay.fingerprint import fingerprint, letters
from relay.lobby.messages import (
    MAX_MESSAGE,
    NONCE_BYTES,
    Dropped,
    JoinRequest,
    _int,
    _str,
    open_message,
    seal,
)
from relay.lobby.seat_card import BadCard, check_card
from relay.seal import sealed_size

#: Letters of a door (≈ 113 bits): a listing topic's last level.
DOOR_LETTERS = 27
_DOOR_DOMAIN = b"sealed-table door v1\x00"
_KNOCK_KEY_DOMAIN = b"sealed-table door key v1\x00"
_KNOCK_INFO = b"sealed-table knock v1"
_AEAD_NONCE = 12


def door_of(code: str, host_key: bytes) -> str:
    """The door of room ``code`` hosted with ``host_key``: what the listing shows in the code's place."""
    return letters(hashlib.sha256(frame(_DOOR_DOMAIN, code.encode(), bytes(host_key))).digest(), DOOR_LETTERS)


def knock_key(key: SigningKey, code: str) -> X25519PrivateKey:
    """The host's door key for room ``code``: from its signing key, so a restarted host has it again."""
    seed = hashlib.sha256(_KNOCK_KEY_DOMAIN + key.sign(frame(_KNOCK_KEY_DOMAIN, code.encode()))).digest()
    return X25519PrivateKey.from_private_bytes(seed)


@dataclass(frozen=True)
class ListedRoom:
    """A listed room as the relay's listing shows it: signed by ``host_key``, no code, no seated names."""

    door: str
    game: str
    seats_total: int
    seats_taken: int
    host: str
    host_key: bytes
    #: The door's X25519 public key: knocks are sealed to it.
    knock: bytes
    status: str = "open"
    created: int = 0
    timeout_ms: int = 0
    version: int = 0

    @property
    def open(self) -> bool:
        return self.status == "open" and self.seats_taken < self.seats_total

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    def is_room(self, code: str) -> bool:
        """Whether this is room ``code``'s listing (its door is that code's, with this host)."""
        return door_of(code, self.host_key) == self.door

    def encode(self, key: SigningKey) -> bytes:
        body = {
            "kind": "listing", "room": self.door, "host": key.public_bytes(), "v": self.version,
            "game": self.game, "seats_total": self.seats_total, "seats_taken": self.seats_taken,
            "host_name": self.host, "status": self.status, "created": self.created,
            "timeout_ms": self.timeout_ms, "knock": self.knock,
        }  # fmt: skip
        return seal(key, body)

    @classmethod
    def decode(cls, data: bytes, door: str) -> ListedRoom:
        """The listing card behind ``door``, signed by the key it names; :class:`Dropped` otherwise."""
        opened = open_message(data, ("listing",), door)
        if not opened.signed_by(opened.host):
            raise Dropped("a listing card not signed by the key it names")
        b = opened.body
        status = b.get("status")
        if status not in ("open", "started"):
            raise Dropped("a listing card with an unknown status")
        knock = b.get("knock")
        if not isinstance(knock, bytes) or len(knock) != 32:
            raise Dropped("a listing card without a door key")
        total = _int(b.get("seats_total"), "the seat count", 2, 16)
        return cls(
            door,
            _str(b.get("game"), "the game", 64),
            total,
            _int(b.get("seats_taken"), "the seats taken", 0, total),
            _str(b.get("host_name"), "the host's name"),
            opened.host,
            knock,
            str(status),
            _int(b.get("created"), "the creation time"),
            _int(b.get("timeout_ms"), "the answer time"),
            _int(b.get("v"), "the version"),
        )


def try_listing(data: bytes, door: str) -> ListedRoom | None:
    try:
        return ListedRoom.decode(data, door)
    except Dropped:
        return None


def _key(shared: bytes, door: str, peer: str) -> ChaCha20Poly1305:
    info = frame(_KNOCK_INFO, door.encode(), peer.encode())
    return ChaCha20Poly1305(HKDF(hashes.SHA256(), 32, salt=None, info=info).derive(shared))


def _encrypt(aead: ChaCha20Poly1305, what: bytes, plain: bytes, prefix: int = 0) -> bytes:
    """``nonce | ciphertext``, padded so that with ``prefix`` bytes before it the message is one of the seal's sizes."""
    nonce = os.urandom(_AEAD_NONCE)
    total = sealed_size(len(plain) + prefix, 0) - _AEAD_NONCE - 16 - prefix
    return nonce + aead.encrypt(nonce, pad(plain, total), what)


def _decrypt(aead: ChaCha20Poly1305, what: bytes, data: bytes) -> bytes:
    try:
        return unpad(aead.decrypt(data[:_AEAD_NONCE], data[_AEAD_NONCE:], what))
    except (InvalidTag, PaddingError, ValueError):
        raise Dropped("a sealed door message that does not open") from None


@dataclass(frozen=True)
class Knock:
    """A stranger's knock as it leaves: the bytes to publish and the one-time key its answer opens with."""

    payload: bytes
    one_time: X25519PrivateKey


def make_knock(listed: ListedRoom, key: SigningKey, peer: str, card: bytes, seat: int | None, nonce: bytes) -> Knock:
    """A signed join request for the room behind ``listed``'s door, sealed to its door key."""
    body = {
        "kind": "knock", "room": listed.door, "host": listed.host_key, "peer": peer, "card": card,
        "nonce": nonce, "seat": seat,
    }  # fmt: skip
    one_time = X25519PrivateKey.generate()
    shared = one_time.exchange(X25519PublicKey.from_public_bytes(listed.knock))
    public = one_time.public_key().public_bytes_raw()
    return Knock(public + _encrypt(_key(shared, listed.door, peer), b"knock", seal(key, body), 32), one_time)


def open_knock(door_key: X25519PrivateKey, door: str, host_key: bytes, payload: bytes, topic_peer: str) -> JoinRequest:
    """The join request inside a knock on ``knock/{topic_peer}``, checked; :class:`Dropped` otherwise.

    Its ``knock`` field keeps the stranger's one-time key, to answer it.
    """
    if len(payload) < 32 + _AEAD_NONCE + 16 or len(payload) > 4 * MAX_MESSAGE:
        raise Dropped("not a knock")
    public = payload[:32]
    try:
        shared = door_key.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        raise Dropped("a knock with a bad one-time key") from None
    opened = open_message(_decrypt(_key(shared, door, topic_peer), b"knock", payload[32:]), ("knock",), door)
    if opened.host != host_key:
        raise Dropped("a knock for another host")
    body = opened.body
    if body.get("peer") != topic_peer:
        raise Dropped(f"a knock on knock/{topic_peer} names another peer")
    raw_card = body.get("card")
    if not isinstance(raw_card, bytes):
        raise Dropped("a knock without a seat card")
    try:
        card = check_card(raw_card)
    except BadCard as exc:
        raise Dropped(str(exc)) from None
    if not opened.signed_by(card.sign):
        raise Dropped("a knock not signed by the key in its seat card")
    nonce = body.get("nonce")
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        raise Dropped("a knock without a nonce")
    seat = body.get("seat")
    if seat is not None:
        seat = _int(seat, "the seat asked for", 0, 15)
    return JoinRequest(topic_peer, card.name, raw_card, seat, nonce, knock=public)


def make_answer(door_key: X25519PrivateKey, door: str, req: JoinRequest, code: str | None) -> bytes:
    """The host's answer to ``req``'s knock: the room's code (let in) or None (turned away)."""
    shared = door_key.exchange(X25519PublicKey.from_public_bytes(req.knock))
    plain = msgpack.packb({"in": code is not None, "code": code or ""}, use_bin_type=True)
    return _encrypt(_key(shared, door, req.peer), b"answer", plain)


def open_answer(knock: Knock, listed: ListedRoom, peer: str, payload: bytes) -> str | None:
    """The code an answer lets us in with, or None if it turns us away; :class:`Dropped` if it is not one."""
    shared = knock.one_time.exchange(X25519PublicKey.from_public_bytes(listed.knock))
    plain = _decrypt(_key(shared, listed.door, peer), b"answer", payload)
    try:
        answer = msgpack.unpackb(plain, raw=False)
        admitted, code = bool(answer["in"]), answer["code"]
    except Exception:
        raise Dropped("an answer of the wrong shape") from None
    if not admitted:
        return None
    if not isinstance(code, str):
        raise Dropped("an answer without a room code")
    return code
