"""The report's headline says what happened at the table: a shared draw is nobody's win."""

from __future__ import annotations

import pytest

from client.i18n import LANGUAGE, tr
from client.report import ReportScreen, Verdict
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
    from client_drive import play_to_end

    from engines.core.state import TABLE

    window.start_local("system-launch", 3, seed=b"count-actions")
    play_to_end(qtbot, window)
    report = window.show_report()
    history = window.game.history
    decisions = sum(1 for seat, _ in history if seat != TABLE)
    assert decisions < len(history), "the game had dealing steps"
    assert report.actions == decisions
    assert report.stats.text().startswith(f"{decisions} ")
