"""A whole game on Aedes, a second broker implementation (Node): it sends a subscriber its own
non-retained marker before the retained messages, so nothing may rely on that order."""

from __future__ import annotations

from pathlib import Path

import pytest
from relay_helpers import BrokerProcess, start_table
from test_games import finished_fair


@pytest.mark.timeout(120)
def test_a_whole_game_on_aedes(aedes_relay: BrokerProcess, tmp_path: Path) -> None:
    table = start_table(aedes_relay.address, tmp_path, players=3)
    try:
        codes = table.wait(90)
    finally:
        table.kill_all()
    finished_fair(table, codes)
    logs = {(tmp_path / f"peer{i}" / "game.sealed").read_bytes() for i in range(3)}
    assert len(logs) == 1
