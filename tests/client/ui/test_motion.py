"""Animation (client.ui.motion): boards tween to the engine's final position, skippable, off by default in tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt

from client.games.collective_conflict.board import HexBoard
from client.play.local import LocalGame
from client.ui import motion


@pytest.fixture
def motion_on() -> Iterator[motion.Motion]:
    """Animation switched on for one test (the suite runs with it off)."""
    clock = motion.clock()
    clock.override = True
    yield clock
    clock.finish_all()
    clock.override = None


@pytest.fixture
def frames(motion_on: motion.Motion, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every frame value the clock hands to a board (what was painted), in order."""
    seen: list[float] = []
    real = motion_on.play

    def recording(owner: object, duration_ms: int, frame: Any, done: Any = None, host: Any = None) -> None:
        real(owner, duration_ms, lambda t: (seen.append(t), frame(t)), done, host)

    monkeypatch.setattr(motion_on, "play", recording)
    return seen


def _cc_move(qtbot: Any) -> tuple[HexBoard, LocalGame, tuple[Any, ...]]:
    """A shown board and a game whose human is about to move a unit over more than one hex."""
    game = LocalGame("collective-conflict", 2, b"motion-cc", 0, ["Me", "Bot"], bot_kind="random")
    board = HexBoard()
    qtbot.addWidget(board)
    board.resize(900, 760)
    board.show()
    for _ in range(200):
        if game.human_to_move():
            moves = [tuple(a) for a in game.legal() if a[0] == "move"]
            if moves:
                board.set_view(game.view(), game.legal())
                return board, game, moves[0]
            game.act(game.legal()[0])
        else:
            game.step()
    raise AssertionError("no move came up")


def test_the_suite_runs_with_motion_off():
    assert not motion.clock().enabled()


def test_a_unit_slides_over_several_frames_and_ends_on_the_engines_hex(qtbot, motion_on):
    board, game, action = _cc_move(qtbot)
    frames: list[float] = []
    real = board._slide_frame
    board._slide_frame = lambda t: (frames.append(t), real(t))  # type: ignore[method-assign]
    game.act(action)
    changes = board.set_view(game.view(), game.legal())
    ((pid, _src, dst),) = changes.moved
    unit = next(u for u in board.scene.units if u.pid == pid)
    assert motion_on.running(board)
    assert frames == [0.0] and board._unit_center(dst, unit) != board.hex_center(dst, unit.layer), "it starts away"
    qtbot.waitUntil(lambda: not motion_on.running(board), timeout=6000)
    assert len([t for t in frames if 0.0 < t < 1.0]) >= 2, f"several frames in between: {frames}"
    assert frames[-1] == 1.0
    assert board.slide is None
    assert board._unit_center(dst, unit) == board.hex_center(dst, unit.layer)


def test_a_key_during_a_slide_finishes_it_at_once(qtbot, motion_on):
    board, game, action = _cc_move(qtbot)
    game.act(action)
    board.set_view(game.view(), game.legal())
    assert motion_on.running(board)
    qtbot.keyClick(board, Qt.Key.Key_Shift)
    assert not motion_on.running(board)
    assert board.slide is None


def test_with_motion_off_nothing_waits(qtbot):
    board, game, action = _cc_move(qtbot)
    game.act(action)
    board.set_view(game.view(), game.legal())
    assert not motion.clock().running()
    assert board.slide is None


def _maze(qtbot: Any) -> tuple[Any, LocalGame]:
    from client.games.anomaly_maze.board import MazeBoard

    game = LocalGame("anomaly-maze", 2, b"motion-maze", 0, ["Me", "Bot"])
    board = MazeBoard()
    qtbot.addWidget(board)
    board.resize(800, 800)
    board.show()
    return board, game


def _until_human(game: LocalGame, board: Any, wanted: Any) -> tuple[Any, ...]:
    """Step the game to the human's first legal action that ``wanted`` accepts, with the board shown."""
    for _ in range(400):
        if game.human_to_move():
            board.set_view(game.view(), game.legal())
            options = [tuple(a) for a in game.legal() if wanted(tuple(a))]
            if options:
                return options[0]
            game.act(game.legal()[0])
        else:
            game.step()
    raise AssertionError("the wanted action never came up")


def test_a_shifted_line_slides_in_and_the_pawn_walks_its_route(qtbot, motion_on, frames):
    board, game = _maze(qtbot)
    shift = _until_human(game, board, lambda a: a[0] == "shift")
    game.act(shift)
    frames.clear()
    board.set_view(game.view(), game.legal())
    assert board.sliding is not None and motion_on.running(board._slide_tween)
    line = [c for c in range(49) if board.tile_rect(c) != board.cell_rect(c)]
    assert line, "the shifted line's tiles are drawn away from their cells at first"
    qtbot.waitUntil(lambda: board.sliding is None, timeout=6000)
    assert len({f for f in frames if 0 < f < 1}) >= 2, f"the slide is seen over several frames: {frames}"
    assert all(board.tile_rect(c) == board.cell_rect(c) for c in range(49)), "it ends on the engine's tiles"

    walk = _until_human(game, board, lambda a: a[0] == "move" and len(a) >= 3)
    game.act(walk)
    view = game.view()
    board.set_view(view, game.legal())
    me = next(pl for pl in view["players"] if pl["seat"] == game.human)
    assert board.walking is not None and board.pawn_rect(game.human, me["cell"]) != board.cell_rect(me["cell"])
    qtbot.waitUntil(lambda: board.walking is None, timeout=6000)
    assert board.pawn_rect(game.human, me["cell"]) == board.cell_rect(me["cell"])


def test_a_drawn_card_travels_from_the_deck_to_the_hand(qtbot, motion_on, frames):
    from client.games.system_launch.table import SystemLaunchTable

    game = LocalGame("system-launch", 3, b"motion-cards", 0, ["Me", "B", "C"])
    table = SystemLaunchTable(3, game.names)
    qtbot.addWidget(table)
    table.resize(1280, 800)
    table.show()
    flight = table.flight
    seen_flights = 0
    for _ in range(40):
        hand_before, deck_before = len(game.view()["hand"]), game.view()["deck"]
        table.show_view(game.view(), game.knowledge, game.legal())
        motion_on.finish_all()
        game.act(game.legal()[0]) if game.human_to_move() else game.step()
        view = game.view()
        frames.clear()
        table.show_view(view, game.knowledge, game.legal())
        if len(view["hand"]) > hand_before and view["deck"] < deck_before:  # the human drew (not the deal)
            seen_flights += 1
            assert flight.running() and flight.isVisible()
            assert flight.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents), "it never takes a click"
            deck = table.deck.rect().translated(table.deck.mapTo(table, table.deck.rect().topLeft()))
            assert any(deck.contains(f.start.center().toPoint()) for f in flight.flights), "a card leaves the deck"
            qtbot.waitUntil(lambda: not flight.running(), timeout=6000)
            assert len({t for t in frames if 0 < t < 1}) >= 2, frames
            assert not flight.isVisible() and flight.flights == [], "at rest only the table's own cards are drawn"
            break
    assert seen_flights == 1


def test_a_click_during_an_animation_ends_it_and_is_taken_as_the_next_action(qtbot, window, motion_on):
    from client.games.system_launch.table import HAND_VERBS
    from tests.client.drive import click_action, preferred

    screen = window.start_local("system-launch", 3, seed=b"motion-click")
    game = window.game
    taken = 0
    for turn in range(8):
        qtbot.waitUntil(lambda: game.over() is not None or (game.human_to_move() and not screen.timer.isActive()))
        if game.over() is not None:
            break
        flight = screen.table.flight
        flying = flight.running()
        count = len(game.history)
        action = preferred(game.legal(), turn)
        if action[0] in HAND_VERBS and screen.table.selected_slot != action[1]:
            first = screen.table.hand_cards[action[1]]
        else:
            first = screen.table.button_for(action)
        qtbot.mousePress(first, Qt.MouseButton.LeftButton)
        assert not flight.running() and not flight.isVisible(), "the press itself ended the animation"
        qtbot.mouseRelease(first, Qt.MouseButton.LeftButton)
        if len(game.history) == count:  # the card was selected: now its button
            click_action(qtbot, screen, action)
        assert len(game.history) > count, "the click was taken as the next action"
        taken += flying
    assert taken >= 1, "a turn began with a card on its way"


def test_the_deal_sends_every_hand_its_cards_from_the_deck():
    from client.games.system_launch.flight import _moves

    game = LocalGame("system-launch", 3, b"motion-deal", 0, ["Me", "B", "C"])
    before = game.view()
    game.step()
    after = game.view()
    dealt = [m for m in _moves(before, after) if m[0] == "deck"]
    assert sum(after["hands"]) == len(dealt) > 0
    assert sorted(card for _, _, seat, card in dealt if seat == 0) == sorted(card for _, card in after["hand"])


def test_with_motion_off_the_table_never_shows_a_flight(qtbot, window):
    screen = window.start_local("system-launch", 3, seed=b"motion-off")
    game = window.game
    qtbot.waitUntil(game.human_to_move, timeout=10_000)
    assert not screen.table.flight.isVisible() and not motion.clock().running()


def test_a_hit_in_the_maze_shows_its_damage_for_a_moment(qtbot, motion_on):
    from client.games.anomaly_maze.showcase import player_bot

    board, game = _maze(qtbot)
    me = player_bot(game.seed)
    board.set_view(game.view(), game.legal())
    for _ in range(3000):
        before = {pl["seat"]: pl["hp"] for pl in game.view()["players"]}
        if game.human_to_move():
            game.act(me.choose(game.state, game.knowledge, game.legal()))
        else:
            game.step()
        view = game.view()
        board.set_view(view, game.legal())
        lost = [pl for pl in view["players"] if pl["hp"] < before[pl["seat"]] and pl["cell"] is not None]
        if lost:
            assert board.hits is not None
            assert [(seat, points) for seat, _, points in board.hits[0]] == [
                (pl["seat"], before[pl["seat"]] - pl["hp"]) for pl in lost
            ]
            qtbot.waitUntil(lambda: board.hits is None, timeout=6000)
            return
        motion_on.finish_all()
        if game.over() is not None:
            break
    raise AssertionError("no pawn was hit")


def test_a_board_closed_mid_move_drops_its_animation(qtbot, motion_on):
    board, game, action = _cc_move(qtbot)
    game.act(action)
    board.set_view(game.view(), game.legal())
    assert motion_on.running(board)
    errors: list[BaseException] = []
    import sys

    hook, sys.excepthook = sys.excepthook, lambda *exc: errors.append(exc[1])
    try:
        key = id(board)
        board.setParent(None)
        board.deleteLater()
        qtbot.waitUntil(lambda: key not in motion_on._running, timeout=2000)
        qtbot.wait(50)
    finally:
        sys.excepthook = hook
    assert errors == [] and not motion_on.running()
