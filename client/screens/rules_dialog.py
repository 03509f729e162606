"""The rules pages of all three games, readable at any moment.

Opening this window *pauses* the game behind it (the main window stops the
bots' timer while it is open) and never touches the game's state: reading
the rules is not a move.  The pages are the players' Markdown pages
(``client/rules/<game>.<language>.md``, found by :mod:`.rules_pages`) in the
program's current language, rendered by QTextBrowser with their diagrams; they
are loaded again when the player switches language, English standing in for a
missing translation (and saying so); a missing page is explained in words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from client.i18n import LANGUAGE, tr
from client.screens import rules_pages
from client.screens.rules_pages import GAMES


class RulesDialog(QDialog):
    """One tab per game; ``show_game`` brings a game's tab to the front."""

    def __init__(self, parent: QWidget | None = None, game: str = GAMES[0]) -> None:
        super().__init__(parent)
        self.setMinimumSize(720, 620)
        self.resize(820, 700)
        layout = QVBoxLayout(self)
        self.paused = QLabel()
        self.paused.setWordWrap(True)
        self.paused.setStyleSheet(
            "background: #fff4cf; color: #5a4500; border: 1px solid #e6c55a; border-radius: 6px; padding: 6px;"
        )
        layout.addWidget(self.paused)
        self.tabs = QTabWidget()
        self.browsers: dict[str, QTextBrowser] = {}
        #: True while some page is shown in English because the current language has none.
        self.fallback = False
        for name in GAMES:
            browser = QTextBrowser()
            browser.setOpenExternalLinks(True)
            browser.setStyleSheet("QTextBrowser { font-size: 14px; padding: 8px; background: #fffdf8; }")
            self.browsers[name] = browser
            self.tabs.addTab(browser, "")
        layout.addWidget(self.tabs, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.load_pages()
        self.retranslate()
        self.show_game(game)
        LANGUAGE.changed.connect(self._language_changed)

    def _language_changed(self, *_: object) -> None:
        self.load_pages()
        self.retranslate()

    def load_pages(self) -> None:
        """Show every game's page in the current language (pictures resolve beside the page)."""
        self.fallback = False
        for name, browser in self.browsers.items():
            page = rules_pages.read_rules_page(name, LANGUAGE.code)
            if page is None:
                where = ", ".join(str(d) for d in rules_pages.rules_dirs())
                browser.setPlainText(tr("rules.missing", game=tr(f"game.{name}"), where=where))
                browser.setProperty("missing", True)
                browser.setProperty("language", "")
                continue
            folder = str(page.path.parent)
            browser.setSearchPaths([folder])
            browser.document().setBaseUrl(QUrl.fromLocalFile(folder + "/"))
            browser.setMarkdown(page.text)
            browser.setProperty("missing", False)
            browser.setProperty("language", page.language)
            self.fallback = self.fallback or page.language != LANGUAGE.code

    def show_game(self, game: str) -> None:
        if game in self.browsers:
            self.tabs.setCurrentWidget(self.browsers[game])
            self.setWindowTitle(tr("rules.title", game=tr(f"game.{game}")))

    def current_game(self) -> str:
        for name, browser in self.browsers.items():
            if browser is self.tabs.currentWidget():
                return name
        return GAMES[0]

    def retranslate(self, *_: object) -> None:
        note = tr("rules.paused")
        if self.fallback:
            note += " " + tr("rules.english_only")
        self.paused.setText(note)
        for i, name in enumerate(GAMES):
            self.tabs.setTabText(i, tr(f"game.{name}"))
        self.buttons.button(QDialogButtonBox.StandardButton.Close).setText(tr("rules.back"))
        self.setWindowTitle(tr("rules.title", game=tr(f"game.{self.current_game()}")))
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
