"""A game's log as the shared screens read it: what a log writer is told, and the lines it gives.

Each game writes its own log (``client/games/<game>/present.py``): its writer turns one applied
action into lines, and a line is kept as a message id with raw parameters, rendered by
:meth:`LogLine.text` when shown, so a language switch re-labels the whole log.  The shared
screens name no game, so they read writers and lines only through these Protocols: the log
view shows a :class:`LogLine` (its words and its tone), the table's voice speaks a
:class:`GameLine` to the viewer (its message id and seats), and the table window and the replay
viewer drive a :class:`LogWriter` with the :class:`Applied` actions they hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self

from engines.core import Action, Knowledge

#: An engine's display event: a plain tuple, its verb first, then its fields (seats, cards, cells).
Event = tuple[Any, ...]


class Applied(Protocol):
    """What a log writer reads of an applied action: a game source's entry or a replay's frame.

    ``seat`` and ``action`` are None only for a replay's opening frame, which tells nothing.
    """

    @property
    def seat(self) -> int | None: ...

    @property
    def action(self) -> Action | None: ...

    @property
    def events(self) -> Sequence[Event]:
        """The engine's display events the action caused (plain tuples, a verb first)."""
        ...

    @property
    def before(self) -> object:
        """What the game waited for just before the action (a :data:`engines.core.Pending`, or None)."""
        ...


class LogLine(Protocol):
    """What the log view shows of a line: its words in the current language, and its tone."""

    @property
    def tone(self) -> str:
        """``"plain"``, ``"event"``, ``"good"``, ``"private"`` or ``"win"``: the line's colour and weight."""
        ...

    def text(self, names: Sequence[str]) -> str:
        """The line in the current language, the seats named by ``names``."""
        ...


class GameLine(LogLine, Protocol):
    """A game's log line: a message id and its seats, subject first, so it can be spoken to the viewer.

    :mod:`client.table.voice` looks up a ``<msg>.you`` variant when the viewer's seat is in
    :attr:`seats` and shows the line :meth:`reworded` to it.
    """

    @property
    def msg(self) -> str: ...

    @property
    def seats(self) -> tuple[tuple[str, int], ...]:
        """``(parameter, seat)`` pairs, the line's subject first; named at render time."""
        ...

    def reworded(self, msg: str) -> Self:
        """The same line under message id ``msg``, every other field kept."""
        ...


class LogWriter(Protocol):
    """A game's log writer for one seat's eyes, made by the game's kit for the whole game.

    A writer may follow the game from the actions it is told (to fold the opening deal into
    one line, or to know which Networks collapsed), so it is told every applied action once,
    in history order.
    """

    def lines(self, entry: Applied, knowledge: Knowledge) -> list[GameLine]:
        """The lines that tell ``entry``, as the seat holding ``knowledge`` may know it."""
        ...
