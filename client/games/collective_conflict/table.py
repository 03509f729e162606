"""The Collective Conflict table: the hex board, every Network, the reserve and the controls.

:class:`CollectiveConflictTable` is a :class:`client.games.kit.TableWidget`: the table window
and the replay viewer drive it through the game's kit (a ``show_view`` call per refresh) and
read its ``legal`` list, its banner and its ``action_chosen`` and ``report_requested`` signals.  Only the engine's legal
actions are offered: reserve buttons are enabled only for kinds with a legal
placement, the board lights only legal targets, and the variant buttons
(armed trap or bluff, MotherShip or Decoy, single or double jump, a Data Core
hop) are exactly the legal actions for the planned (source, target).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from client.games.collective_conflict import paint
from client.games.collective_conflict.board import HexBoard
from client.games.collective_conflict.choices import core_of
from client.games.collective_conflict.present import (
    ORDER,
    hex_name,
    kind_name,
    network_name,
    ordered_reserve,
    reserve_text,
    seat_name,
    turn_text,
)
from client.i18n import tr
from client.ui import sound
from client.ui.named import named
from client.ui.wrap_button import ActionButton
from engines.core import Action, Knowledge

PANEL_STYLE = (
    "QFrame#side { background: rgba(10, 14, 20, 190); border-radius: 12px; border: 1px solid rgba(255,255,255,30); }"
    "QLabel { color: #e9eef4; }"
    "QLabel#status { font-weight: bold; font-size: 15px; }"
    "QLabel#hint { color: #cdd6e0; }"
    "QLabel#small { color: rgba(233,238,244,170); font-size: 11px; font-weight: bold; }"
    "QPushButton { background: #3d4a58; color: white; border-radius: 6px; padding: 5px 8px; font-size: 13px; }"
    "QPushButton:hover { border: 2px solid #ffd54a; }"
    "QPushButton:disabled { background: #262e37; color: rgba(255,255,255,80); }"
    "QPushButton#variant { background: #1f7a55; font-weight: bold; text-align: left; }"
    "QPushButton#variant_alt { background: #6a4a8c; font-weight: bold; text-align: left; }"
    "QPushButton#go { background: #1f7a55; font-weight: bold; }"
    "QScrollArea, QScrollArea > QWidget, QScrollArea > QWidget > QWidget { background: transparent; border: none; }"
    "QScrollBar:vertical { background: transparent; width: 8px; margin: 0; }"
    "QScrollBar::handle:vertical { background: rgba(255,255,255,70); border-radius: 4px; min-height: 24px; }"
    "QScrollBar::add-line:vertical, QScrollBar::sub-line:vertical { height: 0; }"
    "QScrollBar::add-page:vertical, QScrollBar::sub-page:vertical { background: transparent; }"
)

BANNER_TONES = {
    "plain": "color: #e9eef4; font-size: 14px;",
    "event": "color: #ffcf9a; font-size: 15px; font-weight: bold;",
    "good": "color: #a8f0c0; font-size: 15px; font-weight: bold;",
    "private": "color: #bfe0ff; font-size: 14px;",
    "win": "color: #ffd54a; font-size: 22px; font-weight: bold;",
}


def unit_icon(kind: str, seat: int, size: int = 30) -> QIcon:
    """A reserve button's icon: the unit as it is drawn on the board."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint.unit(p, QPointF(size / 2, size / 2), size * 0.52, seat, kind)
    finally:
        p.end()
    return QIcon(pix)


@dataclass(frozen=True)
class NetworkRow:
    """One seat's line in the Networks panel (public, the same counts for everyone)."""

    seat: int
    #: The player's name ("You (…)" for the viewer's own seat).
    title: str
    active: bool
    #: Whether the seat is to decide now.
    current: bool
    virus: bool
    #: Collapsed, carrying the Virus, or the count of its units on the board.
    state: str
    #: The reserve in words (empty for a collapsed Network).
    reserve: str
    #: The reserve as (kind, count) in the panel's order.
    counts: list[tuple[str, int]]


class NetworksPanel(QWidget):
    """Every Network in one row each: mark, name, state, and its reserve in public counts (CC-8)."""

    ROW = 40
    #: Rows for more than six Networks: smaller type, so that all ten fit without scrolling.
    COMPACT_ROW = 28
    COMPACT_FROM = 7

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[NetworkRow] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    @classmethod
    def row_height(cls, count: int) -> int:
        return cls.COMPACT_ROW if count >= cls.COMPACT_FROM else cls.ROW

    def show_rows(self, rows: list[NetworkRow]) -> None:
        self.rows = rows
        self.setFixedHeight(self.row_height(len(rows)) * len(rows) + 4)
        self.update()

    def texts(self) -> list[str]:
        """Every text the panel paints (for tests and accessibility)."""
        return [f"{r.title} — {r.state} — {r.reserve}" for r in self.rows]

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            w = float(self.width())
            row_h = self.row_height(len(self.rows))
            k = row_h / self.ROW  # everything in a compact row is scaled by the same factor
            for i, row in enumerate(self.rows):
                y = 2 + i * row_h
                box = QRectF(1, y, w - 2, row_h - 4)
                p.setPen(paint.GOLD if row.current else QColor(255, 255, 255, 35))
                p.setBrush(QColor(255, 255, 255, 18) if row.active else QColor(0, 0, 0, 90))
                p.drawRoundedRect(box, 7 * k, 7 * k)
                paint.mark_badge(p, QPointF(16, y + row_h / 2 - 2), 10 * max(k, 0.8), row.seat)
                font = QFont(p.font())
                font.setPixelSize(max(10, round(13 * k)))
                font.setBold(True)
                font.setStrikeOut(not row.active)
                p.setFont(font)
                p.setPen(QColor("#e9eef4") if row.active else QColor(200, 200, 200, 130))
                line = 18 * k
                p.drawText(QRectF(32, y + 1, w * 0.55, line), Qt.AlignmentFlag.AlignVCenter, row.title)
                font.setStrikeOut(False)
                font.setBold(False)
                font.setPixelSize(max(9, round(11 * k)))
                p.setFont(font)
                p.setPen(QColor("#ffcf9a") if row.state else QColor("#cdd6e0"))
                p.drawText(
                    QRectF(32 + w * 0.5, y + 1, w * 0.5 - 40, line),
                    Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                    row.state,
                )
                # The reserve as small tiles with counts: compact enough for ten rows, and the same glyphs as the board.
                x = 40.0
                p.setPen(QColor("#aab6c4"))
                for kind, n in row.counts:
                    paint.unit(p, QPointF(x, y + 26 * k), 7.5 * k, row.seat, kind)
                    p.setPen(QColor("#cdd6e0"))
                    p.drawText(QRectF(x + 8 * k, y + 18 * k, 26, 16 * k), Qt.AlignmentFlag.AlignVCenter, f"×{n}")
                    x += 40 * max(k, 0.85)
                if row.active and not row.counts:
                    p.setPen(QColor("#aab6c4"))
                    p.drawText(QRectF(32, y + 18 * k, w - 40, 16 * k), Qt.AlignmentFlag.AlignVCenter, row.reserve)
        finally:
            p.end()


class CollectiveConflictTable(QWidget):
    """The whole Collective Conflict table for one view, with the legal actions as controls."""

    action_chosen = Signal(tuple)
    report_requested = Signal()

    def __init__(self, players: int, names: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.players = players
        self.names = list(names)
        self.view: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.me: int | None = None
        self.interactive = True
        self.setStyleSheet(PANEL_STYLE)
        self.setMinimumSize(880, 600)
        root = QHBoxLayout(self)
        root.setContentsMargins(10, 10, 10, 10)
        root.setSpacing(10)
        self.board = HexBoard()
        self.board.action_chosen.connect(self.action_chosen.emit)
        self.board.choice_changed.connect(self._show_controls)
        root.addWidget(self.board, 1)

        self.side = named(QFrame(), "side")
        self.side.setFixedWidth(320)
        sl = QVBoxLayout(self.side)
        sl.setContentsMargins(10, 10, 10, 10)
        sl.setSpacing(6)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        sl.addWidget(self.status)
        zoom = QHBoxLayout()
        self.zoom_buttons: dict[str, QPushButton] = {}
        for key, slot in (
            ("zoom_out", lambda: self.board.zoom_by(1 / 1.25)),
            ("zoom_in", lambda: self.board.zoom_by(1.25)),
            ("fit", self.board.set_auto_fit),
        ):
            b = named(QPushButton(), key)
            b.clicked.connect(slot)
            zoom.addWidget(b)
            self.zoom_buttons[key] = b
        sl.addLayout(zoom)
        self.networks = NetworksPanel()
        scroll = QScrollArea()
        scroll.setWidget(self.networks)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.viewport().setAutoFillBackground(False)
        self.networks.setAutoFillBackground(False)
        self.networks_scroll = scroll
        sl.addWidget(scroll)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.banner.setMinimumHeight(36)
        sl.addWidget(self.banner)
        self.hint = named(QLabel(), "hint")
        self.hint.setWordWrap(True)
        self.hint.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        sl.addWidget(self.hint)
        self.reserve_title = named(QLabel(), "small")
        sl.addWidget(self.reserve_title)
        grid = QGridLayout()
        grid.setSpacing(4)
        self.reserve_grid = grid
        self.reserve_buttons: dict[str, QPushButton] = {}
        # Command units (classic: the MotherShip) take a whole row: their name is the longest.
        for kind in ("command", "mothership"):
            b = named(QPushButton(), f"reserve_{kind}")
            b.setIconSize(QSize(22, 22))
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, k=kind: self.pick_reserve(k))
            b.hide()
            grid.addWidget(b, 0, 0, 1, 2)
            self.reserve_buttons[kind] = b
        kinds = [k for k in ORDER if k not in ("command", "mothership", "decoy")]
        for i, kind in enumerate(kinds, start=2):
            b = named(QPushButton(), f"reserve_{kind}")
            b.setIconSize(QSize(22, 22))
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, k=kind: self.pick_reserve(k))
            b.hide()
            grid.addWidget(b, i // 2, i % 2)
            self.reserve_buttons[kind] = b
        sl.addLayout(grid)
        self.variant_box = QVBoxLayout()
        self.variant_box.setSpacing(4)
        sl.addLayout(self.variant_box)
        self.variant_buttons: list[ActionButton] = []
        self.cancel_button = named(QPushButton(), "cancel")
        self.cancel_button.clicked.connect(self.board.cancel)
        self.cancel_button.hide()
        sl.addWidget(self.cancel_button)
        sl.addStretch(1)
        self.legend = named(QLabel(), "small")
        self.legend.setWordWrap(True)
        self.legend.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        sl.addWidget(self.legend)
        self.report_button = named(QPushButton(), "go")
        self.report_button.clicked.connect(self.report_requested.emit)
        self.report_button.hide()
        sl.addWidget(self.report_button)
        root.addWidget(self.side)
        self.overlay_timer = QTimer(self)
        self.overlay_timer.setSingleShot(True)
        self.overlay_timer.timeout.connect(self._end_overlay)

    # -- showing a view --------------------------------------------------------------
    def show_view(
        self,
        view: dict[str, Any],
        knowledge: Knowledge,
        legal: Sequence[Action] = (),
        *,
        interactive: bool = True,
        delay_ms: int = 0,
    ) -> None:
        """Draw ``view``; offer ``legal``; flash collapses and Wreck removals when ``delay_ms`` > 0."""
        self.view = view
        self.me = view.get("seat")
        self.legal = [tuple(a) for a in legal]
        self.interactive = interactive
        changes = self.board.set_view(view, self.legal, enabled=interactive, animate_ms=delay_ms)
        if interactive and (changes.removed or changes.collapsed):
            sound.play("reveal")  # a Decoy shown and removed, a Network collapsing: heard as well as seen
        if changes.collapsed and delay_ms > 0:
            text = tr("cc.collapsed_banner", name=", ".join(network_name(self.names, s) for s in changes.collapsed))
            self.board.overlay = (text, QColor("#ff8a80"))
            self.overlay_timer.start(max(900, 3 * delay_ms))
            self.board.update()
        elif changes.removed and delay_ms > 0:
            self.board.overlay = (tr("cc.removed_banner", n=len(changes.removed)), QColor("#ffffff"))
            self.overlay_timer.start(max(700, 2 * delay_ms))
        elif (changes.moved or changes.placed) and not self.overlay_timer.isActive():
            self.board.overlay = None
        self._show_status()
        self._show_networks()
        self._show_controls()
        over = view["pending"][0] == "over"
        self.report_button.setText(tr("table.to_report"))
        self.report_button.setVisible(over and interactive)
        self.zoom_buttons["zoom_out"].setText("−")
        self.zoom_buttons["zoom_in"].setText("+")
        self.zoom_buttons["fit"].setText(tr("cc.fit"))
        for key, tip in (("zoom_out", "cc.zoom_out"), ("zoom_in", "cc.zoom_in"), ("fit", "cc.fit_tip")):
            self.zoom_buttons[key].setToolTip(tr(tip))
        self.legend.setText(tr("cc.legend"))

    def _end_overlay(self) -> None:
        self.board.overlay = None
        self.board.update()

    def set_banner(self, text: str, tone: str = "plain") -> None:
        self.banner.setStyleSheet(BANNER_TONES.get(tone, BANNER_TONES["plain"]))
        self.banner.setText(text)

    def _show_status(self) -> None:
        view = self.view
        assert view is not None
        bits = []
        if view["round"] > 0 and view["pending"][0] != "over":
            bits.append(tr("table.round", n=view["round"]))
        bits.append(turn_text(view, self.names, self.me))
        self.status.setText(" · ".join(b for b in bits if b))

    def network_rows(self) -> list[NetworkRow]:
        """What the Networks panel shows for each seat (public, the same counts for everyone)."""
        view = self.view
        assert view is not None
        pending = view["pending"]
        rows = []
        on_board: dict[int, int] = {}
        for _, _, stack in view["stacks"]:
            for _, owner, _ in stack:
                if owner >= 0:
                    on_board[owner] = on_board.get(owner, 0) + 1
        for seat in range(view["players"]):
            name = seat_name(self.names, seat)
            title = tr("table.you", name=name) if seat == self.me else name
            active = view["active"][seat]
            if not active:
                state = tr("cc.state.collapsed")
            elif view["virus"][seat]:
                state = tr("cc.state.virus")
            else:
                state = tr("cc.state.units", n=on_board.get(seat, 0))
            rows.append(
                NetworkRow(
                    seat=seat,
                    title=title,
                    active=active,
                    current=pending[0] == "decision" and pending[1] == seat,
                    virus=bool(view["virus"][seat]),
                    state=state,
                    reserve=reserve_text(view["reserve"][seat], seat == self.me) if active else "",
                    counts=ordered_reserve(view["reserve"][seat]) if active else [],
                )
            )
        return rows

    def _show_networks(self) -> None:
        rows = self.network_rows()
        self.networks.show_rows(rows)
        # Every Network in view, without scrolling: more than six take compact rows.
        self.networks_scroll.setFixedHeight(NetworksPanel.row_height(len(rows)) * len(rows) + 6)

    # -- the controls -------------------------------------------------------------------
    def pick_reserve(self, kind: str) -> None:
        self.board.pick_reserve(kind)

    def _lay_out_reserve(self) -> None:
        """The kinds still in the reserve, without gaps: command units on a row of their own, then two a row."""
        grid = self.reserve_grid
        slot = 0
        for kind, button in self.reserve_buttons.items():
            grid.removeWidget(button)
            if button.isHidden():
                continue
            if kind in ("command", "mothership"):
                grid.addWidget(button, 0, 0, 1, 2)
            else:
                grid.addWidget(button, 1 + slot // 2, slot % 2)
                slot += 1

    def _clear_variants(self) -> None:
        for b in self.variant_buttons:
            self.variant_box.removeWidget(b)
            b.deleteLater()
        self.variant_buttons = []

    def _show_controls(self) -> None:
        view = self.view
        if view is None:
            return
        board = self.board
        self._clear_variants()
        self.cancel_button.hide()
        me = self.me
        reserve = view["reserve"][me] if me is not None and 0 <= me < len(view["reserve"]) else {}
        offered = set(board.choices.reserve_kinds())
        self.reserve_title.setText(tr("cc.your_reserve", count=sum(reserve.values())) if me is not None else "")
        self.reserve_title.setVisible(me is not None)
        for kind, button in self.reserve_buttons.items():
            n = reserve.get(kind, 0)
            button.setVisible(n > 0 and me is not None)
            if n <= 0:
                continue
            button.setText(f"{kind_name(kind)} ×{n}")
            button.setIcon(unit_icon(kind, me if me is not None else 0))
            button.setEnabled(kind in offered and self.interactive)
            button.setChecked(board.picked == ("reserve", kind))
            words = tr(f"cc.kinds.{kind}", count=n)  # "3 Runners", "Runner: 3 jednostki"
            button.setToolTip(f"{words}. {tr('cc.command_tip')}" if kind == "command" else words)
        self._lay_out_reserve()
        if not self.legal or not self.interactive:
            quiet = view["pending"][0] == "over" or not self.interactive
            pending = view["pending"]
            waiting = pending[1] if pending[0] in ("decision", "reveal") else None
            self.hint.setText(
                "" if quiet or waiting is None else tr("hint.wait", name=network_name(self.names, waiting))
            )
            return
        if board.picked is None:
            self.hint.setText(tr("cc.hint.pick"))
            return
        self.cancel_button.setText(tr("cc.btn.cancel"))
        self.cancel_button.show()
        if board.planned is None:
            picked = board.picked
            what = kind_name(picked[1]) if picked[0] == "reserve" else hex_name(picked[1])
            self.hint.setText(tr("cc.hint.target", what=what))
            return
        self.hint.setText(tr("cc.hint.variant", hex=hex_name(board.planned)))
        for i, action in enumerate(board.variants()):
            # Long names (Russian double jumps) wrap, never cut off.
            b = ActionButton(self.variant_label(action), action)
            b.setObjectName("variant" if i == 0 else "variant_alt")
            b.setMinimumHeight(30)
            b.clicked.connect(lambda _=False, a=action: board.take(a))
            self.variant_box.addWidget(b)
            b.show()  # at once, not at the layout's next pass: the button is usable as soon as it is offered
            self.variant_buttons.append(b)

    def variant_label(self, action: Action) -> str:
        """The words on a variant's button."""
        verb = action[0]
        if verb == "place":
            return tr("cc.btn.place", kind=kind_name(action[1]), hex=hex_name(action[2]))
        if verb == "cast":
            return tr("cc.btn.cast_armed") if action[3] else tr("cc.btn.cast_bluff")
        if verb == "jump":
            return tr("cc.btn.jump2", mid=hex_name(action[2]), hex=hex_name(action[3]))
        if verb == "virus":
            stack = self._stack_at(action[2]) or []
            covered = len(action) == 4 and 0 <= action[3] < len(stack)  # a unit under a Climber (CC-24)
            if covered or stack:
                _, owner, kind = stack[action[3]] if covered else stack[-1]
                msg = "cc.btn.virus_covered" if covered else "cc.btn.virus_unit"
                return tr(msg, kind=kind_name(kind), mark=paint.seat_mark(owner), hex=hex_name(action[2]))
            return tr("cc.btn.virus", hex=hex_name(action[2]))
        core = core_of(action)
        if core is not None:
            return tr("cc.btn.move_core", hex=hex_name(action[2]), core=hex_name(core))
        src, dst = tuple(action[1]), tuple(action[2])
        moving = self._stack_at(src)
        if moving and moving[-1][2] == "jumper":
            return tr("cc.btn.jump", hex=hex_name(action[2]))
        under = self._stack_at(dst)
        if under:  # only a Climber ends on an occupied hex: name what it climbs onto
            return tr("cc.btn.climb", kind=kind_name(under[-1][2]), hex=hex_name(action[2]))
        return tr("cc.btn.move", hex=hex_name(action[2]))

    def _stack_at(self, h: Sequence[int]) -> list[Any] | None:
        """The stack on hex ``h`` as the view holds it (``[pid, owner, kind]`` per unit, bottom first)."""
        return next((s for q, r, s in self.view["stacks"] if (q, r) == tuple(h)), None) if self.view else None

    def button_for(self, action: Action) -> QPushButton | None:
        """The variant button that takes ``action`` now (None if it is not offered)."""
        for b in self.variant_buttons:
            if b.action == tuple(action):
                return b
        return None

    def reset_choice(self) -> None:
        """Forget a choice in progress (after a decision was taken)."""
        self.board.picked, self.board.planned, self.board.variant = None, None, 0

    # -- the keyboard (see client/ui/keys.py) ------------------------------------------------
    def turn_key(self, delta: int) -> None:
        """Nothing on this table turns."""

    def widget(self) -> QWidget:
        return self

    def shortcut_buttons(self) -> list[QPushButton]:
        """The buttons the number keys press: the planned move's variants, in the order shown."""
        return [b for b in self.variant_buttons if b.isVisible() and b.isEnabled()]

    def confirm_button(self) -> QPushButton | None:
        """What Enter presses: the planned move's first variant (as a second click on its hex does)."""
        offered = self.shortcut_buttons()
        return offered[0] if offered else None

    def cancel_choice(self) -> None:
        """Esc: drop the picked unit or kind and the planned move."""
        self.board.cancel()

    def offered_actions(self) -> set[Action]:
        """Every action the clicks can send now (for tests): each source's targets' variants."""
        out: set[Action] = set()
        if not self.interactive:
            return out
        for targets in self.board.choices.by_source.values():
            for options in targets.values():
                out |= set(options)
        return out

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            paint.background(p, QRectF(self.rect()))
        finally:
            p.end()
