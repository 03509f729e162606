"""A click on a log line shows the table as it was after that action, as the player knew it then."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from client.games.anomaly_maze import showcase as maze_show
from client.i18n import tr
from tests.client.drive import click_action, preferred


def click_line(qtbot: Any, screen: Any, row: int) -> None:
    """Click log line ``row`` where a player would: on the line itself."""
    log = screen.log
    item = log.item(row)
    log.scrollToItem(item)
    qtbot.mouseClick(log.viewport(), Qt.MouseButton.LeftButton, pos=log.visualItemRect(item).center())


def press_escape(qtbot: Any, screen: Any) -> None:
    screen.log.setFocus()
    qtbot.keyClick(screen.log, Qt.Key.Key_Escape)


def test_a_maze_walk_line_shows_the_pawn_where_it_stood_then_and_esc_returns(qtbot, window):
    screen = window.start_local("anomaly-maze", 2, seed=b"moments/maze", level="easy")
    game = window.game
    me = game.human
    bot = maze_show.player_bot(game.seed)
    walks: list[tuple[int, int]] = []  # (log row of "You walk …", the cell the walk ended on)
    for _ in range(60):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        live_cell = game.view()["players"][me]["cell"]
        if any(cell != live_cell for _, cell in walks):
            break
        action = bot.choose(game.state, game.knowledge, game.legal())
        before = len(screen.log.lines)
        maze_show.perform(screen.table, action)
        if action[0] == "move" and len(action) > 1:
            rows = [before + i for i, line in enumerate(screen.log.lines[before:]) if line.msg == "maze.log.move.you"]
            assert rows, "the walk is in the log"
            walks.append((rows[0], action[-1]))
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    live_cell = game.view()["players"][me]["cell"]
    row, cell = next((r, c) for r, c in walks if c != live_cell)
    decisions = len(game.decisions)

    click_line(qtbot, screen, row)
    assert screen.moment is not None and screen.moment_bar.isVisible()
    assert screen.moment_bar.text() == tr("guide.moment", n=screen.line_entries[row] + 1)
    assert screen.table.view["players"][me]["cell"] == cell, "the pawn stands where that walk ended"
    assert screen.table.legal == [], "a past position offers nothing to do"
    assert screen.table.banner.text() == screen.log.lines[row].text(game.names)

    press_escape(qtbot, screen)
    assert screen.moment is None and not screen.moment_bar.isVisible()
    assert screen.table.view["players"][me]["cell"] == live_cell
    assert screen.table.legal == [tuple(a) for a in game.legal()]
    # The game goes on from the live table.
    maze_show.perform(screen.table, bot.choose(game.state, game.knowledge, game.legal()))
    assert len(game.decisions) == decisions + 1


def play_past_a_first_build(qtbot: Any, screen: Any, game: Any, turns: int) -> tuple[int, int, set[int]]:
    """Play System Launch until the System grew past the first build and new cards are known.

    Returns (the log row of "You build …", the System's size then, the cards known then).
    """
    me = game.human
    first_build: tuple[int, int, set[int]] | None = None
    for turn in range(turns):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
        if game.over() is not None:
            break
        grown = first_build is not None and len(game.view()["system"][me]) != first_build[1]
        if grown and first_build is not None and set(game.knowledge.cards) - first_build[2]:
            break
        action = preferred(game.legal(), turn)
        before = len(screen.log.lines)
        click_action(qtbot, screen, action)
        if first_build is None and action[0] == "build":
            row = next(before + i for i, ln in enumerate(screen.log.lines[before:]) if ln.msg == "log.build.you")
            first_build = (row, len(game.view()["system"][me]), set(game.knowledge.cards))
    assert first_build is not None, "the player built something"
    qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
    row, size, known = first_build
    assert len(game.view()["system"][me]) != size and set(game.knowledge.cards) - known, "the game moved on"
    return first_build


def test_a_system_launch_line_shows_the_rows_then_and_only_what_the_player_knew_then(qtbot, window):
    screen = window.start_local("system-launch", 3, seed=b"moments/launch")
    game = window.game
    me = game.human
    row, size, known = play_past_a_first_build(qtbot, screen, game, 40)

    click_line(qtbot, screen, row)
    assert screen.moment_bar.isVisible()
    assert len(screen.table.view["system"][me]) == size, "the System as it was after the first build"
    assert set(screen.table.knowledge.cards) <= known, "nothing learnt later is shown"
    assert screen.table.knowledge.seat == me

    qtbot.mouseClick(screen.moment_bar, Qt.MouseButton.LeftButton)  # the banner itself returns too
    assert screen.moment is None and len(screen.table.view["system"][me]) == len(game.view()["system"][me])


def test_a_networked_game_looks_back_at_what_this_seat_was_shown():
    """No record to rebuild: the position and this seat's knowledge as shown after each step are kept."""
    from client.play.local import LocalGame
    from client.table.moments import Moments

    local = LocalGame("system-launch", 3, b"moments/net", 0, ["A", "B", "C"])

    class Seat:  # the surface a networked game gives the screen
        entries = local.entries
        state = property(lambda self: local.state)
        knowledge = property(lambda self: local.knowledge)

    moments = Moments(Seat())
    shown: list[tuple[int, int, int]] = []  # (last entry, deck size then, cards known then)
    while len(shown) < 6:
        local.step() if not local.human_to_move() else local.act(local.legal()[0])
        moments.note()
        shown.append((len(local.entries) - 1, local.view()["deck"], len(local.knowledge.cards)))
    assert len({deck for _, deck, _ in shown}) > 1 and len({known for _, _, known in shown}) > 1
    for entry, deck, known in shown:
        moment = moments.at(entry)
        assert moment is not None and moment.view()["deck"] == deck
        assert len(moment.knowledge.cards) == known, "the knowledge of then, not of now"
    assert moments.at(len(local.entries)) is None


def test_looking_back_at_collective_conflict_never_shows_the_opponents_secrets():
    """The past position is drawn with the player's own knowledge then: the other Network's Decoy stays hidden."""
    from client.games.collective_conflict.showcase import player_bot
    from client.play.local import LocalGame
    from client.table.moments import Moments

    game = LocalGame("collective-conflict", 2, b"moments/cc", 0, ["A", "B"], bot_kind="random")
    mine = player_bot(game.seed, "random")
    while len(game.referee.truth.sealed) < 3 and game.over() is None:  # the bot's secret is on the board too
        game.step() if not game.human_to_move() else game.act(mine.choose(game.state, game.knowledge, game.legal()))
    secret = set(game.referee.truth.sealed) - set(game.knowledge.sealed)
    assert secret, "the opponent holds a secret the player does not know"
    moments = Moments.of_local(game)
    for entry in range(len(game.entries)):
        moment = moments.at(entry)
        assert moment is not None
        assert not set(moment.knowledge.sealed) & secret and not set(moment.knowledge.cards) & secret


def test_a_network_game_through_the_window_looks_back_at_what_this_seat_was_shown(qtbot, qloop, relay, tmp_path):
    """Over a real relay, against a bot that joined it: a log line shows the table as this seat saw it then."""
    from client.net.game import NetGame
    from tests.client.drive import choose_bot, kinds, make_window, open_room, stop_all

    window = make_window(qtbot, tmp_path, "Host")
    hosting = open_room(qtbot, window, relay.address, 2)
    choose_bot(window.lobby.room_panel, 1, "greedy")
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "bot"], timeout=5_000)
    qtbot.mouseClick(window.lobby.room_panel.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
    game, screen = window.game, window.game_screen
    assert isinstance(game, NetGame), "a network game, with no record to rebuild"
    me = game.human
    row, size, known = play_past_a_first_build(qtbot, screen, game, 60)

    click_line(qtbot, screen, row)
    assert screen.moment is not None and screen.moment_bar.isVisible()
    assert len(screen.table.view["system"][me]) == size, "the System as this seat saw it after the first build"
    assert set(screen.table.knowledge.cards) <= known, "nothing learnt later is shown"
    assert screen.table.legal == [], "a past position offers nothing to do"
    press_escape(qtbot, screen)
    assert screen.moment is None and len(screen.table.view["system"][me]) == len(game.view()["system"][me])
    stop_all(qtbot, [game])
