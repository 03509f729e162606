"""Relay addresses, room codes and invitations as the player types or pastes them.

One address form for the whole program (:mod:`relay.address`); the passwords and TLS files the
player keeps for a relay are filled in here, so an address can travel as a string without them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from client.net.errors import NetError
from client.store.settings import Settings
from relay import address as _address
from relay.errors import RelayError
from relay.lobby.invitation import (
    BadInvitation,
    fingerprint,
    is_link,
    normalize_fingerprint,
    parse_invitation,
    readable,
)

#: The one relay address of the program and the headless peer (``mqtt://``, ``mqtts://``, ``ws://``,
#: ``wss://``, ``user[:password]@``); ``str()`` of it never shows the password.
RelayAddress = _address.RelayAddress
#: The MQTT port, where an address names none.
DEFAULT_PORT = 1883


#: Relay options this user keeps (passwords from their 0600 file, TLS files), by address without
#: password; set by :func:`use_relay_settings`, plus the passwords typed since the program started.
_KNOWN: dict[str, dict[str, str]] = {}


def use_relay_settings(options: dict[str, dict[str, str]]) -> None:
    """Passwords and TLS files per relay (``str(address)`` → options) that :func:`parse_relay_address` fills in."""
    for key, values in options.items():
        _KNOWN.setdefault(key, {}).update({k: v for k, v in values.items() if v})


def parse_relay_address(text: str | RelayAddress) -> RelayAddress:
    """Any relay address form; NetError("bad-address") otherwise (the message never shows a password).

    A password typed once is remembered for the session, so the address can travel as a string
    without it; a saved password and the relay's TLS files are filled in from :func:`use_relay_settings`.
    """
    try:
        address = _address.parse_address(text)
    except RelayError:
        raise NetError("bad-address", address=_address.redact(str(text))) from None
    known = _KNOWN.setdefault(str(address), {})
    if address.password is not None:
        known["password"] = address.password
    given = {
        "password": address.password,
        "ca_file": address.ca_file,
        "cert_file": address.cert_file,
        "key_file": address.key_file,
    }
    fill = {k: known[k] for k, value in given.items() if known.get(k) and not value}
    if fill.get("password") is not None and address.username is None:
        fill.pop("password")
    return address.with_options(**fill) if fill else address


#: Room codes are read out over voice chat: letters and digits, case-insensitive.
ROOM_CODE = re.compile(r"^(?:[A-Za-z0-9]{4,12}|[A-Za-z0-9]{24})$")  # 24 letters: a listed room


def parse_room_code(text: str) -> str:
    code = text.strip().upper()
    if not ROOM_CODE.match(code):
        raise NetError("bad-room", code=text.strip())
    return code


def split_relays(text: str) -> tuple[RelayAddress, tuple[str, ...]]:
    """The relay field as typed: ``relay[, fallback, …]`` → the relay and its fallbacks (NetError if one is bad)."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise NetError("bad-address", address="")
    return parse_relay_address(parts[0]), tuple(str(parse_relay_address(p)) for p in parts[1:])


@dataclass(frozen=True)
class Invite:
    """What a joiner typed or pasted: a relay address, a room code, and maybe the host's key fingerprint."""

    address: str
    code: str
    #: The host key's fingerprint: the full one from a link, or the readable one as typed ("" for none).
    fingerprint: str = ""
    #: The invitation's fallback relays (where the game moves when its relay stays unreachable).
    fallbacks: tuple[str, ...] = ()
    #: The invitation link's secret, which the join request proves ("" when the invitation was typed in).
    token: str = field(default="", repr=False)


def _login_for(relay: str, typed: str) -> str:
    """The link's relay, written as typed in the relay box when that names the same host and port with a login.

    An invitation link never carries a login: the guest of a relay that asks for one types it in the
    relay box as for any relay (its password is remembered as typed); anything else typed there is
    not this relay's and is left aside.
    """
    if not typed.strip():
        return relay
    try:
        linked, given = _address.parse_address(relay), parse_relay_address(typed)
    except (RelayError, NetError):
        return relay
    same = (linked.host.lower(), linked.port) == (given.host.lower(), given.port)
    return str(given) if same and given.username is not None else relay


def parse_invite(room_text: str, address_text: str = "", fingerprint_text: str = "") -> Invite:
    """An invitation link (``sealed://HOST:PORT/ROOM#FINGERPRINT.TOKEN``), or a room code with the relay and key fields.

    The key field takes the readable fingerprint as read out (20 letters) or the full one (32).  With a
    link, a login typed in the relay field for the link's relay goes with it (a link carries none).
    NetError("bad-invitation") for a link or a fingerprint that cannot be one (the 16 letters of an
    older invitation among them: the reason says so).
    """
    text = room_text.strip()
    try:
        if is_link(text):
            invitation = parse_invitation(text)
            relay = _login_for(invitation.relay, address_text)
            return Invite(relay, invitation.code, invitation.fingerprint, invitation.fallbacks, invitation.token)
        fp = normalize_fingerprint(fingerprint_text) if fingerprint_text.strip() else ""
    except BadInvitation as exc:
        raise NetError("bad-invitation", reason=str(exc)) from None
    # "relay, fallback, …" (the public relays' line among them): the room is looked for on the first.
    first, fallbacks = split_relays(address_text) if "," in address_text else (parse_relay_address(address_text), ())
    return Invite(str(first), parse_room_code(text), fp, fallbacks)


def key_fingerprint(public_key: bytes) -> str:
    """The full fingerprint of a host's public key, as invitation links carry it (what ``join_online`` pins)."""
    return fingerprint(public_key)


def readable_fingerprint(fp: str) -> str:
    """A fingerprint as a person reads it out and compares it: 20 letters in five groups of four."""
    return readable(fp)


def redacted(relay: str | RelayAddress | None) -> str:
    """A relay as it may be shown: the address without its password ("?" for none or garbage)."""
    try:
        return str(parse_relay_address(relay)) if relay is not None else "?"
    except NetError:
        return _address.redact(str(relay)) or "?"


def remember_relay(settings: Settings, text: str) -> None:
    """Remember the relay the player used, first in the list; a password typed in it is kept apart."""
    try:
        parsed = _address.parse_address(text.strip())
    except RelayError:
        settings.remember_relay(text)  # not an address: remembered as typed (it holds no login to hide)
        return
    settings.remember_relay(str(parsed), parsed.password)


def passwords_apart(settings: Settings) -> None:
    """Move a password saved inside a remembered address (older versions, hand edits) to the password file's list."""
    kept = list(settings.relays)
    settings.relays = []
    for text in reversed(kept):
        remember_relay(settings, text)
