"""The clickable 7×7 board: tiles, row letters and column numbers, shift arrows, route.

:class:`MazeBoard` shows one view and, when it is the player's decision,
offers exactly the engine's legal actions: an arrow is lit only for a legal
shift, a tile can be picked only if it has a legal rotation, and a cell is
lit only if a legal path ends there.  The board keeps the player's choice in
progress (the picked tile and its previewed turn, the planned route) and
emits a finished choice as ``action_chosen``; it never touches the game.

Geometry helpers (:meth:`cell_rect`, :meth:`cell_center`, :meth:`arrow_rect`,
:meth:`arrow_center`, :meth:`hit`) are public so that tests and screenshots
click where a person would.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Literal

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from client.games.anomaly_maze import paint
from client.games.anomaly_maze.present import ROWS
from client.games.log import Event
from client.ui import motion
from engines.anomaly_maze import board as geo
from engines.core import Action

ARROW = 0.62  # width of the arrow band, in cells
LABEL = 0.42  # width of the letter/number band (left and top), in cells
UNITS = 7 + 2 * ARROW + LABEL

#: Where each shift's arrow sits and where it points.
ARROW_SIDES = {("row", 1): "E", ("row", -1): "W", ("col", 1): "S", ("col", -1): "N"}

Shift = tuple[str, int, int]
#: A place on the board a pointer can be over: a shift's arrow (axis, index, direction) or a cell.
Spot = tuple[Literal["arrow"], str, int, int] | tuple[Literal["cell"], int]


class MazeBoard(QWidget):
    """The board for one view, with the player's choice in progress."""

    action_chosen = Signal(tuple)
    choice_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.enabled = True
        self.selected: int | None = None
        self.preview = 0
        #: A shift previewed before it is taken (a second click on its arrow, or Confirm, takes it).
        self.shift_plan: Shift | None = None
        self.route: tuple[int, ...] = ()
        self.hover: Spot | None = None
        self.trail: tuple[int, tuple[int, ...]] | None = None
        self.overlay: tuple[str, QColor] | None = None
        self._seen_seq = -1
        #: The latest shift sliding in ((axis, index, direction), progress) and the latest walk
        #: ((seat, cells from the start), progress); progress 1.0: at rest (client/ui/motion.py drives them).
        self.sliding: tuple[Shift, float] | None = None
        self.walking: tuple[tuple[int, tuple[int, ...]], float] | None = None
        #: Damage just taken ((seat, cell, points), progress): a red "−N" rising from the pawn hit.
        self.hits: tuple[list[tuple[int, int, int]], float] | None = None
        self._slide_tween, self._walk_tween, self._hit_tween = object(), object(), object()
        self.setMouseTracking(True)
        self.setMinimumSize(420, 420)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    # -- what is offered ----------------------------------------------------------
    def set_view(self, view: dict[str, Any], legal: Sequence[Action], enabled: bool = True) -> None:
        """Show ``view``; offer ``legal`` (empty: nothing is clickable)."""
        self._note_trail(view)
        self._note_hits(self.view, view)
        self.view = view
        legal = [tuple(a) for a in legal]
        if legal != self.legal:
            self.selected, self.preview, self.route, self.shift_plan = None, 0, (), None
        self.legal = legal
        self.enabled = enabled
        if self.selected is not None and self.selected not in self.rotatable_cells():
            self.selected, self.preview = None, 0
        if self.route and self.route not in self.move_paths():
            self.route = ()
        self.update()

    def _note_trail(self, view: dict[str, Any]) -> None:
        """Remember the latest move's cells (and where it started) to draw it as a trail."""
        seq = view.get("event_seq", 0)
        if seq != self._seen_seq:
            events = view["events"]
            restart = self._seen_seq < 0 or seq < self._seen_seq
            if restart:  # first view, or a replay stepping back
                self.trail = None
                fresh = events
            else:
                fresh = events[max(0, len(events) - (seq - self._seen_seq)) :]
            shift: Shift | None = None
            walk = None
            for e in fresh:  # the latest walk stays drawn (also through the next turn) until another replaces it
                if e[0] == "move" and len(e) <= 2:
                    self.trail = None  # stayed put: nothing to draw, and an older walk would mislead
                elif e[0] == "move":
                    self.trail = walk = (e[1], tuple(e[2:]))  # the start cell, then every cell entered
                elif e[0] == "shift":
                    shift = (e[2], e[3], e[4])
            self._seen_seq = seq
            if not restart:
                self._animate(shift, walk)

    def _animate(self, shift: Shift | None, walk: tuple[int, tuple[int, ...]] | None) -> None:
        """Slide the line just shifted and walk the pawn just moved (finished at once with motion off)."""
        clock = motion.clock()
        if shift is not None:

            def slid(t: float, shift: Shift = shift) -> None:
                self.sliding = (shift, t) if t < 1.0 else None
                self.update()

            clock.play(self._slide_tween, motion.MEDIUM, slid, host=self)
        if walk is not None:

            def walked(t: float, walk: tuple[int, tuple[int, ...]] = walk) -> None:
                self.walking = (walk, t) if t < 1.0 else None
                self.update()

            steps = len(walk[1]) - 1
            clock.play(self._walk_tween, min(motion.LONG, motion.SHORT + 60 * steps), walked, host=self)

    def _note_hits(self, before: dict[str, Any] | None, after: dict[str, Any]) -> None:
        """A pawn that lost HP since the last view shows its damage for a moment (a replay stepping: none)."""
        if before is None or after.get("event_seq", 0) <= before.get("event_seq", 0):
            return
        old = {pl["seat"]: pl["hp"] for pl in before["players"]}
        hits = [
            (pl["seat"], pl["cell"], old[pl["seat"]] - pl["hp"])
            for pl in after["players"]
            if pl["seat"] in old and pl["hp"] < old[pl["seat"]] and pl["cell"] is not None
        ]
        if hits:

            def rising(t: float, hits: list[tuple[int, int, int]] = hits) -> None:
                self.hits = (hits, t) if t < 1.0 else None
                self.update()

            motion.clock().play(self._hit_tween, motion.LONG, rising, host=self)

    def _paint_hits(self, p: QPainter) -> None:
        if self.hits is None:
            return
        hits, t = self.hits
        for _, cell, points in hits:
            r = self.cell_rect(cell)
            colour = QColor(255, 90, 80)
            colour.setAlphaF(max(0.0, 1.0 - t * t))
            self._small_text(p, r.translated(0, -r.height() * 0.45 * t), f"−{points}", colour, backdrop=True)

    def tile_rect(self, c: int) -> QRectF:
        """Where the tile now at cell ``c`` is drawn: its cell, or on its way there while its line slides."""
        rect = self.cell_rect(c)
        if self.sliding is None:
            return rect
        (axis, index, direction), t = self.sliding
        mapping, _, wrap_target = geo.SHIFTS[(axis, index, direction)]
        came_from = {new: old for old, new in mapping.items()}
        if c not in came_from:
            return rect
        if c == wrap_target:  # it crossed the edge: it comes in from outside the board, one cell away
            s = self.cell_size()
            start = rect.translated(-direction * s, 0) if axis == "row" else rect.translated(0, -direction * s)
        else:
            start = self.cell_rect(came_from[c])
        return QRectF(
            motion.lerp(start.x(), rect.x(), t), motion.lerp(start.y(), rect.y(), t), rect.width(), rect.height()
        )

    def pawn_rect(self, seat: int, cell: int) -> QRectF:
        """Where a pawn is drawn: its cell, or along its route while it walks."""
        rect = self.cell_rect(cell)
        if self.walking is None or self.walking[0][0] != seat:
            return rect
        (_, cells), t = self.walking
        centres = [(self.cell_rect(c).center().x(), self.cell_rect(c).center().y()) for c in cells]
        x, y = motion.along(centres, t)
        return QRectF(x - rect.width() / 2, y - rect.height() / 2, rect.width(), rect.height())

    def phase(self) -> str:
        return self.view["phase"] if self.view else ""

    def offered_shifts(self) -> set[Shift]:
        return {(a[1], a[2], a[3]) for a in self.legal if a[0] == "shift"} if self.enabled else set()

    def rotatable_cells(self) -> set[int]:
        return {a[1] for a in self.legal if a[0] == "rotate"} if self.enabled else set()

    def move_paths(self) -> list[tuple[int, ...]]:
        return [tuple(a[1:]) for a in self.legal if a[0] == "move"] if self.enabled else []

    def reachable_cells(self) -> set[int]:
        return {p[-1] for p in self.move_paths() if p}

    def my_cell(self) -> int | None:
        if self.view is None or self.view["you"] is None:
            return None
        cell: int | None = self.view["players"][self.view["you"]]["cell"]
        return cell

    # -- choices ---------------------------------------------------------------------
    def pick(self, cell: int) -> None:
        """Pick a tile to turn (a second click on it turns the preview a further 90°)."""
        if cell not in self.rotatable_cells():
            self.cancel()
            return
        self.shift_plan = None
        if cell == self.selected:
            self.preview = (self.preview + 1) % 4
        else:
            self.selected, self.preview = cell, 1
        self.choice_changed.emit()
        self.update()

    def turn_preview(self, delta: int) -> None:
        if self.selected is not None:
            self.preview = (self.preview + delta) % 4
            self.choice_changed.emit()
            self.update()

    def rotation(self) -> Action | None:
        """The rotation the preview shows, if it is a legal action."""
        if self.selected is None:
            return None
        action = ("rotate", self.selected, self.preview)
        return action if action in self.legal else None

    def confirm_rotation(self) -> None:
        action = self.rotation()
        if action is not None:
            self._choose(action)

    def plan_shift(self, shift: Shift) -> None:
        """Preview ``shift`` (the line drawn as it would be); the same arrow again takes it."""
        if shift not in self.offered_shifts():
            return
        if shift == self.shift_plan:
            self.confirm_shift()
            return
        self.selected, self.preview, self.shift_plan = None, 0, shift
        self.choice_changed.emit()
        self.update()

    def confirm_shift(self) -> None:
        if self.shift_plan is not None and self.shift_plan in self.offered_shifts():
            self._choose(("shift", *self.shift_plan))

    def confirm(self) -> None:
        """The Confirm button: the previewed shift, or the previewed turn of the picked tile."""
        if self.shift_plan is not None:
            self.confirm_shift()
        else:
            self.confirm_rotation()

    def cancel(self) -> None:
        self.selected, self.preview, self.route, self.shift_plan = None, 0, (), None
        self.choice_changed.emit()
        self.update()

    def plan(self, cell: int) -> None:
        """Plan (or extend) the route to ``cell``; a click on its end walks it; own cell: stay."""
        paths = self.move_paths()
        if not paths:
            return
        if cell == self.my_cell():
            if self.route:
                self.route = ()
            else:
                self._choose(("move",))
                return
        elif self.route and cell == self.route[-1]:
            self.go()
            return
        elif (*self.route, cell) in paths:
            self.route = (*self.route, cell)
        else:
            ending = [p for p in paths if p and p[-1] == cell]
            if not ending:
                return
            self.route = min(ending, key=len)
        self.choice_changed.emit()
        self.update()

    def go(self) -> None:
        if self.route and self.route in self.move_paths():
            self._choose(("move", *self.route))

    def stay(self) -> None:
        if () in self.move_paths():
            self._choose(("move",))

    def _choose(self, action: Action) -> None:
        self.selected, self.preview, self.route, self.shift_plan = None, 0, (), None
        self.action_chosen.emit(action)

    # -- geometry -------------------------------------------------------------------------
    def cell_size(self) -> float:
        return min(self.width(), self.height()) / UNITS

    def origin(self) -> QPointF:
        """Top-left corner of cell A1."""
        s = self.cell_size()
        total = UNITS * s
        return QPointF(
            (self.width() - total) / 2 + (ARROW + LABEL) * s, (self.height() - total) / 2 + (ARROW + LABEL) * s
        )

    def cell_rect(self, c: int) -> QRectF:
        s = self.cell_size()
        o = self.origin()
        r, k = divmod(c, geo.SIZE)
        return QRectF(o.x() + k * s, o.y() + r * s, s, s)

    def cell_center(self, c: int) -> QPoint:
        return self.cell_rect(c).center().toPoint()

    def arrow_rect(self, axis: str, index: int, direction: int) -> QRectF:
        s = self.cell_size()
        o = self.origin()
        a = ARROW * s
        if axis == "row":
            y = o.y() + index * s
            x = o.x() - LABEL * s - a if direction == 1 else o.x() + 7 * s
            return QRectF(x, y, a, s)
        x = o.x() + index * s
        y = o.y() - LABEL * s - a if direction == 1 else o.y() + 7 * s
        return QRectF(x, y, s, a)

    def arrow_center(self, axis: str, index: int, direction: int) -> QPoint:
        return self.arrow_rect(axis, index, direction).center().toPoint()

    def hit(self, point: QPointF) -> Spot | None:
        """What is under ``point``: ``("arrow", axis, index, direction)``, ``("cell", c)`` or None."""
        for axis, index, direction in geo.SHIFTS:
            if self.arrow_rect(axis, index, direction).contains(point):
                return ("arrow", axis, index, direction)
        for c in range(geo.CELLS):
            if self.cell_rect(c).contains(point):
                return ("cell", c)
        return None

    # -- the mouse --------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self.enabled or not self.legal:
            return
        target = self.hit(event.position())
        phase = self.phase()
        if target is None:
            return
        if target[0] == "arrow":
            if phase == "anomaly" and target[1:] in self.offered_shifts():
                self.plan_shift(target[1:])
            return
        cell = target[1]
        if phase == "anomaly":
            self.pick(cell)
        elif phase == "move":
            self.plan(cell)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        target = self.hit(event.position())
        if target != self.hover:
            self.hover = target
            self.update()

    def leaveEvent(self, event: QEvent) -> None:
        self.hover = None
        self.update()

    # -- painting ----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        if self.view is None:
            return
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._paint_frame(p)
            self._paint_tiles(p)
            self._paint_labels(p)
            self._paint_last_anomaly(p)
            self._paint_reachable(p)
            self._paint_objects(p)
            self._paint_trail(p)
            self._paint_route(p)
            self._paint_line_of_fire(p)
            self._paint_pawns(p)
            self._paint_hits(p)
            self._paint_arrows(p)
            self._paint_overlay(p)
        finally:
            p.end()

    def _paint_frame(self, p: QPainter) -> None:
        s = self.cell_size()
        o = self.origin()
        frame = QRectF(o.x() - s * 0.12, o.y() - s * 0.12, 7 * s + s * 0.24, 7 * s + s * 0.24)
        p.setPen(QPen(QColor(0, 0, 0, 140), max(1.0, s * 0.03)))
        p.setBrush(QColor("#16201d"))
        p.drawRoundedRect(frame, s * 0.18, s * 0.18)

    def _paint_tiles(self, p: QPainter) -> None:
        assert self.view is not None
        masks = [t["mask"] for t in self.view["tiles"]]
        if self.shift_plan is not None:  # the line as the shift would leave it
            masks = geo.shift_tiles(masks, *self.shift_plan)
        if self.sliding is not None:  # a line on its way in: clipped to the board, the still tiles drawn first
            p.save()
            p.setClipRect(self.cell_rect(0).united(self.cell_rect(geo.SIZE * geo.SIZE - 1)))
        moving = [t for t in self.view["tiles"] if self.tile_rect(t["cell"]) != self.cell_rect(t["cell"])]
        for tile in [t for t in self.view["tiles"] if t not in moving] + moving:
            c = tile["cell"]
            mask = masks[c]
            if c == self.selected:
                mask = geo.rotate(mask, self.preview)
            paint.paint_tile(p, self.tile_rect(c), mask, tile["respawn"])
        if self.sliding is not None:
            p.restore()
        if self.shift_plan is not None:
            cells = geo.line_cells(self.shift_plan[0], self.shift_plan[1])
            band = self.cell_rect(cells[0]).united(self.cell_rect(cells[-1]))
            p.setPen(QPen(paint.GOLD, max(2.0, self.cell_size() * 0.07)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(band.adjusted(1, 1, -1, -1), 8, 8)
        hover_cell = self.hover[1] if self.hover and self.hover[0] == "cell" else None
        if self.phase() == "anomaly" and hover_cell in self.rotatable_cells() and hover_cell != self.selected:
            p.setPen(QPen(QColor(255, 255, 255, 150), max(1.0, self.cell_size() * 0.04)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(self.cell_rect(hover_cell).adjusted(2, 2, -2, -2), 6, 6)
        if self.selected is not None:
            r = self.cell_rect(self.selected)
            p.setPen(QPen(paint.GOLD, max(2.0, self.cell_size() * 0.07)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 6, 6)
            self._small_text(
                p, r.adjusted(0, 0, -5, -3), f"{90 * self.preview}°", paint.GOLD, bottom_right=True, backdrop=True
            )

    def _small_text(
        self, p: QPainter, r: QRectF, text: str, colour: QColor, bottom_right: bool = False, backdrop: bool = False
    ) -> None:
        font = QFont(p.font())
        font.setBold(True)
        font.setPixelSize(max(8, int(self.cell_size() * 0.2)))
        p.setFont(font)
        align = (
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom if bottom_right else Qt.AlignmentFlag.AlignCenter
        )
        if backdrop:  # a dark pill under the text: readable on a light corridor as on a dark wall
            box = p.fontMetrics().boundingRect(r.toRect(), int(align), text)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(10, 20, 16, 215))
            p.drawRoundedRect(QRectF(box).adjusted(-3, -1, 3, 1), 4, 4)
        p.setPen(colour)
        p.drawText(r, align, text)

    def _paint_labels(self, p: QPainter) -> None:
        s = self.cell_size()
        o = self.origin()
        font = QFont(p.font())
        font.setBold(True)
        font.setPixelSize(max(9, int(s * 0.26)))
        p.setFont(font)
        p.setPen(QColor("#e9efe9"))
        for i in range(geo.SIZE):
            p.drawText(
                QRectF(o.x() - LABEL * s, o.y() + i * s, LABEL * s * 0.8, s), Qt.AlignmentFlag.AlignCenter, ROWS[i]
            )
            p.drawText(
                QRectF(o.x() + i * s, o.y() - LABEL * s, s, LABEL * s * 0.85), Qt.AlignmentFlag.AlignCenter, str(i + 1)
            )

    def _last_anomaly(self) -> Event | None:
        """The latest anomaly, whoever made it: the opponent's stays in view until the next one is made."""
        assert self.view is not None
        for e in reversed(self.view["events"]):
            if e[0] in ("rotate", "shift"):
                return tuple(e)
        return None

    def _paint_last_anomaly(self, p: QPainter) -> None:
        last = self._last_anomaly()
        if last is None or self.selected is not None:
            return
        pen = QPen(QColor(255, 255, 255, 200), max(1.5, self.cell_size() * 0.05))
        pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        # While the player picks a move, an outline only: the reachable cells must read through it.
        choosing = self.phase() == "move" and bool(self.legal)
        p.setBrush(Qt.BrushStyle.NoBrush if choosing else QColor(255, 213, 74, 40))
        if last[0] == "rotate":
            p.drawRoundedRect(self.cell_rect(last[2]).adjusted(2, 2, -2, -2), 6, 6)
        else:
            cells = geo.line_cells(last[2], last[3])
            band = self.cell_rect(cells[0]).united(self.cell_rect(cells[-1]))
            p.drawRoundedRect(band.adjusted(2, 2, -2, -2), 8, 8)

    def _paint_reachable(self, p: QPainter) -> None:
        if self.phase() != "move":
            return
        reach = self.reachable_cells()
        p.setPen(Qt.PenStyle.NoPen)
        for c in reach:
            hovered = self.hover == ("cell", c)
            p.setBrush(QColor(255, 255, 255, 95 if hovered else 48))
            r = self.cell_rect(c)
            p.drawRoundedRect(r.adjusted(3, 3, -3, -3), 6, 6)

    def _paint_objects(self, p: QPainter) -> None:
        assert self.view is not None
        pawns = {pl["cell"] for pl in self.view["players"] if pl["cell"] is not None}

        def spot(c: int) -> QRectF:
            r = self.cell_rect(c)
            if c in pawns:  # a pawn stands on it: the object peeks from a corner
                return QRectF(r.left() + r.width() * 0.02, r.top() + r.width() * 0.02, r.width() * 0.4, r.width() * 0.4)
            return r.adjusted(r.width() * 0.2, r.width() * 0.2, -r.width() * 0.2, -r.width() * 0.2)

        for pl in self.view["players"]:
            colour = paint.seat_colour(pl["seat"])
            if pl["chest"] is not None:
                paint.paint_chest(p, spot(pl["chest"]), colour)
            if pl["key"] is not None:
                paint.paint_key(p, spot(pl["key"]), colour)
        painters = {"medkit": paint.paint_medkit, "mine": paint.paint_mine, "spikes": paint.paint_spikes}
        for item, c in self.view["items"].items():
            if c is not None:
                painters[item](p, spot(c))

    def _polyline(self, p: QPainter, cells: Sequence[int], pen: QPen) -> None:
        points = [QPointF(self.cell_rect(c).center()) for c in cells]
        p.setPen(pen)
        for a, b in itertools.pairwise(points):
            p.drawLine(a, b)

    def _paint_trail(self, p: QPainter) -> None:
        if self.trail is None:
            return
        seat, cells = self.trail
        colour = QColor(paint.seat_colour(seat))
        colour.setAlpha(200)
        pen = QPen(colour, max(2.0, self.cell_size() * 0.08))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self._polyline(p, cells, pen)

    def _paint_route(self, p: QPainter) -> None:
        me = self.my_cell()
        if not self.route or me is None:
            return
        cells = (me, *self.route)
        s = self.cell_size()
        shadow = QPen(QColor(0, 0, 0, 110), max(3.0, s * 0.16))
        shadow.setCapStyle(Qt.PenCapStyle.RoundCap)
        shadow.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self._polyline(p, cells, shadow)
        line = QPen(QColor("white"), max(2.0, s * 0.09))
        line.setCapStyle(Qt.PenCapStyle.RoundCap)
        line.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self._polyline(p, cells, line)
        end = QPointF(self.cell_rect(self.route[-1]).center())
        p.setBrush(QColor("white"))
        p.setPen(QPen(QColor(0, 0, 0, 110), 1.5))
        p.drawEllipse(end, s * 0.11, s * 0.11)

    def _paint_line_of_fire(self, p: QPainter) -> None:
        """In combat, the open line between the pawns (AM-7) in red."""
        assert self.view is not None
        if not self.view.get("can_attack") or self.view["over"] is not None:
            return
        cells = [pl["cell"] for pl in self.view["players"]]
        if None in cells:
            return
        pen = QPen(QColor(229, 72, 77, 210), max(2.0, self.cell_size() * 0.06))
        pen.setStyle(Qt.PenStyle.DotLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self._polyline(p, cells, pen)

    def _paint_pawns(self, p: QPainter) -> None:
        assert self.view is not None
        view = self.view
        turn_on = view["over"] is None and view["phase"] in ("anomaly", "move", "combat")
        standing = {pl["cell"] for pl in view["players"] if pl["cell"] is not None}
        off_board = [pl for pl in view["players"] if pl["cell"] is None]
        for pl in off_board:
            if pl["respawn"] not in standing:
                self._paint_ghost(p, pl, blocked=False)
        for pl in view["players"]:
            seat = pl["seat"]
            if pl["cell"] is not None:
                active = turn_on and view["turn"] == seat
                paint.paint_pawn(
                    p, self.pawn_rect(seat, pl["cell"]), seat, pl["hp"], pl["max_hp"], pl["carrying_key"], active
                )
        # A ghost whose Respawn a pawn blocks: small, in the cell's corner, never over the blocking pawn.
        for pl in off_board:
            if pl["respawn"] in standing:
                self._paint_ghost(p, pl, blocked=True)

    def ghost_rect(self, pl: dict[str, Any], blocked: bool) -> QRectF:
        """Where a pawn off the board is drawn: on its Respawn, or in its corner while a pawn blocks it."""
        r = self.cell_rect(pl["respawn"])
        if blocked:
            return QRectF(r.left() + r.width() * 0.02, r.top() + r.width() * 0.02, r.width() * 0.42, r.width() * 0.42)
        return r.adjusted(r.width() * 0.22, r.width() * 0.22, -r.width() * 0.22, -r.width() * 0.22)

    def _paint_ghost(self, p: QPainter, pl: dict[str, Any], blocked: bool) -> None:
        """A pawn off the board: a dashed ghost with the turns it still waits (or the blocking count)."""
        colour = QColor(paint.seat_colour(pl["seat"]))
        pen = QPen(colour.lighter(130), max(1.5, self.cell_size() * 0.05))
        pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(QColor(0, 0, 0, 200 if blocked else 90))
        inner = self.ghost_rect(pl, blocked)
        p.drawEllipse(inner)
        text = str(pl["countdown"]) if pl["countdown"] else (f"{pl['blocked']}/3" if pl["blocked"] else "↺")
        self._small_text(p, inner, text, QColor("white"))

    def _paint_arrows(self, p: QPainter) -> None:
        offered = self.offered_shifts() if self.phase() == "anomaly" else set()
        last = self._last_anomaly()
        for axis, index, direction in geo.SHIFTS:
            key = (axis, index, direction)
            if key in offered:
                state = "hover" if self.hover == ("arrow", *key) or key == self.shift_plan else "on"
            elif last is not None and last[0] == "shift" and tuple(last[2:5]) == key:
                state = "last"
            else:
                state = "off"
            paint.paint_arrow(p, self.arrow_rect(*key), ARROW_SIDES[(axis, direction)], state)

    def _paint_overlay(self, p: QPainter) -> None:
        if self.overlay is None:
            return
        text, colour = self.overlay
        s = self.cell_size()
        o = self.origin()
        band = QRectF(o.x(), o.y() + 2.9 * s, 7 * s, 1.2 * s)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 170))
        p.drawRoundedRect(band, s * 0.2, s * 0.2)
        font = QFont(p.font())
        font.setBold(True)
        font.setPixelSize(max(12, int(s * 0.55)))
        p.setFont(font)
        p.setPen(colour)
        p.drawText(band, Qt.AlignmentFlag.AlignCenter, text)
