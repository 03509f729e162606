"""Cheats against what a seat card lets in (issue 11, attack 4), for the cheat catalogue.

A seat hands the host a seat card before the game: its name, its long-term signing
key and its per-game agreement key.  These cheaters hand in a card with a key that
no honest key generator makes:

- ``low-order-agreement-key``: an X25519 key of low order (32 zero bytes).  Every secret
  shared with it is all zeros; the Hacker Attack victim that must seal its hand to it
  could not, its session raised, it fell silent and was voted gone and named, while the
  cheater escaped.
- ``small-order-signing-key``: an Ed25519 key of small order (the identity point).  For
  it a lax verifier accepts a "signature" anybody can make for any message, so anybody
  could write that seat's moves, and the seat could disown its own.

Both are refused where the card enters the game: the creator checks every card before it
signs a genesis (:func:`protocol.table.check_seat_cards`, raising
:class:`~protocol.table.SeatCardError` that names the seat), and every replica checks the
genesis again.  The simulator reports the creator's refusal as the verdict of every
honest seat.  They are registered in :data:`protocol.sim.cheats.catalogue.CHEATS`.
"""

from __future__ import annotations

from protocol.crypto.signing import SigningKey
from protocol.sim.cheats.base import Cheater
from protocol.table import SeatInfo

#: name -> (the game it is written for, what the cheater does).
BINDING_CATALOGUE: dict[str, tuple[str, str]] = {
    "low-order-agreement-key": (
        "system-launch",
        "hands in a seat card whose agreement key is of low order (its Hacker Attack victim cannot seal to it)",
    ),
    "small-order-signing-key": (
        "system-launch",
        "hands in a seat card whose signing key is of small order (any signature verifies for it)",
    ),
}

#: The neutral element of Ed25519 (y = 1): of order 1, the smallest there is.
IDENTITY_POINT = (1).to_bytes(32, "little")


class LowOrderAgreementKey(Cheater):
    kind = "low-order-agreement-key"

    @staticmethod
    def seat_card(name: str, signing_key: SigningKey, secret: bytes) -> SeatInfo:
        return SeatInfo(name, signing_key.public_bytes(), bytes(32))


class SmallOrderSigningKey(Cheater):
    kind = "small-order-signing-key"

    @staticmethod
    def seat_card(name: str, signing_key: SigningKey, secret: bytes) -> SeatInfo:
        honest = Cheater.seat_card(name, signing_key, secret)
        return SeatInfo(name, IDENTITY_POINT, honest.box)


BINDING_CHEATS: dict[str, type[Cheater]] = {cls.kind: cls for cls in (LowOrderAgreementKey, SmallOrderSigningKey)}
