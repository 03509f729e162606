"""The table as it was after an earlier log line: the position, seen through the viewer's eyes then.

Clicking a log line shows the board just after the action that line tells (issue 16: "let a
player click a log line to see the board at that moment").  The position comes from the same
place as the replay viewer's frames: a local game's record is rebuilt through the referee
(:class:`client.play.local_file.Replay`), and its frame carries the *viewer's own* knowledge at that
point, never the truth, so looking back never shows a card or a Decoy the player did not know
of then.  A networked game has no record to rebuild here, so :class:`Moments` keeps what the
player saw: the state and this seat's knowledge after each step it showed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import Knowledge


@dataclass(frozen=True)
class Moment:
    """One past position: the entry it follows (0-based), its state, and what the viewer knew."""

    entry: int
    state: Any
    knowledge: Knowledge

    def view(self) -> dict[str, Any]:
        return self.state.view(self.knowledge)


class Moments:
    """Past positions of one game on screen, by entry position in ``game.entries``."""

    def __init__(self, game: Any) -> None:
        self.game = game
        #: For games without a record (networked): entry position -> the position shown after it.
        self.seen: dict[int, tuple[Any, Knowledge]] = {}
        #: A local game's rebuilt frames, kept while the game has not moved on (looking back and forth is instant).
        self._frames: tuple[int, list[Any]] = (-1, [])

    def note(self) -> None:
        """The game was just shown: remember its position for its newest entry (networked games)."""
        if self._rebuildable() or not self.game.entries:
            return
        self.seen[len(self.game.entries) - 1] = (self.game.state.clone(), self.game.knowledge.copy())

    def at(self, entry: int) -> Moment | None:
        """The position just after entry ``entry`` as the viewer knew it (None: not known here)."""
        if not 0 <= entry < len(self.game.entries):
            return None
        if self._rebuildable():
            from client.play.local_file import GameFileError, record_of
            from client.play.replays import Replay

            if self._frames[0] != len(self.game.entries):
                try:
                    self._frames = (len(self.game.entries), Replay(record_of(self.game)).frames)
                except GameFileError:
                    return None
            frames = self._frames[1]
            if entry + 1 >= len(frames):
                return None
            frame = frames[entry + 1]  # frame 0 is the table before the first entry
            return Moment(entry, frame.state, frame.human)
        later = [k for k in self.seen if k >= entry]
        if not later:
            return None
        state, knowledge = self.seen[min(later)]
        return Moment(entry, state, knowledge)

    def _rebuildable(self) -> bool:
        from client.play.local import LocalGame

        return isinstance(self.game, LocalGame)
