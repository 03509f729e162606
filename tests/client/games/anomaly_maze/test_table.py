"""Anomaly Maze in the desktop program: a whole game through the board, legal-only controls, the pause."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt

from client.games.anomaly_maze.present import MazeLogWriter, status_text
from client.games.anomaly_maze.showcase import clicks_for, find_combat_seed, in_combat_after_a_die, player_bot
from client.games.anomaly_maze.table import AnomalyMazeTable
from client.i18n import LANGUAGE, tr, tr_in
from client.screens.report import ReportScreen
from engines.anomaly_maze import board as geo
from engines.anomaly_maze.board import RESPAWN_TILES


def take(qtbot: Any, screen: Any, action: tuple[Any, ...]) -> None:
    """Take ``action`` by clicking the board's arrows, tiles and cells and the side buttons."""
    for widget, point in clicks_for(screen.table, action):
        assert widget.isVisible(), f"the control for {action} is hidden"
        if point is None:
            assert widget.isEnabled(), f"the button for {action} is disabled"
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=point)


def start_maze(qtbot: Any, window: Any, level: str = "easy") -> Any:
    lobby = window.lobby
    lobby.local.game.setCurrentIndex(lobby.local.game.findData("anomaly-maze"))
    assert lobby.local.start.isEnabled() and lobby.local.level.isVisible()
    assert [lobby.local.level.itemData(i) for i in range(lobby.local.level.count())] == ["easy", "normal", "hard"]
    lobby.local.level.setCurrentIndex(lobby.local.level.findData(level))
    assert lobby.local.players.value() == 2 and lobby.local.players.maximum() == 2
    qtbot.mouseClick(lobby.local.start, Qt.MouseButton.LeftButton)
    assert window.game is not None and window.game.game == "anomaly-maze"
    assert isinstance(window.game_screen.table, AnomalyMazeTable)
    return window.game


def test_whole_game_against_the_ai_from_lobby_to_report(qtbot, window):
    game = start_maze(qtbot, window, "easy")
    assert game.bot_kind == "easy" and game.names[0] == "Tester"
    assert game.names[1] == tr("maze.ai_name", level=tr("level.easy"))
    ai = game.bots[1]
    screen = window.game_screen
    me = game.human
    bot = player_bot(game.seed)
    decisions, kinds = 0, set()
    while game.over() is None:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        action = bot.choose(game.state, game.knowledge, game.legal())
        before = len(game.decisions)
        take(qtbot, screen, action)
        assert game.decisions[before] == (me, tuple(action)), "the clicks took exactly the chosen action"
        kinds.add(action[0])
        decisions += 1
        assert decisions < 600, "the game did not end"
    assert game.bots[1] is ai, "one AI object plays the whole game"
    assert "move" in kinds
    assert kinds & {"shift", "rotate"}
    over = game.over()
    log = screen.log.texts()
    assert log[-1] == tr("log.over")
    if over.winners:
        assert (
            game.names[over.winners[0]] in screen.table.banner.text()
            or tr("maze.you_win") in screen.table.banner.text()
        )
    assert screen.table.report_button.isVisible()
    qtbot.mouseClick(screen.table.report_button, Qt.MouseButton.LeftButton)
    report = window.stack.currentWidget()
    assert isinstance(report, ReportScreen)
    assert report.reason.text() == tr(f"report.reason.{over.reason}")
    view = game.view()
    for seat, (_, row) in enumerate(report.rows):
        assert row.text() == tr(
            "maze.report.row", mp=view["players"][seat]["mp"], hp=max(0, view["players"][seat]["hp"])
        )
    # The replay of the finished game shows the board and offers nothing.
    qtbot.mouseClick(report.replay_button, Qt.MouseButton.LeftButton)
    replay = window.replay
    assert replay is not None and isinstance(replay.table, AnomalyMazeTable)
    replay.show_frame(len(replay.replay.frames) // 2)
    assert replay.table.legal == [] and not replay.table.board.offered_shifts()
    assert not any(b.isVisible() for b in replay.table.buttons.values())
    assert not replay.full.isVisible(), "nothing in the maze is secret: no hidden view to unlock"


def test_only_legal_shifts_rotations_and_moves_are_offered(qtbot, window):
    game = start_maze(qtbot, window, "easy")
    screen, table, board = window.game_screen, window.game_screen.table, window.game_screen.table.board
    bot = player_bot(game.seed)
    seen = set()
    for _ in range(40):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        legal = {tuple(a) for a in game.legal()}
        phase = game.view()["phase"]
        seen.add(phase)
        history = len(game.history)
        if phase == "anomaly":
            assert board.offered_shifts() == {a[1:] for a in legal if a[0] == "shift"}
            rotatable = board.rotatable_cells()
            assert rotatable == {a[1] for a in legal if a[0] == "rotate"}
            assert not rotatable & set(RESPAWN_TILES), "a Respawn is never offered for rotation"
            # A click on a Respawn picks nothing; a picked tile's previews confirm only legal turns.
            qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(geo.RESPAWNS[0]))
            assert board.selected is None and not table.buttons["confirm"].isVisible()
            cell = min(rotatable)
            for turns in (1, 2, 3, 0):
                qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(cell))
                assert board.selected == cell and board.preview == turns
                assert table.buttons["confirm"].isEnabled() == (("rotate", cell, turns) in legal)
            qtbot.mouseClick(table.buttons["cancel"], Qt.MouseButton.LeftButton)
            assert board.selected is None
        elif phase == "move":
            paths = {a[1:] for a in legal}
            assert {p for p in board.move_paths()} == paths
            assert board.reachable_cells() == {p[-1] for p in paths if p}
            for path in [p for p in sorted(paths, key=len) if p][-3:]:
                for c in path:
                    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(c))
                assert board.route == path, "clicking a legal path cell by cell plans exactly that path"
                assert table.buttons["go"].isEnabled()
                qtbot.mouseClick(table.buttons["clear"], Qt.MouseButton.LeftButton)
                assert board.route == ()
            unreachable = [c for c in range(geo.CELLS) if c not in board.reachable_cells() and c != board.my_cell()]
            if unreachable:
                qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.cell_center(unreachable[0]))
                assert board.route == ()
        elif phase == "combat":
            assert table.buttons["attack"].isVisible() == (("attack",) in legal)
            assert table.buttons["no_attack"].isEnabled() == (("no-attack",) in legal)
        # Nothing above was a move: the game waits for the same decision.
        assert len(game.history) == history and game.human_to_move()
        # A click outside the board and its arrows does nothing either.
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))
        assert len(game.history) == history
        take(qtbot, screen, bot.choose(game.state, game.knowledge, game.legal()))
    assert {"anomaly", "move"} <= seen


def test_rules_opened_mid_game_are_a_pause(qtbot, window):
    window.settings.bot_delay_ms = 30
    window.lobby.local.level.setCurrentIndex(0)
    window.start_local("anomaly-maze", 2, seed=b"maze-rules-pause", level="easy")
    game, screen = window.game, window.game_screen
    qtbot.waitUntil(lambda: len(game.history) > 30, timeout=10_000)
    qtbot.mouseClick(screen.rules_button, Qt.MouseButton.LeftButton)
    dialog = window.rules
    assert dialog is not None and dialog.isVisible() and dialog.current_game() == "anomaly-maze"
    before_hash, before_len = game.state.hash(), len(game.history)
    qtbot.wait(400)  # many bot steps' worth of time
    assert game.state.hash() == before_hash and len(game.history) == before_len
    assert not screen.timer.isActive()
    board = screen.table.board
    if game.human_to_move():  # clicks on the board or the buttons are not moves while paused
        for action in game.legal()[:3]:
            for widget, point in clicks_for(screen.table, tuple(action)):
                if point is None:
                    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
                else:
                    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=point)
            board.cancel()
    assert game.state.hash() == before_hash and len(game.history) == before_len
    dialog.close()
    qtbot.waitUntil(lambda: window.rules is None)
    bot = player_bot(game.seed)
    for _ in range(3):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        if game.over() is not None:
            break
        take(qtbot, screen, bot.choose(game.state, game.knowledge, game.legal()))
    assert len(game.history) > before_len, "after the rules close, the same game goes on"


def test_the_die_rolls_with_an_animation_and_settles_on_the_rolled_face(qtbot, window):
    window.settings.bot_delay_ms = 250
    seed = find_combat_seed()
    window.start_local("anomaly-maze", 2, seed=seed, level="easy")
    game, screen = window.game, window.game_screen
    bot = player_bot(seed)
    while True:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
        assert game.over() is None, "the seed was chosen so that the player attacks"
        action = bot.choose(game.state, game.knowledge, game.legal())
        take(qtbot, screen, action)
        if action == ("attack",):
            break
    dice = screen.table.dice
    rolled = [e[2] for e in game.view()["events"] if e[0] == "die"][-1]
    assert dice.isVisible() and dice.rolling, "the newest die is still rolling"
    news = screen.last_line.text(game.names)
    assert screen.table.banner.text() != news, "the result waits for the die to settle"
    qtbot.waitUntil(lambda: not dice.rolling, timeout=5_000)
    assert dice.faces[-1] == rolled
    assert screen.table.banner.text() == news
    assert in_combat_after_a_die(game) or game.view()["turn"] != game.human or game.over() is not None


def test_respawn_countdown_blocking_and_blacksaw_in_words():
    writer = MazeLogWriter(0, 2)
    names = ["Ann", "AI"]
    texts = [
        line.text(names)
        for e in (
            ("eliminated", 0, "combat", 1),
            ("turn-missed", 0, 1),
            ("respawn-blocked", 0, 1),
            ("respawn-blocked", 0, 2),
            ("blacksaw", 0, 1),
            ("eliminated", 1, "blacksaw", -1),
            ("respawn", 0, 42),
        )
        for line in writer.event_lines(e)
    ]
    assert texts == [
        tr("maze.log.out.combat", name="Ann", scorer="AI", mp=1),
        tr("maze.log.missed", name="Ann", n=1),
        tr("maze.log.blocked.1", name="Ann"),
        tr("maze.log.blocked.2", name="Ann"),
        tr("maze.log.blacksaw", name="Ann"),
        tr("maze.log.out.blacksaw", name="AI"),
        tr("maze.log.respawn", name="Ann", cell="G1"),
    ]
    off = {"on_board": False, "countdown": 2, "blocked": 0, "blocking": False}
    assert status_text(off) == tr("maze.off", n=2)
    assert status_text({**off, "countdown": 0, "blocked": 2}) == tr("maze.off.ready") + "\n" + tr("maze.blocked", n=2)
    assert status_text({"on_board": True, "countdown": 0, "blocked": 0, "blocking": True}) == tr("maze.blocking")


def test_the_table_speaks_polish_and_russian(qtbot, window):
    game = start_maze(qtbot, window, "normal")
    screen = window.game_screen
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    phase = game.view()["phase"]
    hint = {"anomaly": "maze.hint.anomaly", "move": "maze.hint.move"}[phase]
    for code in ("pl", "ru", "en"):
        LANGUAGE.set(code)
        assert screen.table.hint.text() == tr_in(code, hint)
        assert screen.table.status.text().endswith(tr_in(code, f"maze.phase.{phase}"))
        assert screen.table.cards[0].texts()[2] == tr_in(code, "maze.mp", mp=0, win=15)
    assert tr_in("pl", hint) != tr_in("en", hint) != tr_in("ru", hint)


def test_screenshots_include_the_maze_mid_game_and_mid_combat(tmp_path):
    from PySide6.QtGui import QImage

    from client.tools import screenshots

    assert screenshots.main([str(tmp_path)]) == 0
    for name in ("11-maze-mid-game", "12-maze-mid-combat"):
        image = QImage(str(tmp_path / f"{name}.png"))
        assert not image.isNull() and image.width() >= 1000 and image.height() >= 700, name


def test_blocking_and_the_respawn_show_on_the_cards_the_board_and_in_a_flash(qtbot):
    from engines.anomaly_maze.state import AnomalyMazeState
    from engines.core import Knowledge, Referee

    referee = Referee(AnomalyMazeState(), b"maze-blocking-view")
    while referee.resolve_table():
        pass
    state = referee.state
    table = AnomalyMazeTable(2, ["Ann", "AI"])
    qtbot.addWidget(table)
    table.resize(1100, 760)
    table.show()
    table.show_view(state.view(Knowledge(0)), Knowledge(0), delay_ms=600)
    # Player 2 is off the board with two blocked attempts; player 1 stands on player 2's Respawn.
    state.pos[1], state.countdown[1], state.blocks[1] = None, 0, 2
    state.pos[0] = geo.RESPAWNS[1]
    state._event("respawn-blocked", 1, 2)
    table.show_view(state.view(Knowledge(0)), Knowledge(0), delay_ms=600)
    assert tr("maze.blocked", n=2) in table.cards[1].texts()[-1]
    assert table.cards[0].texts()[-1] == tr("maze.blocking")
    assert table.board.overlay is not None and table.board.overlay[0] == tr("maze.blocked", n=2)
    qtbot.waitUntil(lambda: table.board.overlay is None, timeout=5_000)
    state._event("blacksaw", 1, 0)
    state._event("respawn", 1, geo.RESPAWNS[1])
    state.pos[1], state.pos[0] = geo.RESPAWNS[1], None
    table.show_view(state.view(Knowledge(0)), Knowledge(0), delay_ms=0)
    assert table.board.overlay is not None and table.board.overlay[0] == tr("maze.respawn_banner")
    assert len(table.cards[1].texts()) == 4, "back on the board: no countdown, no blocking line"
    assert table.cards[0].texts()[-1] == tr("maze.off.ready")


def test_leaving_forfeits_and_the_saved_game_replays(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from client.play import local_file

    game = start_maze(qtbot, window, "easy")
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(window.game_screen.leave_button, Qt.MouseButton.LeftButton)
    over = game.over()
    assert over is not None and over.winners == (1,) and over.reason == "forfeit"
    assert tr("maze.log.forfeit.you") in window.game_screen.log.texts()  # the player's own leaving, spoken to them
    report = window.show_report()
    assert report.reason.text() == tr("report.reason.forfeit")
    path = local_file.save(game, tmp_path / "maze.sealed")
    viewer = window.open_replay_file(path)
    assert viewer is not None and isinstance(viewer.table, AnomalyMazeTable)
    assert viewer.replay.frames[-1].state.hash() == game.state.hash()


def test_every_event_of_a_whole_game_has_words_in_every_language():
    from client.i18n.translations import declarations
    from client.play.local import LocalGame

    CATALOGUE = declarations()

    game = LocalGame("anomaly-maze", 2, b"maze-words", 0, ["Ann", "AI"], bot_kind="easy")
    me = player_bot(game.seed)
    while game.over() is None:
        if game.human_to_move():
            game.act(me.choose(game.state, game.knowledge, game.legal()))
        else:
            game.step()
    writer = MazeLogWriter(0, 2)
    lines = [line for entry in game.entries for line in writer.lines(entry, game.knowledge)]
    kinds = {e[0] for entry in game.entries for e in entry.events}
    assert {"turn", "move", "key-placed", "chest-placed"} <= kinds
    assert lines and all(line.msg in CATALOGUE for line in lines), {line.msg for line in lines} - set(CATALOGUE)
    for code in ("en", "pl", "ru"):
        LANGUAGE.set(code)
        assert all("{" not in line.text(["Ann", "AI"]) for line in lines), "every field is filled"
    LANGUAGE.set("en")
