"""System Launch's first-game guide: build towards a launch, then the Events — taught by playing."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from client.games.system_launch.table import SystemLaunchTable
from client.ui.guide import GuideStep


def _build_targets(table: SystemLaunchTable) -> list[QWidget]:
    cards: list[QWidget] = [card for card in table.hand_cards.values() if card.selectable]
    buttons = [b for b in table.action_buttons if b.action[0] == "build" and b.isVisible()]
    return [*cards, *buttons]


def steps() -> list[GuideStep[SystemLaunchTable]]:
    return [
        GuideStep("guide.sl.build", frozenset({"build"}), _build_targets),
        GuideStep("guide.sl.events", frozenset(), lambda table: [b for b in table.action_buttons if b.isVisible()]),
    ]
