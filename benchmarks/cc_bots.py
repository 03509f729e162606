"""Collective Conflict bots head to head: win rates with confidence, and move times (2-player games).

``python3 benchmarks/cc_bots.py [--games N] [--start S] [--max-rounds R] [--opponents greedy,random]``
plays games ``S .. S+N-1`` of the search bot against each opponent (seats
alternate: the search bot is seat ``g % 2`` in game ``g``, so batches can be
run separately and added up) and prints, per opponent, one JSON line: the
search bot's wins, draws and losses, its win rate with a 95% Wilson interval,
the target (85% against greedy, 95% against random), how the games ended
(the engine's reason; a collapse by a surround counted apart when it came
before round 100), and p50/p99/max seconds
per search move, in wall-clock time and in this process's CPU time (the machine
is shared: wall-clock includes waiting for a core).  Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and a sibling module named
# ``engines.py`` would shadow the ``engines`` package: put the repository root first.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from engines.collective_conflict import CollectiveConflictState, GreedyBot, SearchBot  # noqa: E402
from engines.collective_conflict.bots.greedy import random_bot  # noqa: E402
from engines.core import Decision, Referee  # noqa: E402

#: A game "ends by a surround" for the targets when a Network collapses before this round.
SURROUND_BY = 100


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (honest for small samples and rates near 0 or 1)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0..100) of ``values``."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def play(opponent: str, start: int, games: int, max_rounds: int, seed: str) -> dict:
    wins = losses = draws = 0
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    ends: dict[str, int] = {}
    for g in range(start, start + games):
        search_seat = g % 2
        state = CollectiveConflictState(2, {"max_rounds": max_rounds})
        s = f"{seed}/{opponent}/{g}".encode()
        bots = []
        for seat in range(2):
            if seat == search_seat:
                bots.append(SearchBot(seat, s))
            else:
                bots.append(GreedyBot(seat, s) if opponent == "greedy" else random_bot(seat, s))
        referee = Referee(state, s)
        while True:
            pending = referee.run_table()
            if not isinstance(pending, Decision):
                break
            seat = pending.seat
            k = referee.seats[seat]
            legal = state.legal_actions(seat, k)
            started, started_cpu = time.perf_counter(), time.process_time()
            action = bots[seat].choose(state, k, legal)
            if seat == search_seat:
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                nodes.append(bots[seat].nodes)
            referee.decide(seat, action)
        over = pending
        end = over.reason
        if end == "last active Network":
            end = "surround" if state.round < SURROUND_BY else f"surround from round {SURROUND_BY}"
        ends[end] = ends.get(end, 0) + 1
        winner = "draw" if over.draw else f"seat {over.winners[0]} won"
        line = f"  game {g}: search seat {search_seat}: {end}, {winner}, round {state.round}"
        print(line, file=sys.stderr, flush=True)
        if over.draw:
            draws += 1
        elif over.winners == (search_seat,):
            wins += 1
        else:
            losses += 1
    low, high = wilson(wins, games)
    return {
        "opponent": opponent,
        "games": games,
        "first_game": start,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": round(wins / games, 3),
        "wilson95": [round(low, 3), round(high, 3)],
        "target": 0.85 if opponent == "greedy" else 0.95,
        "ends": ends,
        "surround_before_100": round(ends.get("surround", 0) / games, 3) if games else None,
        "moves": len(times),
        "p50_move_seconds": round(percentile(times, 50), 4),
        "p99_move_seconds": round(percentile(times, 99), 4),
        "max_move_seconds": round(max(times), 4) if times else 0,
        "p50_move_cpu_seconds": round(percentile(cpu, 50), 4),
        "p99_move_cpu_seconds": round(percentile(cpu, 99), 4),
        "max_move_cpu_seconds": round(max(cpu), 4) if cpu else 0,
        "max_nodes": max(nodes) if nodes else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--start", type=int, default=0, help="number of the first game (seeds and seats follow it)")
    parser.add_argument("--max-rounds", type=int, default=150)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--opponents", default="greedy,random")
    args = parser.parse_args()
    for opponent in args.opponents.split(","):
        result = play(opponent, args.start, args.games, args.max_rounds, args.seed)
        print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
