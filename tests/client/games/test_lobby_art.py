"""The lobby's picture is the chosen game's own (not the card fan for every game)."""

from __future__ import annotations

from client.games.anomaly_maze.lobby_art import MazeArt
from client.games.collective_conflict.lobby_art import StructureArt
from client.games.system_launch.widgets import CardFan


def test_the_lobby_shows_the_chosen_games_picture(qtbot, window):
    lobby = window.lobby
    seen = {}
    for game, kind in (("anomaly-maze", MazeArt), ("collective-conflict", StructureArt), ("system-launch", CardFan)):
        lobby.local.game.setCurrentIndex(lobby.local.game.findData(game))
        current = lobby.local.art.currentWidget()
        assert isinstance(current, kind), (game, type(current))
        assert current.isVisible()
        seen[game] = current.grab().toImage()
    assert seen["anomaly-maze"] != seen["collective-conflict"] != seen["system-launch"]
