"""One seat's secrets for one shuffle round, and their end-of-game publication.

A seat keeps, per round: its *pass scalar* ``s`` (the same for every card of
its shuffle pass, undone in its lock pass), its secret *permutation*, and one
*lock key* per slot (``k[j]``, published when another seat draws slot ``j``).
All of it comes from an injected :class:`~protocol.crypto.entropy.Entropy`, so
tests and the simulator reproduce every secret from a seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol.cards.errors import CardProtocolError
from protocol.crypto.entropy import Entropy
from protocol.crypto.group import WIDE_BYTES, GroupError, is_scalar, scalar_from

SECRETS_FIELDS = frozenset({"seat", "scalar", "permutation", "keys"})


@dataclass(frozen=True)
class SeatSecrets:
    """``seat``'s secrets for one deck round (``repr`` shows no secret)."""

    seat: int
    scalar: bytes = field(repr=False)
    permutation: tuple[int, ...] = field(repr=False)
    keys: tuple[bytes, ...] = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.permutation)

    @classmethod
    def generate(cls, seat: int, size: int, entropy: Entropy) -> SeatSecrets:
        """Fresh secrets for a round of ``size`` cards."""
        if size <= 0:
            raise ValueError("a round has at least one card")
        permutation = list(range(size))
        for i in range(size - 1, 0, -1):  # Fisher–Yates from the injected source
            j = entropy.below(i + 1)
            permutation[i], permutation[j] = permutation[j], permutation[i]
        scalar = _fresh_scalar(entropy)
        keys = tuple(_fresh_scalar(entropy) for _ in range(size))
        return cls(seat, scalar, tuple(permutation), keys)


def _fresh_scalar(entropy: Entropy) -> bytes:
    while True:  # zero comes up with probability ~2^-252
        try:
            return scalar_from(entropy.token(WIDE_BYTES))
        except GroupError:
            continue


def secrets_to_body(secrets: SeatSecrets) -> dict[str, Any]:
    """The end-of-game publication of one round's secrets (plain msgpack-able data)."""
    return {
        "seat": secrets.seat,
        "scalar": secrets.scalar,
        "permutation": list(secrets.permutation),
        "keys": list(secrets.keys),
    }


def secrets_from_body(body: object, seat: int, size: int) -> SeatSecrets:
    """Parse and validate a publication by ``seat`` for a round of ``size`` cards.

    Raises :class:`CardProtocolError` naming ``seat`` for anything malformed:
    wrong fields, a scalar that is zero or non-canonical, a list that is not a
    permutation of ``range(size)``, a wrong number of keys.
    """
    if not isinstance(body, Mapping) or set(body.keys()) != SECRETS_FIELDS:
        raise CardProtocolError(seat, "card secrets must have exactly the fields seat, scalar, permutation, keys")
    if body["seat"] != seat or isinstance(body["seat"], bool):
        raise CardProtocolError(seat, "card secrets name another seat")
    if not is_scalar(body["scalar"]):
        raise CardProtocolError(seat, "the pass scalar is not a canonical non-zero scalar")
    permutation = body["permutation"]
    if not isinstance(permutation, (list, tuple)) or len(permutation) != size:
        raise CardProtocolError(seat, f"the permutation must list {size} positions")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in permutation) or sorted(permutation) != list(
        range(size)
    ):
        raise CardProtocolError(seat, "the permutation is not a permutation of the round's positions")
    keys = body["keys"]
    if not isinstance(keys, (list, tuple)) or len(keys) != size:
        raise CardProtocolError(seat, f"there must be {size} lock keys")
    for j, key in enumerate(keys):
        if not is_scalar(key):
            raise CardProtocolError(seat, f"lock key {j} is not a canonical non-zero scalar")
    return SeatSecrets(seat, body["scalar"], tuple(permutation), tuple(keys))
