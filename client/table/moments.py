"""The table as it was after an earlier log line: the position, seen through the viewer's eyes then.

Clicking a log line shows the board just after the action that line tells.  A local game's
positions come from the same place as the replay viewer's frames: its record is rebuilt through
the referee (:class:`client.play.replays.Replay`), and each frame carries the *viewer's own*
knowledge at that point, never the truth, so looking back never shows a card or a Decoy the
player did not know of then.  A networked game has no record to rebuild here, so
:class:`Moments` keeps what the player saw: the state and this seat's knowledge after each step
it showed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from client.play.local import LocalGame
from client.play.local_file import GameFileError, record_of
from client.play.replays import Frame, Replay
from client.play.source import GameSource
from engines.core import GameState, Knowledge

#: A game's positions rebuilt from its record, one frame per entry after the opening one.
Rebuild = Callable[[], list[Frame]]


@dataclass(frozen=True)
class Moment:
    """One past position: the entry it follows (0-based), its state, and what the viewer knew."""

    entry: int
    state: GameState
    knowledge: Knowledge

    def view(self) -> dict[str, Any]:
        return self.state.view(self.knowledge)


def rebuilt(game: LocalGame) -> Rebuild:
    """A local game's frames, replayed through the referee from its record as it stands."""
    return lambda: Replay(record_of(game)).frames


class Moments:
    """Past positions of one game on screen, by entry position in ``game.entries``.

    ``rebuild`` is given for a game whose record can be replayed (a local game): its positions
    are rebuilt on demand.  Without it (a networked seat) the positions are the ones noted as
    they were shown.
    """

    def __init__(self, game: GameSource, rebuild: Rebuild | None = None) -> None:
        self.game = game
        self.rebuild = rebuild
        #: For games without a record (networked): entry position -> the position shown after it.
        self.seen: dict[int, tuple[GameState, Knowledge]] = {}
        #: A local game's rebuilt frames, kept while the game has not moved on (looking back and forth is instant).
        self._frames: tuple[int, list[Frame]] = (-1, [])

    @classmethod
    def of_local(cls, game: LocalGame) -> Moments:
        return cls(game, rebuilt(game))

    def note(self) -> None:
        """The game was just shown: remember its position for its newest entry (networked games)."""
        if self.rebuild is not None or not self.game.entries:
            return
        self.seen[len(self.game.entries) - 1] = (self.game.state.clone(), self.game.knowledge.copy())

    def at(self, entry: int) -> Moment | None:
        """The position just after entry ``entry`` as the viewer knew it (None: not known here)."""
        if not 0 <= entry < len(self.game.entries):
            return None
        if self.rebuild is not None:
            return self._rebuilt(entry, self.rebuild)
        later = [k for k in self.seen if k >= entry]
        if not later:
            return None
        state, knowledge = self.seen[min(later)]
        return Moment(entry, state, knowledge)

    def _rebuilt(self, entry: int, rebuild: Rebuild) -> Moment | None:
        if self._frames[0] != len(self.game.entries):
            try:
                self._frames = (len(self.game.entries), rebuild())
            except GameFileError:
                return None
        frames = self._frames[1]
        if entry + 1 >= len(frames):
            return None
        frame = frames[entry + 1]  # frame 0 is the table before the first entry
        return Moment(entry, frame.state, frame.human)
