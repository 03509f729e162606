"""The clickable hex board: pan (drag), zoom (wheel, buttons, fit), picks, highlights, flashes.

:class:`HexBoard` shows one view and, when it is the player's decision,
offers exactly the engine's legal actions (through :class:`.choices.Choices`):
a unit with a legal action is outlined; picking it (or a kind from the
reserve, see :meth:`pick_reserve`) lights its legal targets; clicking a
target *plans* the move and draws its route (the engine's
:func:`~engines.collective_conflict.paths.public_move_path`: every slide, step
or jumped hex, as a polyline with an arrowhead); clicking the planned target again
takes the default variant, and the table's buttons take any variant.  The
board never touches the game: it emits ``action_chosen``.

Geometry helpers (:meth:`hex_center`, :meth:`hex_point`, :meth:`hit`) are
public so that tests and screenshots click where a person would.  The view
fits the whole structure automatically until the player pans or zooms;
"fit" brings that back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from client.games.collective_conflict import paint
from client.games.collective_conflict.choices import (
    Choices,
    Hex,
    Source,
    core_of,
    moved_route,
    path_of,
    route_of,
)
from client.games.collective_conflict.present import hover_text
from client.games.collective_conflict.scene import Changes, Scene, UnitShape, build_scene, diff
from client.ui import motion
from engines.core import Action

SQRT3 = math.sqrt(3)
#: Zoom limits in pixels per hex radius.
MIN_ZOOM, MAX_ZOOM = 8.0, 90.0
#: A stack layer is drawn this many radii above the one below.
LAYER_LIFT = 0.2
#: "Fit" never zooms in further than this (a two-unit board would be all tile).
FIT_MAX_ZOOM = 52.0
DRAG_SLOP = 5
#: Flash animation: frames and the frame interval (ms).
FLASH_FRAMES = 18

NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def world(h: Hex) -> tuple[float, float]:
    """The centre of axial hex ``h`` in radius units (pointy-top)."""
    q, r = h
    return SQRT3 * (q + r / 2), 1.5 * r


def axial_round(x: float, y: float) -> Hex:
    """The hex containing the point ``(x, y)`` in radius units."""
    qf = SQRT3 / 3 * x - y / 3
    rf = 2 / 3 * y
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (q, r)


class HexBoard(QWidget):
    """The board for one view, with the player's pick and plan in progress."""

    action_chosen = Signal(tuple)
    choice_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view: dict[str, Any] | None = None
        self.scene = Scene((), (), (), None)
        self.choices = Choices([])
        self.legal: list[Action] = []
        self.enabled = True
        self.picked: Source | None = None
        self.planned: Hex | None = None
        self.variant = 0
        self.changes = Changes()
        #: The route of each unit in ``changes.moved`` (pid -> hexes), found in the view before the move.
        self.moved_routes: dict[int, list[Hex]] = {}
        #: The hexes of the planned action's route as last painted (tests compare it with the engine's).
        self.drawn_route: list[Hex] = []
        self.zoom = 40.0
        self.cam = (0.0, 0.0)
        self.auto_fit = True
        self.overlay: tuple[str, QColor] | None = None
        self.flashes: list[tuple[Hex, QColor]] = []
        self.flash_frame = 0
        self._press: QPoint | None = None
        self._press_cam = (0.0, 0.0)
        self._dragging = False
        self.hover: Hex | None = None
        #: The unit sliding along its route (pid, hexes) and how far it has come (1.0: arrived), see client.ui.motion.
        self.slide: tuple[int, list[Hex]] | None = None
        self.slide_t = 1.0
        self.flash_timer = QTimer(self)
        self.flash_timer.timeout.connect(self._flash_tick)
        self.setMouseTracking(True)
        self.setMinimumSize(420, 420)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.OpenHandCursor)

    # -- showing a view --------------------------------------------------------------
    def set_view(
        self, view: dict[str, Any], legal: Sequence[Action], enabled: bool = True, animate_ms: int = 0
    ) -> Changes:
        """Show ``view``; offer ``legal``; flash collapses and removals for ``animate_ms`` (0: none)."""
        before = self.view
        changes = (
            diff(before, view) if before is not None and before.get("players") == view.get("players") else Changes()
        )
        if before is None or _pieces_key(before) != _pieces_key(view):
            self.changes = changes
            self.moved_routes = {}
            if before is not None and len(changes.moved) == 1:  # one move: its route is in the view before it
                pid, src, dst = changes.moved[0]
                self.moved_routes[pid] = moved_route(before, src, dst)
            self._start_flashes(changes, animate_ms)
            self._start_slide(changes)
        self.view = view
        self.scene = build_scene(view)
        legal = [tuple(a) for a in legal]
        if legal != self.legal:
            self.picked, self.planned, self.variant = None, None, 0
        self.legal = legal
        self.enabled = enabled
        self.choices = Choices(legal if enabled else [], bool(view["settings"].get("classic")))
        if self.picked is not None and self.picked not in self.choices.by_source:
            self.cancel()
        if self.auto_fit and (before is None or not self.all_in_view()):
            self.fit()  # only when something would be off the board: a structure that jumps each move is hard to read
        self.update()
        return changes

    def all_in_view(self) -> bool:
        """Whether every unit and offered hex lies wholly inside the board at the current zoom."""
        margin = self.zoom * 1.0
        inner = QRectF(self.rect()).adjusted(margin, margin, -margin, -margin)
        return all(inner.contains(self.hex_center(h)) for h in self.interesting())

    def _start_flashes(self, changes: Changes, animate_ms: int) -> None:
        flashes = [(h, QColor("#ff5a4a")) for _, h in changes.wrecked]
        flashes += [(h, QColor("#ffffff")) for _, h, _ in changes.removed]
        self.flashes = flashes
        self.flash_frame = 0
        if flashes and animate_ms > 0:
            self.flash_timer.start(max(16, min(90, (2 * animate_ms) // FLASH_FRAMES)))
        elif flashes and motion.clock().enabled():  # instant bots or the player's own move: the reveal's moment
            self.flash_timer.stop()
            motion.clock().play(self.flash_timer, motion.LONG, self._flash_frame)
        else:
            self.flash_timer.stop()
            self.flash_frame = FLASH_FRAMES  # instant: shown as a still outline until the next change

    def _start_slide(self, changes: Changes) -> None:
        """Slide a moved unit along its drawn route (or finish the running slide: nothing moved)."""
        self.slide = None
        if len(changes.moved) != 1:
            motion.clock().finish(self)
            return
        pid, src, dst = changes.moved[0]
        self.slide = (pid, self.moved_routes.get(pid) or [src, dst])
        motion.clock().play(self, motion.MEDIUM if len(self.slide[1]) <= 3 else motion.LONG, self._slide_frame)

    def _slide_frame(self, t: float) -> None:
        self.slide_t = t
        if t >= 1.0:
            self.slide = None
        self.update()

    def _unit_center(self, h: Hex, u: UnitShape) -> QPointF:
        """Where unit ``u`` is drawn: its hex, or on its way there while it slides."""
        slide = self.slide
        if slide is None or slide[0] != u.pid or not u.top:
            return self.hex_center(h, u.layer)
        pts = self._route_points(slide[1], u.kind == "climber", moved=True)
        x, y = motion.along([(pt.x(), pt.y()) for pt in pts], self.slide_t)
        return QPointF(x, y)

    def _flash_tick(self) -> None:
        self.flash_frame += 1
        if self.flash_frame >= FLASH_FRAMES:
            self.flash_timer.stop()
            self.overlay = None
        self.update()

    def _flash_frame(self, t: float) -> None:
        self.flash_frame = min(FLASH_FRAMES, int(t * FLASH_FRAMES))
        self.update()

    def flashing(self) -> bool:
        return self.flash_timer.isActive()

    # -- what is offered -------------------------------------------------------------
    def sources(self) -> set[Hex]:
        return self.choices.unit_sources() if self.enabled else set()

    def targets(self) -> dict[Hex, list[Action]]:
        return self.choices.targets(self.picked) if self.enabled else {}

    def variants(self) -> list[Action]:
        if self.planned is None:
            return []
        return self.choices.variants(self.picked, self.planned)

    def planned_action(self) -> Action | None:
        options = self.variants()
        return options[min(self.variant, len(options) - 1)] if options else None

    def planned_route(self) -> list[Hex]:
        """The hexes the planned action passes through (empty if nothing is planned)."""
        action = self.planned_action()
        return route_of(self.view, action) if action is not None else []

    # -- choices ---------------------------------------------------------------------
    def pick_reserve(self, kind: str) -> None:
        """Pick a kind from the reserve: its legal placement hexes light up."""
        source = ("reserve", kind)
        if source in self.choices.by_source:
            self.picked, self.planned, self.variant = source, None, 0
        else:
            self.picked, self.planned = None, None
        self.choice_changed.emit()
        self.update()

    def click_hex(self, h: Hex) -> None:
        """What a click on hex ``h`` does: take the planned move, plan a target, pick or drop a unit."""
        if not self.enabled or not self.legal:
            return
        if self.planned == h and self.planned_action() is not None:
            self.take(self.planned_action())
            return
        if h in self.targets():
            self.planned, self.variant = h, 0
        elif h in self.sources() and self.picked != ("unit", h):
            self.picked, self.planned, self.variant = ("unit", h), None, 0
        else:
            self.picked, self.planned, self.variant = None, None, 0
        self.choice_changed.emit()
        self.update()

    def choose_variant(self, index: int) -> None:
        self.variant = index
        self.update()

    def take(self, action: Action | None) -> None:
        if action is not None and action in self.legal:
            self.action_chosen.emit(tuple(action))

    def cancel(self) -> None:
        self.picked, self.planned, self.variant = None, None, 0
        self.choice_changed.emit()
        self.update()

    # -- geometry ----------------------------------------------------------------------
    def to_screen(self, x: float, y: float) -> QPointF:
        return QPointF(
            self.width() / 2 + (x - self.cam[0]) * self.zoom, self.height() / 2 + (y - self.cam[1]) * self.zoom
        )

    def hex_center(self, h: Hex, layer: int = 0) -> QPointF:
        x, y = world(h)
        return self.to_screen(x, y - LAYER_LIFT * layer)

    def hex_point(self, h: Hex) -> QPoint:
        """Where to click hex ``h`` (its centre, in whole pixels)."""
        return self.hex_center(h).toPoint()

    def hit(self, point: QPointF | QPoint) -> Hex:
        x = (point.x() - self.width() / 2) / self.zoom + self.cam[0]
        y = (point.y() - self.height() / 2) / self.zoom + self.cam[1]
        return axial_round(x, y)

    def interesting(self) -> set[Hex]:
        """The hexes a fit must show: the structure, traps, cores, and every hex now offered."""
        out = self.scene.hexes()
        for targets in self.choices.by_source.values():
            out |= set(targets)
        if not out:
            out = {(0, 0)}
        return out

    def fit(self) -> None:
        """Zoom and centre so the whole structure (and every offered hex) is in view."""
        pts = [world(h) for h in self.interesting()]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        x0, x1 = min(xs) - 1.6, max(xs) + 1.6
        y0, y1 = min(ys) - 1.9, max(ys) + 1.6
        w, h = max(1, self.width()), max(1, self.height())
        self.zoom = max(MIN_ZOOM, min(FIT_MAX_ZOOM, w / (x1 - x0), h / (y1 - y0)))
        self.cam = ((x0 + x1) / 2, (y0 + y1) / 2)
        self.update()

    def set_auto_fit(self) -> None:
        self.auto_fit = True
        self.fit()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        """Zoom keeping ``anchor`` (default: the centre) where it is on screen."""
        anchor = anchor or QPointF(self.width() / 2, self.height() / 2)
        ax = (anchor.x() - self.width() / 2) / self.zoom + self.cam[0]
        ay = (anchor.y() - self.height() / 2) / self.zoom + self.cam[1]
        self.zoom = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom * factor))
        self.cam = (ax - (anchor.x() - self.width() / 2) / self.zoom, ay - (anchor.y() - self.height() / 2) / self.zoom)
        self.auto_fit = False
        self.update()

    def pan_by(self, dx: float, dy: float) -> None:
        self.cam = (self.cam[0] - dx / self.zoom, self.cam[1] - dy / self.zoom)
        self.auto_fit = False
        self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        if self.auto_fit:
            self.fit()
        super().resizeEvent(event)

    # -- the mouse ----------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
            self._press_cam = self.cam
            self._dragging = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            delta = pos - self._press
            if self._dragging or abs(delta.x()) + abs(delta.y()) > DRAG_SLOP:
                if not self._dragging:
                    self.setCursor(Qt.CursorShape.ClosedHandCursor)
                self._dragging = True
                self.cam = self._press_cam
                self.pan_by(delta.x(), delta.y())
            return
        hover = self.hit(event.position())
        if hover != self.hover:
            self.hover = hover
            self.setToolTip(self.hover_text(hover))
            offered = hover in self.targets() or hover in self.sources()
            self.setCursor(Qt.CursorShape.PointingHandCursor if offered else Qt.CursorShape.OpenHandCursor)
            self.update()

    def hover_text(self, h: Hex) -> str:
        """The tooltip of hex ``h``: its coordinates and what lies there, top first."""
        scene = self.scene
        return hover_text(h, scene.units, scene.traps, scene.cores)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return
        dragged = self._dragging
        self._press, self._dragging = None, False
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        if not dragged:
            self.click_hex(self.hit(event.position()))

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(1.15**steps, event.position())

    # -- painting ----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            paint.background(p, QRectF(self.rect()))
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:  # noqa: C901 (tests/test_complexity.py)
        r = self.zoom
        scene = self.scene
        stacks = scene.stacks()
        # Faint outlines of the empty hexes around the structure: the board under it.
        ring = {(q + dq, rr + dr) for q, rr in stacks for dq, dr in NEIGHBOURS} - set(stacks)
        if not stacks:
            ring = {(0, 0)}
        p.setPen(QPen(QColor(255, 255, 255, 28), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for h in ring:
            p.drawPolygon(paint.hexagon(self.hex_center(h), r * 0.95))
        targets = self.targets()
        for h, options in targets.items():
            if options[0][0] != "virus" and h not in stacks:
                self._paint_target(p, self.hex_center(h), r, h == self.planned)
        for core in scene.cores:
            if core not in stacks:
                paint.core(p, self.hex_center(core), r)
        sources = self.sources()
        picked_hex = self.picked[1] if self.picked and self.picked[0] == "unit" else None
        for h, layers in sorted(stacks.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            for u in layers:
                c = self._unit_center(h, u)
                on_top = u.top
                paint.unit(p, c, r, u.owner, u.kind, highlight=on_top and h == picked_hex, letter=not on_top)
                if u.identity is not None:
                    paint.identity_badge(p, c, r, u.identity)
                if u.frozen:
                    paint.frozen_net(p, c, r)
                if u.blocked:
                    paint.blocked_sign(p, c, r)
                if u.targeted:
                    paint.targeted_ring(p, c, r)
                if u.carrier:
                    paint.virus_dot(p, QPointF(c.x() - r * 0.5, c.y() - r * 0.5), r * 0.14)
            top = layers[-1]
            c = self._unit_center(h, top)
            if top.height > 1:
                paint.height_badge(p, c, r, top.height)
            if h in sources and h != picked_hex:
                p.setPen(QPen(paint.GOLD, max(1.5, r * 0.07), Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(paint.hexagon(c, r * 0.98))
            if h in scene.cores:  # a Data Core under a unit that does not collect it (not a Runner)
                paint.core(p, QPointF(c.x() - r * 0.05, c.y() + r * 0.62), r * 0.45)
        for h, options in targets.items():  # a Climber's targets on occupied hexes: drawn over the stack
            if options[0][0] != "virus" and h in stacks:
                self._paint_target(p, self.hex_center(h, self._layer_of(h)), r, h == self.planned)
        for h, options in targets.items():
            if options[0][0] == "virus":
                layer = len(stacks.get(h, [None])) - 1
                c = self.hex_center(h, layer)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(255, 31, 208, 50 if h != self.planned else 120))
                p.drawPolygon(paint.hexagon(c, r * 0.95))
                paint.virus_outline(p, paint.hexagon(c, r * 0.95), max(2.0, r * 0.1))
                paint.virus_dot(p, c, r * 0.16)
        self._paint_last_move(p, r)
        self._paint_plan(p, r)
        self._paint_flashes(p, r)
        # Last, over the routes and flashes: the traps' marks and the Network letters (the colour-blind cue).
        for t in scene.traps:
            if t.hex in stacks:
                c = self.hex_center(t.hex, stacks[t.hex][-1].layer)
                paint.trap(p, QPointF(c.x(), c.y() + r * 0.62), r * 0.45, t.owner, t.armed)
            else:
                paint.trap(p, self.hex_center(t.hex), r, t.owner, t.armed)
        for h, layers in stacks.items():
            top = layers[-1]
            paint.unit_letter(p, self._unit_center(h, top), r, top.owner)
        if self.overlay is not None:
            self._paint_overlay(p)

    @staticmethod
    def _paint_target(p: QPainter, c: QPointF, r: float, planned: bool) -> None:
        """A legal destination: a dashed white outline and a dot (white: every colour names a Network)."""
        p.setPen(QPen(QColor(255, 255, 255, 220), max(1.2, r * 0.06), Qt.PenStyle.DashLine))
        p.setBrush(QColor(255, 255, 255, 40 if not planned else 110))
        p.drawPolygon(paint.hexagon(c, r * 0.84))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 220))
        p.drawEllipse(c, r * 0.12, r * 0.12)

    def _layer_of(self, h: Hex) -> int:
        return max(0, len(self.scene.stacks().get(h, [])) - 1)

    def _arrow(
        self, p: QPainter, pts: list[QPointF], colour: QColor, width: float, dashed: bool = False, steps: bool = False
    ) -> None:
        """A polyline and arrowhead on a dark casing (readable over units and lit hexes); ``steps``: a dot per hex."""
        if len(pts) < 2:
            return
        line = QPolygonF(pts)
        casing = QPen(QColor(0, 0, 0, 150), width * 2.0)
        casing.setCapStyle(Qt.PenCapStyle.RoundCap)
        casing.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.setPen(casing)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolyline(line)
        pen = QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.setPen(pen)
        p.drawPolyline(line)
        if steps:  # one dot per hex passed through, so a NetCaster's four steps can be counted
            p.setPen(QPen(QColor(0, 0, 0, 150), max(1.0, width * 0.4)))
            p.setBrush(colour)
            for c in pts[1:-1]:
                p.drawEllipse(c, width * 0.9, width * 0.9)
        a, b = pts[-2], pts[-1]
        ang = math.atan2(b.y() - a.y(), b.x() - a.x())
        size = width * 3.4
        head = QPolygonF(
            [
                b,
                QPointF(b.x() - size * math.cos(ang - 0.45), b.y() - size * math.sin(ang - 0.45)),
                QPointF(b.x() - size * math.cos(ang + 0.45), b.y() - size * math.sin(ang + 0.45)),
            ]
        )
        p.setPen(QPen(QColor(0, 0, 0, 170), max(1.0, width * 0.35)))
        p.setBrush(colour)
        p.drawPolygon(head)

    def _route_points(self, route: list[Hex], climber: bool, moved: bool) -> list[QPointF]:
        """Screen points of a route; a Climber's points stand on the stacks it crosses.

        ``moved``: the unit already stands at the end (the last move), else at the start (a plan).
        """
        stacks = self.scene.stacks()
        pts = []
        last = len(route) - 1
        for i, h in enumerate(route):
            if (i == 0 and not moved) or (i == last and moved):
                layer = self._layer_of(h)
            else:
                layer = len(stacks.get(h, ())) if climber else 0
            pts.append(self.hex_center(h, layer))
        return pts

    def _kind_on(self, h: Hex) -> str | None:
        layers = self.scene.stacks().get(h)
        return layers[-1].kind if layers else None

    def _paint_last_move(self, p: QPainter, r: float) -> None:
        """The latest move as a dashed route in the mover's colour; the latest placement ringed."""
        view = self.view
        if view is None:
            return
        owners = {u.pid: u.owner for u in self.scene.units}
        for pid, src, dst in self.changes.moved:
            colour = paint.seat_colour(owners.get(pid, -1))
            route = self.moved_routes.get(pid) or [src, dst]
            pts = self._route_points(route, self._kind_on(dst) == "climber", moved=True)
            self._arrow(p, pts, colour, max(2.0, r * 0.1), True)
        for pid, h in self.changes.placed:
            colour = paint.seat_colour(owners.get(pid, -1))
            p.setPen(QPen(colour, max(2.0, r * 0.1), Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolygon(paint.hexagon(self.hex_center(h, self._layer_of(h)), r * 1.08))

    def _paint_plan(self, p: QPainter, r: float) -> None:
        action = self.planned_action()
        self.drawn_route = []
        if action is None:
            return
        if action[0] == "place":
            h = path_of(action)[0]
            self.drawn_route = [h]
            p.setPen(QPen(QColor("#ffffff"), max(2.0, r * 0.12)))
            p.setBrush(QColor(255, 255, 255, 60))
            p.drawPolygon(paint.hexagon(self.hex_center(h), r * 0.9))
            return
        hexes = self.planned_route()
        self.drawn_route = list(hexes)
        if action[0] == "virus":
            pts = [self.hex_center(h, self._layer_of(h)) for h in hexes]
            self._arrow(p, pts, paint.VIRUS, max(2.5, r * 0.13))
        else:
            pts = self._route_points(hexes, self._kind_on(hexes[0]) == "climber", moved=False)
            self._arrow(p, pts, QColor("#ffffff"), max(2.5, r * 0.13), steps=True)
        core = core_of(action)
        if core is not None:
            p.setPen(QPen(paint.CORE, max(2.0, r * 0.1), Qt.PenStyle.DotLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(self.hex_center(core), r * 0.7, r * 0.7)

    def _paint_flashes(self, p: QPainter, r: float) -> None:
        """Collapses (red) and removals (white): expanding rings while animating, a still outline after."""
        if not self.flashes:
            return
        t = self.flash_frame / FLASH_FRAMES
        for h, colour in self.flashes:
            c = self.hex_center(h)
            if t < 1:
                ring = QColor(colour)
                ring.setAlphaF(max(0.0, 1 - t))
                p.setPen(QPen(ring, max(2.0, r * 0.15)))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(paint.hexagon(c, r * (0.9 + 0.9 * t)))
            else:
                still = QColor(colour)
                still.setAlpha(200)
                p.setPen(QPen(still, max(1.5, r * 0.07), Qt.PenStyle.DotLine))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolygon(paint.hexagon(c, r * 0.8))

    def _paint_overlay(self, p: QPainter) -> None:
        if self.overlay is None:
            return
        text, colour = self.overlay
        font = QFont(p.font())
        font.setPixelSize(max(18, min(34, self.width() // 22)))
        font.setBold(True)
        p.setFont(font)
        box = QRectF(0, self.height() * 0.06, self.width(), font.pixelSize() * 2.2)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 150))
        p.drawRoundedRect(box.adjusted(self.width() * 0.1, 0, -self.width() * 0.1, 0), 12, 12)
        p.setPen(colour)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _pieces_key(view: dict[str, Any]) -> str:
    return repr(view["stacks"]) + repr(view["active"])
