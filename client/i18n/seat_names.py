"""A seat's name as every screen shows it (shared by every game's words)."""

from __future__ import annotations

from collections.abc import Sequence


def seat_name(names: Sequence[str], seat: int) -> str:
    """The name at ``seat``, or "?" for a seat the table does not know (never an IndexError on screen)."""
    return names[seat] if 0 <= seat < len(names) else "?"
