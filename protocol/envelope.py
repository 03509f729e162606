"""The signed envelope every log entry and notice travels in.

An envelope is a canonical msgpack map::

    {"v": 2, "room": str, "game": bytes32, "seq": int, "prev": bytes32, "seat": int,
     "type": str, "body": map, "sig": bytes64}

``sig`` is an Ed25519 signature over a domain tag and the canonical encoding of
every other field, so nothing in an entry can change without breaking it.

``game`` binds every signature to one game: it is the hash of the game's genesis
(:func:`entry_hash` of its wire bytes; the genesis itself carries the zero hash and
is made unique by its random nonce).  Room codes are reused, and a seat's signing key
is its long-term identity, so without it an entry, vote or leave notice signed in an
earlier game in the same room would verify in this one; with it, a peer refuses
anything whose ``game`` is not its own genesis's hash before looking further
(``Code.WRONG_GAME``), and a ``gone`` record's proofs are checked the same way.  The
wire bytes must *be* the canonical encoding: an entry has exactly one valid byte
string, so two different byte strings for one ``seq`` by one seat are always two
different statements (equivocation), never a re-encoding.

Parsing is strict and total: :func:`parse` either returns an :class:`Envelope`
or raises :class:`~protocol.errors.ProtocolError` with a precise code; no other
exception escapes, whatever the bytes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import msgpack

from engines.core.encoding import EncodingError, canonical_encode
from protocol.crypto.signing import SigningKey, verify
from protocol.errors import Code, ProtocolError
from protocol.schema import ENTRY_TYPES, NOTICE_TYPES, check_body

VERSION = 2
#: The largest entry accepted: the biggest honest entry (a 6-seat end-of-game
#: secrets publication) is well under a quarter of this.
MAX_ENTRY_BYTES = 64 * 1024
#: Deepest nesting of arrays and maps accepted anywhere in an entry.
MAX_DEPTH = 12
MAX_SEQ = 1 << 32
MAX_ROOM = 64
SIGN_TAG = b"sealed-table/entry/v1\x00"
HASH_TAG = b"sealed-table/entry-hash/v1\x00"
#: ``prev`` of the genesis entry.
ZERO_HASH = bytes(32)

_FIELDS = ("body", "game", "prev", "room", "seat", "seq", "sig", "type", "v")
#: ``game`` of the genesis: it cannot hold its own hash.
GENESIS_GAME = ZERO_HASH


@dataclass(frozen=True, slots=True)
class Envelope:
    """One parsed, schema-checked entry; signature not yet checked against a seat."""

    room: str
    game: bytes  # the hash of this game's genesis (ZERO_HASH in the genesis itself)
    seq: int
    prev: bytes
    seat: int
    type: str
    body: dict[str, Any]
    sig: bytes
    data: bytes  # the exact canonical wire bytes
    #: ``entry_hash(data)`` once computed: the head's digest is asked for at every step of a table.
    _digest: bytes = field(default=b"", init=False, repr=False, compare=False)

    @property
    def digest(self) -> bytes:
        """The hash that the next entry's ``prev`` must carry."""
        if not self._digest:
            object.__setattr__(self, "_digest", entry_hash(self.data))
        return self._digest

    @property
    def is_notice(self) -> bool:
        return self.type in NOTICE_TYPES

    def signed_bytes(self) -> bytes:
        """What ``sig`` signs: the tag and the canonical encoding of every field but ``sig``.

        Cut out of the wire bytes (see :func:`unsigned_from_wire`) instead of encoding the
        fields again: the same bytes, without a second canonical encoding of the entry.
        """
        fast = unsigned_from_wire(self.data, self.seq)
        if fast is not None:
            return SIGN_TAG + fast
        return _signed_bytes(self.room, self.game, self.seq, self.prev, self.seat, self.type, self.body)

    def body_bytes(self) -> bytes:
        """The canonical encoding of ``body``, cut out of the wire bytes (equal to ``canonical_encode(body)``)."""
        fast = body_from_wire(self.data, self.seq)
        return fast if fast is not None else canonical_encode(self.body)

    def signed_by(self, public: bytes) -> bool:
        return verify(public, self.signed_bytes(), self.sig)


#: The start of the canonical wire bytes of every envelope: a map of 9, then ``"v": 2`` and the
#: key ``"seq"`` (canonical maps sort by encoded key, so ``v`` < ``seq`` < ``sig`` < ``body`` < ...).
_WIRE_HEAD = b"\x89\xa1v\x02\xa3seq"
#: The ``"sig"`` key and the bin8 header of a 64-byte signature.
_SIG_HEAD = b"\xa3sig\xc4\x40"
_SIG_PAIR = len(_SIG_HEAD) + 64
_BODY_KEY = b"\xa4body"
_UNSIGNED_HEADER = b"\x88"  # the same map without ``sig``: 8 entries
_packb = msgpack.Packer(use_bin_type=True, autoreset=True).pack


def _sig_offset(data: bytes, seq: int) -> int | None:
    """Where the ``"sig"`` pair starts in canonical envelope bytes, or None if they are not laid out so."""
    if not data.startswith(_WIRE_HEAD):
        return None
    at = len(_WIRE_HEAD) + len(_packb(seq))
    return at if data.startswith(_SIG_HEAD, at) else None


def unsigned_from_wire(data: bytes, seq: int) -> bytes | None:
    """``canonical_encode`` of the envelope without ``sig``, cut from its canonical bytes ``data``.

    Removing one pair from a canonical map leaves the other pairs in canonical order, so
    the unsigned encoding is the wire bytes with an 8-entry header and the ``sig`` pair cut
    out.  None when ``data`` is not laid out as expected (the caller encodes instead).
    """
    at = _sig_offset(data, seq)
    if at is None:
        return None
    return _UNSIGNED_HEADER + data[1:at] + data[at + _SIG_PAIR :]


def body_from_wire(data: bytes, seq: int) -> bytes | None:
    """The canonical bytes of ``body`` inside canonical envelope bytes ``data`` (None: not found)."""
    at = _sig_offset(data, seq)
    if at is None:
        return None
    start = at + _SIG_PAIR + len(_BODY_KEY)
    if data[start - len(_BODY_KEY) : start] != _BODY_KEY:
        return None
    unpacker = msgpack.Unpacker(max_buffer_size=len(data))
    unpacker.feed(data[start:])
    try:
        unpacker.skip()
    except Exception:  # cannot happen for bytes that parse() accepted; fall back to encoding
        return None
    return data[start : start + unpacker.tell()]


@dataclass(frozen=True, slots=True)
class Header:
    """Who says they wrote an entry, and where it goes: cut from its wire bytes without decoding them.

    Nothing here is checked yet but the layout; ``signed`` is what the author's signature must cover
    (see :func:`peek`).
    """

    seq: int
    seat: int
    type: str
    room: str
    game: bytes
    prev: bytes
    sig: bytes
    signed: bytes

    @property
    def is_notice(self) -> bool:
        return self.type in NOTICE_TYPES

    def signed_by(self, public: bytes) -> bool:
        return verify(public, self.signed, self.sig)


def _uint_at(data: bytes, at: int) -> tuple[int, int] | None:
    """A minimally packed unsigned msgpack integer at ``at``: (value, end), or None."""
    if at >= len(data):
        return None
    tag = data[at]
    if tag < 0x80:
        return tag, at + 1
    width = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}.get(tag)
    if width is None or at + 1 + width > len(data):
        return None
    return int.from_bytes(data[at + 1 : at + 1 + width], "big"), at + 1 + width


def _str_at(data: bytes, at: int) -> tuple[str, int] | None:
    """A short msgpack string (fixstr or str8) at ``at``: (text, end), or None."""
    if at >= len(data):
        return None
    tag = data[at]
    if 0xA0 <= tag <= 0xBF:
        size, start = tag - 0xA0, at + 1
    elif tag == 0xD9 and at + 1 < len(data):
        size, start = data[at + 1], at + 2
    else:
        return None
    if start + size > len(data):
        return None
    try:
        return data[start : start + size].decode(), start + size
    except UnicodeDecodeError:
        return None


def _key_then(data: bytes, at: int, key: bytes) -> int | None:
    return at + len(key) if data.startswith(key, at) else None


_BIN32 = b"\xc4\x20"


def peek(data: Any) -> Header | None:  # noqa: C901 (tests/test_complexity.py)
    """The author, position and signature of an entry, read off its canonical wire bytes; None if they
    are not laid out as every valid entry is (so the bytes cannot be a valid entry at all).

    Canonical maps sort their keys by encoding, so every valid envelope is ``v, seq, sig, body, game,
    prev, room, seat, type`` in that order: the seat, room and game sit at fixed places around the
    body, which is skipped, not decoded.  This is what lets a peer check an entry against the one key
    that may have signed it before it spends anything on the entry's contents: garbage costs this
    cut and at most one signature check (:func:`parse` still checks everything once it verifies).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return None
    data = bytes(data)
    if len(data) > MAX_ENTRY_BYTES:
        return None
    got = _uint_at(data, len(_WIRE_HEAD)) if data.startswith(_WIRE_HEAD) else None
    if got is None:
        return None
    seq, start = got
    if not data.startswith(_SIG_HEAD, start) or len(data[start:]) < _SIG_PAIR + len(_BODY_KEY):
        return None
    sig = data[start + len(_SIG_HEAD) : start + _SIG_PAIR]
    cut, body_at = start, _key_then(data, start + _SIG_PAIR, _BODY_KEY)
    if body_at is None or body_at >= len(data) or (data[body_at] & 0xF0 != 0x80 and data[body_at] not in (0xDE, 0xDF)):
        return None  # the body is a map
    unpacker = msgpack.Unpacker(max_buffer_size=len(data), max_ext_len=0)
    unpacker.feed(data[body_at:])
    try:
        unpacker.skip()
    except Exception:
        return None
    at: int | None = _key_then(data, body_at + unpacker.tell(), b"\xa4game" + _BIN32)
    if at is None or at + 32 > len(data):
        return None
    game = data[at : at + 32]
    at = _key_then(data, at + 32, b"\xa4prev" + _BIN32)
    if at is None or at + 32 > len(data):
        return None
    prev = data[at : at + 32]
    at = _key_then(data, at + 32, b"\xa4room")
    room_got = _str_at(data, at) if at is not None else None
    if room_got is None:
        return None
    room, at = room_got
    at = _key_then(data, at, b"\xa4seat")
    if at is None or at >= len(data) or data[at] >= 64:
        return None  # a seat is a small non-negative integer
    seat = data[at]
    at = _key_then(data, at + 1, b"\xa4type")
    type_got = _str_at(data, at) if at is not None else None
    if type_got is None or type_got[1] != len(data):
        return None
    signed = SIGN_TAG + _UNSIGNED_HEADER + data[1:cut] + data[cut + _SIG_PAIR :]
    return Header(seq, seat, type_got[0], room, game, prev, sig, signed)


def cheap_rejection(data: Any) -> ProtocolError:
    """Why bytes that :func:`peek` could not read are no entry, without decoding them."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return ProtocolError(Code.MALFORMED, "an entry must be bytes")
    if len(data) > MAX_ENTRY_BYTES:
        return ProtocolError(Code.OVERSIZED, f"entry of {len(data)} bytes exceeds {MAX_ENTRY_BYTES}")
    if bytes(data[:3]) == _WIRE_HEAD[:3] and len(data) > 3 and data[3] != VERSION and data[3] < 0x80:
        return ProtocolError(Code.VERSION, f"protocol version {data[3]}, this program speaks {VERSION}")
    return ProtocolError(Code.MALFORMED, "not laid out as a signed entry (canonical msgpack of the envelope's fields)")


def entry_hash(data: bytes) -> bytes:
    return hashlib.sha256(HASH_TAG + data).digest()


def _unsigned(
    room: str, game: bytes, seq: int, prev: bytes, seat: int, type_: str, body: dict[str, Any]
) -> dict[str, Any]:
    fields = {"room": room, "game": game, "seq": seq, "prev": prev, "seat": seat, "type": type_, "body": body}
    return {"v": VERSION, **fields}


def _signed_bytes(room: str, game: bytes, seq: int, prev: bytes, seat: int, type_: str, body: dict[str, Any]) -> bytes:
    return SIGN_TAG + canonical_encode(_unsigned(room, game, seq, prev, seat, type_, body))


def seal(
    key: SigningKey, room: str, seq: int, prev: bytes, seat: int, type_: str, body: dict[str, Any], *, game: bytes
) -> Envelope:
    """Build and sign an envelope (our own entries; also used by the simulator's cheats).

    ``game``: the hash of the game's genesis (``GENESIS_GAME`` for the genesis itself), so the
    signature holds for this one game only.
    """
    sig = key.sign(_signed_bytes(room, game, seq, prev, seat, type_, body))
    data = canonical_encode({**_unsigned(room, game, seq, prev, seat, type_, body), "sig": sig})
    return parse(data)


_CONTAINERS = (list, tuple, dict)


def _depth_ok(value: Any, limit: int) -> bool:
    """Whether no array or map is nested ``limit`` deep (the outermost is at depth 0).

    Only containers are visited: the leaves of an entry far outnumber them.
    """
    if type(value) not in _CONTAINERS:
        return True
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth >= limit:
            return False
        children = [*item.keys(), *item.values()] if type(item) is dict else item
        for child in children:
            if type(child) in _CONTAINERS:
                stack.append((child, depth + 1))
    return True


def parse(data: Any) -> Envelope:  # noqa: C901 (tests/test_complexity.py)
    """Bytes off the wire -> a schema-checked :class:`Envelope`, or ProtocolError."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ProtocolError(Code.MALFORMED, "an entry must be bytes")
    data = bytes(data)
    if len(data) > MAX_ENTRY_BYTES:
        raise ProtocolError(Code.OVERSIZED, f"entry of {len(data)} bytes exceeds {MAX_ENTRY_BYTES}")
    if not data:
        raise ProtocolError(Code.MALFORMED, "empty entry")
    try:
        raw = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=False,
            max_str_len=len(data),
            max_bin_len=len(data),
            max_array_len=len(data),
            max_map_len=len(data),
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises many kinds on garbage; all mean "malformed"
        raise ProtocolError(Code.MALFORMED, f"not a msgpack value ({type(exc).__name__})") from None
    if not isinstance(raw, dict):
        raise ProtocolError(Code.MALFORMED, "an entry must be a map")
    if not _depth_ok(raw, MAX_DEPTH):
        raise ProtocolError(Code.MALFORMED, f"nesting deeper than {MAX_DEPTH}")
    try:
        canonical = canonical_encode(raw)
    except (EncodingError, RecursionError, TypeError, ValueError) as exc:
        raise ProtocolError(Code.MALFORMED, f"value without canonical encoding ({exc})") from None
    if canonical != data:
        raise ProtocolError(Code.MALFORMED, "entry bytes are not in canonical form")
    keys = set(raw)
    if "sig" not in raw:
        raise ProtocolError(Code.UNSIGNED, "entry has no signature")
    if keys != set(_FIELDS):
        missing = sorted(str(k) for k in set(_FIELDS) - keys)
        extra = sorted(str(k) for k in keys - set(_FIELDS))
        raise ProtocolError(Code.MALFORMED, f"fields wrong: missing {missing}, unexpected {extra}")
    v, room, game, seq, prev, seat = raw["v"], raw["room"], raw["game"], raw["seq"], raw["prev"], raw["seat"]
    type_, body, sig = raw["type"], raw["body"], raw["sig"]
    if type(v) is not int:
        raise ProtocolError(Code.MALFORMED, "version must be an integer")
    if v != VERSION:
        raise ProtocolError(Code.VERSION, f"protocol version {v}, this program speaks {VERSION}")
    if not isinstance(room, str) or not 0 < len(room) <= MAX_ROOM:
        raise ProtocolError(Code.MALFORMED, f"room must be a string of 1..{MAX_ROOM} characters")
    if not isinstance(game, bytes) or len(game) != 32:
        raise ProtocolError(Code.MALFORMED, "game must be 32 bytes (the hash of the game's genesis)")
    if type(seq) is not int or not 0 <= seq < MAX_SEQ:
        raise ProtocolError(Code.MALFORMED, "seq must be a non-negative integer")
    if not isinstance(prev, bytes) or len(prev) != 32:
        raise ProtocolError(Code.MALFORMED, "prev must be 32 bytes")
    if type(seat) is not int or not 0 <= seat < 64:
        raise ProtocolError(Code.MALFORMED, "seat must be a small non-negative integer")
    if not isinstance(type_, str):
        raise ProtocolError(Code.MALFORMED, "type must be a string")
    if type_ not in ENTRY_TYPES and type_ not in NOTICE_TYPES:
        raise ProtocolError(Code.UNKNOWN_TYPE, f"unknown entry type {type_[:32]!r}")
    if not isinstance(sig, bytes) or len(sig) != 64:
        raise ProtocolError(Code.UNSIGNED, "signature must be 64 bytes")
    if not isinstance(body, dict):
        raise ProtocolError(Code.MALFORMED, "body must be a map")
    problem = check_body(type_, body)
    if problem is not None:
        raise ProtocolError(Code.MALFORMED, f"{type_} body: {problem}")
    if (seq == 0 and type_ != "genesis") or (type_ == "genesis" and (seq != 0 or prev != ZERO_HASH)):
        raise ProtocolError(Code.MALFORMED, "the genesis, and only the genesis, is entry 0 after the zero hash")
    if (type_ == "genesis") != (game == GENESIS_GAME):
        raise ProtocolError(Code.MALFORMED, "the genesis, and only the genesis, names the zero hash as its game")
    return Envelope(room, game, seq, prev, seat, type_, body, sig, data)
