"""The settings window: name, language, bot speed, remembered relays.

Choosing a language re-labels the whole program at once (the language signal
reaches every open screen); everything is saved as JSON in the user's config
directory when the window is accepted.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .i18n import LANGUAGE, tr
from .messages import LANGUAGES
from .settings import BOT_SPEEDS, Settings, config_dir


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.original_language = LANGUAGE.code
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit(settings.name)
        self.name.setMaxLength(24)
        self.language = QComboBox()
        for code in LANGUAGES:
            self.language.addItem(tr(f"lang.{code}"), code)
        self.language.setCurrentIndex(LANGUAGES.index(settings.language) if settings.language in LANGUAGES else 0)
        self.language.currentIndexChanged.connect(self._preview_language)
        self.speed = QComboBox()
        for ms in BOT_SPEEDS:
            self.speed.addItem("", ms)
        nearest = min(BOT_SPEEDS, key=lambda ms: abs(ms - settings.bot_delay_ms))
        self.speed.setCurrentIndex(BOT_SPEEDS.index(nearest))
        self.relays = QListWidget()
        self.relays.addItems(settings.relays)
        self.relays.setMaximumHeight(110)
        self.forget = QPushButton()
        self.forget.clicked.connect(self._forget)
        self.name_label, self.language_label, self.speed_label, self.relays_label = (
            QLabel(),
            QLabel(),
            QLabel(),
            QLabel(),
        )
        form.addRow(self.name_label, self.name)
        form.addRow(self.language_label, self.language)
        form.addRow(self.speed_label, self.speed)
        form.addRow(self.relays_label, self.relays)
        form.addRow("", self.forget)
        layout.addLayout(form)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setStyleSheet("color: #666; font-size: 11px;")
        layout.addWidget(self.where)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    def _preview_language(self) -> None:
        LANGUAGE.set(self.language.currentData())

    def _forget(self) -> None:
        for item in self.relays.selectedItems():
            self.relays.takeItem(self.relays.row(item))

    def retranslate(self, *_: object) -> None:
        self.setWindowTitle(tr("settings.title"))
        self.name_label.setText(tr("settings.name"))
        self.language_label.setText(tr("settings.language"))
        self.speed_label.setText(tr("settings.speed"))
        self.relays_label.setText(tr("settings.relays"))
        self.forget.setText(tr("settings.forget"))
        for i, ms in enumerate(BOT_SPEEDS):
            self.speed.setItemText(i, tr(f"speed.{ms}"))
        self.where.setText(tr("settings.where", path=str(config_dir())))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("common.ok"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("common.cancel"))

    def apply_to(self, settings: Settings) -> None:
        """Copy the chosen values into ``settings`` (the caller saves)."""
        name = self.name.text().strip()
        if name:
            settings.name = name
        settings.language = self.language.currentData()
        settings.bot_delay_ms = int(self.speed.currentData())
        settings.relays = [self.relays.item(i).text() for i in range(self.relays.count())]

    def reject(self) -> None:
        LANGUAGE.set(self.original_language)
        super().reject()
