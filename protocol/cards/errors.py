"""The one error of the card ledger: what went wrong, and whose fault it is."""

from __future__ import annotations


class CardProtocolError(ValueError):
    """A card message or claim that fails a check.

    ``seat`` names the culprit when the check itself proves who cheated (a
    malformed pass, a duplicated card, a false shown key); it is ``None`` when
    the failure shows *that* someone cheated but not who (a drawn slot that
    opens to no card): then the end-of-game audit, run at once, names the seat.
    The message never contains a secret.
    """

    def __init__(self, seat: int | None, reason: str) -> None:
        super().__init__(reason if seat is None else f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason
