"""The lobby: play against the computer, a LAN game, or a game over the internet.

Network buttons start coroutines from :mod:`client.net` (hosting, joining, LAN) on the asyncio loop
(qasync runs it inside Qt's event loop), so the window stays responsive while
a relay is tried; every failure ends as a sentence in the section's status
line, never as a frozen window or a traceback.

While a room is hosted or joined, the room panel (:class:`RoomPanel`) shows who sits where.  The
host picks its seat ("Sit here"), makes empty seats bots (each runs on the host's machine with its
own keys, session and relay connection, at the bot-speed setting) and starts; seat 1 writes the
game's genesis, so it stays with the host's machine (the host or one of its bots).  A joiner may ask
for a seat ("Seat" in the internet section).  "Cancel" — or leaving the lobby screen — stops waiting
at once: a hosted room's card leaves the relay's listing and its joiners are told; a joiner's seat is
freed.

Invitations and approval (client/README.md): the host's panel shows the invitation (link and words)
and every request with the guest's key fingerprint, to let in, turn away or remove before the start;
a joiner pastes the invitation, or — with a room code only — is shown the host's name, key and answer
time before "Join this room".  Every join pins the host's key.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from client.games.kit import bot_kinds, bot_label, kit_for, playable
from client.i18n import LANGUAGE, tr
from client.net import tasks
from client.net.address import grouped_fingerprint, parse_invite, split_relays
from client.net.errors import NetError
from client.net.hosting import Hosting, Request, SeatRow, host_room
from client.net.joining import join_online, peek_online
from client.net.lan import LanRelay, LanRoom, discover_rooms, host_lan
from client.net.probe import probe_relay
from client.screens.rules_pages import GAMES
from client.store.settings import Settings
from client.ui.named import named
from engines.core import registry

#: The answer time a new room starts with (the host may change it in the room panel).
DEFAULT_ANSWER_MS = 120_000

#: Rooms being closed after a Cancel (kept referenced until they are).
_CLOSING: set[asyncio.Future[Any]] = set()

#: Games whose table this version of the program can show (those with a kit in :mod:`client.games.kit`).
PLAYABLE = playable()

#: The answer times a host picks from (ms): the protocol allows 30 s .. 7 days (``protocol.schema``).
ANSWER_TIMES = (30_000, 120_000, 600_000, 3_600_000, 86_400_000, 7 * 86_400_000)
#: A preset's words (message id); any other time is said in the largest unit that divides it.
_ANSWER_WORDS = dict(zip(ANSWER_TIMES, ("30s", "2min", "10min", "1h", "1d", "7d"), strict=True))


def answer_time(ms: int) -> str:
    """A seat's answer time in words: "2 minutes", "1 day"; "45 s", "3 h" for a time that is no preset."""
    if ms in _ANSWER_WORDS:
        return tr(f"answer.{_ANSWER_WORDS[ms]}")
    for unit, size in (("days", 86_400_000), ("hours", 3_600_000), ("minutes", 60_000)):
        if ms >= size and ms % size == 0:
            return tr(f"answer.n_{unit}", n=ms // size)
    return tr("answer.n_seconds", n=max(ms, 0) // 1000 if ms % 1000 == 0 else round(max(ms, 0) / 1000, 1))


def _when(stamp: float) -> str:
    """A moment for the list of games in progress, in this computer's time zone."""
    import time

    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp > 0 else "—"


STYLE = (
    "QWidget#lobby { background: qlineargradient(x1:0, y1:0, x2:1, y2:1, stop:0 #15302a, stop:1 #0e1f2e); }"
    "QScrollArea, QWidget#lobby_content { background: transparent; border: none; }"
    "QFrame#section { background: rgba(255,255,255,235); border-radius: 14px; }"
    "QLabel#title { color: white; font-size: 30px; font-weight: bold; }"
    "QLabel#tagline { color: #cfe3da; font-size: 14px; }"
    "QLabel#welcome { color: #ffd54a; font-size: 15px; }"
    "QLabel#section_title { font-size: 17px; font-weight: bold; color: #16342b; }"
    "QLabel#section_text { color: #4a5a53; }"
    "QLabel#status { color: #1f4f8a; }"
    'QLabel#status[error="true"] { color: #a3261b; font-weight: bold; }'
    "QPushButton#primary { background: #1f7a55; color: white; border-radius: 8px; padding: 8px 16px; font-size: 14px; }"
    "QPushButton#primary:disabled { background: #9bb3a9; }"
)


class Section(QFrame):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("section")
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(18, 14, 18, 16)
        self.box.setSpacing(8)
        self.title = named(QLabel(), "section_title")
        self.text = named(QLabel(), "section_text")
        self.text.setWordWrap(True)
        self.box.addWidget(self.title)
        self.box.addWidget(self.text)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def finish(self) -> None:
        self.box.addStretch(1)
        self.box.addWidget(self.status)

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", "true" if error else "false")
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)


class RoomPanel(QFrame):
    """The room being hosted or joined: who sits where, the host's seat and bot choices, start, cancel.

    The host's rows carry a choice per free seat ("Wait for a player" or a bot) and a "Sit here"
    button; a joiner's rows are read-only.  The panel only shows and asks: the lobby does the work.
    """

    sit_requested = Signal(int)
    bot_requested = Signal(int, str)  # seat, bot kind ("" = free it)
    start_requested = Signal()
    cancel_requested = Signal()
    accept_requested = Signal(str)  # peer
    refuse_requested = Signal(str)  # peer
    remove_requested = Signal(str)  # peer
    join_confirmed = Signal()
    answer_time_chosen = Signal(int)  # ms

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("section")
        box = QVBoxLayout(self)
        box.setContentsMargins(18, 12, 18, 12)
        self.title = named(QLabel(), "section_title")
        self.hint = named(QLabel(), "section_text")
        self.hint.setWordWrap(True)
        box.addWidget(self.title)
        box.addWidget(self.hint)
        # The answer time: the host chooses it while the room fills; a joiner reads it.
        answer_row = QHBoxLayout()
        self.answer_label = named(QLabel(), "section_text")
        self.answer_choice = QComboBox()
        for ms in ANSWER_TIMES:
            self.answer_choice.addItem("", ms)
        self.answer_choice.activated.connect(
            lambda _i: self.answer_time_chosen.emit(int(self.answer_choice.currentData()))
        )
        self.answer_text = named(QLabel(), "section_text")
        answer_row.addWidget(self.answer_label)
        answer_row.addWidget(self.answer_choice)
        answer_row.addWidget(self.answer_text)
        answer_row.addStretch(1)
        box.addLayout(answer_row)
        self.answer_ms = 0
        # The host's invitation: words to read out, a link to paste.
        invite_row = QHBoxLayout()
        self.invite = named(QLabel(), "section_text")
        self.invite.setWordWrap(True)
        self.invite.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self._copy_invitation)
        invite_row.addWidget(self.invite, 1)
        invite_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        box.addLayout(invite_row)
        self.link = ""
        self.grid = QGridLayout()
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnStretch(5, 1)
        box.addLayout(self.grid)
        self.rows: list[tuple[QLabel, QLabel, QComboBox, QPushButton, QPushButton]] = []
        self._row_peers: list[str] = []
        # Requests waiting for the host's answer: name and key, "Let in", "Turn away".
        self.requests_title = named(QLabel(), "section_text")
        box.addWidget(self.requests_title)
        self.requests_grid = QGridLayout()
        self.requests_grid.setColumnStretch(0, 1)
        box.addLayout(self.requests_grid)
        self.request_rows: list[tuple[QLabel, QPushButton, QPushButton]] = []
        self._requests: list[Request] = []
        buttons = QHBoxLayout()
        self.start_button = named(QPushButton(), "primary")
        self.start_button.clicked.connect(self.start_requested.emit)
        self.join_button = named(QPushButton(), "primary")
        self.join_button.clicked.connect(self.join_confirmed.emit)
        self.join_button.setVisible(False)
        self.cancel_button = QPushButton()
        self.cancel_button.clicked.connect(self.cancel_requested.emit)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.join_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        box.addLayout(buttons)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        box.addWidget(self.status)
        self.hosting = False
        self.kinds: list[str] = []
        self.setVisible(False)

    def set_seats(self, count: int, hosting: bool, kinds: list[str]) -> None:
        """Make ``count`` rows; the host's have the bot choice and "Sit here"."""
        self.hosting, self.kinds = hosting, kinds
        while len(self.rows) > count:
            for w in self.rows.pop():
                self.grid.removeWidget(w)
                w.deleteLater()
        while len(self.rows) < count:
            seat = len(self.rows)
            label, who, choice, sit, remove = QLabel(), QLabel(), QComboBox(), QPushButton(), QPushButton()
            choice.activated.connect(lambda _i, s=seat: self._chosen(s))
            sit.clicked.connect(lambda _=False, s=seat: self.sit_requested.emit(s))
            remove.clicked.connect(lambda _=False, s=seat: self._remove(s))
            remove.setVisible(False)
            for col, cell in enumerate((label, who, choice, sit, remove)):
                self.grid.addWidget(cell, seat, col)
            self.rows.append((label, who, choice, sit, remove))
        self._row_peers = [""] * count
        if not hosting:
            self.show_invitation("", "")
            self.show_requests([])
        for _, _, choice, _, _ in self.rows:
            choice.blockSignals(True)
            choice.clear()
            choice.addItem("", "")
            for kind in kinds:
                choice.addItem("", kind)
            choice.blockSignals(False)
        self.start_button.setVisible(hosting)
        self.status.setText("")
        self.show_answer_time(self.answer_ms if hosting else 0, hosting)
        self.retranslate()

    def show_answer_time(self, ms: int, hosting: bool | None = None) -> None:
        """The room's answer time: a choice for the host, words for a joiner (0: not known yet)."""
        hosting = self.hosting if hosting is None else hosting
        self.answer_ms = ms
        self.answer_choice.setVisible(hosting)
        index = self.answer_choice.findData(ms)
        if hosting and index < 0 and ms:
            self.answer_choice.addItem(answer_time(ms), ms)
            index = self.answer_choice.count() - 1
        if index >= 0:
            self.answer_choice.setCurrentIndex(index)
        self.answer_text.setText("" if hosting or not ms else answer_time(ms))
        self.answer_label.setVisible(hosting or bool(ms))
        self.answer_text.setVisible(not hosting and bool(ms))

    def _chosen(self, seat: int) -> None:
        self.bot_requested.emit(seat, self.rows[seat][2].currentData() or "")

    def _remove(self, seat: int) -> None:
        if seat < len(self._row_peers) and self._row_peers[seat]:
            self.remove_requested.emit(self._row_peers[seat])

    def _copy_invitation(self) -> None:
        from PySide6.QtWidgets import QApplication

        QApplication.clipboard().setText(self.link)

    def show_invitation(self, link: str, read_out: str) -> None:
        """The host's invitation (empty: none, for a joiner), with the answer time chosen."""
        self.link = link
        self._read_out = read_out
        text = tr("room.invitation", link=link, words=read_out) if link else ""
        if link and self.answer_ms:
            text += "\n" + tr("room.invitation_answer", answer=answer_time(self.answer_ms))
        self.invite.setText(text)
        self.invite.setVisible(bool(link))
        self.copy_button.setVisible(bool(link))

    def show_requests(self, requests: list[Request]) -> None:
        """Who asks for a seat: a row each with "Let in" and "Turn away" (the host's view)."""
        while len(self.request_rows) > len(requests):
            for w in self.request_rows.pop():
                self.requests_grid.removeWidget(w)
                w.deleteLater()
        while len(self.request_rows) < len(requests):
            row = len(self.request_rows)
            label, accept, refuse = QLabel(), QPushButton(), QPushButton()
            accept.clicked.connect(lambda _=False, r=row: self._answer(r, True))
            refuse.clicked.connect(lambda _=False, r=row: self._answer(r, False))
            for col, cell in enumerate((label, accept, refuse)):
                self.requests_grid.addWidget(cell, row, col)
            self.request_rows.append((label, accept, refuse))
        self._requests = list(requests)
        for req, (label, accept, refuse) in zip(requests, self.request_rows, strict=True):
            seat = tr("room.seat", n=req.seat + 1) if req.seat is not None else tr("lobby.net.any_seat")
            label.setText(tr("room.request", name=req.name, key=grouped_fingerprint(req.fingerprint), seat=seat))
            accept.setText(tr("room.accept"))
            refuse.setText(tr("room.refuse"))
        self.requests_title.setText(tr("room.requests") if requests else "")
        self.requests_title.setVisible(bool(requests))

    def _answer(self, row: int, accept: bool) -> None:
        if row < len(self._requests):
            peer = self._requests[row].peer
            (self.accept_requested if accept else self.refuse_requested).emit(peer)

    def confirm_join(self, text: str) -> None:
        """A joiner with only a room code: who hosts it (name, key) and its answer time, and "Join"."""
        self.hint.setText(text)
        self.join_button.setVisible(True)
        self.start_button.setVisible(False)

    def retranslate(self) -> None:
        for seat, (label, _, choice, sit, remove) in enumerate(self.rows):
            label.setText(tr("room.seat", n=seat + 1))
            sit.setText(tr("room.sit"))
            remove.setText(tr("room.remove"))
            choice.setItemText(0, tr("room.choice.person"))
            for i, kind in enumerate(self.kinds, start=1):
                choice.setItemText(i, tr("room.choice.bot", kind=bot_label(kind)))
        self.answer_label.setText(tr("room.answer_time"))
        for i in range(self.answer_choice.count()):
            self.answer_choice.setItemText(i, answer_time(int(self.answer_choice.itemData(i))))
        if self.answer_text.text():
            self.answer_text.setText(answer_time(self.answer_ms))
        if self.link:
            self.show_invitation(self.link, getattr(self, "_read_out", ""))
        self.start_button.setText(tr("room.start"))
        self.join_button.setText(tr("room.join"))
        self.copy_button.setText(tr("room.copy"))
        self.cancel_button.setText(tr("room.cancel"))
        if not self.join_button.isVisible():
            self.hint.setText(tr("room.start_hint") if self.hosting else "")

    def show_rows(self, rows: list[SeatRow], can_start: bool = False) -> None:
        """Who sits where (the host's view: :class:`client.net.hosting.SeatRow` per seat)."""
        self._row_peers = [row.peer for row in rows]
        for row, (_, who, choice, sit, remove) in zip(rows, self.rows, strict=False):
            texts = {
                "you": tr("room.you", name=row.name),
                "player": row.name or tr("room.person"),
                "bot": tr("room.bot", name=row.name, kind=bot_label(row.bot)),
                "free": tr("room.free"),
                "bots-only": tr("room.bots_only"),
            }
            who.setText(texts[row.kind])
            choice.setVisible(self.hosting and row.kind in ("free", "bots-only", "bot"))
            index = choice.findData(row.bot if row.kind == "bot" else "")
            choice.setCurrentIndex(max(index, 0))
            sit.setVisible(self.hosting and row.kind in ("free", "bots-only"))
            remove.setVisible(self.hosting and row.kind == "player")
        self.start_button.setEnabled(can_start)

    def show_card(self, names: list[str], mine: int | None) -> None:
        """A joiner's view: the names from the room's lobby card, ours marked."""
        for seat, (_, who, choice, sit, remove) in enumerate(self.rows):
            name = names[seat] if seat < len(names) else ""
            who.setText(tr("room.you", name=name) if seat == mine else (name or tr("room.free")))
            choice.setVisible(False)
            sit.setVisible(False)
            remove.setVisible(False)

    def set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setProperty("error", "true" if error else "false")
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)


class Lobby(QWidget):
    """The first screen; emits what the player chose."""

    start_local = Signal(str, int)
    show_rules = Signal(str)
    open_replay = Signal()
    relay_used = Signal(str)
    network_game = Signal(object)
    #: A kept seat to take again (:class:`client.store.kept_seats.SavedSeat`).
    resume_requested = Signal(object)

    def __init__(self, settings: Settings, config: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        #: Where the player's signing key lives (the settings directory).
        self.config = config
        self.setObjectName("lobby")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        self.busy: set[str] = set()
        #: The running network task of each busy key (cancelled by "Cancel").
        self.running: dict[str, Any] = {}
        #: The room this window hosts while it fills (:class:`client.net.hosting.Hosting`), and where it shows.
        self.hosting: Hosting | None = None
        self.hosting_section: Section | None = None
        #: The room this window is joining: (section, room code) while waiting for the start.
        self.joining: tuple[Section, str] | None = None
        # Everything scrolls rather than squash: once a room's panel opens below the sections,
        # a window of 800 px cannot hold them all at their natural height.
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = named(QWidget(), "lobby_content")
        self.scroll_area.setWidget(content)
        self.scroll_area.viewport().setAutoFillBackground(False)
        content.setAutoFillBackground(False)
        outer.addWidget(self.scroll_area)
        root = QVBoxLayout(content)
        root.setContentsMargins(36, 28, 36, 28)
        root.setSpacing(16)
        head = QHBoxLayout()
        titles = QVBoxLayout()
        self.title = named(QLabel(), "title")
        self.tagline = named(QLabel(), "tagline")
        self.welcome = named(QLabel(), "welcome")
        titles.addWidget(self.title)
        titles.addWidget(self.tagline)
        titles.addWidget(self.welcome)
        head.addLayout(titles, 1)
        self.replay_button = QPushButton()
        self.replay_button.clicked.connect(self.open_replay.emit)
        head.addWidget(self.replay_button, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(head)

        # -- network games in progress (kept on disk: client/kept_seats.py); hidden when there are none
        self.saved = Section()
        self.saved_list = QListWidget()
        self.saved_list.setMaximumHeight(120)
        self.saved_list.currentItemChanged.connect(lambda *_: self._saved_chosen())
        self.saved_list.itemDoubleClicked.connect(lambda *_: self._resume())
        self.saved.box.addWidget(self.saved_list)
        self.resume_button = named(QPushButton(), "primary")
        self.resume_button.setEnabled(False)
        self.resume_button.clicked.connect(self._resume)
        self.saved.box.addWidget(self.resume_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.saved.finish()
        root.addWidget(self.saved)
        #: What the list shows, row by row (a SavedSeat, or a BrokenSeat that cannot be resumed).
        self.saved_rows: list[Any] = []
        self.resuming_seat: Any = None

        grid = QGridLayout()
        grid.setSpacing(16)
        root.addLayout(grid, 1)

        # -- against the computer
        self.local = Section()
        form = QFormLayout()
        self.game = QComboBox()
        for name in GAMES:
            self.game.addItem("", name)
        self.game.currentIndexChanged.connect(self._game_changed)
        self.players = QSpinBox()
        self.players.setRange(2, 6)
        self.players.setValue(settings.players)
        self.level = QComboBox()
        self.game_label, self.players_label, self.level_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.game_label, self.game)
        form.addRow(self.players_label, self.players)
        form.addRow(self.level_label, self.level)
        self.level_form = form
        self.local.box.addLayout(form)
        self.blurb = named(QLabel(), "section_text")
        self.blurb.setWordWrap(True)
        self.local.box.addWidget(self.blurb)
        buttons = QHBoxLayout()
        self.start = named(QPushButton(), "primary")
        self.start.clicked.connect(self._start)
        self.rules_button = QPushButton()
        self.rules_button.clicked.connect(lambda: self.show_rules.emit(self.game.currentData()))
        buttons.addWidget(self.start)
        buttons.addWidget(self.rules_button)
        buttons.addStretch(1)
        self.local.box.addLayout(buttons)
        # Each game's picture (from its kit), shown for the game chosen.
        self.art = QStackedWidget()
        self.arts: dict[str, QWidget] = {}
        for i in range(self.game.count()):
            name = self.game.itemData(i)
            if name in PLAYABLE:
                self.arts[name] = kit_for(name).lobby_art()
                self.art.addWidget(self.arts[name])
        self.local.box.addWidget(self.art, 4)
        self.local.finish()
        grid.addWidget(self.local, 0, 0, 2, 1)

        # -- LAN
        self.lan = Section()
        lan_buttons = QHBoxLayout()
        self.host = named(QPushButton(), "primary")
        self.host.clicked.connect(self._host)
        self.search = QPushButton()
        self.search.clicked.connect(self._search)
        lan_buttons.addWidget(self.host)
        lan_buttons.addWidget(self.search)
        lan_buttons.addStretch(1)
        self.lan.box.addLayout(lan_buttons)
        self.found = QListWidget()
        self.found.setMaximumHeight(90)
        self.lan.box.addWidget(self.found)
        self.join_lan = QPushButton()
        self.join_lan.setEnabled(False)
        self.found.currentItemChanged.connect(lambda *_: self.join_lan.setEnabled(self.found.currentItem() is not None))
        self.join_lan.clicked.connect(self._join_lan)
        self.lan.box.addWidget(self.join_lan, 0, Qt.AlignmentFlag.AlignLeft)
        self.lan.finish()
        grid.addWidget(self.lan, 0, 1)

        # -- internet
        self.online = Section()
        nform = QFormLayout()
        self.relay = QComboBox()
        self.relay.setEditable(True)
        self.relay.addItems(settings.relays)
        self.room = QLineEdit()
        self.room.setMaxLength(300)  # a room code, or a whole invitation link
        self.host_key = QLineEdit()
        self.host_key.setMaxLength(40)
        self.listed = QCheckBox()
        self.listed.setChecked(True)
        self.seat_wish = QComboBox()
        self.seat_wish.addItem("", None)
        for seat in range(1, 6):  # seat 1 (index 0) writes the genesis: the host's machine keeps it
            self.seat_wish.addItem("", seat)
        self.relay_label, self.room_label, self.seat_label = QLabel(), QLabel(), QLabel()
        self.host_key_label = QLabel()
        nform.addRow(self.relay_label, self.relay)
        nform.addRow(self.room_label, self.room)
        nform.addRow(self.host_key_label, self.host_key)
        nform.addRow(self.seat_label, self.seat_wish)
        nform.addRow("", self.listed)
        self.online.box.addLayout(nform)
        self.join = named(QPushButton(), "primary")
        self.join.clicked.connect(self._join_online)
        self.host_online = QPushButton()
        self.host_online.clicked.connect(self._host_online)
        online_buttons = QHBoxLayout()
        online_buttons.addWidget(self.join)
        online_buttons.addWidget(self.host_online)
        online_buttons.addStretch(1)
        self.online.box.addLayout(online_buttons)
        self.online.finish()
        grid.addWidget(self.online, 1, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)

        # -- the room being hosted or joined (hidden until then)
        self.room_panel = RoomPanel()
        self.room_panel.sit_requested.connect(self._sit)
        self.room_panel.bot_requested.connect(self._set_bot)
        self.room_panel.start_requested.connect(self._start_room)
        self.room_panel.cancel_requested.connect(self.cancel_waiting)
        self.room_panel.accept_requested.connect(self._accept)
        self.room_panel.refuse_requested.connect(self._refuse)
        self.room_panel.remove_requested.connect(self._remove)
        self.room_panel.join_confirmed.connect(self._join_confirmed)
        self.room_panel.answer_time_chosen.connect(self._answer_time_chosen)
        self.room_panel.answer_ms = DEFAULT_ANSWER_MS
        root.addWidget(self.room_panel)
        #: A room seen by its code only, shown to the player before asking for a seat:
        #: (section, address, code, seat wish, the host's fingerprint from its card).
        self.confirming: tuple[Section, str, str, int | None, str] | None = None

        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    # -- games in progress -------------------------------------------------------------------
    def show_saved_games(self) -> None:
        """List the kept network seats not over (and every unreadable one, with its reason)."""
        from client.store import kept_seats

        rows = kept_seats.in_progress(self.config)
        chosen = self.saved_list.currentRow()
        self.saved_rows = rows
        self.saved_list.clear()
        for row in rows:
            item = QListWidgetItem(self._saved_text(row))
            if isinstance(row, kept_seats.BrokenSeat):
                item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.saved_list.addItem(item)
        if 0 <= chosen < len(rows) and not isinstance(rows[chosen], kept_seats.BrokenSeat):
            self.saved_list.setCurrentRow(chosen)
        self.saved.setVisible(bool(rows))
        self._saved_chosen()

    def _saved_text(self, row: Any) -> str:
        from client.store import kept_seats

        if isinstance(row, kept_seats.BrokenSeat):
            why = tr(f"saved.why.{row.why}", detail=row.detail)
            return tr("saved.broken", folder=str(row.folder), reason=why)
        game = tr(f"game.{row.game}") if row.game in GAMES else row.game
        players = ", ".join(tr("room.you", name=n) if i == row.seat else n for i, n in enumerate(row.names)) or tr(
            "saved.players_unknown"
        )
        mine = row.turn_seat == row.seat
        turn = tr("saved.your_turn") if mine else (tr("saved.turn_of", name=row.turn) if row.turn else "")
        when = _when(row.last_activity or row.started)
        text = tr("saved.row", game=game, room=row.room, players=players, when=when)
        return f"{text}\n{turn}" if turn else text

    def _saved_chosen(self) -> None:
        from client.store import kept_seats

        row = self.saved_list.currentRow()
        ok = 0 <= row < len(self.saved_rows) and isinstance(self.saved_rows[row], kept_seats.SavedSeat)
        self.resume_button.setEnabled(ok and self.resuming_seat is None)

    def _resume(self) -> None:
        from client.store import kept_seats

        row = self.saved_list.currentRow()
        if self.resuming_seat is not None or not 0 <= row < len(self.saved_rows):
            return
        seat = self.saved_rows[row]
        if isinstance(seat, kept_seats.SavedSeat):
            self.resume_requested.emit(seat)

    def resuming(self, seat: Any) -> None:
        """A kept seat is being taken again: say so, and one at a time."""
        self.resuming_seat = seat
        self.saved.set_status(tr("saved.resuming", room=seat.room))
        self._saved_chosen()

    def resuming_done(self) -> None:
        self.resuming_seat = None
        self.saved.set_status("")
        self._saved_chosen()

    # -- words ----------------------------------------------------------------------
    def retranslate(self, *_: object) -> None:
        self.title.setText(tr("app.title"))
        self.saved.title.setText(tr("saved.title"))
        self.saved.text.setText(tr("saved.text"))
        self.resume_button.setText(tr("saved.resume"))
        self.show_saved_games()
        self.tagline.setText(tr("app.tagline"))
        self.welcome.setText(tr("lobby.welcome", name=self.settings.name))
        self.replay_button.setText(tr("menu.open_replay"))
        self.local.title.setText(tr("lobby.local.title"))
        self.local.text.setText(tr("lobby.local.text"))
        self.game_label.setText(tr("lobby.game"))
        self.players_label.setText(tr("lobby.players"))
        self.level_label.setText(tr("lobby.level"))
        for i, name in enumerate(GAMES):
            self.game.setItemText(i, tr(f"game.{name}"))
        self.start.setText(tr("lobby.start"))
        self.rules_button.setText(tr("lobby.read_rules"))
        self.lan.title.setText(tr("lobby.lan.title"))
        self.lan.text.setText(tr("lobby.lan.text"))
        self.host.setText(tr("lobby.lan.host"))
        self.search.setText(tr("lobby.lan.search"))
        self.join_lan.setText(tr("lobby.lan.join"))
        self.online.title.setText(tr("lobby.net.title"))
        self.online.text.setText(tr("lobby.net.text"))
        self.relay_label.setText(tr("lobby.net.relay"))
        self.relay.setToolTip(tr("lobby.relay_tip"))
        self.room_label.setText(tr("lobby.net.room"))
        self.seat_label.setText(tr("lobby.net.seat"))
        self.host_key_label.setText(tr("lobby.net.host_key"))
        self.host_key.setPlaceholderText(tr("lobby.net.host_key_hint"))
        self.listed.setText(tr("lobby.net.listed"))
        self.seat_wish.setItemText(0, tr("lobby.net.any_seat"))
        for i in range(1, self.seat_wish.count()):
            self.seat_wish.setItemText(i, tr("room.seat", n=i + 1))
        self.room_panel.retranslate()
        relay_line = self.relay.lineEdit()  # the relay box is editable: it has its line
        if relay_line is not None:
            relay_line.setPlaceholderText(tr("lobby.net.relay_hint"))
        self.room.setPlaceholderText(tr("lobby.net.room_hint"))
        self.join.setText(tr("lobby.net.join"))
        self.host_online.setText(tr("lobby.net.host"))
        self._game_changed()

    def _game_changed(self, *_: object) -> None:
        game = self.game.currentData()
        playable = game in PLAYABLE
        try:
            spec = registry.get(game)
            self.players.setRange(spec.min_players, spec.max_players)
        except KeyError:
            playable = False
        self.start.setEnabled(playable)
        if game in self.arts:
            self.art.setCurrentWidget(self.arts[game])
        self._show_levels(game if playable else "")
        self.host.setEnabled(playable)
        self.host_online.setEnabled(playable)
        text = tr(f"game.blurb.{game}")
        if not playable:
            text += "\n" + tr("game.coming", game=tr(f"game.{game}"))
        self.blurb.setText(text)

    def _show_levels(self, game: str) -> None:
        """The AI level choice, for games whose computer player has levels."""
        kit = kit_for(game) if game in PLAYABLE else None
        levels = kit.levels if kit is not None else ()
        current = self.level.currentData()
        self.level.blockSignals(True)
        self.level.clear()
        for level in levels:
            self.level.addItem(tr(f"level.{level}"), level)
        wanted = current if current in levels else (kit.default_level if kit is not None else "")
        if wanted in levels:
            self.level.setCurrentIndex(levels.index(wanted))
        self.level.blockSignals(False)
        self.level_form.setRowVisible(self.level, bool(levels))

    def clear_statuses(self) -> None:
        """Forget the lines of rooms and searches gone by (back from a game, they are stale)."""
        if self.waiting():
            return
        for section in (self.local, self.lan, self.online):
            section.set_status("")

    def ai_level(self) -> str:
        """The chosen AI level ("" when the game has none)."""
        return self.level.currentData() or "" if self.level.count() else ""

    # -- actions ------------------------------------------------------------------------
    def _start(self) -> None:
        if self.players.minimum() < self.players.maximum():  # a fixed count (a game for two) is no preference
            self.settings.players = self.players.value()
        self.start_local.emit(self.game.currentData(), self.players.value())

    def _run(self, key: str, section: Section, coro: Any, on_done: Any, busy_text: str) -> None:
        if key in self.busy:
            coro.close()
            return
        self.busy.add(key)
        section.set_status(busy_text)

        def done(result: Any) -> None:
            self.busy.discard(key)
            on_done(result)

        def failed(exc: BaseException) -> None:
            self.busy.discard(key)
            text = exc.message() if isinstance(exc, NetError) else tr("common.error") + f": {exc}"
            section.set_status(text, error=True)
            if key in ("host", "host-online", "join"):
                self._room_done()

        self.running[key] = tasks.spawn(coro, done, failed)

    def _join_online(self) -> None:
        """Join by invitation (link, or code and host key): at once; by a room code only: show who hosts it first."""
        address = self.relay.currentText().strip()
        try:
            invite = parse_invite(self.room.text(), address, self.host_key.text())
        except NetError as exc:
            self.online.set_status(exc.message(), error=True)
            return
        seat = self.seat_wish.currentData()
        remember = invite.address  # the relay typed, or the one the invitation link names
        if invite.fingerprint:
            self._join(self.online, invite.address, invite.code, remember, seat, invite.fingerprint, invite.fallbacks)
        else:
            self._peek(self.online, invite.address, invite.code, seat)

    def _peek(self, section: Section, address: str, code: str, seat: int | None) -> None:
        """Read the room's signed card and show its host's name and key before asking for a seat."""
        if self.waiting():
            return

        def seen(card: Any) -> None:
            if self.confirming is None:
                return
            self.confirming = (section, address, code, seat, card.fingerprint)
            section.set_status("")
            game = tr(f"game.{card.game}") if card.game in GAMES else card.game
            self.room_panel.set_seats(card.seats_total, False, [])
            self.room_panel.show_card(list(card.names), None)
            self.room_panel.confirm_join(
                tr(
                    "room.confirm_answer",
                    host=card.host,
                    key=grouped_fingerprint(card.fingerprint),
                    game=game,
                    taken=card.seats_taken,
                    total=card.seats_total,
                    answer=answer_time(card.timeout_ms),
                )
            )

        self.confirming = (section, address, code, seat, "")
        self.room_panel.title.setText(tr("room.join_title", code=code, address=address))
        self.room_panel.set_seats(0, False, [])
        self.room_panel.setVisible(True)
        self._lock_room_buttons(True)
        self._run("join", section, peek_online(address, code), seen, tr("lobby.busy", address=address))

    def _join_confirmed(self) -> None:
        """The player saw who hosts the room and asks for a seat: that host's key is pinned."""
        if self.confirming is None or not self.confirming[4]:
            return
        section, address, code, seat, fp = self.confirming
        self.confirming = None
        self.room_panel.join_button.setVisible(False)
        self._join(section, address, code, address, seat, fp)

    def _join(
        self,
        section: Section,
        address: str,
        code: str,
        remember: str = "",
        seat: int | None = None,
        fingerprint: str = "",
        fallbacks: tuple[str, ...] = (),
    ) -> None:
        """Ask for a seat (``seat``: 0-based, None for any) and wait in the room panel until the host starts.

        ``fingerprint`` pins the host: the invitation's, or the one the player was shown.
        """
        if self.hosting is not None or self.joining is not None:
            return

        def joined(game: Any) -> None:
            self._room_done()
            section.set_status("")
            game.lan = section is self.lan  # a LAN room's relay is handed over when its host's program dies
            if remember:
                self.relay_used.emit(remember)
            self.network_game.emit(game)

        def update(card: Any, mine: int | None) -> None:
            if self.joining is None:
                return
            if len(self.room_panel.rows) != card.seats_total:
                self.room_panel.set_seats(card.seats_total, False, [])
            self.room_panel.show_card(list(card.names), mine)
            self.room_panel.show_answer_time(int(card.timeout_ms or 0), False)
            if mine is not None:
                section.set_status(tr("room.waiting_start", seat=mine + 1))
            else:
                section.set_status(tr("room.waiting_host", host=card.host))

        code = code.upper()
        self.joining = (section, code)
        self.room_panel.title.setText(tr("room.join_title", code=code, address=address))
        self.room_panel.set_seats(0, False, [])
        self.room_panel.setVisible(True)
        self._lock_room_buttons(True)
        self._run(
            "join",
            section,
            join_online(
                address,
                code,
                self.settings.name,
                section.set_status,
                self.config,
                seat=seat,
                on_update=update,
                fingerprint=fingerprint,
                fallbacks=fallbacks,
            ),
            joined,
            tr("lobby.busy", address=address),
        )

    def _host_online(self) -> None:
        address = self.relay.currentText().strip()
        try:
            # "relay, fallback, …": the relays after the first are where the game moves if it stays unreachable.
            parsed, fallbacks = split_relays(address)
            address = str(parsed) if fallbacks else address
        except NetError as exc:
            self.online.set_status(exc.message(), error=True)
            return
        if self.hosting is not None or self.joining is not None:
            return
        game, players = self.game.currentData(), self.players.value()

        async def host() -> Any:
            await probe_relay(parsed)
            setup = self._bot_setup(game)
            hosting = Hosting(
                parsed,
                game,
                players,
                self.settings.name,
                self.config,
                listed=self.listed.isChecked(),
                timeout_ms=self.room_panel.answer_ms or DEFAULT_ANSWER_MS,
                fallbacks=fallbacks,
                **setup,
            )
            self._attach_hosting(hosting, self.online)
            return await host_room(
                parsed, game, players, self.settings.name, self.online.set_status, self.config, hosting
            )

        def hosted(net_game: Any) -> None:
            self._room_done()
            self.relay_used.emit(address)
            self.network_game.emit(net_game)

        self._lock_room_buttons(True)
        self._run("host-online", self.online, host(), hosted, tr("lobby.busy", address=str(parsed)))

    def _host(self) -> None:
        if self.hosting is not None or self.joining is not None:
            return
        game = self.game.currentData()

        def hosted(net_game: Any) -> None:
            self._room_done()
            self.network_game.emit(net_game)

        self._lock_room_buttons(True)
        self._run(
            "host",
            self.lan,
            host_lan(
                self.settings.name,
                game,
                self.players.value(),
                self.lan.set_status,
                self.config,
                on_hosting=lambda hosting: self._attach_hosting(hosting, self.lan),
                timeout_ms=self.room_panel.answer_ms or DEFAULT_ANSWER_MS,
                **self._bot_setup(game),
            ),
            hosted,
            tr("lobby.busy", address="127.0.0.1"),
        )

    # -- the room panel: seats, bots, start, cancel ------------------------------------------
    def _bot_setup(self, game: str) -> dict[str, Any]:
        """How this window's bots play a network seat: the bot pace, and their names."""
        kit = kit_for(game) if game in PLAYABLE else None
        kinds = bot_kinds(game)
        names = kit.bot_names(kinds[0], 6) if kit is not None and kit.levels else []
        names = names or [n.strip() for n in tr("bot.names").split(",")]
        return {"think_ms": self.settings.bot_delay_ms, "bot_names": names}

    def _answer_time_chosen(self, ms: int) -> None:
        """The host picked an answer time: the room's card says it at once (the genesis will fix it)."""
        self.room_panel.answer_ms = ms
        if self.hosting is not None:
            invitation = self.hosting.invitation()
            self.room_panel.show_invitation(invitation.link(), invitation.read_out())
            self._room_task(self.hosting.set_timeout(ms))

    def _attach_hosting(self, hosting: Hosting, section: Section) -> None:
        self.hosting, self.hosting_section = hosting, section
        hosting.on_change = self._refresh_room
        self.room_panel.answer_ms = hosting.timeout_ms
        self.room_panel.set_seats(hosting.players, True, bot_kinds(hosting.game))
        self.room_panel.title.setText(tr("room.host_title", code=hosting.code, address=str(hosting.shown_address)))
        invitation = hosting.invitation()
        self.room_panel.show_invitation(invitation.link(), invitation.read_out())
        self.room_panel.setVisible(True)
        self._refresh_room()

    def _refresh_room(self) -> None:
        if self.hosting is not None:
            self.room_panel.show_rows(self.hosting.rows(), self.hosting.can_start())
            self.room_panel.show_requests(self.hosting.requests())

    def _accept(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.accept(peer))

    def _refuse(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.refuse(peer))

    def _remove(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.remove(peer))

    def _room_task(self, coro: Any) -> None:
        """A change of the room (a seat, a bot); a failure is said in the panel."""

        def failed(exc: BaseException) -> None:
            text = exc.message() if isinstance(exc, NetError) else tr("common.error") + f": {exc}"
            self.room_panel.set_status(text, error=True)
            self._refresh_room()

        self.room_panel.set_status("")
        tasks.spawn(coro, lambda _: self._refresh_room(), failed)

    def _sit(self, seat: int) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.take_seat(seat))

    def _set_bot(self, seat: int, kind: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.set_bot(seat, kind or None))

    def _start_room(self) -> None:
        if self.hosting is not None and not self.hosting.start():
            self._refresh_room()

    def waiting(self) -> bool:
        """True while this window hosts a room that fills, or waits in someone's room (or looks at one)."""
        return self.hosting is not None or self.joining is not None or self.confirming is not None

    def cancel_waiting(self) -> None:
        """Stop hosting or joining at once: the room's card leaves the listing, the seat is freed, no error."""
        hosting, joining, confirming = self.hosting, self.joining, self.confirming
        for key in ("host", "host-online", "join"):
            task = self.running.pop(key, None)
            if task is not None and key in self.busy:
                task.cancel()
            self.busy.discard(key)
        self._room_done()
        if hosting is not None:
            # Not a tasks.spawn task: closing the window cancels those, and the room must still close.
            closing = asyncio.ensure_future(hosting.cancel())
            _CLOSING.add(closing)
            closing.add_done_callback(_CLOSING.discard)
            if self.hosting_section is not None:
                self.hosting_section.set_status(tr("room.closed", code=hosting.code))
        elif joining is not None:
            section, code = joining
            section.set_status(tr("room.left", code=code))
        elif confirming is not None:
            confirming[0].set_status("")

    def _room_done(self) -> None:
        """The room is no longer waited for (started, failed or cancelled): hide the panel."""
        self.hosting = None
        self.joining = None
        self.confirming = None
        self.room_panel.join_button.setVisible(False)
        self.room_panel.setVisible(False)
        self.room_panel.set_status("")
        self._lock_room_buttons(False)

    def _lock_room_buttons(self, locked: bool) -> None:
        """One room at a time: hosting and joining are off while a room is waited for."""
        for button in (self.host, self.host_online, self.join, self.join_lan):
            button.setEnabled(not locked)
        if not locked:
            self._game_changed()
            self.join_lan.setEnabled(self.found.currentItem() is not None)

    def show_found(self, result: tuple[list[LanRelay], list[LanRoom]]) -> None:
        """A network search's answer: the rooms to join, the relays without rooms, and how many of each."""
        relays, rooms = result
        self.found.clear()
        for room in rooms:
            text = tr(
                "lobby.lan.room",
                game=tr(f"game.{room.game}") if room.game in GAMES else room.game,
                host=room.host,
                taken=room.seats_taken,
                total=room.seats_total,
                address=str(room.relay.address),
            )
            text += "\n" + tr(
                "lobby.lan.room_key_answer",
                key=grouped_fingerprint(room.fingerprint),
                answer=answer_time(room.timeout_ms),
            )
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, (str(room.relay.address), room.code, room.fingerprint))
            self.found.addItem(item)
        for relay in relays:
            if not any(r.relay == relay for r in rooms):
                item = QListWidgetItem(f"{relay.name} — {relay.address}")
                item.setData(Qt.ItemDataRole.UserRole, (str(relay.address), "", ""))
                self.found.addItem(item)
        if relays:
            self.lan.set_status(
                tr(
                    "lobby.lan.rooms_found",
                    relays=tr("lobby.lan.found", count=len(relays)),
                    rooms=tr("lobby.lan.rooms", count=len(rooms)),
                )
            )
        else:
            self.lan.set_status(tr("lobby.lan.none"))

    def _search(self) -> None:
        self._run("search", self.lan, discover_rooms(), self.show_found, tr("lobby.lan.searching"))

    def _join_lan(self) -> None:
        item = self.found.currentItem()
        if item is None:
            return
        address, code, fingerprint = item.data(Qt.ItemDataRole.UserRole)
        if code:  # the list showed the host's name and key fingerprint: that key is pinned
            self._join(self.lan, address, code, fingerprint=fingerprint)
            return
        # A relay with no open room: its address goes to the internet section, to open a room there.
        self.relay.setCurrentText(address)
        self.room.setFocus()
        self.online.set_status(tr("lobby.net.text"))
