"""What every game source shares: the entries it shows, the engine events they caused, two pseudo-actions.

A *game source* is what the table window plays and shows: a local game (:mod:`client.play.local`,
the referee holds the truth) or a networked seat (:mod:`client.net.game`).  Both give the table
the same :class:`Entry` list, built with :class:`EventTap` from the engine's display events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import Action

#: The verb recorded in the decision list when a seat leaves (not an engine action).
FORFEIT = "__forfeit__"
#: A pseudo-action in mirrored networked games: cards whose keys left with a gone seat.
SET_ASIDE = "__set_aside__"


@dataclass(frozen=True)
class Entry:
    """One applied action, in history order, with the engine events it caused."""

    index: int
    seat: int
    action: Action
    events: tuple[tuple[Any, ...], ...] = ()
    #: What the game waited for just before this action (who was dealt, who delivered).
    before: Any = None


class EventTap:
    """New items of an engine's display event list since the last look.

    Engines may keep a short list of recent events (``state.events``) for
    views; it is trimmed from the front, so new events are found after the
    last event object seen (by identity), not by position.
    """

    def __init__(self, state: Any) -> None:
        self.state = state
        events = getattr(state, "events", None) or []
        self.last = events[-1] if events else None

    def new(self) -> tuple[tuple[Any, ...], ...]:
        events = getattr(self.state, "events", None) or []
        start = 0
        if self.last is not None:
            for i in range(len(events) - 1, -1, -1):
                if events[i] is self.last:
                    start = i + 1
                    break
        fresh = tuple(tuple(e) for e in events[start:])
        if events:
            self.last = events[-1]
        return fresh
