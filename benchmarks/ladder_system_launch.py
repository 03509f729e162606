"""System Launch ladder: every bot level against the others, seats rotated.

``python benchmarks/ladder_system_launch.py [--games N] [--players P[,P...]] [--seed S] [--round-limit R]``

For each table size P and each ordered pair of levels (A, B), N games put one
A among P-1 B's, A's seat rotating through every seat; prints A's wins, draws
(no winner) and losses, its win rate against the fair share 1/P, how the games
ended and the longest game in rounds.  Then, for each level, a table of P
copies of it: the win rate of every seat (a fair bot gives each seat 1/P) and
how many games reached the round limit.  Last, every level's decision time,
median and max.  The round limit is passed explicitly as the ``round_limit``
option (default 200).  Figures only: nothing here asserts.  Called by
``benchmarks/bots.py`` as :func:`main`, or run on its own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timed_bot import Timed

from engines.core import Referee
from engines.system_launch import SPEC

LEVELS = ("random", "greedy", "memory")


def play(names: list[str], seed: bytes, round_limit: int, times: dict[str, list[float]]):
    """One game; returns (game over, rounds played)."""
    bots = [Timed(SPEC.bots[level](seat, seed), times.setdefault(level, [])) for seat, level in enumerate(names)]
    state = SPEC.new_state(len(names), {"round_limit": round_limit})
    over = Referee(state, seed).play(bots)
    return over, state.round


def one_against(a: str, b: str, players: int, games: int, seed: str, limit: int, times: dict) -> str:
    wins = draws = losses = longest = 0
    reasons: Counter[str] = Counter()
    for g in range(games):
        seat_a = g % players
        names = [a if s == seat_a else b for s in range(players)]
        over, rounds = play(names, f"{seed}/{players}/{a}:{b}/{g}".encode(), limit, times)
        reasons[over.reason] += 1
        longest = max(longest, rounds)
        if not over.winners:
            draws += 1
        elif seat_a in over.winners:
            wins += 1
        else:
            losses += 1
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    return (
        f"  1 {a} vs {players - 1} {b}: games {games}  W/D/L {wins}/{draws}/{losses}  win rate {wins / games:.1%}"
        f" (fair {1 / players:.1%})  longest {longest} rounds  ended: {ended}"
    )


def same_table(level: str, players: int, games: int, seed: str, limit: int, times: dict) -> str:
    seat_wins = [0] * players
    reasons: Counter[str] = Counter()
    longest = 0
    for g in range(games):
        over, rounds = play([level] * players, f"{seed}/{players}/{level}*/{g}".encode(), limit, times)
        reasons[over.reason] += 1
        longest = max(longest, rounds)
        for w in over.winners:
            seat_wins[w] += 1
    shares = "  ".join(f"{w / games:.1%}" for w in seat_wins)
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    return (
        f"  {players} {level}: games {games}  seat wins {shares}  reached the round limit {reasons['round limit']}"
        f"  longest {longest} rounds  ended: {ended}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line (default 200)")
    parser.add_argument("--players", default="4,6", help="table sizes, comma-separated (default 4,6)")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--round-limit", type=int, default=200, help="passed as the round_limit option")
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels to ladder (default: all)")
    args = parser.parse_args(argv)
    try:
        sizes = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players takes integers, not {args.players!r}")
    levels = args.levels.split(",")
    bad = [level for level in levels if level not in SPEC.bots]
    if bad or args.games < 1 or args.round_limit < 1 or not all(2 <= p <= 6 for p in sizes):
        parser.error(f"levels are {', '.join(SPEC.bots)}; games and round limit >= 1; players 2..6")
    times: dict[str, list[float]] = {}
    for players in sizes:
        print(f"System Launch ladder, {players} players: {args.games} games per line, seed {args.seed!r}", flush=True)
        for a in levels:
            for b in levels:
                if a != b:
                    print(one_against(a, b, players, args.games, args.seed, args.round_limit, times), flush=True)
        for level in levels:
            print(same_table(level, players, args.games, args.seed, args.round_limit, times), flush=True)
    for level in levels:
        t = times.get(level)
        if t:
            print(f"{level}: decisions {len(t)}  median {statistics.median(t) * 1e6:.0f} µs  max {max(t) * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
