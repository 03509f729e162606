"""System Launch's picture in the lobby: a winning build fanned out beside a card back."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from client.games.system_launch.widgets import CardFace, CardFan
from client.i18n import LANGUAGE, tr

_BUILD = (("Processor", "cat.part"), ("RAM", "cat.part"), ("HardDrive", "cat.part"), ("Firewall", "cat.protection"))


class BuildFan(CardFan):
    """The fan of three Parts and a Protection, re-labelled on a language switch."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__([], parent)
        self.retranslate()
        LANGUAGE.changed.connect(self.retranslate)  # a bound slot: Qt drops it with the widget

    def retranslate(self, *_: object) -> None:
        self.set_faces([None, *(CardFace(kind, tr(f"card.{kind}"), tr(cat)) for kind, cat in _BUILD)])
