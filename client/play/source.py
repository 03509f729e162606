"""What every game source shares: the entries it shows, the engine events they caused, two pseudo-actions.

A *game source* is what the table window plays and shows: a local game (:mod:`client.play.local`,
the referee holds the truth) or a networked seat (:mod:`client.net.game`).  Both give the table
the same :class:`Entry` list, built with :class:`EventTap` from the engine's display events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engines.core import Action, GameOver, GameState, Knowledge, Pending

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


class GameSource(Protocol):
    """A game the table window plays and shows, one *step* at a time.

    Both sources keep the truth elsewhere (the referee, or the protocol session) and show the
    human's seat only what it may know: :attr:`knowledge` is that seat's, :meth:`view` is drawn
    through it, and :meth:`legal` offers nothing when it is not the human's decision.  A step
    is one decision by another seat with the table's resolutions around it, so a screen can show
    the others' turns one by one at the pace the player chose.
    """

    @property
    def game(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def names(self) -> list[str]: ...

    @property
    def human(self) -> int: ...

    @property
    def human_left(self) -> bool: ...

    @property
    def entries(self) -> list[Entry]: ...

    @property
    def state(self) -> GameState: ...

    @property
    def knowledge(self) -> Knowledge: ...

    @property
    def history(self) -> list[tuple[int, Action]]: ...

    def pending(self) -> Pending: ...

    def over(self) -> GameOver | None: ...

    def human_to_move(self) -> bool: ...

    def has_steps(self) -> bool: ...

    def legal(self) -> list[Action]: ...

    def view(self) -> dict[str, Any]: ...

    def step(self) -> list[Entry]:
        """The next step the human does not decide (empty while waiting for the human)."""
        ...

    def act(self, action: Action) -> list[Entry]:
        """The human's decision (``IllegalAction`` and no change unless it is legal now)."""
        ...

    def forfeit_human(self) -> list[Entry]:
        """The human leaves the game; the others play on."""
        ...
