"""Bots never take a person's name (a player called Ada must not meet a bot called Ada)."""

from __future__ import annotations

import pytest

from client.games.kit import kit_for, names_for_bots
from client.i18n import LANGUAGE, tr
from client.store.settings import Settings


@pytest.mark.parametrize(("game", "players"), [("system-launch", 6), ("collective-conflict", 10), ("anomaly-maze", 2)])
def test_no_bot_in_a_local_game_shares_the_players_name(qtbot, window, game, players):
    kit = kit_for(game)
    first_bot = names_for_bots(kit, kit.default_level, 1, taken=[])[0]
    window.settings = Settings(name=first_bot, bot_delay_ms=0, players=players)
    window.start_local(game, players, seed=b"names")
    names = window.game.names
    assert names[0] == first_bot
    assert len({n.casefold() for n in names}) == players, names


def test_names_are_numbered_when_the_kit_runs_short(qtbot):
    kit = kit_for("anomaly-maze")  # one name per level
    names = names_for_bots(kit, kit.default_level, 3, taken=[])
    assert len(set(names)) == 3 and names[1] == f"{names[0]} 2"


@pytest.mark.parametrize("language", ["pl", "ru"])
def test_a_clash_is_caught_whatever_the_case_and_language(qtbot, language):
    LANGUAGE.set(language)
    try:
        kit = kit_for("system-launch")
        pool = [n.strip() for n in tr("bot.names").split(",")]
        names = names_for_bots(kit, kit.default_level, 5, taken=[pool[0].upper()])
        assert pool[0] not in names and len(set(names)) == 5
    finally:
        LANGUAGE.set("en")


def test_system_launch_offers_its_bot_levels_and_plays_the_chosen_one(qtbot, window):
    lobby = window.lobby
    lobby.local.game.setCurrentIndex(lobby.local.game.findData("system-launch"))
    levels = [lobby.local.level.itemData(i) for i in range(lobby.local.level.count())]
    assert levels == ["random", "greedy", "memory"] and lobby.local.level.currentData() == "greedy"
    lobby.local.level.setCurrentIndex(lobby.local.level.findData("memory"))
    lobby.local.start.click()
    assert window.game.bot_kind == "memory"
    assert type(next(iter(window.game.bots.values()))).__name__ == "MemoryBot"
