"""Seat cards checked where they arrive: in the lobby, before a host seats anyone.

A seat card is what a joiner hands the host through the relay: its name, its Ed25519 signing key
(``sign``) and its per-game X25519 agreement key (``box``), as a msgpack map (see
``protocol.session.PeerSession.seat_card``).  Anyone on a shared relay can publish anything, so the
lobby refuses a card unless it has exactly that shape and both keys are usable points:

- the signing key decodes to a point of the prime-order subgroup (no small-order key, which would
  let a forger's signature verify against it);
- the agreement key is not of low order (an exchange with it would give the all-zero secret that
  anyone can compute, so sealed cards dealt to that seat would be readable by all).

:func:`check_card` raises :class:`BadCard` with a reason a host can print; it never raises anything
else, whatever the bytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import msgpack
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from nacl.bindings import crypto_core_ed25519_is_valid_point

#: Longest seat name kept (longer names are refused, not cut: the card is signed as it is).
MAX_NAME = 40
#: Longest card accepted at all (a real one is about 90 bytes).
MAX_CARD_BYTES = 512
KEY_BYTES = 32
#: A throw-away scalar for the low-order test of agreement keys (any non-zero clamped scalar will do).
_PROBE = X25519PrivateKey.from_private_bytes(os.urandom(32))


class BadCard(ValueError):
    """A seat card the lobby will not seat; ``str()`` says why."""


@dataclass(frozen=True)
class SeatCard:
    """A checked seat card: the bytes as sent and what they say."""

    raw: bytes
    name: str
    sign: bytes
    box: bytes


def signing_key_ok(key: object) -> bool:
    """True for 32 bytes that encode an Ed25519 point of the main subgroup (not small order)."""
    if not isinstance(key, bytes | bytearray) or len(key) != KEY_BYTES:
        return False
    try:
        return bool(crypto_core_ed25519_is_valid_point(bytes(key)))
    except Exception:  # libsodium refuses odd input by raising: that is a no
        return False


def agreement_key_ok(key: object) -> bool:
    """True for 32 bytes of an X25519 public key whose exchange is not the all-zero secret."""
    if not isinstance(key, bytes | bytearray) or len(key) != KEY_BYTES:
        return False
    try:
        _PROBE.exchange(X25519PublicKey.from_public_bytes(bytes(key)))
    except Exception:  # cryptography raises on an all-zero result: a low-order point
        return False
    return True


def check_card(card: object) -> SeatCard:
    """The card, checked; :class:`BadCard` with the reason otherwise."""
    if not isinstance(card, bytes | bytearray):
        raise BadCard("the seat card is not bytes")
    raw = bytes(card)
    if len(raw) > MAX_CARD_BYTES:
        raise BadCard(f"the seat card is {len(raw)} bytes long (at most {MAX_CARD_BYTES})")
    try:
        body = msgpack.unpackb(raw, raw=False, strict_map_key=True)
    except Exception:
        raise BadCard("the seat card is not msgpack") from None
    if not isinstance(body, dict) or set(body) != {"name", "sign", "box"}:
        raise BadCard("the seat card is not a map of exactly name, sign and box")
    name, sign, box = body["name"], body["sign"], body["box"]
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise BadCard(f"the seat card's name must be 1-{MAX_NAME} characters")
    if not isinstance(sign, bytes) or len(sign) != KEY_BYTES:
        raise BadCard("the seat card's signing key is not 32 bytes")
    if not isinstance(box, bytes) or len(box) != KEY_BYTES:
        raise BadCard("the seat card's agreement key is not 32 bytes")
    if not signing_key_ok(sign):
        raise BadCard("the seat card's signing key is not a valid Ed25519 point (or has small order)")
    if not agreement_key_ok(box):
        raise BadCard("the seat card's agreement key has low order (its shared secret would be all zeros)")
    return SeatCard(raw, name, sign, box)
