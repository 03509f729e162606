"""Every cheat in the catalogue is caught by every honest peer, naming the cheater's seat."""

from __future__ import annotations

import pytest

from protocol.sim.cheats.catalogue import CATALOGUE, staged_kind
from protocol.sim.network import classify, play

CASES = [
    (cheat, game, players, cheater)
    for cheat in CATALOGUE
    for game, players, cheater in (
        ("toy", 3, 1),
        ("system-launch", 3, 2),
    )
]


@pytest.mark.parametrize(("cheat", "game", "players", "cheater"), CASES)
def test_cheat_is_caught_and_attributed(cheat, game, players, cheater):
    run = play(game, players, f"cheat/{cheat}".encode(), cheat, cheater)
    assert len(run.verdicts) == players - 1
    for seat, verdict in run.verdicts.items():
        assert verdict is not None and not verdict.fair, (seat, verdict)
        assert verdict.seat == cheater, (seat, verdict)
        assert classify(verdict) == f"{staged_kind(cheat)} by seat {cheater}", verdict


def test_a_cheater_at_seat_zero_is_named_too():
    run = play("toy", 2, b"cheat/seat0", "false-state-hash", 0)
    assert {v.seat for v in run.verdicts.values()} == {0}


@pytest.mark.parametrize("index", range(3))
def test_equivocation_is_not_blamed_on_the_next_writer(index):
    # Peers that applied the other version must not call the next seat's entry a broken chain.
    run = play("system-launch", 4, f"equivocate/{index}".encode(), "equivocation", 1 + index)
    assert run.agreed() == f"equivocation by seat {1 + index}", run.verdicts
