"""The first-game guide: a few steps taught by playing, ringing what to click, skippable, remembered."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QWidget

from client.games.anomaly_maze import showcase as maze_show
from client.i18n import LANGUAGE, tr
from client.store import settings as settings_mod
from client.ui.guide import GuideBar, GuideStep


def _step_text(bar: Any) -> str:
    step = bar.step
    return tr("guide.step", k=bar.index + 1, n=len(bar.steps), text=tr(step.text))


def _ringed(bar: Any, widget: Any) -> bool:
    """A visible ring lies around ``widget``."""
    top_left = widget.mapTo(bar.table, widget.rect().topLeft())
    area = QRect(top_left, widget.size())
    return any(r.isVisible() and r.geometry().contains(area) for r in bar.rings)


def _play_one(qtbot: Any, game: Any, screen: Any, bot: Any) -> tuple[Any, ...]:
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    action = bot.choose(game.state, game.knowledge, game.legal())
    maze_show.perform(screen.table, action)
    return tuple(action)


def test_the_maze_guide_teaches_a_turn_by_playing_and_is_remembered(qtbot, window, private_config):
    screen = window.start_local("anomaly-maze", 2, seed=b"guide/maze", level="easy")
    game, bar = window.game, screen.guide_bar
    assert bar is not None and bar.isVisible()
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    assert bar.text.text() == _step_text(bar) and bar.step.text == "guide.maze.anomaly"
    assert _ringed(bar, screen.table.board), "the board, where the arrows are, is ringed"
    LANGUAGE.set("pl")
    assert bar.text.text() == _step_text(bar) and bar.skip_button.text() == tr("guide.skip")
    LANGUAGE.set("en")

    bot = maze_show.player_bot(game.seed)
    taught = []
    while bar.step is not None:
        step = bar.step.text
        action = _play_one(qtbot, game, screen, bot)
        taught.append((step, action[0]))
        assert len(taught) < 10, "the guide never ended"
    assert taught[0] == ("guide.maze.anomaly", taught[0][1]) and taught[0][1] in ("shift", "rotate")
    assert ("guide.maze.walk", "move") in taught
    assert not bar.isVisible() and not any(r.isVisible() for r in bar.rings)
    assert "anomaly-maze" in window.settings.guides_done
    assert "anomaly-maze" in settings_mod.load(private_config).guides_done, "remembered on disk"

    again = window.start_local("anomaly-maze", 2, seed=b"guide/maze2", level="easy")
    assert again.guide_bar is None, "a guide done is not shown again"


def test_the_guide_can_be_skipped_and_the_game_goes_on(qtbot, window, private_config):
    screen = window.start_local("anomaly-maze", 2, seed=b"guide/skip", level="easy")
    game, bar = window.game, screen.guide_bar
    qtbot.mouseClick(bar.skip_button, Qt.MouseButton.LeftButton)
    assert not bar.isVisible() and "anomaly-maze" in settings_mod.load(private_config).guides_done
    decisions = len(game.decisions)
    _play_one(qtbot, game, screen, maze_show.player_bot(game.seed))
    assert len(game.decisions) == decisions + 1


def test_a_player_who_knows_the_way_jumps_ahead(qtbot):
    steps = [GuideStep("a", frozenset({"x"})), GuideStep("b", frozenset({"y"})), GuideStep("c")]
    table = QWidget()
    qtbot.addWidget(table)
    bar = GuideBar(steps, table, table)
    done: list[bool] = []
    bar.finished.connect(done.append)
    bar.took(("y",))
    assert bar.index == 2, "the later step the action asks for is done, the earlier ones with it"
    bar.took(("z",))
    assert bar.step is None and done == [True]


FIRST_STEPS = [("system-launch", 3, "guide.sl.build"), ("collective-conflict", 2, "guide.cc.place")]


@pytest.mark.parametrize(("game_id", "players", "first"), FIRST_STEPS)
def test_every_games_guide_rings_its_first_step_and_ends_by_playing(
    qtbot, window, private_config, game_id, players, first
):
    from client.games.collective_conflict import showcase as cc_show
    from tests.client.drive import click_action, preferred

    screen = window.start_local(game_id, players, seed=f"guide/{game_id}".encode())
    game, bar = window.game, screen.guide_bar
    assert bar is not None and bar.step.text == first
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    assert any(r.isVisible() for r in bar.rings), "something to click is ringed"
    cc_bot = cc_show.player_bot(game.seed)
    seen = []
    for turn in range(80):
        if bar.step is None:
            break
        seen.append(bar.step.text)
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        assert game.over() is None, "the game ended before the guide"
        if game_id == "system-launch":
            click_action(qtbot, screen, preferred(game.legal(), turn))
        else:
            cc_show.perform(screen.table, cc_bot.choose(game.state, game.knowledge, game.legal()))
    assert bar.step is None, f"the guide is still at {seen[-1]}"
    assert seen[0] == first and len(set(seen)) >= 2
    assert game_id in settings_mod.load(private_config).guides_done
