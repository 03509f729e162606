"""The lobby's messages, signed: who may say what about a room, checked by whoever reads it.

Every lobby message on the relay is ``msgpack {"body": BODY, "sig": SIG}`` where ``BODY`` is the
canonical msgpack of a map with a ``kind`` and ``SIG`` is an Ed25519 signature over
``frame(DOMAIN, BODY)``.  Each body names the room code and the host's public key, so a message
is bound to one room of one host and cannot be replayed into another.

- ``join`` (topic ``room/{code}/join/{peer}``): a joiner's request, signed by the key in its own
  seat card (``card``); a fresh ``nonce`` per request; from a joiner that holds the invitation link,
  a ``proof`` of its token (:func:`relay.lobby.invitation.invitation_proof`; never the token).
- ``withdraw`` (same topic): the joiner takes back the request with that ``nonce``, signed by the
  same key.  An empty message on a join topic means nothing (anyone can send one).
- ``seats`` (topic ``room/{code}/seats``): the host's seat list, signed by the host: who sits where
  (with their cards), who waits for the host's decision, who was refused; ``status`` is ``open``,
  ``started`` or ``closed``; ``v`` grows with every change, so an old list replayed is seen as old.
- ``card`` (topic ``room/{code}/card``; a listed room's public card is :class:`relay.lobby.door.ListedRoom`): the room's card
  for listings and joiners, signed by the host (its key is in the card; the invitation's
  fingerprint pins it).

Decoding never raises anything but :class:`Dropped`, whose text says why a message was not taken.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

import msgpack

from engines.core import canonical_encode
from protocol.crypto.framing import frame
from protocol.crypto.signing import SigningKey, verify
from relay import topics
from relay.lobby.invitation import fingerprint, invitation_proof
from relay.lobby.seat_card import BadCard, SeatCard, check_card

DOMAIN = b"sealed-table lobby message v1\x00"
#: Largest lobby message read at all (a full seat list of 16 seats is about 2.5 kB).
MAX_MESSAGE = 16 * 1024
NONCE_BYTES = 16
PROOF_BYTES = 32
MAX_SEATS = 16
MAX_NAME = 40


class Dropped(ValueError):
    """A lobby message that is not taken; ``str()`` is the reason (for the host's or joiner's log)."""


def seal(key: SigningKey, body: Mapping[str, object]) -> bytes:
    raw = canonical_encode(body)
    return msgpack.packb({"body": raw, "sig": key.sign(frame(DOMAIN, raw))}, use_bin_type=True)


@dataclass(frozen=True)
class Opened:
    """A message's body (not yet known to be signed by anyone in particular)."""

    body: dict[str, object]  # as decoded: every value is checked where it is read
    raw: bytes
    sig: bytes
    #: The host key the body names (32 bytes: checked by :func:`open_message`).
    host: bytes

    def signed_by(self, public: bytes) -> bool:
        return verify(public, frame(DOMAIN, self.raw), self.sig)


def open_message(data: bytes, kinds: tuple[str, ...], code: str) -> Opened:
    """The body of a lobby message of one of ``kinds`` for room ``code``; :class:`Dropped` otherwise."""
    if not data:
        raise Dropped("an empty message")
    if len(data) > MAX_MESSAGE:
        raise Dropped(f"a message of {len(data)} bytes (at most {MAX_MESSAGE})")
    try:
        outer = msgpack.unpackb(data, raw=False)
        raw, sig = outer["body"], outer["sig"]
        if not isinstance(raw, bytes) or not isinstance(sig, bytes):
            raise TypeError
        body = msgpack.unpackb(raw, raw=False)
    except Exception:
        raise Dropped("not a signed lobby message") from None
    if not isinstance(body, dict) or body.get("kind") not in kinds:
        raise Dropped(f"not a {' or '.join(kinds)} message")
    if body.get("room") != code:
        raise Dropped("a message for another room")
    host = body.get("host")
    if not isinstance(host, bytes) or len(host) != 32:
        raise Dropped("a message that names no host key")
    return Opened(body, raw, sig, host)


def _int(value: object, what: str, low: int = 0, high: int = 2**62) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Dropped(f"{what} is not a whole number from {low} to {high}")
    return value


def _str(value: object, what: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise Dropped(f"{what} is not text of at most {limit} characters")
    return value


def _list(value: object) -> list[object]:
    """A list of a decoded body (none: empty)."""
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise Dropped("a list of the wrong shape")
    return list(value)


def _peer(value: object) -> str:
    """A peer id of a decoded body (:class:`relay.topics.TopicError` if it cannot be one)."""
    if not isinstance(value, str):
        raise topics.TopicError("a peer id is text")
    return topics.check_peer(value)


def _card(value: object) -> SeatCard:
    try:
        return check_card(value)
    except BadCard as exc:
        raise Dropped(str(exc)) from None


# -- join requests and withdrawals ------------------------------------------------------------
@dataclass(frozen=True)
class JoinRequest:
    """A joiner's signed request for a seat (``seat``: the seat asked for; None for any)."""

    peer: str
    name: str
    card: bytes
    seat: int | None = None
    nonce: bytes = b""
    #: The signed message as it came (the host re-publishes it if a stranger overwrites it).
    message: bytes = b""
    #: The request proves that its joiner holds the room's invitation (checked by the host, with its token).
    invited: bool = False
    #: A stranger's knock at a listed room's door (:mod:`relay.lobby.door`): its one-time key, to answer it.
    knock: bytes = b""

    @property
    def sign_key(self) -> bytes:
        return check_card(self.card).sign

    @classmethod
    def make(
        cls,
        key: SigningKey,
        code: str,
        host: bytes,
        peer: str,
        card: bytes,
        seat: int | None,
        nonce: bytes,
        token: str = "",
    ) -> JoinRequest:
        """The signed request; with the invitation's ``token``, it carries the proof of it (never the token)."""
        checked = check_card(card)
        body: dict[str, object] = {
            "kind": "join", "room": code, "host": host, "peer": peer, "card": card, "nonce": nonce, "seat": seat,
        }  # fmt: skip
        if token:
            body["proof"] = invitation_proof(token, code, host, peer, nonce, card)
        return cls(peer, checked.name, card, seat, nonce, seal(key, body), bool(token))

    @classmethod
    def decode(cls, opened: Opened, topic_peer: str, token: str = "") -> JoinRequest:
        """The request on ``join/{topic_peer}``; ``invited`` when it proves ``token`` (the host's)."""
        body = opened.body
        peer = body.get("peer")
        if peer != topic_peer:
            raise Dropped(f"a join request on join/{topic_peer} names another peer")
        card = _card(body.get("card"))
        if not opened.signed_by(card.sign):
            raise Dropped("a join request not signed by the key in its seat card")
        seat = body.get("seat")
        if seat is not None:
            seat = _int(seat, "the seat asked for", 0, MAX_SEATS - 1)
        nonce = body.get("nonce")
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
            raise Dropped("a join request without its nonce")
        return cls(peer, card.name, card.raw, seat, nonce, b"", proves_invitation(opened, token))


def proves_invitation(opened: Opened, token: str) -> bool:
    """Whether a join request's body carries the proof of ``token`` (one HMAC: cheap, before any signature).

    Not yet a proof that the joiner signed it: a copy of an invited request with another signature
    passes this and is dropped by :meth:`JoinRequest.decode` (the proof names the joiner's card).
    """
    body = opened.body
    proof, room, peer = body.get("proof"), body.get("room"), body.get("peer")
    nonce, card = body.get("nonce"), body.get("card")
    if not token or body.get("kind") != "join" or not isinstance(proof, bytes) or len(proof) != PROOF_BYTES:
        return False
    if not (isinstance(room, str) and isinstance(peer, str) and isinstance(nonce, bytes) and isinstance(card, bytes)):
        return False
    return hmac.compare_digest(proof, invitation_proof(token, room, opened.host, peer, nonce, card))


def withdrawal(key: SigningKey, code: str, host: bytes, peer: str, nonce: bytes) -> bytes:
    return seal(key, {"kind": "withdraw", "room": code, "host": host, "peer": peer, "nonce": nonce})


# -- the host's seat list ---------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatList:
    """Who sits where, as the host signed it."""

    version: int
    status: str  # open | started | closed
    #: peer -> (seat, seat card bytes)
    seats: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    waiting: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    def seat_of(self, peer: str, card: bytes | None = None) -> int | None:
        """``peer``'s seat (None if it has none, or, with ``card``, if the seat is not for that card)."""
        got = self.seats.get(peer)
        if got is None or (card is not None and got[1] != card):
            return None
        return got[0]

    def taken(self) -> set[int]:
        return {seat for seat, _ in self.seats.values()}

    def creator(self) -> bytes | None:
        """The signing key of seat 0 (the genesis' author), from its card."""
        for seat, card in self.seats.values():
            if seat == 0:
                try:
                    return check_card(card).sign
                except BadCard:
                    return None
        return None

    def encode(self, key: SigningKey, code: str) -> bytes:
        body = {
            "kind": "seats",
            "room": code,
            "host": key.public_bytes(),
            "v": self.version,
            "status": self.status,
            "seats": [[peer, seat, card] for peer, (seat, card) in sorted(self.seats.items(), key=lambda kv: kv[1][0])],
            "waiting": list(self.waiting),
            "refused": list(self.refused),
        }
        return seal(key, body)

    @classmethod
    def decode(cls, data: bytes, code: str, host: bytes) -> SeatList:
        opened = open_message(data, ("seats",), code)
        if opened.host != host or not opened.signed_by(host):
            raise Dropped("a seat list not signed by the room's host")
        body = opened.body
        status = body.get("status")
        if status not in ("open", "started", "closed"):
            raise Dropped("a seat list with an unknown status")
        seats: dict[str, tuple[int, bytes]] = {}
        try:
            for item in _list(body.get("seats")):
                if not isinstance(item, list | tuple) or len(item) != 3 or not isinstance(item[2], bytes):
                    raise Dropped("a seat list of the wrong shape")
                seats[_peer(item[0])] = (_int(item[1], "a seat", 0, MAX_SEATS - 1), item[2])
            waiting = tuple(_peer(p) for p in _list(body.get("waiting")))
            refused = tuple(_peer(p) for p in _list(body.get("refused")))
        except (Dropped, topics.TopicError):
            raise Dropped("a seat list of the wrong shape") from None
        return cls(_int(body.get("v"), "a version"), status, seats, waiting, refused)


# -- the room's card ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LobbyCard:
    """What a relay's room list shows, and what a joiner checks before it asks: signed by ``host_key``."""

    code: str
    game: str
    seats_total: int
    seats_taken: int
    host: str  # the host's name
    relay: str
    status: str = "open"  # open | started
    created: int = 0  # unix seconds, for operators' clean-up
    #: Who sits where (seat order; "" for a free seat), for joiners' seat lists.
    names: tuple[str, ...] = ()
    #: The host's Ed25519 public key (its fingerprint is the invitation's).
    host_key: bytes = b""
    #: How long a seat may take to answer before the others may vote it gone (the genesis says the same).
    timeout_ms: int = 0
    #: False: the room is joined by invitation only (this card is not in the relay's listing).
    listed: bool = True
    version: int = 0

    @property
    def open(self) -> bool:
        return self.status == "open" and self.seats_taken < self.seats_total

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    def encode(self, key: SigningKey) -> bytes:
        body = {
            "kind": "card",
            "room": self.code,
            "host": key.public_bytes(),
            "v": self.version,
            "game": self.game,
            "seats_total": self.seats_total,
            "seats_taken": self.seats_taken,
            "host_name": self.host,
            "relay": self.relay,
            "status": self.status,
            "created": self.created,
            "names": list(self.names),
            "timeout_ms": self.timeout_ms,
            "listed": self.listed,
        }
        return seal(key, body)

    @classmethod
    def decode(cls, data: bytes, code: str, host: bytes | None = None) -> LobbyCard:
        """The card of room ``code``, signed by the key it names (and, with ``host``, by that key)."""
        opened = open_message(data, ("card",), code)
        key = opened.host
        if host is not None and key != host:
            raise Dropped("a room card by another host key than the invitation's")
        if not opened.signed_by(key):
            raise Dropped("a room card not signed by the key it names")
        b = opened.body
        status = b.get("status")
        if status not in ("open", "started"):
            raise Dropped("a room card with an unknown status")
        names = b.get("names") or ()
        if not isinstance(names, list | tuple) or len(names) > MAX_SEATS:
            raise Dropped("a room card with a wrong list of names")
        total = _int(b.get("seats_total"), "the number of seats", 1, MAX_SEATS)
        return cls(
            code,
            _str(b.get("game"), "the game", 64),
            total,
            _int(b.get("seats_taken"), "the seats taken", 0, total),
            _str(b.get("host_name"), "the host's name"),
            _str(b.get("relay"), "the relay", 300),
            status,
            _int(b.get("created"), "the creation time"),
            tuple(_str(n, "a seat's name") for n in names),
            key,
            _int(b.get("timeout_ms"), "the answer time"),
            bool(b.get("listed", True)),
            _int(b.get("v"), "a version"),
        )


def try_card(data: bytes, code: str, host: bytes | None = None) -> LobbyCard | None:
    """:meth:`LobbyCard.decode`, or None (listings skip what they cannot read)."""
    try:
        return LobbyCard.decode(data, code, host)
    except Dropped:
        return None
