"""The report's rematch block for a network game: "Play again", "No thanks", and where it stands.

The words come from :meth:`client.net.rematch.Rematch.status`; the buttons stay offered while an
answer still means something (nobody said no, not everyone said yes yet).
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from client.i18n import LANGUAGE, tr
from client.net.rematch import Rematch
from client.ui.named import named


class RematchPanel(QWidget):
    def __init__(self, rematch: Rematch, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rematch = rematch
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        self.play_button = QPushButton()
        self.play_button.setMinimumHeight(34)
        self.play_button.clicked.connect(self._play)
        self.decline_button = QPushButton()
        self.decline_button.setMinimumHeight(34)
        self.decline_button.clicked.connect(self._decline)
        row.addWidget(self.play_button)
        row.addWidget(self.decline_button)
        row.addStretch(1)
        layout.addWidget(self.status)
        layout.addLayout(row)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)

    def _play(self) -> None:
        self.rematch.accept()
        self.refresh()

    def _decline(self) -> None:
        self.rematch.decline()
        self.refresh()

    def refresh(self) -> None:
        rematch = self.rematch
        text = rematch.status()
        self.status.setText(text)
        self.status.setVisible(bool(text))
        open_ = rematch.can_answer()
        mine = rematch.answered(rematch.game.human)
        self.play_button.setVisible(open_ and mine is not True)
        self.decline_button.setVisible(open_)

    def retranslate(self, *_: object) -> None:
        self.play_button.setText(tr("rematch.play_again"))
        self.decline_button.setText(tr("rematch.decline"))
        self.refresh()
