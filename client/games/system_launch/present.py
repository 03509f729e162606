"""System Launch in words: card names, phases, action labels and the game log.

Everything here turns the engine's plain data (card identities, seats,
action tuples, display events) into text in the current language.  Log lines
are kept as a message id plus raw parameters (seat numbers, card identities)
and rendered on demand, so switching language re-labels the whole log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Self

from client.games.log import Applied, Event, GameLine
from client.games.system_launch.art import EVENT, PART, PROTECTION, category
from client.i18n import tr
from client.i18n.seat_names import seat_name
from engines.core import Action, Deal, Knowledge, PrivateDelivery
from engines.system_launch.cards import CARD_KIND, KIND_NAMES, PHISHING, UPGRADE


def kind_name(card: int) -> str:
    """The engine's kind name of a card identity (what the art is keyed by)."""
    return KIND_NAMES[CARD_KIND[card]]


def kind_title(kind: int) -> str:
    return tr(f"card.{KIND_NAMES[kind]}")


def card_title(card: int) -> str:
    """The translated name of a card identity, e.g. "Hard Drive"."""
    return kind_title(CARD_KIND[card])


def caption(card: int) -> str:
    """The translated category of a card (Part, Protection, Event)."""
    return tr({PART: "cat.part", PROTECTION: "cat.protection", EVENT: "cat.event"}[category(kind_name(card))])


# -- what is going on -------------------------------------------------------------
def phase_text(view: dict[str, Any], hand_limit: int) -> str:
    stage = view["stage"]
    if stage in ("shuffle", "first-player"):
        return tr("phase.setup")
    if stage == "draw":
        return tr("phase.setup") if view["round"] == 0 else tr("phase.draw")
    if stage == "action":
        return tr("phase.action")
    if stage == "discard":
        return tr("phase.discard", count=hand_limit)
    if stage in ("hacker-delivery", "hacker-take"):
        return tr("phase.hacker")
    if stage == "crash":
        return tr("phase.crash")
    return tr("phase.over")


def turn_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    active = view["active"]
    if view["stage"] == "over" or active < 0:
        return ""
    if active == me:
        return tr("table.turn_you")
    return tr("table.turn_of", name=seat_name(names, active))


def action_label(action: Action, names: Sequence[str]) -> str:
    """The text of the button that takes ``action``."""
    verb = action[0]
    if verb == "build":
        return tr("act.build", card=card_title(action[2]))
    if verb == "upgrade":
        return tr("act.upgrade", card=card_title(action[2]))
    if verb == "play":
        if CARD_KIND[action[2]] == UPGRADE:
            return tr("act.play_self", card=card_title(action[2]))
        return tr("act.play_on", card=card_title(action[2]), name=seat_name(names, action[3]))
    if verb == "pass":
        return tr("act.pass")
    if verb == "discard":
        return tr("act.discard", card=card_title(action[2]))
    if verb == "take-none":
        return tr("act.take_none")
    if verb == "lose":
        return tr("act.lose", card=card_title(action[1]))
    return " ".join(str(x) for x in action)


def take_label(action: Action, knowledge: Knowledge) -> str:
    """ "Take <card>" for a Hacker Attack take, naming the card the attacker was shown."""
    card = knowledge.cards.get(action[1])
    return tr("act.take", card=card_title(card) if card is not None else "?")


# -- the log -----------------------------------------------------------------------
@dataclass(frozen=True)
class LogLine:
    """A log line as a message id and raw parameters; :meth:`text` renders it now."""

    msg: str
    seats: tuple[tuple[str, int], ...] = ()
    cards: tuple[tuple[str, int], ...] = ()
    kinds: tuple[tuple[str, int], ...] = ()
    numbers: tuple[tuple[str, int], ...] = ()
    tone: str = "plain"

    def text(self, names: Sequence[str]) -> str:
        params: dict[str, object] = {k: seat_name(names, s) for k, s in self.seats}
        params.update({k: card_title(c) for k, c in self.cards})
        params.update({k: kind_title(c) for k, c in self.kinds})
        params.update(dict(self.numbers))
        # Card names such as "Phishing!" end a sentence themselves: no "!." in the log.
        return tr(self.msg, **params).replace("!.", "!")

    def reworded(self, msg: str) -> Self:
        return dataclasses.replace(self, msg=msg)


#: The events every seat reads alike, each told in one line built from the event's fields.
ALIKE: dict[str, Callable[[Event], LogLine]] = {
    "shuffled": lambda e: LogLine("log.shuffled", numbers=(("count", e[1]),)),
    "reshuffled": lambda e: LogLine("log.reshuffled", numbers=(("count", e[1]),)),
    "build": lambda e: LogLine("log.build", seats=(("name", e[1]),), cards=(("card", e[2]),)),
    "upgrade": lambda e: LogLine("log.upgrade", seats=(("name", e[1]),), cards=(("card", e[2]),)),
    "pass": lambda e: LogLine("log.pass", seats=(("name", e[1]),)),
    "cancelled": lambda e: LogLine("log.cancelled", seats=(("target", e[1]),), kinds=(("card", e[2]),), tone="good"),
    "no-effect": lambda e: LogLine("log.no_effect", seats=(("target", e[1]),)),
    "take-none": lambda e: LogLine("log.take_none", seats=(("name", e[1]), ("target", e[2]))),
    "crashed": lambda e: LogLine("log.crashed", seats=(("target", e[1]),), cards=(("card", e[2]),), tone="event"),
    "discard": lambda e: LogLine("log.discard", seats=(("name", e[1]),), cards=(("card", e[2]),)),
    "skipped": lambda e: LogLine("log.skipped", seats=(("name", e[1]),)),
    "launched": lambda e: LogLine("log.launched", seats=(("name", e[1]),), tone="win"),
    "deck-exhausted": lambda e: LogLine("log.exhausted", tone="event"),
    "left": lambda e: LogLine("log.left", seats=(("name", e[1]),), tone="event"),
}


class LogWriter:
    """Turns engine entries into log lines for one seat's eyes (``me``; None: a spectator).

    Stateful only to fold the opening deal into one line.
    """

    def __init__(self, me: int | None, players: int) -> None:
        self.me = me
        self.players = players
        self.opening = False
        self.opening_deals = 0

    def lines(self, entry: Applied, knowledge: Knowledge) -> list[GameLine]:
        action = entry.action
        if action is None:
            return []
        out: list[GameLine] = []
        before = entry.before
        if self.opening and action[0] != "deal":  # a log without the engine's "dealt" event
            self.opening = False
            out.append(LogLine("log.dealt", numbers=(("count", self.opening_deals // max(1, self.players)),)))
        if action[0] == "deal" and isinstance(before, Deal):
            if self.opening:
                self.opening_deals += 1
            elif before.seat == self.me and before.slot in knowledge.cards:
                out.append(LogLine("log.draw_you", cards=(("card", knowledge.cards[before.slot]),), tone="private"))
            else:
                out.append(LogLine("log.draw", seats=(("name", before.seat),)))
        if action[0] == "delivered" and isinstance(before, PrivateDelivery):
            out.append(LogLine("log.looks", seats=(("name", before.target), ("target", before.source))))
        events = list(entry.events)
        for i, event in enumerate(events):
            out.extend(self._event(event, events[i + 1 :], knowledge))
        return out

    def _event(self, e: Event, rest: list[Event], knowledge: Knowledge) -> list[LogLine]:
        verb = e[0]
        alike = ALIKE.get(verb)
        if alike is not None:
            return [alike(e)]
        if verb == "first-player":
            self.opening = True
            self.opening_deals = 0
            return [LogLine("log.first", seats=(("name", e[1]),))]
        if verb == "dealt":  # the opening deal is over; the first player's own draw comes next
            self.opening = False
            return [LogLine("log.dealt", numbers=(("count", e[1]),))]
        if verb == "play":
            return _played(e, rest)
        if verb == "take":
            return [self._taken(e, knowledge)]
        return []

    def _taken(self, e: Event, knowledge: Knowledge) -> LogLine:
        """A Hacker Attack's take: the card is named only to the two seats that saw it."""
        seat, target, slot = e[1], e[2], e[3]
        card = knowledge.cards.get(slot)
        if seat == self.me and card is not None:
            return LogLine("log.take_you", seats=(("target", target),), cards=(("card", card),), tone="private")
        if target == self.me and card is not None:
            return LogLine("log.taken_from_you", seats=(("name", seat),), cards=(("card", card),), tone="event")
        return LogLine("log.take", seats=(("name", seat), ("target", target)), tone="event")


def _played(e: Event, rest: list[Event]) -> list[LogLine]:
    """An Event card played, on its player or on a target; a Phishing no Password cancelled skips the target's turn."""
    seat, card, target = e[1], e[2], e[3]
    if CARD_KIND[card] == UPGRADE:
        return [LogLine("log.play_self", seats=(("name", seat),), cards=(("card", card),), tone="event")]
    lines = [LogLine("log.play", seats=(("name", seat), ("target", target)), cards=(("card", card),), tone="event")]
    if CARD_KIND[card] == PHISHING and not any(r[0] == "cancelled" for r in rest):
        lines.append(LogLine("log.phished", seats=(("target", target),), tone="event"))
    return lines
