"""The lobby's "Games in progress": network seats kept on disk (:mod:`client.store.kept_seats`), to take again.

Hidden while there are none.  An unreadable folder is listed too, with its reason, and cannot be
chosen; one seat is taken again at a time (the main window says when it is done).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPushButton

from client.i18n import tr
from client.screens.lobby.section import Section, game_name
from client.store.kept_seats import BrokenSeat, SavedSeat, in_progress
from client.ui.named import named


def _when(stamp: float) -> str:
    """A moment for the list of games in progress, in this computer's time zone."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp > 0 else "—"


def row_text(row: SavedSeat | BrokenSeat) -> str:
    """A kept seat's line (game, room, players with ours marked, last activity; whose turn), or why it is unreadable."""
    if isinstance(row, BrokenSeat):
        why = tr(f"saved.why.{row.why}", detail=row.detail)
        return tr("saved.broken", folder=str(row.folder), reason=why)
    players = ", ".join(tr("room.you", name=n) if i == row.seat else n for i, n in enumerate(row.names)) or tr(
        "saved.players_unknown"
    )
    mine = row.turn_seat == row.seat
    turn = tr("saved.your_turn") if mine else (tr("saved.turn_of", name=row.turn) if row.turn else "")
    when = _when(row.last_activity or row.started)
    text = tr("saved.row", game=game_name(row.game), room=row.room, players=players, when=when)
    return f"{text}\n{turn}" if turn else text


class SavedSection(Section):
    """The kept seats not over, and "Resume" for the one chosen."""

    #: A kept seat to take again.
    resume_requested = Signal(object)

    def __init__(self, config: Path | None) -> None:
        super().__init__()
        #: Where the seats are kept (the settings directory).
        self.config = config
        self.games = QListWidget()
        self.games.setMaximumHeight(120)
        self.games.currentItemChanged.connect(lambda *_: self._chosen())
        self.games.itemDoubleClicked.connect(lambda *_: self._resume())
        self.box.addWidget(self.games)
        self.resume_button = named(QPushButton(), "primary")
        self.resume_button.setEnabled(False)
        self.resume_button.clicked.connect(self._resume)
        self.box.addWidget(self.resume_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.finish()
        #: What the list shows, row by row (a BrokenSeat cannot be resumed).
        self.rows: list[SavedSeat | BrokenSeat] = []
        #: The seat being taken again (None: none, and "Resume" may be clicked).
        self.resuming_seat: SavedSeat | None = None

    def show_games(self) -> None:
        """List the kept network seats not over (and every unreadable one, with its reason)."""
        rows = in_progress(self.config)
        chosen = self.games.currentRow()
        self.rows = rows
        self.games.clear()
        for row in rows:
            item = QListWidgetItem(row_text(row))
            if isinstance(row, BrokenSeat):
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.games.addItem(item)
        if 0 <= chosen < len(rows) and not isinstance(rows[chosen], BrokenSeat):
            self.games.setCurrentRow(chosen)
        self.setVisible(bool(rows))
        self._chosen()

    def _chosen(self) -> None:
        row = self.games.currentRow()
        ok = 0 <= row < len(self.rows) and isinstance(self.rows[row], SavedSeat)
        self.resume_button.setEnabled(ok and self.resuming_seat is None)

    def _resume(self) -> None:
        row = self.games.currentRow()
        if self.resuming_seat is not None or not 0 <= row < len(self.rows):
            return
        seat = self.rows[row]
        if isinstance(seat, SavedSeat):
            self.resume_requested.emit(seat)

    def resuming(self, seat: SavedSeat) -> None:
        """A kept seat is being taken again: say so, and one at a time."""
        self.resuming_seat = seat
        self.set_status(tr("saved.resuming", room=seat.room))
        self._chosen()

    def resuming_done(self) -> None:
        self.resuming_seat = None
        self.set_status("")
        self._chosen()

    def retranslate(self) -> None:
        self.title.setText(tr("saved.title"))
        self.text.setText(tr("saved.text"))
        self.resume_button.setText(tr("saved.resume"))
        self.show_games()
