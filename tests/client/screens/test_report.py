"""The report's headline says what happened at the table: a shared draw is nobody's win."""

from __future__ import annotations

import pytest

from client.i18n import LANGUAGE, tr
from client.screens.report import ReportScreen, Verdict
from engines.core import GameOver, Knowledge, registry


def _report(qtbot, game: str, players: int, over: GameOver, human: int | None = 0) -> ReportScreen:
    state = registry.get(game).new_state(players, {})
    names = ["Ada", "Boris", "Cyril", "Dmitri"][:players]
    screen = ReportScreen(f"game.{game}", names, human, over, state.view(Knowledge(None)), 0, Verdict("local"))
    qtbot.addWidget(screen)
    return screen


@pytest.mark.parametrize("language", ["en", "pl", "ru"])
def test_a_shared_draw_is_reported_as_a_draw_not_a_win(qtbot, language):
    LANGUAGE.set(language)
    try:
        over = GameOver((1, 3), "the last Networks collapsed together: shared draw")
        screen = _report(qtbot, "collective-conflict", 4, over)
        text = screen.headline.text()
        assert text == tr("report.shared_draw", names="Boris, Dmitri")
        assert tr("report.winner_plain", name="Boris") != text
    finally:
        LANGUAGE.set("en")


def test_the_player_in_a_shared_draw_is_named_as_you(qtbot):
    over = GameOver((0, 2), "the last Networks collapsed together: shared draw")
    screen = _report(qtbot, "collective-conflict", 3, over)
    assert screen.headline.text() == "A shared draw: Ada (you), Cyril."


def test_a_single_winner_is_still_named(qtbot):
    screen = _report(qtbot, "collective-conflict", 3, GameOver((2,), "surrounded"))
    assert screen.headline.text() == tr("report.winner_plain", name="Cyril")


def test_the_report_counts_the_players_actions_not_the_dealing(qtbot, window):
    from engines.core.state import TABLE
    from tests.client.drive import play_to_end

    window.start_local("system-launch", 3, seed=b"count-actions")
    play_to_end(qtbot, window)
    report = window.show_report()
    history = window.game.history
    decisions = sum(1 for seat, _ in history if seat != TABLE)
    assert decisions < len(history), "the game had dealing steps"
    assert report.action_count == decisions
    assert report.stats.text().startswith(f"{decisions} ")


@pytest.mark.parametrize("game", ["collective-conflict", "anomaly-maze"])
@pytest.mark.parametrize(
    ("language", "words"), [("en", ("card", "hand")), ("pl", ("kart", "ręk")), ("ru", ("карт", "рук"))]
)
def test_reports_of_games_without_cards_speak_of_no_cards(qtbot, game, language, words):
    LANGUAGE.set(language)
    try:
        players = 2
        screen = _report(qtbot, game, players, GameOver((0,), "forfeit"))
        for verdict in (Verdict("local"), Verdict("fair"), Verdict("pending")):
            screen.set_verdict(verdict)
            text = screen.verdict_text.text().casefold()
            assert not any(w in text for w in words), text
    finally:
        LANGUAGE.set("en")


def test_after_the_maze_game_no_new_mission_is_announced(qtbot):
    from client.games.anomaly_maze.table import AnomalyMazeTable
    from client.play.local import LocalGame

    game = LocalGame("anomaly-maze", 2, b"over-mission", 0, ["Me", "AI"], bot_kind="easy")
    game.act(game.legal()[0]) if game.human_to_move() else game.step()
    game.forfeit_human()
    table = AnomalyMazeTable(2, game.names)
    qtbot.addWidget(table)
    table.show_view(game.view(), game.knowledge, ())
    for card in table.cards:
        assert tr("maze.key.none") not in card.texts()
        assert tr("maze.key.over") in card.texts()


def test_the_first_players_first_draw_is_in_the_system_launch_log(qtbot):
    from client.games.system_launch.present import LogWriter
    from client.play.local import LocalGame

    game = LocalGame("system-launch", 3, b"first-draw", 0, ["Ada", "Boris", "Cyril"])
    writer = LogWriter(0, 3)
    lines = []
    while game.over() is None and not any(line.msg == "log.dealt" for line in lines):
        entries = game.act(game.legal()[0]) if game.human_to_move() else game.step()
        lines += [line for entry in entries for line in writer.lines(entry, game.knowledge)]
    first = game.view()["first"]
    while game.over() is None and not any(line.msg == "log.build" or line.msg == "log.pass" for line in lines):
        entries = game.act(game.legal()[0]) if game.human_to_move() else game.step()
        lines += [line for entry in entries for line in writer.lines(entry, game.knowledge)]
    after = lines[[line.msg for line in lines].index("log.dealt") + 1 :]
    draws = [line for line in after if line.msg in ("log.draw", "log.draw_you")]
    assert draws, [line.msg for line in after]
    drawer = draws[0].seats[0][1] if draws[0].seats else 0
    assert drawer == first, "the first draw after the opening is the first player's own"
    assert [line.numbers for line in lines if line.msg == "log.dealt"] == [(("count", 4),)]
