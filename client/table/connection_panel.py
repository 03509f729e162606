"""The table's connection panel in a network game: who is connected, who is to move, the clock to the vote.

One line per seat (connected / not connected since … / left / declared gone), a line for the seat
that owes the next entry with the time left before the others may vote it gone, and — at the moment
that seat may be voted gone, or is not connected while it owes an entry — what a forfeit does to
this game: the game's kit says that in its own words (``GameKit.forfeit_note``), the panel adds what
holds for every game with two seats (the vote is only a claim).  While this computer cannot reach
the relay the panel says so, and that no clock runs here.

The values come from :func:`client.net.connection.read_state`; the panel only puts them in words.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from client.games.kit import GameKit
from client.i18n import tr
from client.net.connection import GONE, LEFT, OFFLINE, ONLINE, UNSEEN, ConnectionState, SeatState
from client.ui.named import named


def duration(ms: int) -> str:
    """A time left, as a clock would show it: ``1:05``, ``2:03:04``, or days for a slow game."""
    seconds = max(0, math.ceil(ms / 1000))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return tr("conn.days", days=days, rest=f"{hours}:{minutes:02d}")
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def moment(wall: float | None, now: float | None = None) -> str:
    """A wall-clock time: ``14:05`` today, with the date on another day (a slow game)."""
    if wall is None:
        return "?"
    now = time.time() if now is None else now
    shown, today = time.localtime(wall), time.localtime(now)
    if shown[:3] == today[:3]:
        return time.strftime("%H:%M:%S", shown)
    return time.strftime("%Y-%m-%d %H:%M", shown)


def seat_line(state: SeatState, names: Sequence[str]) -> str:
    """One seat's link to the relay, in words."""
    name = names[state.seat] if state.seat < len(names) else str(state.seat + 1)
    if state.me:
        return tr("conn.me_offline" if state.link == OFFLINE else "conn.me_online", name=name)
    if state.link == LEFT:
        return tr("conn.left", name=name)
    if state.link == GONE:
        return tr("conn.gone", name=name)
    if state.link == OFFLINE:
        return tr("conn.offline", name=name, time=moment(state.link_since))
    if state.link == UNSEEN:
        return tr("conn.unseen", name=name)
    return tr("conn.online", name=name)


def clock_line(state: ConnectionState, names: Sequence[str]) -> str:
    """The seat that owes the next entry and the time before the others may vote it gone ("" if none)."""
    seat = state.owing()
    if seat is None:
        return ""
    name = names[seat.seat] if seat.seat < len(names) else str(seat.seat + 1)
    since = moment(seat.owed_since)
    if seat.left_ms is None:
        return tr("conn.clock_stopped", name=name)
    if seat.me:
        return tr("conn.my_clock", left=duration(seat.left_ms))
    if seat.left_ms <= 0:
        return tr("conn.vote_open", name=name, time=since)
    return tr("conn.clock", name=name, time=since, left=duration(seat.left_ms))


def forfeit_text(state: ConnectionState, names: Sequence[str], kit: GameKit[Any]) -> str:
    """What a forfeit does to this game, when a seat may be voted gone (or owes an entry while not connected)."""
    seat = state.at_risk()
    if seat is None:
        return ""
    name = names[seat.seat] if seat.seat < len(names) else str(seat.seat + 1)
    parts = []
    parts.append(kit.forfeit_note(state.active))
    if state.active == 2:
        parts.append(tr("conn.claim", name=name))
    return " ".join(p for p in parts if p)


def offline_text(state: ConnectionState, names: Sequence[str]) -> str:
    """What it means that this computer cannot reach the relay ("" while it can)."""
    if not state.offline:
        return ""
    text = tr("net.offline")
    seat = state.owing()
    if seat is not None:
        name = tr("conn.you") if seat.me else (names[seat.seat] if seat.seat < len(names) else str(seat.seat + 1))
        text += " " + tr("net.offline_alone", name=name)
    return text


class ConnectionPanel(QFrame):
    """The side panel's block of connection lines (hidden for a local game)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("connection")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.headline = named(QLabel(), "conn_headline")
        self.headline.setWordWrap(True)
        self.headline.setStyleSheet("color: #a3261b; font-weight: bold;")
        self.rows: list[QLabel] = []
        self.rows_box = QVBoxLayout()
        self.rows_box.setSpacing(0)
        self.clock = named(QLabel(), "conn_clock")
        self.clock.setWordWrap(True)
        self.forfeit = named(QLabel(), "conn_forfeit")
        self.forfeit.setWordWrap(True)
        self.forfeit.setStyleSheet("color: #7a4b00;")
        layout.addWidget(self.headline)
        layout.addLayout(self.rows_box)
        layout.addWidget(self.clock)
        layout.addWidget(self.forfeit)
        self.state: ConnectionState | None = None

    def show_state(self, state: ConnectionState | None, names: Sequence[str], kit: GameKit[Any]) -> None:
        self.state = state
        self.setVisible(state is not None)
        if state is None:
            return
        while len(self.rows) < len(state.seats):
            label = QLabel()
            label.setWordWrap(True)
            self.rows.append(label)
            self.rows_box.addWidget(label)
        for label, seat in zip(self.rows, state.seats, strict=False):
            label.setText(seat_line(seat, names))
            style = "" if seat.link == ONLINE else "color: #8a5a00;"
            if label.styleSheet() != style:  # a new style sheet re-polishes the label: only on a change
                label.setStyleSheet(style)
        for label in self.rows[len(state.seats) :]:
            label.hide()
        for label, text in ((self.headline, offline_text(state, names)), (self.clock, clock_line(state, names))):
            label.setText(text)
            label.setVisible(bool(text))
        text = forfeit_text(state, names, kit)
        self.forfeit.setText(text)
        self.forfeit.setVisible(bool(text))

    def texts(self) -> list[str]:
        """Every line shown, top to bottom (for tests and screen readers)."""
        labels = [self.headline, *self.rows, self.clock, self.forfeit]
        return [label.text() for label in labels if not label.isHidden() and label.text()]
