"""System Launch's first-game guide: build towards a launch, then the Events — taught by playing."""

from __future__ import annotations

from typing import Any

from client.ui.guide import GuideStep


def _build_targets(table: Any) -> list[Any]:
    cards = [card for card in table.hand_cards.values() if getattr(card, "selectable", False)]
    buttons = [b for b in table.action_buttons if getattr(b, "action", ("",))[0] == "build" and b.isVisible()]
    return [*cards, *buttons]


def steps() -> list[GuideStep]:
    return [
        GuideStep("guide.sl.build", frozenset({"build"}), _build_targets),
        GuideStep("guide.sl.events", frozenset(), lambda table: [b for b in table.action_buttons if b.isVisible()]),
    ]
