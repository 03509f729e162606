"""Collective Conflict bots head to head: win rates and move times (2-player games).

``python3 benchmarks/cc_bots.py [--games N] [--max-rounds R]`` prints, for
search vs greedy and search vs random, the search bot's wins, losses and draws
(seats alternate), its win rate against the targets (70% and 95%), and the
mean and largest time per search move.  Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and a sibling module named
# ``engines.py`` would shadow the ``engines`` package: put the repository root first.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from engines.collective_conflict import CollectiveConflict, GreedyBot, SearchBot  # noqa: E402
from engines.collective_conflict.bots import random_bot  # noqa: E402
from engines.core import Decision, Referee  # noqa: E402


def play(opponent: str, games: int, max_rounds: int, seed: str) -> dict:
    wins = losses = draws = 0
    times: list[float] = []
    for g in range(games):
        search_seat = g % 2
        state = CollectiveConflict(2, {"max_rounds": max_rounds})
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
            started = time.perf_counter()
            action = bots[seat].choose(state, k, legal)
            if seat == search_seat:
                times.append(time.perf_counter() - started)
            referee.decide(seat, action)
        over = pending
        if over.draw:
            draws += 1
        elif over.winners == (search_seat,):
            wins += 1
        else:
            losses += 1
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "win_rate": round(wins / games, 3),
        "target": 0.7 if opponent == "greedy" else 0.95,
        "mean_move_seconds": round(sum(times) / len(times), 4) if times else 0,
        "max_move_seconds": round(max(times), 4) if times else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--max-rounds", type=int, default=80)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--opponents", default="greedy,random")
    args = parser.parse_args()
    for opponent in args.opponents.split(","):
        print(json.dumps(play(opponent, args.games, args.max_rounds, args.seed), sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
