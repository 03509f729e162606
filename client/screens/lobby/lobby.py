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

The sections build and handle their own widgets; this module holds what spans them: the network
tasks (one per key at a time), and the one room waited for (:class:`~client.screens.lobby.section.Rooms`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from client.games.kit import bot_kinds
from client.i18n import LANGUAGE, tr
from client.net import tasks
from client.net.address import readable_fingerprint
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.hosting import Hosting
from client.net.joining import join_online, peek_online
from client.net.lan import ListedRoom
from client.screens.lobby.lan import LanSection
from client.screens.lobby.local import LocalSection
from client.screens.lobby.online import OnlineSection
from client.screens.lobby.room import RoomPanel
from client.screens.lobby.saved import SavedSection
from client.screens.lobby.section import DEFAULT_ANSWER_MS, Opening, Section, answer_time, game_name
from client.store.kept_seats import SavedSeat
from client.store.settings import Settings
from client.ui.named import named

T = TypeVar("T")

#: Rooms being closed after a Cancel (kept referenced until they are).
_CLOSING: set[asyncio.Future[None]] = set()

#: The keys of the tasks that wait for a room: their failure closes the room panel.
_ROOM_KEYS = ("host", "host-online", "join")

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


class RoomCard(Protocol):
    """What the lobby reads of a room's signed card (the relay layer's ``LobbyCard``) while joining it."""

    @property
    def game(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def fingerprint(self) -> str: ...
    @property
    def seats_taken(self) -> int: ...
    @property
    def seats_total(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def timeout_ms(self) -> int: ...


def failure_text(exc: BaseException) -> str:
    """A failed network task's sentence: the network error's own, else the error as it came."""
    return exc.message() if isinstance(exc, NetError) else tr("common.error") + f": {exc}"


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
        self.running: dict[str, asyncio.Task[object]] = {}
        #: The room this window hosts while it fills, and the section that says its news.
        self.hosting: Hosting | None = None
        self.hosting_section: Section | None = None
        #: The room this window is joining: (section, room code) while waiting for the start.
        self.joining: tuple[Section, str] | None = None
        #: A room seen by its code only, shown to the player before asking for a seat:
        #: (section, address, code, seat wish, the host's fingerprint from its card).
        self.confirming: tuple[Section, str, str, int | None, str] | None = None
        root = self._scrolled()
        root.addLayout(self._head())
        self.saved = SavedSection(config)
        self.saved.resume_requested.connect(self.resume_requested)
        root.addWidget(self.saved)
        self.local = LocalSection(settings)
        self.local.start_local.connect(self.start_local)
        self.local.show_rules.connect(self.show_rules)
        self.lan = LanSection(self, settings, config)
        self.online = OnlineSection(self, settings, config)
        self.lan.relay_chosen.connect(self.online.use_relay)
        self.local.game_shown.connect(self._game_shown)
        grid = QGridLayout()
        grid.setSpacing(16)
        grid.addWidget(self.local, 0, 0, 2, 1)
        grid.addWidget(self.lan, 0, 1)
        grid.addWidget(self.online, 1, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        root.addLayout(grid, 1)
        self.room_panel = self._room_panel()
        root.addWidget(self.room_panel)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    def _scrolled(self) -> QVBoxLayout:
        """The layout everything goes in, inside a scroll area (the lobby's whole height)."""
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
        return root

    def _head(self) -> QHBoxLayout:
        """The program's name, tagline and welcome; "Open a replay" beside them."""
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
        return head

    def _room_panel(self) -> RoomPanel:
        """The room being hosted or joined (hidden until then), its requests answered here."""
        panel = RoomPanel()
        panel.sit_requested.connect(self._sit)
        panel.bot_requested.connect(self._set_bot)
        panel.start_requested.connect(self._start_room)
        panel.cancel_requested.connect(self.cancel_waiting)
        panel.accept_requested.connect(self._accept)
        panel.refuse_requested.connect(self._refuse)
        panel.remove_requested.connect(self._remove)
        panel.join_confirmed.connect(self._join_confirmed)
        panel.answer_time_chosen.connect(self._answer_time_chosen)
        panel.answer_ms = DEFAULT_ANSWER_MS
        return panel

    # -- what the main window asks -------------------------------------------------------------
    @property
    def game(self) -> QComboBox:
        """The game choice of the section against the computer (the main window reads the game chosen)."""
        return self.local.game

    def show_saved_games(self) -> None:
        """List the kept network seats not over (and every unreadable one, with its reason)."""
        self.saved.show_games()

    def resuming(self, seat: SavedSeat) -> None:
        """A kept seat is being taken again: say so, and one at a time."""
        self.saved.resuming(seat)

    def resuming_done(self) -> None:
        self.saved.resuming_done()

    def ai_level(self) -> str:
        """The chosen AI level ("" when the game has none)."""
        return self.local.ai_level()

    def clear_statuses(self) -> None:
        """Forget the lines of rooms and searches gone by (back from a game, they are stale)."""
        if self.waiting():
            return
        for section in (self.local, self.lan, self.online):
            section.set_status("")

    def retranslate(self, *_: object) -> None:
        self.title.setText(tr("app.title"))
        self.tagline.setText(tr("app.tagline"))
        self.welcome.setText(tr("lobby.welcome", name=self.settings.name))
        self.replay_button.setText(tr("menu.open_replay"))
        self.saved.retranslate()
        self.lan.retranslate()
        self.online.retranslate()
        self.room_panel.retranslate()
        self.local.retranslate()

    def _game_shown(self, playable: bool) -> None:
        """A room is opened for the game chosen against the computer: only for one this program can play."""
        self.lan.host.setEnabled(playable)
        self.online.host.setEnabled(playable)

    # -- network tasks (the sections' :class:`Rooms`) ----------------------------------------
    def run(
        self, key: str, section: Section, coro: Coroutine[Any, Any, T], on_done: Callable[[T], None], busy_text: str
    ) -> None:
        """Run ``coro`` unless ``key``'s task still runs; a failure is said in ``section`` (and closes a room)."""
        if key in self.busy:
            coro.close()
            return
        self.busy.add(key)
        section.set_status(busy_text)

        def done(result: T) -> None:
            self.busy.discard(key)
            on_done(result)

        def failed(exc: BaseException) -> None:
            self.busy.discard(key)
            section.set_status(failure_text(exc), error=True)
            if key in _ROOM_KEYS:
                self._room_done()

        task = tasks.spawn(coro, done, failed)
        self.running[key] = task

    def host(self, key: str, section: Section, opening: Opening, busy_text: str, remember: str = "") -> None:
        """Open a room of the game chosen against the computer; its game goes to the main window when it starts."""
        if self.hosting is not None or self.joining is not None:
            return
        game, players = self.local.chosen()

        def hosted(net_game: NetGame) -> None:
            self._room_done()
            if remember:
                self.relay_used.emit(remember)
            self.network_game.emit(net_game)

        self._lock_room_buttons(True)
        self.run(key, section, opening(game, players), hosted, busy_text)

    def answer_ms(self) -> int:
        """The answer time a room opened now starts with (the last one chosen, else the default)."""
        return self.room_panel.answer_ms or DEFAULT_ANSWER_MS

    def attach(self, hosting: Hosting, section: Section) -> None:
        """The room exists: the panel shows its seats, bots and invitation until it starts or is cancelled."""
        self.hosting, self.hosting_section = hosting, section
        hosting.on_change = self._refresh_room
        self.room_panel.answer_ms = hosting.timeout_ms
        self.room_panel.set_seats(hosting.players, True, bot_kinds(hosting.game))
        self.room_panel.title.setText(tr("room.host_title", code=hosting.code, address=str(hosting.shown_address)))
        invitation = hosting.invitation()
        self.room_panel.show_invitation(invitation.link(), invitation.read_out())
        self.room_panel.setVisible(True)
        self._refresh_room()

    def peek(self, section: Section, address: str, code: str, seat: int | None) -> None:
        """Read the room's signed card and show its host's name and key before asking for a seat."""
        if self.waiting():
            return

        def seen(card: RoomCard) -> None:
            if self.confirming is None:
                return
            self.confirming = (section, address, code, seat, card.fingerprint)
            section.set_status("")
            self.room_panel.set_seats(card.seats_total, False, [])
            self.room_panel.show_card(list(card.names), None)
            self.room_panel.confirm_join(
                tr(
                    "room.confirm_answer",
                    host=card.host,
                    key=readable_fingerprint(card.fingerprint),
                    game=game_name(card.game),
                    taken=card.seats_taken,
                    total=card.seats_total,
                    answer=answer_time(card.timeout_ms),
                )
            )

        self.confirming = (section, address, code, seat, "")
        self._show_room(tr("room.join_title", code=code, address=address))
        self.run("join", section, peek_online(address, code), seen, tr("lobby.busy", address=address))

    def _join_confirmed(self) -> None:
        """The player saw who hosts the room and asks for a seat: that host's key is pinned."""
        if self.confirming is None or not self.confirming[4]:
            return
        section, address, code, seat, fp = self.confirming
        self.confirming = None
        self.room_panel.join_button.setVisible(False)
        self.join(section, address, code, address, seat, fp)

    def join(
        self,
        section: Section,
        address: str,
        code: str,
        remember: str = "",
        seat: int | None = None,
        fingerprint: str = "",
        fallbacks: tuple[str, ...] = (),
        token: str = "",
        listed: ListedRoom | None = None,
    ) -> None:
        """Ask for a seat (``seat``: 0-based, None for any) and wait in the room panel until the host starts.

        ``fingerprint`` pins the host: the invitation's, or the one the player was shown; ``token`` is the
        invitation link's secret, which the request proves (the host keeps invited requests apart).
        """
        if self.hosting is not None or self.joining is not None:
            return

        def joined(game: NetGame) -> None:
            self._room_done()
            section.set_status("")
            game.lan = section is self.lan  # a LAN room's relay is handed over when its host's program dies
            if remember:
                self.relay_used.emit(remember)
            self.network_game.emit(game)

        def update(card: RoomCard, mine: int | None) -> None:
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

        code = code.upper() if listed is None else listed.host  # at a listed room's door: its code comes later
        self.joining = (section, code)
        self._show_room(tr("room.join_title", code=code, address=address))
        joining = join_online(
            address,
            code,
            self.settings.name,
            section.set_status,
            self.config,
            seat=seat,
            on_update=update,
            fingerprint=fingerprint,
            fallbacks=fallbacks,
            token=token,
            listed=listed,
        )
        self.run("join", section, joining, joined, tr("lobby.busy", address=address))

    def _show_room(self, title: str) -> None:
        """A joiner's empty panel, shown while the room's card is read; hosting and joining locked."""
        self.room_panel.title.setText(title)
        self.room_panel.set_seats(0, False, [])
        self.room_panel.setVisible(True)
        self._lock_room_buttons(True)

    # -- the room panel: seats, bots, start, cancel ------------------------------------------
    def _room_task(self, coro: Coroutine[Any, Any, None]) -> None:
        """A change of the room (a seat, a bot); a failure is said in the panel."""

        def failed(exc: BaseException) -> None:
            self.room_panel.set_status(failure_text(exc), error=True)
            self._refresh_room()

        self.room_panel.set_status("")
        tasks.spawn(coro, lambda _: self._refresh_room(), failed)

    def _refresh_room(self) -> None:
        if self.hosting is not None:
            self.room_panel.show_rows(self.hosting.rows(), self.hosting.can_start())
            self.room_panel.show_requests(self.hosting.requests())

    def _answer_time_chosen(self, ms: int) -> None:
        """The host picked an answer time: the room's card says it at once (the genesis will fix it)."""
        self.room_panel.answer_ms = ms
        if self.hosting is not None:
            invitation = self.hosting.invitation()
            self.room_panel.show_invitation(invitation.link(), invitation.read_out())
            self._room_task(self.hosting.set_timeout(ms))

    def _accept(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.accept(peer))

    def _refuse(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.refuse(peer))

    def _remove(self, peer: str) -> None:
        if self.hosting is not None:
            self._room_task(self.hosting.remove(peer))

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
        for key in _ROOM_KEYS:
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
        self.lan.lock(locked)
        self.online.lock(locked)
        if not locked:
            self.local.show_game()  # a room is hosted only for a game this program can play
