"""Invitations: the relay, the room code and the host's key fingerprint, to read out or paste.

A room code alone says *where* to go, not *whom* to trust: anyone on a shared relay can publish a
room card or a genesis under any code.  The invitation adds the fingerprint of the host's signing
key, so every join path can pin the key that must sign the room's card, its seat list and the
game's genesis (``creator=`` of the protocol session).

Fingerprint: SHA-256 over a domain tag and the 32-byte Ed25519 public key, written as 16 letters
of the room-code alphabet (no letters that are misheard or mistyped), in groups of four:
``KMTX-RCAP-WHEJ-FDNQ``.  That is 16·log2(18) ≈ 66.7 bits: a stranger would need about 2^66 key
generations to make a key with the same fingerprint.  Case, spaces and dashes do not matter.

Link form (copy and paste)::

    sealed://HOST:PORT/ROOM#FINGERPRINT            a plain MQTT relay (mqtt://)
    sealed+mqtts://HOST:PORT/ROOM#FINGERPRINT      MQTT over TLS
    sealed+wss://HOST:PORT/PATH/ROOM#FINGERPRINT   MQTT over a (secure) WebSocket at PATH

The room code is the last segment of the path; what comes before it is the relay's address in its
own scheme.  A login is never part of an invitation: ``user:password@`` is dropped when a link is
made, and each guest gives their own login to the relay.

Fallback relays follow the room code as a query, each relay address in its own scheme,
percent-encoded, in the order the game moves to them::

    sealed://HOST:PORT/ROOM?fallback=HOST2:PORT2&fallback=mqtts%3A%2F%2FHOST3#FINGERPRINT

A link without fallbacks has no query at all; a program that cannot read fallbacks refuses a link
with them ("not a room code") rather than silently ignoring where the game may move.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote

from relay.errors import RoomNotFound

#: Fallback relays an invitation may carry (the genesis names at most 8 relays in all).
MAX_FALLBACKS = 7

#: No 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V: letters that survive being read out and typed back.
ALPHABET = "ACDEFGHJKMNPQRTWXY"
CODE_LENGTH = 6

FINGERPRINT_LETTERS = 16
_DOMAIN = b"sealed-table host key fingerprint v1\x00"
_LINK = re.compile(r"^sealed(?:\+(?P<scheme>[a-z][a-z0-9]*))?://(?P<rest>[^#]+)#(?P<fp>.+)$", re.I)


class BadInvitation(ValueError):
    """Text that is not an invitation (or a fingerprint); ``str()`` says what is wrong."""


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a player typed → a room code (case, spaces and dashes do not matter)."""
    code = "".join(c for c in text.upper() if c not in " -_")
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise RoomNotFound(f"{text!r} is not a room code (6 letters from {ALPHABET})")
    return code


def fingerprint(public_key: bytes) -> str:
    """The 16-letter fingerprint of a host's Ed25519 public key (no dashes; see :func:`grouped`)."""
    number = int.from_bytes(hashlib.sha256(_DOMAIN + bytes(public_key)).digest(), "big")
    letters = []
    for _ in range(FINGERPRINT_LETTERS):
        number, digit = divmod(number, len(ALPHABET))
        letters.append(ALPHABET[digit])
    return "".join(letters)


def grouped(fp: str) -> str:
    """``KMTXRCAPWHEJFDNQ`` → ``KMTX-RCAP-WHEJ-FDNQ`` (for reading out)."""
    return "-".join(fp[i : i + 4] for i in range(0, len(fp), 4))


def normalize_fingerprint(text: str) -> str:
    """What someone typed or heard → a fingerprint; :class:`BadInvitation` if it cannot be one."""
    fp = "".join(c for c in text.upper() if c not in " -_")
    if len(fp) != FINGERPRINT_LETTERS or any(c not in ALPHABET for c in fp):
        raise BadInvitation(f"{text!r} is not a host key fingerprint ({FINGERPRINT_LETTERS} letters from {ALPHABET})")
    return fp


def matches(public_key: bytes, fp: str) -> bool:
    return fingerprint(public_key) == fp


def strip_login(relay: str) -> str:
    """The relay address without ``user[:password]@`` (an invitation never carries a login)."""
    scheme, sep, rest = relay.partition("://")
    if not sep:
        scheme, rest = "", relay
    authority, slash, path = rest.partition("/")
    authority = authority.rpartition("@")[2]
    rest = authority + slash + path
    return f"{scheme}://{rest}" if sep else rest


@dataclass(frozen=True)
class Invitation:
    """Where the room is (``relay``: its address as the relay layer takes it), its code, and whom to trust."""

    relay: str
    code: str
    fingerprint: str
    #: Where the game moves when ``relay`` is unreachable, in order (no logins).
    fallbacks: tuple[str, ...] = ()

    @property
    def relays(self) -> tuple[str, ...]:
        """The room's relay first, then its fallbacks (logins dropped, each once)."""
        out: list[str] = []
        for relay in (self.relay, *self.fallbacks):
            bare = strip_login(relay).rstrip("/")
            if bare and bare not in out:
                out.append(bare)
        return tuple(out)

    def link(self) -> str:
        relay = strip_login(self.relay).rstrip("/")
        scheme, sep, rest = relay.partition("://")
        if not sep:
            scheme, rest = "", relay
        prefix = "sealed://" if scheme.lower() in ("", "mqtt", "tcp") else f"sealed+{scheme.lower()}://"
        query = "&".join(f"fallback={quote(f, safe=':[]')}" for f in self.relays[1:])
        return f"{prefix}{rest}/{self.code}{'?' + query if query else ''}#{self.fingerprint}"

    def read_out(self) -> str:
        """The same, to say over voice chat: relay, room code, host key in groups of four."""
        text = f"relay {strip_login(self.relay)}, room {self.code}, host key {grouped(self.fingerprint)}"
        fallbacks = self.relays[1:]
        return text + (f", fallback relays {', '.join(fallbacks)}" if fallbacks else "")


def is_link(text: str) -> bool:
    return bool(_LINK.match(text.strip()))


def parse_invitation(text: str) -> Invitation:
    """A link (``sealed://…/ROOM#FP``) → :class:`Invitation`; :class:`BadInvitation` with the reason otherwise."""
    m = _LINK.match(text.strip())
    if m is None:
        raise BadInvitation(f"{text.strip()!r} is not an invitation link (sealed://HOST:PORT/ROOM#FINGERPRINT)")
    rest, _, query = m.group("rest").partition("?")
    fallbacks = _fallbacks(query)
    rest = rest.rstrip("/")
    relay_part, slash, code_part = rest.rpartition("/")
    if not slash or not relay_part:
        raise BadInvitation("the invitation link names no room (…/ROOM#FINGERPRINT)")
    try:
        code = normalize_code(code_part)
    except RoomNotFound as exc:
        raise BadInvitation(str(exc)) from None
    scheme = (m.group("scheme") or "").lower()
    relay = f"{scheme}://{relay_part}" if scheme else relay_part
    return Invitation(strip_login(relay), code, normalize_fingerprint(m.group("fp")), fallbacks)


def _fallbacks(query: str) -> tuple[str, ...]:
    """``fallback=ADDR&fallback=ADDR`` → the addresses (logins dropped); BadInvitation for anything else."""
    if not query:
        return ()
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise BadInvitation(f"the invitation's fallback relays {query!r} cannot be read") from None
    out: list[str] = []
    for key, value in pairs:
        if key != "fallback":
            raise BadInvitation(f"the invitation link has an unknown part {key!r} (only fallback=RELAY)")
        relay = strip_login(value.strip()).rstrip("/")
        if not relay or any(c.isspace() for c in relay):
            raise BadInvitation(f"{value!r} is not a fallback relay address")
        if relay not in out:
            out.append(relay)
    if len(out) > MAX_FALLBACKS:
        raise BadInvitation(f"an invitation names at most {MAX_FALLBACKS} fallback relays")
    return tuple(out)
