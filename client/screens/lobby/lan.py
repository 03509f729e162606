"""The lobby's "On this network": host a room on this program's own relay, search the LAN, join what it found.

A search lists the rooms found (host's name and key fingerprint, seats, answer time: the key is
pinned when the room is joined from the list) and the relays with no room; choosing such a relay
hands its address to the internet section (:attr:`LanSection.relay_chosen`), to open a room there.
"""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QListWidgetItem, QPushButton

from client.i18n import tr
from client.net.address import readable_fingerprint
from client.net.game import NetGame
from client.net.lan import LanRelay, LanRoom, discover_rooms, host_lan
from client.screens.lobby.section import Rooms, Section, answer_time, bot_setup, game_name
from client.store.settings import Settings
from client.ui.named import named


def room_text(room: LanRoom) -> str:
    """A found room's line: game, host, seats and relay; then the host's key and the answer time."""
    text = tr(
        "lobby.lan.room",
        game=game_name(room.game),
        host=room.host,
        taken=room.seats_taken,
        total=room.seats_total,
        address=str(room.relay.address),
    )
    key = tr(
        "lobby.lan.room_key_answer", key=readable_fingerprint(room.fingerprint), answer=answer_time(room.timeout_ms)
    )
    return f"{text}\n{key}"


class LanSection(Section):
    """Host on this computer's relay, search the network, join a room found."""

    #: A relay found with no room: its address, for the internet section.
    relay_chosen = Signal(str)

    def __init__(self, rooms: Rooms, settings: Settings, config: Path | None) -> None:
        super().__init__()
        self.rooms, self.settings, self.config = rooms, settings, config
        buttons = QHBoxLayout()
        self.host = named(QPushButton(), "primary")
        self.host.clicked.connect(self._host)
        self.search = QPushButton()
        self.search.clicked.connect(self._search)
        buttons.addWidget(self.host)
        buttons.addWidget(self.search)
        buttons.addStretch(1)
        self.box.addLayout(buttons)
        self.found = QListWidget()
        self.found.setMaximumHeight(90)
        self.box.addWidget(self.found)
        self.join = QPushButton()
        self.join.setEnabled(False)
        self.found.currentItemChanged.connect(lambda *_: self.join.setEnabled(self.found.currentItem() is not None))
        self.join.clicked.connect(self._join)
        self.box.addWidget(self.join, 0, Qt.AlignmentFlag.AlignLeft)
        self.finish()

    def lock(self, locked: bool) -> None:
        """One room at a time: no hosting or joining while one is waited for (a row must be chosen to join)."""
        self.host.setEnabled(not locked)
        self.join.setEnabled(not locked and self.found.currentItem() is not None)

    def _host(self) -> None:
        def opening(game: str, players: int) -> Coroutine[Any, Any, NetGame]:
            return host_lan(
                self.settings.name,
                game,
                players,
                self.set_status,
                self.config,
                on_hosting=lambda hosting: self.rooms.attach(hosting, self),
                timeout_ms=self.rooms.answer_ms(),
                **bot_setup(game, self.settings),
            )

        self.rooms.host("host", self, opening, tr("lobby.busy", address="127.0.0.1"))

    def _search(self) -> None:
        self.rooms.run("search", self, discover_rooms(), self.show_found, tr("lobby.lan.searching"))

    def show_found(self, result: tuple[list[LanRelay], list[LanRoom]]) -> None:
        """A network search's answer: the rooms to join, the relays without rooms, and how many of each."""
        relays, rooms = result
        self.found.clear()
        for room in rooms:
            item = QListWidgetItem(room_text(room))
            item.setData(Qt.ItemDataRole.UserRole, (str(room.relay.address), room.listed, room.fingerprint))
            self.found.addItem(item)
        for relay in relays:
            if not any(r.relay == relay for r in rooms):
                item = QListWidgetItem(f"{relay.name} — {relay.address}")
                item.setData(Qt.ItemDataRole.UserRole, (str(relay.address), "", ""))
                self.found.addItem(item)
        if relays:
            self.set_status(
                tr(
                    "lobby.lan.rooms_found",
                    relays=tr("lobby.lan.found", count=len(relays)),
                    rooms=tr("lobby.lan.rooms", count=len(rooms)),
                )
            )
        else:
            self.set_status(tr("lobby.lan.none"))

    def _join(self) -> None:
        item = self.found.currentItem()
        if item is None:
            return
        address, listed, fingerprint = item.data(Qt.ItemDataRole.UserRole)
        if listed:  # the list showed the host's name and key fingerprint: that key is pinned
            self.rooms.join(self, address, "", fingerprint=fingerprint, listed=listed)
            return
        self.relay_chosen.emit(address)

    def retranslate(self) -> None:
        self.title.setText(tr("lobby.lan.title"))
        self.text.setText(tr("lobby.lan.text"))
        self.host.setText(tr("lobby.lan.host"))
        self.search.setText(tr("lobby.lan.search"))
        self.join.setText(tr("lobby.lan.join"))
