"""The check a shown card passes before a deck or a re-slotting records it, written once for both.

A seat shows a card by publishing its key for the slot and the card it claims.  The key must open
the slot to that card; ``verified`` says a batch check already did the curve work, and then only
the shape is left to look at (a scalar key, a card of the game).
"""

from __future__ import annotations

from collections.abc import Container
from typing import Protocol

from protocol.cards.errors import CardProtocolError
from protocol.crypto.group import is_scalar


class ShowsCards(Protocol):
    """What :func:`check_shown` needs of a deck or a re-slotting."""

    def verify_shown(self, slot: int, owner_key: object, claimed_card: object) -> bool: ...


def check_shown(
    table: ShowsCards,
    cards: Container[object],
    seat: int,
    slot: int,
    owner_key: object,
    claimed_card: object,
    verified: bool,
) -> None:
    """Raise :class:`CardProtocolError` naming ``seat`` unless its key opens ``slot`` to ``claimed_card``."""
    if verified:
        if not is_scalar(owner_key) or claimed_card not in cards:
            raise CardProtocolError(seat, f"the key or card shown for slot {slot} is malformed")
    elif not table.verify_shown(slot, owner_key, claimed_card):
        raise CardProtocolError(seat, f"the key shown for slot {slot} does not open it to card {claimed_card!r}")
