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
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from .errors import RoomNotFound

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

    def link(self) -> str:
        relay = strip_login(self.relay).rstrip("/")
        scheme, sep, rest = relay.partition("://")
        if not sep:
            scheme, rest = "", relay
        prefix = "sealed://" if scheme.lower() in ("", "mqtt", "tcp") else f"sealed+{scheme.lower()}://"
        return f"{prefix}{rest}/{self.code}#{self.fingerprint}"

    def read_out(self) -> str:
        """The same, to say over voice chat: relay, room code, host key in groups of four."""
        return f"relay {strip_login(self.relay)}, room {self.code}, host key {grouped(self.fingerprint)}"


def is_link(text: str) -> bool:
    return bool(_LINK.match(text.strip()))


def parse_invitation(text: str) -> Invitation:
    """A link (``sealed://…/ROOM#FP``) → :class:`Invitation`; :class:`BadInvitation` with the reason otherwise."""
    m = _LINK.match(text.strip())
    if m is None:
        raise BadInvitation(f"{text.strip()!r} is not an invitation link (sealed://HOST:PORT/ROOM#FINGERPRINT)")
    rest = m.group("rest").rstrip("/")
    relay_part, slash, code_part = rest.rpartition("/")
    if not slash or not relay_part:
        raise BadInvitation("the invitation link names no room (…/ROOM#FINGERPRINT)")
    try:
        code = normalize_code(code_part)
    except RoomNotFound as exc:
        raise BadInvitation(str(exc)) from None
    scheme = (m.group("scheme") or "").lower()
    relay = f"{scheme}://{relay_part}" if scheme else relay_part
    return Invitation(strip_login(relay), code, normalize_fingerprint(m.group("fp")))
