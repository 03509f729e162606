"""Honest games over the simulated network end fair, for every player count; every pending kind is used."""

from __future__ import annotations

from collections import Counter

import pytest

from protocol.envelope import parse
from protocol.sim.network import play, simulate


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_honest_toy_games_are_fair_and_agree(players):
    for index in range(2):
        run = play("toy", players, f"honest/{players}/{index}".encode())
        assert run.agreed() == "fair", run.verdicts


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_honest_system_launch_is_fair(players):
    run = play("system-launch", players, f"sl/{players}".encode())
    assert run.agreed() == "fair", run.verdicts
    assert run.entries > 4 * players


def test_the_toy_game_uses_every_entry_type():
    seen: Counter[str] = Counter()
    for index in range(6):
        for data in play("toy", 3, f"kinds/{index}".encode()).log:
            seen[parse(data).type] += 1
    expected = {"genesis", "seed-commit", "seed-reveal", "action", "reveal", "chance-commit", "chance-reveal"}
    expected |= {"shuffle", "lock", "keys", "deliver", "secrets"}
    assert expected <= set(seen), seen


def test_simulation_is_deterministic_and_summarised():
    a = simulate("toy", 3, 2, "det")
    b = simulate("toy", 3, 2, "det")
    assert a["digest"] == b["digest"] and a["verdicts"] == {"fair": 2}
    assert simulate("toy", 3, 2, "other")["digest"] != a["digest"]
    assert set(a) >= {"game", "players", "games", "verdicts", "digest", "seconds"}
