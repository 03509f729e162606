"""The room being hosted or joined: who sits where, the answer time, the invitation, requests, start and cancel.

The host picks its seat ("Sit here"), makes empty seats bots and starts; a joiner reads the seats,
and — having typed only a room code — is shown who hosts it before "Join this room".  The panel
only shows and asks (its signals): the lobby does the work.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

from client.games.kit import bot_label
from client.i18n import tr
from client.net.address import readable_fingerprint
from client.net.hosting import Request, SeatRow
from client.screens.lobby.section import ANSWER_TIMES, answer_time, show_status
from client.ui.named import named


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
        self._read_out = ""
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
            words = "room.request_invited" if req.invited else "room.request"
            label.setText(tr(words, name=req.name, key=readable_fingerprint(req.fingerprint), seat=seat))
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
            self.show_invitation(self.link, self._read_out)
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
        show_status(self.status, text, error)
