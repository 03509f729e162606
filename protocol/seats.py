"""Seat cards: a seat as the genesis fixes it, and the one check every card passes.

Below the replica (:mod:`protocol.table`) and the audit (:mod:`protocol.audit`), which
both name seats, so that neither needs the other for it; the lobby and the creator use
the same check before a card reaches any table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from protocol.crypto.private import valid_agreement_key
from protocol.crypto.signing import valid_public_key


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the genesis fixes it: a name, the signing key, the per-game agreement key."""

    name: str
    sign: bytes
    box: bytes

    def as_body(self) -> dict[str, Any]:
        return {"name": self.name, "sign": self.sign, "box": self.box}

    def problem(self) -> str | None:
        """None if this card may sit at a table, else what is wrong with it (see :func:`seat_card_problem`)."""
        return seat_card_problem(self)


class SeatCardError(ValueError):
    """A seat card that no table may take; ``seat`` is the card's place in the list, ``reason`` why."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}'s card is refused: {reason}")
        self.seat = seat
        self.reason = reason


def seat_card_problem(info: Any) -> str | None:
    """None if ``info`` (a :class:`SeatInfo` or its body) is a valid seat card, else why not.

    The one check of a card, for the lobby (a host refuses the card before giving a seat),
    the creator (:meth:`PeerSession.create`) and every replica (the genesis): the name is
    text, the signing key a valid Ed25519 key of the prime-order group (a small-order key
    verifies signatures anybody can make) and the agreement key a valid X25519 key (a
    low-order one makes every secret sealed to it all zeros, and the sealing seat stuck).
    """
    if isinstance(info, dict):
        if set(info) != {"name", "sign", "box"}:
            return "a seat card has exactly a name, a signing key and an agreement key"
        info = SeatInfo(info["name"], info["sign"], info["box"])
    if not isinstance(info, SeatInfo):
        return "not a seat card"
    if type(info.name) is not str or len(info.name) > 40:
        return "the name must be text of at most 40 characters"
    if not valid_public_key(info.sign):
        return "the signing key is not a valid Ed25519 key (malformed, non-canonical or of small order)"
    if not valid_agreement_key(info.box):
        return "the agreement key is not a valid X25519 key (malformed, non-canonical or of low order)"
    return None


def check_seat_cards(seats: Any) -> None:
    """Raise :class:`SeatCardError` for the first invalid card, or two cards sharing a key."""
    signs: dict[bytes, int] = {}
    boxes: dict[bytes, int] = {}
    for index, info in enumerate(seats):
        problem = seat_card_problem(info)
        if problem is not None:
            raise SeatCardError(index, problem)
        sign, box = (info["sign"], info["box"]) if isinstance(info, dict) else (info.sign, info.box)
        if sign in signs or box in boxes:
            raise SeatCardError(index, f"it shares a key with seat {signs.get(sign, boxes.get(box))}'s card")
        signs[sign], boxes[box] = index, index
