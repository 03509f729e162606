"""Cards on their way across the System Launch table: deck → a hand, hand → a System row, a hand shown.

The table's cards are ordinary widgets rebuilt for every view, so a card cannot
move by itself.  :class:`CardFlight` is a transparent overlay over the table
that, for one short tween of :mod:`client.ui.motion`, paints the cards that just
changed place travelling from where they were to where the new view puts them
(the same painters as the cards themselves, interpolated rectangles; no scene
graph).  It never takes a click (mouse events pass through it), any click or
key ends it, and with motion off it is never shown.  The cue that goes with it
(``card``, or ``reveal`` when an attacker is shown a hand) is asked of
:mod:`client.ui.sound`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from client.games.system_launch import art
from client.games.system_launch.widgets import CardFace
from client.ui import motion, sound


@dataclass(frozen=True)
class Flight:
    """One card on its way: from and to (table coordinates), and its face (None: a back)."""

    start: QRectF
    end: QRectF
    face: CardFace | None = None


#: What a table tells the overlay: the widget where a place is ("deck", "hand", "system", "shown")
#: for a seat and a card (None: a back, or any card of that place).
Places = Callable[[str, int | None, int | None], QWidget | None]


class CardFlight(QWidget):
    """The overlay (see the module docstring); :meth:`follow` is called with each view the table shows."""

    def __init__(self, table: QWidget) -> None:
        super().__init__(table)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.flights: list[Flight] = []
        self.t = 1.0
        self._before: dict[str, Any] | None = None
        self.hide()

    def follow(self, view: dict[str, Any], places: Places, face: Callable[[int], CardFace], interactive: bool) -> None:
        """Start the flights from the last view to ``view`` (none for a replay frame or a new game)."""
        before, self._before = self._before, view
        if not interactive or before is None or before.get("seat") != view.get("seat"):
            motion.clock().finish(self)
            return
        table = self.parentWidget()
        layout = table.layout() if table is not None else None
        if layout is not None:
            layout.activate()  # the new cards have their places before the flights aim at them
        moves = _moves(before, view)
        flights = []
        for source, target, seat, card in moves:
            a = self._rect(places(source, seat if source != "deck" else None, None))
            b = self._rect(places(target, seat, card))
            if a is not None and b is not None:
                flights.append(Flight(a, b, face(card) if card is not None else None))
        if not flights:
            motion.clock().finish(self)
            return
        sound.play("reveal" if any(t == "shown" for _, t, _, _ in moves) else "card")
        self.flights = flights
        if table is not None:
            self.setGeometry(table.rect())
        self.raise_()
        motion.clock().play(self, motion.LONG, self._frame)

    def _rect(self, widget: QWidget | None) -> QRectF | None:
        table = self.parentWidget()
        if widget is None or table is None or not widget.isVisible():
            return None
        at = widget.mapTo(table, QPoint(0, 0))
        w = min(float(widget.width()), art.CARD_W * 0.8)
        h = min(float(widget.height()), art.CARD_H * 0.8)
        return QRectF(at.x() + (widget.width() - w) / 2, at.y() + (widget.height() - h) / 2, w, h)

    def _frame(self, t: float) -> None:
        self.t = t
        if t >= 1.0:
            self.flights = []
            self.hide()
        else:
            self.show()
        self.update()

    def running(self) -> bool:
        return motion.clock().running(self)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            for flight in self.flights:
                rect = _between(flight.start, flight.end, self.t)
                if flight.face is None:
                    art.paint_card_back(p, rect)
                else:
                    art.paint_card_face(p, rect, flight.face.kind, flight.face.title)
        finally:
            p.end()


def _between(a: QRectF, b: QRectF, t: float) -> QRectF:
    return QRectF(
        motion.lerp(a.x(), b.x(), t),
        motion.lerp(a.y(), b.y(), t),
        motion.lerp(a.width(), b.width(), t),
        motion.lerp(a.height(), b.height(), t),
    )


def _moves(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, str, int, int | None]]:
    """(from, to, seat, card or None) for each card that changed place between two views of one seat."""
    me = after.get("seat")
    out: list[tuple[str, str, int, int | None]] = []
    drawn = max(0, before["deck"] - after["deck"])
    if not before["deck"] and not any(before["hands"]) and after["deck"]:  # the deal: every hand from the deck
        drawn = sum(after["hands"])
    for seat in range(len(after["hands"])):
        if seat == me:
            old = {slot for slot, _ in before["hand"]}
            new = [card for slot, card in after["hand"] if slot not in old]
        else:
            new = [None] * max(0, after["hands"][seat] - before["hands"][seat])
        for card in new[:drawn]:
            out.append(("deck", "hand", seat, card))
        drawn -= min(drawn, len(new))
        built = _grown(before["system"][seat], after["system"][seat])
        out += [("hand", "system", seat, card) for card in built]
    if after.get("stage") == "hacker-take" and after.get("active") == me and before.get("stage") != "hacker-take":
        target = after.get("target")
        if isinstance(target, int):
            out += [("hand", "shown", target, card) for _, card in after["seen"].get(target, [])]
    return out


def _grown(old: Sequence[int], new: Sequence[int]) -> list[int]:
    """The cards in ``new`` beyond those of ``old`` (a row only grows at its end, or is rebuilt)."""
    rest = list(new)
    for card in old:
        if card in rest:
            rest.remove(card)
    return rest
