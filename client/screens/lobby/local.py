"""The lobby's "Play against the computer": the game, the number of players, the AI level, its picture.

The game chosen here is also the one a room is opened for (LAN or internet): the section says
whether this program can show its table (:attr:`LocalSection.game_shown`), and the lobby lets the
host buttons follow.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QWidget,
)

from client.games.kit import kit_for
from client.i18n import tr
from client.screens.lobby.section import PLAYABLE, Section
from client.screens.rules_pages import GAMES
from client.store.settings import Settings
from client.ui.named import named
from engines.core import registry


class LocalSection(Section):
    """A game against the computer on this machine, and the rules of the game chosen."""

    #: Start a game: (game, players).
    start_local = Signal(str, int)
    #: Read the rules of a game.
    show_rules = Signal(str)
    #: The game shown changed (or was said again): whether this program can play it.
    game_shown = Signal(bool)

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        form = QFormLayout()
        self.game = QComboBox()
        for name in GAMES:
            self.game.addItem("", name)
        self.game.currentIndexChanged.connect(self.show_game)
        self.players = QSpinBox()
        self.players.setRange(2, 6)
        self.players.setValue(settings.players)
        self.level = QComboBox()
        self.game_label, self.players_label, self.level_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.game_label, self.game)
        form.addRow(self.players_label, self.players)
        form.addRow(self.level_label, self.level)
        self.form = form
        self.box.addLayout(form)
        self.blurb = named(QLabel(), "section_text")
        self.blurb.setWordWrap(True)
        self.box.addWidget(self.blurb)
        buttons = QHBoxLayout()
        self.start = named(QPushButton(), "primary")
        self.start.clicked.connect(self._start)
        self.rules_button = QPushButton()
        self.rules_button.clicked.connect(lambda: self.show_rules.emit(self.game.currentData()))
        buttons.addWidget(self.start)
        buttons.addWidget(self.rules_button)
        buttons.addStretch(1)
        self.box.addLayout(buttons)
        # Each game's picture (from its kit), shown for the game chosen.
        self.art = QStackedWidget()
        self.arts: dict[str, QWidget] = {}
        for i in range(self.game.count()):
            name = self.game.itemData(i)
            if name in PLAYABLE:
                self.arts[name] = kit_for(name).lobby_art()
                self.art.addWidget(self.arts[name])
        self.box.addWidget(self.art, 4)
        self.finish()

    def chosen(self) -> tuple[str, int]:
        """The game chosen and the number of players."""
        return self.game.currentData(), self.players.value()

    def ai_level(self) -> str:
        """The chosen AI level ("" when the game has none)."""
        return self.level.currentData() or "" if self.level.count() else ""

    def show_game(self, *_: object) -> None:
        """The chosen game's player counts, picture, levels and blurb; then :attr:`game_shown`."""
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
        text = tr(f"game.blurb.{game}")
        if not playable:
            text += "\n" + tr("game.coming", game=tr(f"game.{game}"))
        self.blurb.setText(text)
        self.game_shown.emit(playable)

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
        self.form.setRowVisible(self.level, bool(levels))

    def _start(self) -> None:
        if self.players.minimum() < self.players.maximum():  # a fixed count (a game for two) is no preference
            self.settings.players = self.players.value()
        self.start_local.emit(*self.chosen())

    def retranslate(self) -> None:
        self.title.setText(tr("lobby.local.title"))
        self.text.setText(tr("lobby.local.text"))
        self.game_label.setText(tr("lobby.game"))
        self.players_label.setText(tr("lobby.players"))
        self.level_label.setText(tr("lobby.level"))
        for i, name in enumerate(GAMES):
            self.game.setItemText(i, tr(f"game.{name}"))
        self.start.setText(tr("lobby.start"))
        self.rules_button.setText(tr("lobby.read_rules"))
        self.show_game()
