"""The Anomaly Maze table: the board, both players' cards, the dice and the controls.

:class:`AnomalyMazeTable` is a :class:`client.games.kit.TableWidget`: the table window and
the replay viewer drive it through the game's kit (a ``show_view`` call per refresh) and read
its ``legal`` list, its banner and its ``action_chosen`` and ``report_requested`` signals.  Only the engine's legal
actions are offered: the board lights only legal arrows, tiles and cells, and
the side buttons exist only in the phase they belong to and are enabled only
when what they would send is legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from client.games.anomaly_maze import paint
from client.games.anomaly_maze.board import MazeBoard
from client.games.anomaly_maze.dice import DiceView
from client.games.anomaly_maze.present import line_name, mission_text, phase_text, seat_name, status_text, turn_text
from client.i18n import tr
from client.ui import art, sound
from client.ui.named import named
from engines.anomaly_maze.board import name as cell_name
from engines.core import Action, Knowledge

PANEL_STYLE = (
    "QFrame#side { background: rgba(8, 20, 16, 160); border-radius: 12px; border: 1px solid rgba(255,255,255,30); }"
    "QLabel { color: #e9efe9; }"
    "QLabel#status { font-weight: bold; font-size: 15px; }"
    "QLabel#hint { color: #cfd8d2; }"
    "QLabel#small { color: rgba(233,239,233,170); font-size: 11px; }"
    "QPushButton { background: #44524c; color: white; border-radius: 6px; padding: 6px 10px; font-size: 13px; }"
    "QPushButton:hover { border: 2px solid #ffd54a; }"
    "QPushButton:disabled { background: #2c3532; color: rgba(255,255,255,90); }"
    "QPushButton#attack { background: #b3372b; font-weight: bold; font-size: 14px; }"
    "QPushButton#go, QPushButton#confirm { background: #1f7a55; font-weight: bold; }"
)

BANNER_TONES = {
    "plain": "color: #e9efe9; font-size: 14px;",
    "event": "color: #ffcf9a; font-size: 15px; font-weight: bold;",
    "good": "color: #a8f0c0; font-size: 15px; font-weight: bold;",
    "private": "color: #bfe0ff; font-size: 14px;",
    "win": "color: #ffd54a; font-size: 22px; font-weight: bold;",
}

#: Events that flash a large message across the board.
FLASHES = {"respawn": "maze.respawn_banner", "respawn-blocked": "maze.blocked", "blacksaw": "maze.log.blacksaw"}


#: Bar labels: dark ink on the coloured fill, light ink on the dark track.
BAR_INK_ON_FILL = QColor("#10201a")
BAR_INK_ON_TRACK = QColor("#f4f4f0")


class PlayerCard(QWidget):
    """One player's name, HP and MP bars, mission and special state, painted."""

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.title = ""
        self.player: dict[str, Any] | None = None
        self.win_mp = 15
        self.active = False
        self.over = False
        self.setMinimumHeight(118)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def show_player(self, title: str, player: dict[str, Any], win_mp: int, active: bool, over: bool = False) -> None:
        self.title, self.player, self.win_mp, self.active = title, player, win_mp, active
        self.over = over
        self._fit_height()
        self.setToolTip(tr("maze.respawn_at", cell=cell_name(player["respawn"])))
        self.update()

    STATUS_TOP = 98

    def _status_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        font.setPixelSize(12)
        return font

    def status_height(self, width: int | None = None) -> int:
        """Pixels the status lines need at ``width`` (wrapped: "Respawn on the next turn" is never cut off)."""
        status = status_text(self.player) if self.player is not None else ""
        if not status:
            return 0
        room = max(40, (self.width() if width is None else width) - 24)
        metrics = QFontMetrics(self._status_font())
        return metrics.boundingRect(QRect(0, 0, room, 10_000), int(Qt.TextFlag.TextWordWrap), status).height()

    def _fit_height(self) -> None:
        extra = self.status_height()
        self.setFixedHeight(self.STATUS_TOP + 14 + extra if extra else 112)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def texts(self) -> list[str]:
        """Every text the card paints (for tests and accessibility)."""
        pl = self.player
        if pl is None:
            return []
        out = [
            self.title,
            tr("maze.hp", hp=max(0, pl["hp"]), max=pl["max_hp"]),
            tr("maze.mp", mp=pl["mp"], win=self.win_mp),
            mission_text(pl, self.over),
        ]
        status = status_text(pl)
        return out + ([status] if status else [])

    def paintEvent(self, event: QPaintEvent) -> None:
        pl = self.player
        if pl is None:
            return
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            w = float(self.width())
            colour = paint.seat_colour(self.seat)
            box = QRectF(1, 1, w - 2, self.height() - 2)
            p.setPen(paint.GOLD if self.active else QColor(255, 255, 255, 40))
            p.setBrush(QColor(8, 20, 16, 170))
            p.drawRoundedRect(box, 10, 10)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour)
            p.drawEllipse(QRectF(12, 10, 18, 18))
            font = QFont(p.font())
            font.setBold(True)
            font.setPixelSize(14)
            p.setFont(font)
            p.setPen(QColor("#e9efe9"))
            p.drawText(QRectF(38, 6, w - 48, 26), Qt.AlignmentFlag.AlignVCenter, self.title)
            texts = self.texts()
            share = max(0, pl["hp"]) / max(1, pl["max_hp"])
            self._bar(p, QRectF(12, 36, w - 24, 18), share, paint.hp_colour(share), texts[1])
            self._bar(p, QRectF(12, 58, w - 24, 18), min(1.0, pl["mp"] / max(1, self.win_mp)), paint.GOLD, texts[2])
            font.setBold(False)
            font.setPixelSize(12)
            p.setFont(font)
            p.setPen(QColor("#cfd8d2"))
            p.drawText(QRectF(12, 80, w - 24, 18), Qt.AlignmentFlag.AlignVCenter, texts[3])
            if len(texts) > 4:
                p.setFont(self._status_font())
                p.setPen(QColor("#ffcf9a"))
                flags = int(Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextWordWrap)
                p.drawText(QRectF(12, self.STATUS_TOP, w - 24, self.height() - self.STATUS_TOP - 2), flags, texts[4])
        finally:
            p.end()

    @staticmethod
    def _bar(p: QPainter, r: QRectF, share: float, colour: QColor, text: str) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 150))
        p.drawRoundedRect(r, 6, 6)
        if share > 0:
            p.setBrush(colour)
            p.drawRoundedRect(QRectF(r.left(), r.top(), max(12.0, r.width() * share), r.height()), 6, 6)
        font = QFont(p.font())
        font.setBold(True)
        font.setPixelSize(12)
        p.setFont(font)
        # The label straddles the fill's edge at every share: dark where it lies on the (light) fill,
        # light where it lies on the dark track, so no letter is ever dark on dark or white on yellow.
        filled = QRectF(r.left(), r.top(), max(12.0, r.width() * share) if share > 0 else 0.0, r.height())
        track = QRectF(filled.right(), r.top(), r.right() - filled.right(), r.height())
        for part, ink in ((filled, BAR_INK_ON_FILL), (track, BAR_INK_ON_TRACK)):
            if part.width() <= 0:
                continue
            p.save()
            p.setClipRect(part)
            p.setPen(ink)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
            p.restore()


class AnomalyMazeTable(art.FeltWidget):
    """The whole Anomaly Maze table for one view, with the legal actions as controls."""

    action_chosen = Signal(tuple)
    report_requested = Signal()

    def __init__(self, players: int, names: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = list(names)
        self.view: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.me: int | None = None
        self.interactive = True
        self.roll_ms = 0
        self._seen_seq = -1
        self.setStyleSheet(PANEL_STYLE)
        self.setMinimumSize(880, 600)
        root = QHBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        root.setSpacing(12)
        self.board = MazeBoard()
        self.board.action_chosen.connect(self.action_chosen.emit)
        self.board.choice_changed.connect(self._show_controls)
        root.addWidget(self.board, 1)

        self.side = named(QFrame(), "side")
        self.side.setFixedWidth(300)
        sl = QVBoxLayout(self.side)
        sl.setContentsMargins(12, 12, 12, 12)
        sl.setSpacing(8)
        self.status = named(QLabel(), "status")
        self.status.setWordWrap(True)
        sl.addWidget(self.status)
        self.cards = [PlayerCard(0), PlayerCard(1)]
        for card in self.cards:
            sl.addWidget(card)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setMinimumHeight(40)
        sl.addWidget(self.banner)
        self.hint = named(QLabel(), "hint")
        self.hint.setWordWrap(True)
        sl.addWidget(self.hint)
        self.buttons: dict[str, QPushButton] = {}
        turn_row = QHBoxLayout()
        for key in ("rotate_left", "rotate_right"):
            turn_row.addWidget(self._button(key))
        sl.addLayout(turn_row)
        for key in ("confirm", "cancel", "go", "stay", "clear", "attack", "no_attack"):
            sl.addWidget(self._button(key))
        self.dice_title = named(QLabel(), "small")
        sl.addWidget(self.dice_title)
        self.dice = DiceView()
        self.dice.settled.connect(self._show_pending_banner)
        self._pending_banner: tuple[str, str] | None = None
        sl.addWidget(self.dice)
        sl.addStretch(1)
        self.report_button = named(QPushButton(), "go")
        self.report_button.clicked.connect(self.report_requested.emit)
        self.report_button.hide()
        sl.addWidget(self.report_button)
        root.addWidget(self.side)
        self.flash_timer = QTimer(self)
        self.flash_timer.setSingleShot(True)
        self.flash_timer.timeout.connect(self._end_flash)

    def _button(self, key: str) -> QPushButton:
        button = named(QPushButton(), key)
        button.setMinimumHeight(32)
        button.clicked.connect(lambda _=False, k=key: self.press(k))
        button.hide()
        self.buttons[key] = button
        return button

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
        """Draw ``view``; offer ``legal``; animate new dice and flash news when ``delay_ms`` > 0."""
        self.view = view
        self.me = view["you"]
        self.legal = [tuple(a) for a in legal]
        self.interactive = interactive
        self.roll_ms = max(0, min(900, delay_ms))
        fresh = self._fresh_events(view)
        self.board.set_view(view, self.legal, enabled=interactive)
        self._show_status()
        self._show_cards()
        self._show_dice(fresh)
        self._show_flash(fresh)
        self._show_controls()
        over = view["over"] is not None
        self.report_button.setText(tr("table.to_report"))
        self.report_button.setVisible(over and interactive)

    def set_banner(self, text: str, tone: str = "plain") -> None:
        """The latest news; while a die is rolling its result waits for the die to settle."""
        if self.dice.rolling:
            self._pending_banner = (text, tone)
            return
        self._pending_banner = None
        self.banner.setStyleSheet(BANNER_TONES.get(tone, BANNER_TONES["plain"]))
        self.banner.setText(text)

    def _show_pending_banner(self) -> None:
        if self._pending_banner is not None:
            self.set_banner(*self._pending_banner)

    def _fresh_events(self, view: dict[str, Any]) -> list[list[Any]]:
        seq = view.get("event_seq", 0)
        events = view["events"]
        if self._seen_seq < 0 or seq < self._seen_seq:
            fresh: list[list[Any]] = []
        else:
            fresh = events[max(0, len(events) - (seq - self._seen_seq)) :] if seq > self._seen_seq else []
        self._seen_seq = seq
        return fresh

    def _show_status(self) -> None:
        view = self.view
        assert view is not None
        bits = []
        if view["round"] > 0 and view["over"] is None:
            bits.append(tr("table.round", n=view["round"]))
        turn = turn_text(view, self.names, self.me)
        if turn:
            bits.append(turn)
        bits.append(phase_text(view))
        self.status.setText(" · ".join(bits))

    def _show_cards(self) -> None:
        view = self.view
        assert view is not None
        playing = view["over"] is None and view["phase"] in ("anomaly", "move", "combat")
        for card, player in zip(self.cards, view["players"], strict=True):
            seat = player["seat"]
            name = seat_name(self.names, seat)
            title = tr("table.you", name=name) if seat == self.me else name
            card.show_player(title, player, view["win_mp"], playing and view["turn"] == seat, view["over"] is not None)

    def _turn_dice(self) -> tuple[list[int], int]:
        """Faces rolled in the current turn, and who rolled them; else the previous turn's, held.

        The turn passes the moment the last die is rolled, so without holding them the player
        would never see the final die of an attack on them.  They stay until the next roll.
        """
        view = self.view
        assert view is not None
        turns_back = 0
        faces: list[int] = []
        seat = view["turn"]
        for e in reversed(view["events"]):
            if e[0] == "turn":
                if faces or turns_back == 1:
                    break
                turns_back += 1
                continue
            if e[0] == "die":
                faces.insert(0, e[2])
                seat = e[1]
        return faces, seat

    def _show_dice(self, fresh: list[list[Any]]) -> None:
        view = self.view
        assert view is not None
        faces, seat = self._turn_dice()
        total = view["options"]["dice_per_turn"]
        rolled_now = any(e[0] == "die" for e in fresh)
        in_combat = view["over"] is None and (view["phase"] == "combat" or bool(faces))
        self.dice.setVisible(in_combat)
        self.dice_title.setVisible(in_combat)
        self.dice_title.setText(tr("maze.dice"))
        if in_combat:
            self.dice.show_dice(faces, total, seat, self.roll_ms if rolled_now else 0)
        if rolled_now and self.interactive:
            sound.play("dice")

    def _show_flash(self, fresh: list[list[Any]]) -> None:
        """Respawn, blocking and BlackSaw news in large type across the board."""
        flash = None
        for e in fresh:
            if e[0] == "respawn":
                flash = (tr("maze.respawn_banner"), QColor("#a8f0c0"))
            elif e[0] == "respawn-blocked":
                flash = (tr("maze.blocked", n=e[2]), QColor("#ffcf9a"))
            elif e[0] == "blacksaw":
                flash = (tr("maze.blocked", n=3) + " · BlackSaw", QColor("#ff8a80"))
        if flash is not None:
            self.board.overlay = flash
            self.board.update()
            if self.roll_ms:
                self.flash_timer.start(max(900, 2 * self.roll_ms))
        elif fresh and not self.flash_timer.isActive():
            self._end_flash()

    def _end_flash(self) -> None:
        self.board.overlay = None
        self.board.update()

    # -- the controls -----------------------------------------------------------------
    def _show_controls(self) -> None:
        view = self.view
        if view is None:
            return
        for button in self.buttons.values():
            button.hide()
        if not self.legal or not self.interactive:
            quiet = view["over"] is not None or view["phase"] == "setup" or not self.interactive
            self.hint.setText("" if quiet else tr("hint.wait", name=seat_name(self.names, view["turn"])))
            return
        phase = view["phase"]
        if phase == "anomaly":
            self._anomaly_controls()
        elif phase == "move":
            self._move_controls()
        elif phase == "combat":
            self._combat_controls(view)

    def _anomaly_controls(self) -> None:
        """A shift previewed (confirm or cancel it), a tile picked (turn it, confirm or cancel), or nothing yet."""
        board, b = self.board, self.buttons
        if board.shift_plan is not None:
            axis, index, _ = board.shift_plan
            self.hint.setText(tr("maze.hint.shift", line=line_name(axis, index)))
            for key in ("confirm", "cancel"):
                b[key].show()
            b["confirm"].setText(tr("maze.btn.confirm"))
            b["confirm"].setEnabled(True)
            b["cancel"].setText(tr("maze.btn.cancel"))
        elif board.selected is None:
            self.hint.setText(tr("maze.hint.anomaly"))
        else:
            self.hint.setText(tr("maze.hint.rotate", cell=cell_name(board.selected)))
            for key in ("rotate_left", "rotate_right", "confirm", "cancel"):
                b[key].show()
            b["rotate_left"].setText(tr("maze.btn.rotate_left"))
            b["rotate_right"].setText(tr("maze.btn.rotate_right"))
            b["confirm"].setText(tr("maze.btn.confirm"))
            b["confirm"].setEnabled(board.rotation() is not None)
            b["cancel"].setText(tr("maze.btn.cancel"))

    def _move_controls(self) -> None:
        """Walk the planned route, stay, or clear the route."""
        board, b = self.board, self.buttons
        self.hint.setText(tr("maze.hint.move"))
        me = board.my_cell()
        b["go"].setText(tr("maze.btn.go", cell=cell_name(board.route[-1]) if board.route else "…"))
        b["go"].setEnabled(bool(board.route))
        b["stay"].setText(tr("maze.btn.stay", cell=cell_name(me) if me is not None else "?"))
        b["stay"].setEnabled(("move",) in self.legal)
        b["clear"].setText(tr("maze.btn.clear"))
        b["clear"].setEnabled(bool(board.route))
        for key in ("go", "stay", "clear"):
            b[key].show()

    def _combat_controls(self, view: dict[str, Any]) -> None:
        """Roll the next attack die, or stop attacking."""
        b = self.buttons
        other = 1 - (self.me or 0)
        self.hint.setText(tr("maze.hint.combat", name=seat_name(self.names, other)))
        total = view["options"]["dice_per_turn"]
        b["attack"].setText(tr("maze.btn.attack", n=total - view["dice_left"] + 1, total=total))
        b["attack"].setEnabled(("attack",) in self.legal)
        b["no_attack"].setText(tr("maze.btn.no_attack"))
        b["no_attack"].setEnabled(("no-attack",) in self.legal)
        b["attack"].show()
        b["no_attack"].show()

    def press(self, key: str) -> None:
        """A side button: turn the picked tile, confirm, walk, stay, or fight."""
        board = self.board
        if key == "rotate_left":
            board.turn_preview(-1)
        elif key == "rotate_right":
            board.turn_preview(1)
        elif key == "confirm":
            board.confirm()
        elif key == "cancel" or key == "clear":
            board.cancel()
        elif key == "go":
            board.go()
        elif key == "stay":
            board.stay()
        elif key == "attack" and ("attack",) in self.legal:
            self.action_chosen.emit(("attack",))
        elif key == "no_attack" and ("no-attack",) in self.legal:
            self.action_chosen.emit(("no-attack",))

    def reset_choice(self) -> None:
        """Forget a choice in progress (after a decision was taken)."""
        self.board.selected, self.board.preview, self.board.route = None, 0, ()

    # -- the keyboard (see client/ui/keys.py) ------------------------------------------------
    KEY_ORDER = ("confirm", "go", "stay", "attack", "no_attack", "rotate_left", "rotate_right", "clear", "cancel")

    def widget(self) -> QWidget:
        return self

    def shortcut_buttons(self) -> list[QPushButton]:
        """The buttons the number keys press, in the order shown."""
        return [self.buttons[k] for k in self.KEY_ORDER if self.buttons[k].isVisible() and self.buttons[k].isEnabled()]

    def confirm_button(self) -> QPushButton | None:
        """What Enter presses: confirm the previewed turn, or walk the planned route."""
        for key in ("confirm", "go"):
            button = self.buttons[key]
            if button.isVisible() and button.isEnabled():
                return button
        return None

    def cancel_choice(self) -> None:
        """Esc: drop the picked tile or the planned route."""
        self.board.cancel()

    def turn_key(self, delta: int) -> None:
        """The arrow keys turn the picked tile's preview."""
        self.board.turn_preview(delta)

    def offered_actions(self) -> set[Action]:
        """Every action a click can send now (arrows, tiles × turns, routes, buttons): for tests."""
        board = self.board
        out: set[Action] = {("shift", *s) for s in board.offered_shifts()}
        out |= {("rotate", c, q) for c in board.rotatable_cells() for q in (1, 2, 3) if ("rotate", c, q) in self.legal}
        out |= {("move", *p) for p in board.move_paths()}
        if self.view is not None and self.view["phase"] == "combat" and self.interactive:
            out |= {a for a in self.legal if a[0] in ("attack", "no-attack")}
        return out
