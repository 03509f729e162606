"""The game registry's words: how many players a game is for, an unknown game or bot, each game's own bot."""

from __future__ import annotations

import pytest

from engines.core import registry


def test_a_game_for_one_number_of_players_says_that_number() -> None:
    assert registry.players_text(registry.get("anomaly-maze")) == "for 2 players"
    assert registry.players_text(registry.get("system-launch")) == "for 2–6 players"


def test_an_unknown_game_is_one_sentence_that_names_it_and_the_known_ones() -> None:
    with pytest.raises(KeyError) as err:
        registry.get("system-lanch")
    assert str(err.value) == (
        "there is no game 'system-lanch'; the games are anomaly-maze, collective-conflict, system-launch"
    )


def test_an_unknown_bot_is_one_sentence_that_names_it_and_the_games_own() -> None:
    spec = registry.get("anomaly-maze")
    with pytest.raises(KeyError) as err:
        registry.bot(spec, "greedy")
    assert str(err.value) == "Anomaly Maze has no bot 'greedy'; its bots are random, easy, normal, hard"
    assert registry.bot(spec, "easy") is spec.bots["easy"]


@pytest.mark.parametrize("game", registry.names())
def test_every_game_names_a_default_bot_it_has(game: str) -> None:
    spec = registry.get(game)
    assert spec.default_bot in spec.bots
