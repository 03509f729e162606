"""Cheats against what a seat card lets in, for the cheat catalogue.

A seat hands the host a seat card before the game: its name, its long-term signing
key and its per-game agreement key.  These cheaters hand in a card with a key that
no honest key generator makes:

- ``low-order-agreement-key``: an X25519 key of low order (32 zero bytes).  Every secret
  shared with it is all zeros; a seat that must seal a private delivery to it cannot, and
  would fall silent and be voted gone in the cheater's place.  Staged in the games that
  have private deliveries.
- ``small-order-signing-key``: an Ed25519 key of small order (the identity point).  For
  it a lax verifier accepts a "signature" anybody can make for any message, so anybody
  could write that seat's moves, and the seat could disown its own.  Any game.

Both are refused where the card enters the game: the creator checks every card before it
signs a genesis (:func:`protocol.table.check_seat_cards`, raising
:class:`~protocol.table.SeatCardError` that names the seat), and every replica checks the
genesis again.  The simulator reports the creator's refusal as the verdict of every
honest seat.
"""

from __future__ import annotations

from engines.core import PrivateDelivery
from protocol.crypto.signing import SigningKey
from protocol.sim.cheats.base import Cheater
from protocol.table import SeatInfo

#: The neutral element of Ed25519 (y = 1): of order 1, the smallest there is.
IDENTITY_POINT = (1).to_bytes(32, "little")


class LowOrderAgreementKey(Cheater):
    kind = "low-order-agreement-key"
    text = "hands in a seat card whose agreement key is of low order (a seat that must seal to it cannot)"
    needs = PrivateDelivery

    @staticmethod
    def seat_card(name: str, signing_key: SigningKey, secret: bytes) -> SeatInfo:
        return SeatInfo(name, signing_key.public_bytes(), bytes(32))


class SmallOrderSigningKey(Cheater):
    kind = "small-order-signing-key"
    text = "hands in a seat card whose signing key is of small order (any signature verifies for it)"

    @staticmethod
    def seat_card(name: str, signing_key: SigningKey, secret: bytes) -> SeatInfo:
        honest = Cheater.seat_card(name, signing_key, secret)
        return SeatInfo(name, IDENTITY_POINT, honest.box)


BINDING: tuple[type[Cheater], ...] = (LowOrderAgreementKey, SmallOrderSigningKey)
