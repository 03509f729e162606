"""The headless demo (what ``sealed-table`` runs without a display) plays a real networked game."""

from __future__ import annotations

import asyncio

from client.headless.demo import run_demo
from client.store import kept_seats
from protocol.__main__ import main as protocol_main


def test_headless_demo_plays_a_fair_game_on_an_embedded_relay(tmp_path, capsys):
    assert asyncio.run(run_demo("system-launch", 3, "greedy", tmp_path)) == 0
    out = capsys.readouterr().out
    assert out.count("verdict: fair") == 3
    hashes = {line for line in out.splitlines() if line.startswith("final state hash")}
    assert len(hashes) == 1
    assert protocol_main(["verify", str(tmp_path / "seat0" / "game.sealed")]) == 0
    # Each peer kept its seat as the desktop keeps one: the same room, its own seat, the genesis, the end.
    kept = [kept_seats.load(tmp_path / f"seat{n}") for n in range(3)]
    assert sorted(s.seat for s in kept) == [0, 1, 2] and len({s.room for s in kept}) == 1
    assert all(s.finished and s.verdict == "fair" and s.genesis and len(s.names) == 3 for s in kept)
