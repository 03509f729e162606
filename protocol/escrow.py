"""A leaver's held-back secrets, escrowed with the seats that stay until the end of the game.

A seat that leaves mid-game must not open its hand: after a Hacker Attack took a card
from it, its secrets (scalars, permutations, its re-slotting, the delivery keys of the
boxes it sent) would open the card now in the attacker's hand to everyone, and even its
remaining hand alone tells a seat that once saw the whole hand which card moved.  So on
leaving it publishes only the keys the table still needs (see ``CardLedger.departure_body``),
and its end-of-game secrets go into its leave notice
*encrypted*: ChaCha20-Poly1305 under a fresh one-time key ``K``, which is split into
XOR shares, one sealed to each seat still at the table.  At the end of the game every
seat publishes its share with its own secrets; the table joins them, opens the
secrets, and the audit checks the leaver like everyone else.

Why XOR shares among *all* the seats that stay: every secret the escrow protects is
protected for one of them against the others (the taken card for the attacker, the
composition of the deck for all).  Opening it early takes every share, so every seat
it protects would have to give its own away; and a share alone is uniform.  The notice
signs a digest of each share, so a seat that publishes a false share is named, and a
leaver whose shares do not open its secrets is named.  A share lost with a seat declared
gone leaves the escrow closed: the audit then skips what only it would show, as for any
seat gone with its secrets (every pass of the leaver was proven on arrival).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from protocol.crypto.framing import frame, int_bytes, text_bytes
from protocol.crypto.padding import PaddingError, pad, unpad

KEY_BYTES = 32
_NONCE = bytes(12)  # every key K encrypts exactly one message
_DOMAIN = b"sealed-table/escrow/v1"


class EscrowError(ValueError):
    """The escrow does not open: a share is missing or false, or the box is not what the shares open."""


def share_digest(game: bytes, leaver: int, holder: int, share: bytes) -> bytes:
    """What the leave notice signs for ``holder``'s share (a share is uniform: the digest hides it)."""
    return hashlib.sha256(frame(_DOMAIN + b"/share", game, int_bytes(leaver), int_bytes(holder), share)).digest()


def _aad(game: bytes, leaver: int) -> bytes:
    return frame(_DOMAIN + b"/box", game, int_bytes(leaver), text_bytes("secrets"))


def make_escrow(
    game: bytes, leaver: int, holders: Sequence[int], plain: bytes, randomness: bytes
) -> tuple[bytes, dict[int, bytes]]:
    """(box, {holder: share}) for ``plain``; ``randomness``: 32 secret bytes, used for this escrow only.

    The shares are derived from ``randomness`` (one per holder but the last, whose share
    completes the XOR to ``K``); with no holder (nobody stays) ``K`` is all zeros: nobody
    is left to protect, the secrets open at once.
    """
    shares: dict[int, bytes] = {}
    key = bytes(KEY_BYTES)
    for index, holder in enumerate(holders):
        if index < len(holders) - 1:
            share = hashlib.sha256(frame(_DOMAIN + b"/split", randomness, int_bytes(holder))).digest()
        else:
            share = _xor(hashlib.sha256(frame(_DOMAIN + b"/key", randomness)).digest(), key)
        shares[holder] = share
        key = _xor(key, share)
    box = ChaCha20Poly1305(key).encrypt(_NONCE, pad(plain), _aad(game, leaver))
    return box, shares


def open_escrow(game: bytes, leaver: int, box: bytes, shares: Mapping[int, bytes]) -> bytes:
    """The plaintext, from every holder's share; :class:`EscrowError` if they do not open the box."""
    key = bytes(KEY_BYTES)
    for share in shares.values():
        key = _xor(key, share)
    try:
        return unpad(ChaCha20Poly1305(key).decrypt(_NONCE, box, _aad(game, leaver)))
    except (InvalidTag, PaddingError, ValueError) as exc:
        raise EscrowError("the shares do not open the escrowed secrets") from exc


def check_escrow_shape(escrow: Any, leaver: int, seats: int) -> str | None:
    """None if the notice's escrow names only other seats of the table (the schema checked the fields)."""
    holders = escrow["shares"]
    if any(holder == leaver or not 0 <= holder < seats for holder in holders):
        return "an escrow share for itself or for a seat that is not at the table"
    return None


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


__all__ = ["EscrowError", "check_escrow_shape", "make_escrow", "open_escrow", "share_digest"]
