"""The System Launch table: every seat's rows, the deck, and the human's controls.

:class:`SystemLaunchTable` draws one *view* (the engine's ``view(knowledge)`` plain
data) and offers exactly the legal actions it is given as enabled controls:
a hand card with no legal use cannot be selected, and only the buttons of
legal actions exist, so an illegal choice is unavailable rather than refused
after a click.  The widget never touches the game: a chosen action leaves it
as the ``action_chosen`` signal.  The same widget, with no legal actions,
shows the replay viewer's frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from client.games.system_launch import art
from client.games.system_launch.flight import CardFlight
from client.games.system_launch.present import (
    action_label,
    caption,
    card_title,
    kind_name,
    phase_text,
    take_label,
    turn_text,
)
from client.games.system_launch.widgets import CardFace, CardRow, CardView
from client.i18n import tr
from client.i18n.seat_names import seat_name
from client.ui import art as shared_art
from client.ui.named import named
from client.ui.wrap_button import ActionButton
from engines.core import Action, Knowledge

#: Verbs whose action names a slot of the human's hand (chosen by selecting the card first).
HAND_VERBS = frozenset({"build", "upgrade", "play", "discard"})

PANEL_STYLE = (
    "QFrame#seat { background: rgba(8, 20, 16, 150); border-radius: 12px; border: 1px solid rgba(255,255,255,30); }"
    'QFrame#seat[active="true"] { border: 2px solid #ffd54a; }'
    'QFrame#seat[gone="true"] { background: rgba(40, 40, 40, 150); }'
    "QLabel { color: #e9efe9; }"
    "QLabel#name { font-weight: bold; font-size: 14px; }"
    "QLabel#badge { color: #ffd54a; }"
    "QLabel#rowlabel { color: rgba(233,239,233,160); font-size: 11px; }"
)


def face(card: int) -> CardFace:
    return CardFace(kind_name(card), card_title(card), caption(card))


class SeatPanel(QFrame):
    """One opponent (or any seat in a replay): name, hand backs, System and Discard rows."""

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName("seat")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QGridLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setHorizontalSpacing(8)
        layout.setVerticalSpacing(2)
        self.name = named(QLabel(), "name")
        self.badge = named(QLabel(), "badge")
        self.hand_label = named(QLabel(), "rowlabel")
        self.hand = CardRow(0.38, 3)
        self.system_label = named(QLabel(), "rowlabel")
        self.system = CardRow(0.38, 4, room_for=4)  # a System of four (the usual launch) never overlaps
        self.discard_label = named(QLabel(), "rowlabel")
        self.discard = CardRow(0.34, 4)
        head = QHBoxLayout()
        head.setSpacing(10)
        head.addWidget(self.name)
        # The hand's count beside the name: its words ("Hand: 4 cards", "Ręka: 4 karty") never take
        # room from the System row, which keeps room for four cards.
        head.addWidget(self.hand_label)
        head.addStretch(1)
        head.addWidget(self.badge)
        layout.addLayout(head, 0, 0, 1, 2)
        layout.addWidget(self.system_label, 1, 1)
        layout.addWidget(self.hand, 2, 0)
        layout.addWidget(self.system, 2, 1)
        layout.addWidget(self.discard_label, 3, 0, 1, 2)
        layout.addWidget(self.discard, 4, 0, 1, 2)
        layout.setColumnStretch(0, 3)
        layout.setColumnStretch(1, 4)

    def show_seat(self, view: dict[str, Any], names: Sequence[str], hand: list[CardFace | None]) -> None:
        s = self.seat
        self.name.setText(seat_name(names, s))
        badges = []
        if not view["alive"][s]:
            badges.append(tr("table.left"))
        elif view["skip"][s]:
            badges.append(tr("table.skips"))
        self.badge.setText(" · ".join(badges))
        self.hand_label.setText(tr("table.hand", count=view["hands"][s]))
        self.hand.set_cards(hand)
        self.system_label.setText(tr("table.system"))
        self.system.set_cards([face(c) for c in view["system"][s]], tr("table.empty_row"))
        self.discard_label.setText(tr("table.discard"))
        self.discard.set_cards([face(c) for c in view["discard"][s]])
        active = view["active"] == s and view["stage"] != "over"
        self.setProperty("active", "true" if active else "false")
        self.setProperty("gone", "false" if view["alive"][s] else "true")
        self.style().unpolish(self)
        self.style().polish(self)


class DeckStack(QWidget):
    """The deck's backs, a few more the fuller it is (an empty deck is an empty slot)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = 0
        self.setFixedSize(art.CARD_W + 24, art.CARD_H + 10)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            base = QRectF(8, 6, art.CARD_W, art.CARD_H)
            if self.count == 0:
                art.paint_empty_slot(p, base, tr("table.deck_empty"))
            else:
                for i in range(min(4, (self.count + 9) // 10), 0, -1):
                    art.paint_card_back(p, base.translated(i * 2.5, -i * 1.5))
                art.paint_card_back(p, base)
        finally:
            p.end()


class DeckView(QWidget):
    """The deck in the middle: its stack, and its size in words ("Колода: 18 карт") as a label
    that asks for the room its words need (and that the text check sees)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count = 0
        self.stack = DeckStack()
        self.label = QLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setStyleSheet("color: #e9efe9; font-weight: bold; font-size: 13px;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.stack, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.label)

    def set_count(self, n: int) -> None:
        self.count = self.stack.count = n
        self.label.setText(tr("table.deck", count=n) if n else "")
        self.setToolTip(tr("table.deck", count=n))
        self.stack.update()


class Banner(QLabel):
    """The latest event in large type, and the "System launched!" moment."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setMinimumHeight(44)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.set_tone("plain")

    def set_tone(self, tone: str) -> None:
        styles = {
            "plain": "color: #e9efe9; font-size: 15px;",
            "event": "color: #ffcf9a; font-size: 16px; font-weight: bold;",
            "good": "color: #a8f0c0; font-size: 16px; font-weight: bold;",
            "private": "color: #bfe0ff; font-size: 15px;",
            "win": (
                "color: #ffd54a; font-size: 34px; font-weight: bold; padding: 10px;"
                "background: rgba(0,0,0,120); border: 2px solid #ffd54a; border-radius: 16px;"
            ),
        }
        self.setStyleSheet(styles.get(tone, styles["plain"]))


class SystemLaunchTable(shared_art.FeltWidget):
    """The whole System Launch table for one view, with the legal actions as controls."""

    action_chosen = Signal(tuple)
    report_requested = Signal()

    def __init__(self, players: int, names: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.players = players
        self.names = list(names)
        self.me: int | None = None
        self.view: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.knowledge = Knowledge(None)
        self.hand_limit = 5
        self.selected_slot: int | None = None
        self.hand_cards: dict[int, CardView] = {}
        self.action_buttons: list[ActionButton] = []
        self.setStyleSheet(PANEL_STYLE)
        self.setMinimumSize(880, 600)

        root = QHBoxLayout(self)
        root.setContentsMargins(12, 12, 12, 12)
        root.setSpacing(12)
        board = QVBoxLayout()
        board.setSpacing(10)
        root.addLayout(board, 1)

        self.opponents_box = QGridLayout()
        self.opponents_box.setSpacing(8)
        board.addLayout(self.opponents_box)
        self.seat_panels: dict[int, SeatPanel] = {}

        centre = QHBoxLayout()
        self.deck = DeckView()
        centre.addWidget(self.deck, 0, Qt.AlignmentFlag.AlignVCenter)
        middle = QVBoxLayout()
        self.status = named(QLabel(), "name")
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status.setStyleSheet("font-size: 16px;")
        self.banner = Banner()
        middle.addWidget(self.status)
        middle.addWidget(self.banner)
        # The Hacker Attack view: the target's hand, for the attacker's eyes only.
        self.hacker_box = named(QFrame(), "seat")
        hb = QVBoxLayout(self.hacker_box)
        self.hacker_title = named(QLabel(), "name")
        self.hacker_title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hb.addWidget(self.hacker_title)
        self.hacker_cards = QHBoxLayout()
        self.hacker_cards.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hb.addLayout(self.hacker_cards)
        self.hacker_box.hide()
        middle.addWidget(self.hacker_box)
        self.report_button = QPushButton()
        self.report_button.setStyleSheet("font-size: 15px; padding: 6px 18px;")
        self.report_button.clicked.connect(self.report_requested.emit)
        self.report_button.hide()
        middle.addWidget(self.report_button, 0, Qt.AlignmentFlag.AlignCenter)
        centre.addLayout(middle, 1)
        board.addLayout(centre, 1)

        self.my_panel = named(QFrame(), "seat")
        mp = QGridLayout(self.my_panel)
        mp.setContentsMargins(12, 8, 12, 10)
        self.my_name = named(QLabel(), "name")
        self.my_badge = named(QLabel(), "badge")
        self.my_system_label = named(QLabel(), "rowlabel")
        self.my_system = CardRow(0.55, 4, room_for=4)
        self.my_discard_label = named(QLabel(), "rowlabel")
        self.my_discard = CardRow(0.42, 5)
        self.my_hand_label = named(QLabel(), "rowlabel")
        self.hand_row = QHBoxLayout()
        self.hand_row.setSpacing(6)
        self.hand_row.setAlignment(Qt.AlignmentFlag.AlignLeft)
        head = QHBoxLayout()
        head.addWidget(self.my_name)
        head.addStretch(1)
        head.addWidget(self.my_badge)
        mp.addLayout(head, 0, 0, 1, 2)
        mp.addWidget(self.my_system_label, 1, 0)
        mp.addWidget(self.my_discard_label, 1, 1)
        mp.addWidget(self.my_system, 2, 0)
        mp.addWidget(self.my_discard, 2, 1)
        mp.addWidget(self.my_hand_label, 3, 0, 1, 2)
        mp.addLayout(self.hand_row, 4, 0, 1, 2)
        mp.setColumnStretch(0, 1)
        mp.setColumnStretch(1, 1)
        mp.setRowMinimumHeight(4, int(art.CARD_H * 1.0) + 10)
        board.addWidget(self.my_panel)

        side = QVBoxLayout()
        side.setSpacing(8)
        self.actions_title = named(QLabel(), "name")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #cfd8d2;")
        self.actions_box = QVBoxLayout()
        self.actions_box.setSpacing(6)
        side.addWidget(self.actions_title)
        side.addWidget(self.hint)
        side.addLayout(self.actions_box)
        side.addStretch(1)
        self.side = named(QFrame(), "seat")
        self.side.setLayout(side)
        self.side.setFixedWidth(250)
        root.addWidget(self.side)
        self.flight = CardFlight(self)  # cards on their way, over the table (client/games/system_launch/flight.py)

    # -- showing a view -------------------------------------------------------------
    def show_view(
        self,
        view: dict[str, Any],
        knowledge: Knowledge,
        legal: Sequence[Action] = (),
        *,
        hand_limit: int = 5,
        interactive: bool = True,
    ) -> None:
        """Draw ``view``; offer ``legal`` as controls (none in a replay)."""
        self.view = view
        self.me = view["seat"]
        self.knowledge = knowledge
        self.legal = [tuple(a) for a in legal]
        self.hand_limit = hand_limit
        self.side.setVisible(interactive)
        if self.selected_slot is not None and self.selected_slot not in self._usable_slots():
            self.selected_slot = None
        self._layout_seats()
        self._show_seats()
        self._show_centre()
        self._show_me()
        self._show_actions()
        self.flight.follow(view, self.place_of, face, interactive)

    def place_of(self, where: str, seat: int | None, card: int | None) -> QWidget | None:
        """The widget where a card flies from or to (:data:`client.games.system_launch.flight.Places`)."""
        if where == "deck":
            return self.deck
        if where == "shown":
            return self.hacker_box
        if seat is not None and seat == self.me:
            if where == "system":
                return self.my_system
            slots = [slot for slot, c in (self.view or {}).get("hand", []) if c == card and card is not None]
            if slots and slots[-1] in self.hand_cards:
                return self.hand_cards[slots[-1]]
            return self.my_hand_label
        panel = self.seat_panels.get(seat) if seat is not None else None
        if panel is None:
            return None
        return panel.system if where == "system" else panel.hand

    def set_banner(self, text: str, tone: str = "plain") -> None:
        self.banner.set_tone(tone)
        self.banner.setText(text)

    def _others(self) -> list[int]:
        me = self.me
        if me is None:
            return list(range(self.players))
        return [(me + i) % self.players for i in range(1, self.players)]

    def _layout_seats(self) -> None:
        others = self._others()
        if list(self.seat_panels) == others:
            return
        for panel in self.seat_panels.values():
            panel.setParent(None)
            panel.deleteLater()
        self.seat_panels = {}
        columns = 3 if len(others) > 4 else max(1, min(len(others), 3 if self.me is None else 5))
        if len(others) == 4:
            columns = 2
        for i, seat in enumerate(others):
            panel = SeatPanel(seat)
            self.seat_panels[seat] = panel
            self.opponents_box.addWidget(panel, i // columns, i % columns)
            panel.show()

    def _hand_faces(self, seat: int) -> list[CardFace | None]:
        view = self.view
        assert view is not None
        if seat == self.me:
            return [face(c) if c is not None else None for _, c in view["hand"]]
        if self.me is None:  # full view: every hand face up
            seen = dict((s, pairs) for s, pairs in view["seen"].items())
            return [face(c) for _, c in seen.get(seat, [])] + [None] * (view["hands"][seat] - len(seen.get(seat, [])))
        return [None] * view["hands"][seat]

    def _show_seats(self) -> None:
        view = self.view
        assert view is not None
        for seat, panel in self.seat_panels.items():
            panel.show_seat(view, self.names, self._hand_faces(seat))
        self.my_panel.setVisible(self.me is not None)

    def _show_centre(self) -> None:
        view = self.view
        assert view is not None
        self.deck.set_count(view["deck"])
        bits = []
        if view["round"] > 0 and view["stage"] != "over":
            bits.append(tr("table.round", n=view["round"]))
        turn = turn_text(view, self.names, self.me)
        if turn:
            bits.append(turn)
        bits.append(phase_text(view, self.hand_limit))
        self.status.setText(" · ".join(bits))
        over = view["stage"] == "over"
        self.report_button.setText(tr("table.to_report"))
        self.report_button.setVisible(over and self.side.isVisible())
        self._show_hacker()

    def _show_hacker(self) -> None:
        view = self.view
        assert view is not None
        while self.hacker_cards.count():
            item = self.hacker_cards.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget:
                _discard_widget(widget)
        target = view["target"]
        showing = view["stage"] == "hacker-take" and self.me is not None and view["active"] == self.me
        pairs = view["seen"].get(target, []) if showing else []
        self.hacker_box.setVisible(bool(showing))
        if not showing:
            return
        self.hacker_title.setText(tr("table.hacker_view", name=seat_name(self.names, target)))
        for _, card in pairs:
            cv = CardView(face(card), 0.8)
            self.hacker_cards.addWidget(cv)
            cv.show()

    def _show_me(self) -> None:
        view = self.view
        assert view is not None
        me = self.me
        if me is None:
            return
        self.my_name.setText(tr("table.you", name=seat_name(self.names, me)))
        badge = tr("table.left") if not view["alive"][me] else (tr("table.skips") if view["skip"][me] else "")
        self.my_badge.setText(badge)
        active = view["active"] == me and view["stage"] != "over"
        self.my_panel.setProperty("active", "true" if active else "false")
        self.my_panel.style().unpolish(self.my_panel)
        self.my_panel.style().polish(self.my_panel)
        self.my_system_label.setText(tr("table.system"))
        self.my_system.set_cards([face(c) for c in view["system"][me]], tr("table.empty_row"))
        self.my_discard_label.setText(tr("table.discard"))
        self.my_discard.set_cards([face(c) for c in view["discard"][me]])
        self.my_hand_label.setText(tr("table.your_hand", count=len(view["hand"])))
        while self.hand_row.count():
            item = self.hand_row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget:
                _discard_widget(widget)
        self.hand_cards = {}
        usable = self._usable_slots()
        for slot, card in view["hand"]:
            cv = CardView(face(card) if card is not None else None, 1.0)
            if card is not None:
                cv.set_state(
                    selectable=slot in usable,
                    selected=slot == self.selected_slot,
                    dimmed=bool(self.legal) and slot not in usable,
                )
            cv.clicked.connect(lambda s=slot: self.select_slot(s))
            self.hand_cards[slot] = cv
            self.hand_row.addWidget(cv)
            cv.show()

    def _usable_slots(self) -> set[int]:
        return {a[1] for a in self.legal if a[0] in HAND_VERBS}

    def select_slot(self, slot: int) -> None:
        """Select a hand card (only one with a legal use); its actions appear as buttons."""
        if slot not in self._usable_slots():
            return
        self.selected_slot = None if self.selected_slot == slot else slot
        for s, cv in self.hand_cards.items():
            cv.set_state(selectable=cv.selectable, selected=s == self.selected_slot, dimmed=cv.dimmed)
        self._show_actions()

    def _show_actions(self) -> None:
        while self.actions_box.count():
            item = self.actions_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget:
                _discard_widget(widget)
        self.action_buttons = []
        view = self.view
        assert view is not None
        self.actions_title.setText(tr("table.actions"))
        self.hint.setText(self._hint_text(view))
        if not self.legal:
            return
        for action in self.legal:
            if action[0] in HAND_VERBS:
                if action[1] != self.selected_slot:
                    continue
                text = action_label(action, self.names)
            elif action[0] == "take":
                text = take_label(action, self.knowledge)
            else:
                text = action_label(action, self.names)
            button = ActionButton(text, action)
            button.setMinimumHeight(32)
            button.setStyleSheet(_button_style(action))
            button.clicked.connect(lambda _=False, a=action: self.action_chosen.emit(a))
            self.actions_box.addWidget(button)
            button.show()
            self.action_buttons.append(button)

    def _hint_text(self, view: dict[str, Any]) -> str:
        """The side panel's words: whom the table waits for, or what the actions offered now do."""
        if not self.legal:
            active = view["active"]
            waiting = view["pending"].get("seat", active) if view["pending"]["kind"] == "decision" else active
            quiet = view["stage"] == "over" or waiting is None or waiting < 0
            return "" if quiet else tr("hint.wait", name=seat_name(self.names, waiting))
        stage = view["stage"]
        if stage == "discard":
            return tr("hint.discard", count=len(view["hand"]), limit=self.hand_limit)
        if stage == "crash":
            return tr("hint.crash")
        if stage == "hacker-take":
            return tr("hint.hacker", name=seat_name(self.names, view["target"]))
        return tr("hint.action")

    # -- the keyboard (see client/ui/keys.py) ------------------------------------------------
    def turn_key(self, delta: int) -> None:
        """Nothing on this table turns."""

    def widget(self) -> QWidget:
        return self

    def shortcut_buttons(self) -> list[QPushButton]:
        """The buttons the number keys press, in the order shown."""
        return [b for b in self.action_buttons if b.isVisible() and b.isEnabled()]

    def confirm_button(self) -> QPushButton | None:
        """What Enter presses: the one action offered, if there is just one."""
        offered = self.shortcut_buttons()
        return offered[0] if len(offered) == 1 else None

    def cancel_choice(self) -> None:
        """Esc: put the selected card back."""
        if self.selected_slot is not None:
            self.select_slot(self.selected_slot)

    def button_for(self, action: Action) -> QPushButton | None:
        for button in self.action_buttons:
            if button.action == tuple(action):
                return button
        return None


def _discard_widget(widget: QWidget) -> None:
    """Take a widget off the screen now and free it later (a hidden widget never lingers in a grab)."""
    widget.hide()
    widget.setParent(None)
    widget.deleteLater()


def _button_style(action: Action) -> str:
    colour = {
        "build": "#1f5fa8",
        "upgrade": "#b7791f",
        "play": "#b3372b",
        "discard": "#6b4f3a",
        "take": "#3b6e8f",
        "lose": "#8c3b3b",
    }.get(action[0], "#44524c")
    return (
        f"QPushButton {{ background: {colour}; color: white; border-radius: 6px; padding: 4px 10px; "
        f"text-align: left; }}"
        f"QPushButton:hover {{ background: {colour}; border: 2px solid #ffd54a; }}"
    )
