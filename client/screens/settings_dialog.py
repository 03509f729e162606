"""The settings window: name, language, bot speed, turn notices, animations and sound, remembered relays and how to
connect to each.

For the relay selected in the list: a CA file to trust (a relay with its own certificate), a
client certificate and key (a relay that asks for one), and the password (a relay with logins).
The password is kept in a file only this user can read (0600), and the window says where.

Choosing a language re-labels the whole program at once (the language signal
reaches every open screen); everything is saved as JSON in the user's config
directory when the window is accepted.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
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

from client.i18n import LANGUAGE, tr
from client.i18n.translations import LANGUAGES
from client.store.settings import BOT_SPEEDS, TLS_OPTIONS, Settings, config_dir, passwords_path


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
        self.animations = QCheckBox()
        self.animations.setChecked(settings.animations)
        self.sound = QCheckBox()
        self.sound.setChecked(settings.sound)
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
        #: Options per relay as edited here (applied on OK): TLS files and the password.
        self.relay_options = {key: dict(values) for key, values in settings.relay_options.items()}
        self.passwords = dict(settings.passwords)
        self.option_edits = {key: QLineEdit() for key in (*TLS_OPTIONS, "password")}
        self.option_edits["password"].setEchoMode(QLineEdit.EchoMode.Password)
        self.option_labels = {key: QLabel() for key in self.option_edits}
        self._editing: str | None = None
        form.addRow(self.name_label, self.name)
        form.addRow(self.language_label, self.language)
        form.addRow(self.speed_label, self.speed)
        self.notify_turn = QCheckBox()
        self.notify_turn.setChecked(settings.notify_turn)
        form.addRow("", self.notify_turn)
        form.addRow("", self.animations)
        form.addRow("", self.sound)
        form.addRow(self.relays_label, self.relays)
        form.addRow("", self.forget)
        for key, edit in self.option_edits.items():
            form.addRow(self.option_labels[key], edit)
            edit.editingFinished.connect(self._keep_options)
        self.password_note = QLabel()
        self.password_note.setWordWrap(True)
        self.password_note.setStyleSheet("color: #666; font-size: 11px;")
        form.addRow("", self.password_note)
        self.relays.currentRowChanged.connect(self._show_options)
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

    def _keep_options(self) -> None:
        """Keep what the fields say for the relay they show."""
        key = self._editing
        if key is None:
            return
        options = {k: self.option_edits[k].text().strip() for k in TLS_OPTIONS}
        self.relay_options[key] = {k: v for k, v in options.items() if v}
        if not self.relay_options[key]:
            del self.relay_options[key]
        password = self.option_edits["password"].text()
        if password:
            self.passwords[key] = password
        else:
            self.passwords.pop(key, None)

    def _show_options(self, row: int) -> None:
        self._keep_options()
        item = self.relays.item(row) if row >= 0 else None
        self._editing = item.text() if item is not None else None
        for key, edit in self.option_edits.items():
            if self._editing is None:
                edit.setText("")
            elif key == "password":
                edit.setText(self.passwords.get(self._editing, ""))
            else:
                edit.setText(self.relay_options.get(self._editing, {}).get(key, ""))
            edit.setEnabled(self._editing is not None)

    def retranslate(self, *_: object) -> None:
        self.setWindowTitle(tr("settings.title"))
        self.name_label.setText(tr("settings.name"))
        self.language_label.setText(tr("settings.language"))
        self.speed_label.setText(tr("settings.speed"))
        self.animations.setText(tr("settings.animations"))
        self.sound.setText(tr("settings.sound"))
        self.relays_label.setText(tr("settings.relays"))
        self.notify_turn.setText(tr("settings.notify_turn"))
        self.forget.setText(tr("settings.forget"))
        for i, ms in enumerate(BOT_SPEEDS):
            self.speed.setItemText(i, tr(f"speed.{ms}"))
        self.where.setText(tr("settings.where", path=str(config_dir())))
        for key, label in self.option_labels.items():
            label.setText(tr(f"settings.relay_{key}"))
        self.password_note.setText(tr("settings.passwords_kept", path=str(passwords_path())))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("common.ok"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("common.cancel"))

    def apply_to(self, settings: Settings) -> None:
        """Copy the chosen values into ``settings`` (the caller saves)."""
        name = self.name.text().strip()
        if name:
            settings.name = name
        settings.language = self.language.currentData()
        settings.bot_delay_ms = int(self.speed.currentData())
        settings.notify_turn = self.notify_turn.isChecked()
        settings.animations = self.animations.isChecked()
        settings.sound = self.sound.isChecked()
        settings.relays = [self.relays.item(i).text() for i in range(self.relays.count())]
        self._keep_options()
        kept = set(settings.relays)
        settings.relay_options = {k: v for k, v in self.relay_options.items() if k in kept}
        settings.passwords = {k: v for k, v in self.passwords.items() if k in kept}

    def reject(self) -> None:
        LANGUAGE.set(self.original_language)
        super().reject()
