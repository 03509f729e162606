"""Invitations: the relay, the room code, the host's key fingerprint and a secret, to paste or read out.

A room code alone says *where* to go, not *whom* to trust: anyone on a shared relay can publish a
room card or a genesis under any code.  The invitation adds the fingerprint of the host's signing
key, so every join path can pin the key that must sign the room's card, its seat list and the
game's genesis (``creator=`` of the protocol session).

Fingerprint: SHA-256 over a domain tag and the 32-byte Ed25519 public key, written in the
room-code alphabet (no letters that are misheard or mistyped).  Two lengths, for two readers:

- the *full* fingerprint, 32 letters (32·log2(18) ≈ 133 bits), is what a program compares: the
  invitation link carries it, and a joiner given it pins the host by it (a stranger would need
  about 2^133 key generations to make a key with the same one);
- the *readable* fingerprint, its first 20 letters (≈ 83 bits) in groups of four,
  ``KMTX-RCAP-WHEJ-FDNQ-ACDE``, is what a person reads out and compares (the usual floor for that
  is 80 bits).  A fingerprint typed in from words read out pins the host by those 20 letters.

Case, spaces and dashes do not matter.  The 16 letters of invitations of an older version (≈ 67
bits) are refused with a message that says so, never taken as a weak match.

The invitation token: 32 letters (≈ 133 bits) that only the host and the holders of its link
know.  A joiner never sends it: it proves knowledge of it with an HMAC over its join request
(:func:`invitation_proof`), so the host can keep a place for invited requests that a stranger who
knows only the room code cannot take (:mod:`relay.lobby.host`).  The host derives it from its
signing key and the room code (:func:`invitation_token`): a restarted host knows it again
without keeping it anywhere.  Words read out carry no token (it is too long to say): a guest
invited by voice asks like anyone who knows the code, and the host still sees the request.

Link form (copy and paste)::

    sealed://HOST:PORT/ROOM#FINGERPRINT.TOKEN            a plain MQTT relay (mqtt://)
    sealed+mqtts://HOST:PORT/ROOM#FINGERPRINT.TOKEN      MQTT over TLS
    sealed+wss://HOST:PORT/PATH/ROOM#FINGERPRINT.TOKEN   MQTT over a (secure) WebSocket at PATH

The room code is the last segment of the path; what comes before it is the relay's address in its
own scheme.  The fingerprint and the token are the link's fragment, which a web client never
sends to any server.  A login is never part of an invitation: ``user:password@`` is dropped when
a link is made, and each guest gives their own login to the relay.

Fallback relays follow the room code as a query, each relay address in its own scheme,
percent-encoded, in the order the game moves to them::

    sealed://HOST:PORT/ROOM?fallback=HOST2:PORT2&fallback=mqtts%3A%2F%2FHOST3#FINGERPRINT.TOKEN

A link without fallbacks has no query at all; a program that cannot read fallbacks refuses a link
with them ("not a room code") rather than silently ignoring where the game may move.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote

from protocol.crypto.framing import frame
from protocol.crypto.signing import SigningKey
from relay.errors import RoomNotFound
from relay.fingerprint import ALPHABET as ALPHABET  # re-exported: the fingerprints' alphabet is the codes'
from relay.fingerprint import FINGERPRINT_LETTERS as FINGERPRINT_LETTERS
from relay.fingerprint import READABLE_LETTERS as READABLE_LETTERS
from relay.fingerprint import fingerprint as fingerprint
from relay.fingerprint import letters as _letters
from relay.fingerprint import readable as readable
from relay.fingerprint import squeezed as _squeezed

#: Fallback relays an invitation may carry (the genesis names at most 8 relays in all).
MAX_FALLBACKS = 7

CODE_LENGTH = 6
#: A listed room's code: ≈ 100 bits, so that its door and its host's key in the public listing do
#: not let anyone search for it, and with it for the room's keys (:mod:`relay.lobby.door`).
LISTED_CODE_LENGTH = 24

#: The fingerprint of invitations of an older version (≈ 67 bits): refused, with a message that says so.
OLD_FINGERPRINT_LETTERS = 16
#: The invitation token: ≈ 133 bits, out of reach of a search over the proofs a relay sees.
TOKEN_LETTERS = 32
_TOKEN_DOMAIN = b"sealed-table invitation token v1\x00"
_PROOF_DOMAIN = b"sealed-table invitation proof v1\x00"
_LINK = re.compile(r"^sealed(?:\+(?P<scheme>[a-z][a-z0-9]*))?://(?P<rest>[^#]+)#(?P<fp>.+)$", re.I)


class BadInvitation(ValueError):
    """Text that is not an invitation (or a fingerprint); ``str()`` says what is wrong."""


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a player typed → a room code (case, spaces and dashes do not matter)."""
    code = "".join(c for c in text.upper() if c not in " -_")
    if len(code) not in (CODE_LENGTH, LISTED_CODE_LENGTH) or any(c not in ALPHABET for c in code):
        raise RoomNotFound(
            f"{text!r} is not a room code ({CODE_LENGTH} letters, or {LISTED_CODE_LENGTH} for a listed room, "
            f"from {ALPHABET})"
        )
    return code


def normalize_fingerprint(text: str) -> str:
    """What someone pasted, typed or heard → a fingerprint: the full one (32 letters) or the readable one (20).

    :class:`BadInvitation` if it is neither, with its own message for the 16 letters of an older invitation.
    """
    fp = _squeezed(text)
    if any(c not in ALPHABET for c in fp) or len(fp) not in (FINGERPRINT_LETTERS, READABLE_LETTERS):
        if len(fp) == OLD_FINGERPRINT_LETTERS and all(c in ALPHABET for c in fp):
            raise BadInvitation(
                f"{text!r} is the {OLD_FINGERPRINT_LETTERS}-letter host key of an invitation of an older version, "
                f"too short to trust: ask the host for a new invitation"
            )
        raise BadInvitation(
            f"{text!r} is not a host key fingerprint ({FINGERPRINT_LETTERS} letters from an invitation link, "
            f"or the {READABLE_LETTERS} read out, from {ALPHABET})"
        )
    return fp


def matches(public_key: bytes, fp: str) -> bool:
    """Whether ``fp`` (full, or readable: from :func:`normalize_fingerprint`) is the fingerprint of ``public_key``."""
    full = fingerprint(public_key)
    if len(fp) == FINGERPRINT_LETTERS:
        return full == fp
    return len(fp) == READABLE_LETTERS and full[:READABLE_LETTERS] == fp


def invitation_token(key: SigningKey, code: str) -> str:
    """The host's secret for room ``code``: from its signing key, so only it can make it, again after a restart."""
    signed = key.sign(frame(_TOKEN_DOMAIN, code.encode()))
    return _letters(hashlib.sha256(_TOKEN_DOMAIN + signed).digest(), TOKEN_LETTERS)


def normalize_token(text: str) -> str:
    """An invitation token as a link carries it; :class:`BadInvitation` if it cannot be one."""
    token = _squeezed(text)
    if len(token) != TOKEN_LETTERS or any(c not in ALPHABET for c in token):
        raise BadInvitation(f"the invitation's token is not {TOKEN_LETTERS} letters from {ALPHABET}")
    return token


def invitation_proof(token: str, code: str, host: bytes, peer: str, nonce: bytes, card: bytes) -> bytes:
    """What a join request carries to show its joiner holds the invitation: HMAC-SHA256 keyed by the token.

    Bound to the room, the host, the joiner's peer id, the request's nonce and its seat card, so a
    proof seen on the relay is of no use to anyone else (their request names another key or peer),
    and the token itself never leaves the invitation.
    """
    message = frame(_PROOF_DOMAIN, code.encode(), bytes(host), peer.encode(), bytes(nonce), bytes(card))
    return hmac.new(token.encode(), message, hashlib.sha256).digest()


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
    #: The host key's full fingerprint (32 letters).
    fingerprint: str
    #: Where the game moves when ``relay`` is unreachable, in order (no logins).
    fallbacks: tuple[str, ...] = ()
    #: The host's secret for this room ("" for none: the joiner asks as anyone who knows the code would).
    token: str = field(default="", repr=False)

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
        secret = f".{self.token}" if self.token else ""
        return f"{prefix}{rest}/{self.code}{'?' + query if query else ''}#{self.fingerprint}{secret}"

    def read_out(self) -> str:
        """The same, to say over voice chat: relay, room code, the readable host key (no token: too long to say)."""
        text = f"relay {strip_login(self.relay)}, room {self.code}, host key {readable(self.fingerprint)}"
        fallbacks = self.relays[1:]
        return text + (f", fallback relays {', '.join(fallbacks)}" if fallbacks else "")


def is_link(text: str) -> bool:
    return bool(_LINK.match(text.strip()))


def parse_invitation(text: str) -> Invitation:
    """A link (``sealed://…/ROOM#FP.TOKEN``) → :class:`Invitation`; :class:`BadInvitation` with the reason otherwise."""
    m = _LINK.match(text.strip())
    if m is None:
        head, sep, _ = text.strip().partition("#")  # what follows "#" may be a token: never echoed
        shown = head + ("#…" if sep else "")
        raise BadInvitation(f"{shown!r} is not an invitation link (sealed://HOST:PORT/ROOM#FINGERPRINT.TOKEN)")
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
    fp, token = _fragment(m.group("fp"))
    return Invitation(strip_login(relay), code, fp, fallbacks, token)


def _fragment(text: str) -> tuple[str, str]:
    """``FINGERPRINT[.TOKEN]`` → the full fingerprint and the token ("" if the link has none)."""
    fp_text, dot, token_text = text.partition(".")
    fp = normalize_fingerprint(fp_text)
    if len(fp) != FINGERPRINT_LETTERS:
        raise BadInvitation(
            f"an invitation link carries the host key's full fingerprint ({FINGERPRINT_LETTERS} letters): {fp_text!r}"
        )
    return fp, normalize_token(token_text) if dot else ""


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
