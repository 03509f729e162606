"""The log speaks to the player: their own actions read "You …", other seats by name.

Each game is played through the real table by clicks; after the player's own action the log's
new lines include one spoken to them, in every language, and differing from the third-person line
the other seats read.  A spectator (the replay's public view) reads every line in the third person.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from client.games.anomaly_maze import showcase as maze_show
from client.games.collective_conflict import showcase as cc_show
from client.i18n import LANGUAGE, tr
from client.table.voice import YOU, second_person
from tests.client.drive import click_action, preferred


def _take(qtbot: Any, screen: Any, game: Any, action: tuple[Any, ...]) -> None:
    if game.game == "system-launch":
        click_action(qtbot, screen, action)
    elif game.game == "anomaly-maze":
        maze_show.perform(screen.table, action)
    else:
        cc_show.perform(screen.table, action)


def _choice(game: Any, turn: int) -> tuple[Any, ...]:
    legal = game.legal()
    if game.game == "system-launch":
        return preferred(legal, turn)
    if game.game == "anomaly-maze":
        return maze_show.player_bot(game.seed).choose(game.state, game.knowledge, legal)
    return cc_show.player_bot(game.seed, "random").choose(game.state, game.knowledge, legal)


def _third_person(line: Any) -> Any:
    return dataclasses.replace(line, msg=line.msg.split(YOU)[0])


GAMES = [("system-launch", 3), ("anomaly-maze", 2), ("collective-conflict", 2)]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_players_own_action_reads_you_in_every_language(qtbot, window, game_id, players):
    screen = window.start_local(game_id, players, seed=f"voice/{game_id}".encode())
    game = window.game
    names = game.names
    spoken: list[Any] = []
    for turn in range(6):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=10_000)
        before = len(screen.log.lines)
        decided = len(game.decisions)
        _take(qtbot, screen, game, _choice(game, turn))
        assert game.decisions[decided][0] == game.human, "the clicks took the player's action"
        fresh = screen.log.lines[before:]
        spoken = [line for line in fresh if line.msg.endswith(YOU) and line.seats[0][1] == game.human]
        if spoken:
            break
    assert spoken, "no line of the player's own action reads in the second person"
    line = spoken[0]
    english = line.text(names)
    assert english.startswith("You") or "your" in english.lower(), english
    assert names[game.human] not in english.split(":")[0] or game_id == "collective-conflict"
    assert english in screen.log.texts()
    for code in ("pl", "ru"):
        LANGUAGE.set(code)
        assert line.text(names) != _third_person(line).text(names), code
        assert line.text(names) != english, f"{code} is not translated"
    LANGUAGE.set("en")
    if game_id == "collective-conflict":  # the Network letter stays: the colour-blind cue
        assert f"({'AB'[game.human]})" in english


def test_other_seats_stay_named_and_a_spectator_reads_the_third_person():
    from client.games.system_launch.present import LogLine

    line = LogLine("log.build", seats=(("name", 1),), cards=(("card", 0),))
    assert second_person(line, 0) == line
    assert second_person(line, None) == line
    assert second_person(line, 1).msg == "log.build.you"
    aimed = LogLine("log.play", seats=(("name", 1), ("target", 0)), cards=(("card", 0),))
    spoken = second_person(aimed, 0)
    assert spoken.msg == "log.play.you_target"
    assert "Boris" in spoken.text(["Me", "Boris"]) and "Me" not in spoken.text(["Me", "Boris"])


def test_the_launch_banner_says_you_when_the_player_launches():
    from client.games.kit import kit_for
    from engines.core import GameOver

    over = GameOver(winners=(0,), reason="system launched")
    banner = kit_for("system-launch").over_banner(over, ["Ada", "Boris"], 0)
    assert tr("table.launched_by.you") in banner and "Ada" not in banner
    assert "Ada" in kit_for("system-launch").over_banner(over, ["Ada", "Boris"], 1)


def test_the_replay_is_spoken_in_the_third_person(qtbot, window):
    window.start_local("anomaly-maze", 2, seed=b"voice/replay")
    game = window.game
    screen = window.game_screen
    qtbot.waitUntil(lambda: game.human_to_move(), timeout=10_000)
    _take(qtbot, screen, game, _choice(game, 0))
    assert any(line.msg.endswith(YOU) for line in screen.log.lines)
    from client.play.local_file import record_of
    from client.play.replays import Replay
    from client.screens.replay import ReplayScreen

    replay = ReplayScreen(Replay(record_of(game)))
    qtbot.addWidget(replay)
    replay.show_frame(replay.last)
    assert not any(YOU in line.msg for line in replay.log.lines)
