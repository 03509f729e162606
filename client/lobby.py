"""The lobby: play against the computer, a LAN game, or a game over the internet.

Network buttons start coroutines from :mod:`client.net` on the asyncio loop
(qasync runs it inside Qt's event loop), so the window stays responsive while
a relay is tried; every failure ends as a sentence in the section's status
line, never as a frozen window or a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
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
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engines.core import registry

from . import net, tasks
from .cards_widgets import CardFace, CardFan
from .games import kit_for, playable
from .i18n import LANGUAGE, tr
from .resources import GAMES
from .settings import Settings

#: Games whose table this version of the program can show (those with a kit in :mod:`client.games`).
PLAYABLE = playable()

STYLE = (
    "QWidget#lobby { background: qlineargradient(x1:0, y1:0, x2:1, y2:1, stop:0 #15302a, stop:1 #0e1f2e); }"
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
        super().__init__(objectName="section")
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(18, 14, 18, 16)
        self.box.setSpacing(8)
        self.title = QLabel(objectName="section_title")
        self.text = QLabel(objectName="section_text")
        self.text.setWordWrap(True)
        self.box.addWidget(self.title)
        self.box.addWidget(self.text)
        self.status = QLabel(objectName="status")
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


class Lobby(QWidget):
    """The first screen; emits what the player chose."""

    start_local = Signal(str, int)
    show_rules = Signal(str)
    open_replay = Signal()
    relay_used = Signal(str)
    network_game = Signal(object)

    def __init__(self, settings: Settings, config: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        #: Where the player's signing key lives (the settings directory).
        self.config = config
        self.setObjectName("lobby")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        self.busy: set[str] = set()
        root = QVBoxLayout(self)
        root.setContentsMargins(36, 28, 36, 28)
        root.setSpacing(16)
        head = QHBoxLayout()
        titles = QVBoxLayout()
        self.title = QLabel(objectName="title")
        self.tagline = QLabel(objectName="tagline")
        self.welcome = QLabel(objectName="welcome")
        titles.addWidget(self.title)
        titles.addWidget(self.tagline)
        titles.addWidget(self.welcome)
        head.addLayout(titles, 1)
        self.replay_button = QPushButton()
        self.replay_button.clicked.connect(self.open_replay.emit)
        head.addWidget(self.replay_button, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(head)

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
        self.blurb = QLabel(objectName="section_text")
        self.blurb.setWordWrap(True)
        self.local.box.addWidget(self.blurb)
        buttons = QHBoxLayout()
        self.start = QPushButton(objectName="primary")
        self.start.clicked.connect(self._start)
        self.rules_button = QPushButton()
        self.rules_button.clicked.connect(lambda: self.show_rules.emit(self.game.currentData()))
        buttons.addWidget(self.start)
        buttons.addWidget(self.rules_button)
        buttons.addStretch(1)
        self.local.box.addLayout(buttons)
        self.fan = CardFan([])
        self.local.box.addWidget(self.fan, 4)
        self.local.finish()
        grid.addWidget(self.local, 0, 0, 2, 1)

        # -- LAN
        self.lan = Section()
        lan_buttons = QHBoxLayout()
        self.host = QPushButton(objectName="primary")
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
        self.room.setMaxLength(12)
        self.relay_label, self.room_label = QLabel(), QLabel()
        nform.addRow(self.relay_label, self.relay)
        nform.addRow(self.room_label, self.room)
        self.online.box.addLayout(nform)
        self.join = QPushButton(objectName="primary")
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

        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    # -- words ----------------------------------------------------------------------
    def retranslate(self, *_: object) -> None:
        self.title.setText(tr("app.title"))
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
        self.room_label.setText(tr("lobby.net.room"))
        self.relay.lineEdit().setPlaceholderText(tr("lobby.net.relay_hint"))
        self.room.setPlaceholderText(tr("lobby.net.room_hint"))
        self.join.setText(tr("lobby.net.join"))
        self.host_online.setText(tr("lobby.net.host"))
        fan = [
            ("Processor", "cat.part"),
            ("RAM", "cat.part"),
            ("HardDrive", "cat.part"),
            ("Firewall", "cat.protection"),
        ]
        self.fan.set_faces([None, *(CardFace(kind, tr(f"card.{kind}"), tr(cat)) for kind, cat in fan)])
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
            text = exc.message() if isinstance(exc, net.NetError) else tr("common.error") + f": {exc}"
            section.set_status(text, error=True)

        tasks.spawn(coro, done, failed)

    def _join_online(self) -> None:
        address = self.relay.currentText().strip()
        try:
            parsed = net.parse_relay_address(address)
            code = net.parse_room_code(self.room.text())
        except net.NetError as exc:
            self.online.set_status(exc.message(), error=True)
            return
        self._join(self.online, str(parsed), code, remember=address)

    def _join(self, section: Section, address: str, code: str, remember: str = "") -> None:
        def joined(game: Any) -> None:
            if remember:
                self.relay_used.emit(remember)
            self.network_game.emit(game)

        self._run(
            "join",
            section,
            net.join_online(address, code, self.settings.name, section.set_status, self.config),
            joined,
            tr("lobby.busy", address=address),
        )

    def _host_online(self) -> None:
        address = self.relay.currentText().strip()
        try:
            parsed = net.parse_relay_address(address)
        except net.NetError as exc:
            self.online.set_status(exc.message(), error=True)
            return

        async def host() -> Any:
            await net.probe_relay(parsed)
            return await net.host_room(
                parsed,
                self.game.currentData(),
                self.players.value(),
                self.settings.name,
                self.online.set_status,
                self.config,
            )

        def hosted(game: Any) -> None:
            self.relay_used.emit(address)
            self.network_game.emit(game)

        self._run("host-online", self.online, host(), hosted, tr("lobby.busy", address=str(parsed)))

    def _host(self) -> None:
        game = self.game.currentData()
        self._run(
            "host",
            self.lan,
            net.host_lan(self.settings.name, game, self.players.value(), self.lan.set_status, self.config),
            self.network_game.emit,
            tr("lobby.busy", address="127.0.0.1"),
        )

    def _search(self) -> None:
        def found(result: tuple[list[net.LanRelay], list[net.LanRoom]]) -> None:
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
                item = QListWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, (str(room.relay.address), room.code))
                self.found.addItem(item)
            for relay in relays:
                if not any(r.relay == relay for r in rooms):
                    item = QListWidgetItem(f"{relay.name} — {relay.address}")
                    item.setData(Qt.ItemDataRole.UserRole, (str(relay.address), ""))
                    self.found.addItem(item)
            if relays:
                self.lan.set_status(tr("lobby.lan.rooms_found", relays=len(relays), rooms=len(rooms)))
            else:
                self.lan.set_status(tr("lobby.lan.none"))

        self._run("search", self.lan, net.discover_rooms(), found, tr("lobby.lan.searching"))

    def _join_lan(self) -> None:
        item = self.found.currentItem()
        if item is None:
            return
        address, code = item.data(Qt.ItemDataRole.UserRole)
        if code:
            self._join(self.lan, address, code)
            return
        # A relay with no open room: its address goes to the internet section, to open a room there.
        self.relay.setCurrentText(address)
        self.room.setFocus()
        self.online.set_status(tr("lobby.net.text"))
