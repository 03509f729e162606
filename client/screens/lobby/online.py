"""The lobby's "Over the internet": a relay's address, then join a room (invitation or code) or open one there.

An invitation (link, or code and host key) joins at once, the host's key pinned; a room code alone
first shows who hosts it (the lobby's :meth:`~client.screens.lobby.section.Rooms.peek`).  "relay,
fallback, …" opens a room on the first of them that answers, whose game moves to the others if it stays
unreachable; the public relays are offered that way by default (:mod:`client.net.public`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton

from client.i18n import tr
from client.net.address import parse_invite, parse_relay_address, split_relays
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.hosting import Hosting, host_room
from client.net.public import first_answering, offered_relays
from client.screens.lobby.section import Rooms, Section, bot_setup
from client.store.settings import Settings
from client.ui.named import named


class OnlineSection(Section):
    """A relay on the internet: join a room on it, or open one."""

    def __init__(self, rooms: Rooms, settings: Settings, config: Path | None) -> None:
        super().__init__()
        self.rooms, self.settings, self.config = rooms, settings, config
        form = QFormLayout()
        self.relay = QComboBox()
        self.relay.setEditable(True)
        self.relay.addItems(offered_relays(settings.relays))  # the player's relays, then the public ones
        self.room = QLineEdit()
        self.room.setMaxLength(300)  # a room code, or a whole invitation link
        self.host_key = QLineEdit()
        self.host_key.setMaxLength(40)
        self.listed = QCheckBox()
        self.listed.setChecked(False)  # a listed room is open to the relay: the host opts in
        self.seat_wish = QComboBox()
        self.seat_wish.addItem("", None)
        for seat in range(1, 6):  # seat 1 (index 0) writes the genesis: the host's machine keeps it
            self.seat_wish.addItem("", seat)
        self.relay_label, self.room_label, self.seat_label = QLabel(), QLabel(), QLabel()
        self.host_key_label = QLabel()
        form.addRow(self.relay_label, self.relay)
        form.addRow(self.room_label, self.room)
        form.addRow(self.host_key_label, self.host_key)
        form.addRow(self.seat_label, self.seat_wish)
        form.addRow("", self.listed)
        self.box.addLayout(form)
        self.join = named(QPushButton(), "primary")
        self.join.clicked.connect(self._join)
        self.host = QPushButton()
        self.host.clicked.connect(self._host)
        buttons = QHBoxLayout()
        buttons.addWidget(self.join)
        buttons.addWidget(self.host)
        buttons.addStretch(1)
        self.box.addLayout(buttons)
        self.finish()

    def lock(self, locked: bool) -> None:
        """One room at a time: no hosting or joining while one is waited for."""
        self.host.setEnabled(not locked)
        self.join.setEnabled(not locked)

    def use_relay(self, address: str) -> None:
        """A relay found on the network with no room: its address here, to open a room on it."""
        self.relay.setCurrentText(address)
        self.room.setFocus()
        self.set_status(tr("lobby.net.text"))

    def _join(self) -> None:
        """Join by invitation (link, or code and host key): at once; by a room code only: show who hosts it first."""
        address = self.relay.currentText().strip()
        try:
            invite = parse_invite(self.room.text(), address, self.host_key.text())
        except NetError as exc:
            self.set_status(exc.message(), error=True)
            return
        seat = self.seat_wish.currentData()
        remember = invite.address  # the relay typed, or the one the invitation link names
        if invite.fingerprint:
            self.rooms.join(
                self, invite.address, invite.code, remember, seat, invite.fingerprint, invite.fallbacks, invite.token
            )
        else:
            self.rooms.peek(self, invite.address, invite.code, seat)

    def _host(self) -> None:
        address = self.relay.currentText().strip()
        try:
            # "relay, fallback, …": the relays after the first are where the game moves if it stays unreachable.
            parsed, fallbacks = split_relays(address)
            address = str(parsed) if fallbacks else address
        except NetError as exc:
            self.set_status(exc.message(), error=True)
            return

        async def opening(game: str, players: int) -> NetGame:
            nonlocal parsed, fallbacks
            # The first that answers and keeps retained messages, in order; the others are its fallbacks.
            parsed, fallbacks = await first_answering([parsed, *map(parse_relay_address, fallbacks)])
            setup = bot_setup(game, self.settings)
            hosting = Hosting(
                parsed,
                game,
                players,
                self.settings.name,
                self.config,
                listed=self.listed.isChecked(),
                timeout_ms=self.rooms.answer_ms(),
                fallbacks=fallbacks,
                **setup,
            )
            self.rooms.attach(hosting, self)
            return await host_room(parsed, game, players, self.settings.name, self.set_status, self.config, hosting)

        self.rooms.host("host-online", self, opening, tr("lobby.busy", address=str(parsed)), remember=address)

    def retranslate(self) -> None:
        self.title.setText(tr("lobby.net.title"))
        self.text.setText(tr("lobby.net.text"))
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
        relay_line = self.relay.lineEdit()  # the relay box is editable: it has its line
        if relay_line is not None:
            relay_line.setPlaceholderText(tr("lobby.net.relay_hint"))
        self.room.setPlaceholderText(tr("lobby.net.room_hint"))
        self.join.setText(tr("lobby.net.join"))
        self.host.setText(tr("lobby.net.host"))
