"""System Launch ladder: every bot level against the others, seats rotated, against the bots' targets.

``python benchmarks/ladder_system_launch.py [--games N] [--players P[,P...]] [--seed S] [--round-limit R]
[--levels a,b] [--pairs a:b,...] [--tables a,...] [--workers W] [--fair-games N]``

For each table size P and each ordered pair of levels (A, B), N games put one
A among P-1 B's, A's seat rotating through every seat; prints A's wins, draws
(no winner) and losses, its win rate with a 95% (Wilson) interval against the
fair share 1/P, how the games ended and the longest game in rounds.  Then, for
each level, a table of P copies of it: the win rate of every seat (a fair bot
gives each seat 1/P) and how many games reached the round limit.  Last, every
level's decision time, median and max.  The default of 40 games a line keeps a
whole ladder within minutes; the targets want more, e.g. ``--games 1000 --players 4
--pairs memory:greedy --tables "" --fair-games 2000 --workers 2``.  ``--pairs`` and ``--tables`` narrow a
run to some of those lines (an empty ``--tables ""`` skips the tables).

``--fair-games N`` (default 0: skipped) plays N games of six greedy bots, the
fairness check.  The targets are printed next to the figures they
concern ("target ... : met / NOT met"): every seat 17% +- 3 points in six-seat
greedy games and none at the round limit; ``memory`` wins at least 40% of the
4-seat games against three ``greedy`` bots.  The round limit is passed
explicitly as the ``round_limit`` option (default 200).  ``--workers`` (default
1, at most 2 on the shared machine) plays the games of a line in that many
processes; the figures do not depend on it (every game has its own seed).
Figures only: nothing here asserts.  Called by ``benchmarks/bots.py`` as
:func:`main`, or run on its own.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timed_bot import Timed

from engines.core import Referee
from engines.system_launch import SPEC

LEVELS = ("random", "greedy", "memory")
#: The target: in six-seat greedy games every seat wins 17% +- 3 points.
FAIR_SHARE, FAIR_BAND = 0.17, 0.03
#: The target: the remembering bot wins at least this share of 4-seat games against greedy bots.
MEMORY_TARGET = 0.40


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play(job: tuple[list[str], bytes, int]) -> tuple[tuple[int, ...], str, int, dict[str, list[float]]]:
    """One game: (winners, how it ended, rounds played, decision times per level)."""
    names, seed, round_limit = job
    times: dict[str, list[float]] = {}
    bots = [Timed(SPEC.bots[level](seat, seed), times.setdefault(level, [])) for seat, level in enumerate(names)]
    state = SPEC.new_state(len(names), {"round_limit": round_limit})
    over = Referee(state, seed).play(bots)
    return tuple(over.winners), over.reason, state.round, times


def run(jobs: list[tuple[list[str], bytes, int]], workers: int, times: dict[str, list[float]]) -> list:
    """Play ``jobs`` (in ``workers`` processes if more than one) and merge their decision times."""
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play, jobs, chunksize=8)
    else:
        results = [play(job) for job in jobs]
    for *_, t in results:
        for level, xs in t.items():
            times.setdefault(level, []).extend(xs)
    return results


def one_against(a: str, b: str, players: int, games: int, seed: str, limit: int, workers: int, times: dict) -> str:
    jobs = []
    for g in range(games):
        seat_a = g % players
        names = [a if s == seat_a else b for s in range(players)]
        jobs.append((names, f"{seed}/{players}/{a}:{b}/{g}".encode(), limit))
    wins = draws = losses = longest = 0
    reasons: Counter[str] = Counter()
    for g, (winners, reason, rounds, _) in enumerate(run(jobs, workers, times)):
        seat_a = g % players
        reasons[reason] += 1
        longest = max(longest, rounds)
        if not winners:
            draws += 1
        elif seat_a in winners:
            wins += 1
        else:
            losses += 1
    low, high = wilson(wins, games)
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    line = (
        f"  1 {a} vs {players - 1} {b}: games {games}  W/D/L {wins}/{draws}/{losses}  win rate {wins / games:.1%}"
        f" (95% {low:.1%}-{high:.1%}; fair {1 / players:.1%})  longest {longest} rounds  ended: {ended}"
    )
    if (a, b, players) == ("memory", "greedy", 4):
        met = "met" if wins / games >= MEMORY_TARGET else "NOT met"
        line += f"\n    target: memory wins >= {MEMORY_TARGET:.0%} against 3 greedy: {met} ({wins / games:.1%})"
    return line


def same_table(level: str, players: int, games: int, seed: str, limit: int, workers: int, times: dict) -> str:
    jobs = [([level] * players, f"{seed}/{players}/{level}*/{g}".encode(), limit) for g in range(games)]
    seat_wins = [0] * players
    reasons: Counter[str] = Counter()
    longest = 0
    for winners, reason, rounds, _ in run(jobs, workers, times):
        reasons[reason] += 1
        longest = max(longest, rounds)
        for w in winners:
            seat_wins[w] += 1
    shares = "  ".join(f"{w / games:.1%}" for w in seat_wins)
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    line = (
        f"  {players} {level}: games {games}  seat wins {shares}  reached the round limit {reasons['round limit']}"
        f"  longest {longest} rounds  ended: {ended}"
    )
    if level == "greedy" and players == 6:
        fair = all(abs(w / games - FAIR_SHARE) <= FAIR_BAND for w in seat_wins)
        met = "met" if fair and reasons["round limit"] == 0 else "NOT met"
        band = f"{FAIR_SHARE:.0%} +- {FAIR_BAND * 100:.0f} points"
        line += f"\n    target: every seat {band}, none at the round limit: {met}"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per line (default 40: the look-ahead is slow)")
    parser.add_argument("--players", default="4,6", help="table sizes, comma-separated (default 4,6)")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--round-limit", type=int, default=200, help="passed as the round_limit option")
    parser.add_argument("--levels", default=",".join(LEVELS), help="levels to ladder (default: all)")
    parser.add_argument("--workers", type=int, default=1, help="processes per line (default 1; at most 2 here)")
    parser.add_argument("--pairs", default="", help="a:b pairings to play (default: every ordered pair of levels)")
    parser.add_argument("--tables", default=None, help="levels for the same-level tables (default: the levels)")
    parser.add_argument("--fair-games", type=int, default=0, help="six-seat greedy games for the fairness target")
    args = parser.parse_args(argv)
    try:
        sizes = [int(p) for p in args.players.split(",") if p]
    except ValueError:
        parser.error(f"--players takes integers, not {args.players!r}")
    levels = [level for level in args.levels.split(",") if level]
    bad = [level for level in levels if level not in SPEC.bots]
    if bad or args.games < 1 or args.round_limit < 1 or not all(2 <= p <= 6 for p in sizes) or args.workers < 1:
        parser.error(f"levels are {', '.join(SPEC.bots)}; games, round limit and workers >= 1; players 2..6")
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p] or [
        (a, b) for a in levels for b in levels if a != b
    ]
    tables = levels if args.tables is None else [level for level in args.tables.split(",") if level]
    if any(len(p) != 2 or not set(p) <= set(SPEC.bots) for p in pairs) or not set(tables) <= set(SPEC.bots):
        parser.error(f"pairings are a:b and tables are levels, of {', '.join(SPEC.bots)}")
    times: dict[str, list[float]] = {}
    for players in sizes:
        print(f"System Launch ladder, {players} players: {args.games} games per line, seed {args.seed!r}", flush=True)
        for a, b in pairs:
            print(one_against(a, b, players, args.games, args.seed, args.round_limit, args.workers, times), flush=True)
        for level in tables:
            print(same_table(level, players, args.games, args.seed, args.round_limit, args.workers, times), flush=True)
    if args.fair_games:
        print(f"System Launch fairness: {args.fair_games} games of 6 greedy bots, seed {args.seed!r}", flush=True)
        print(same_table("greedy", 6, args.fair_games, f"{args.seed}/fair", args.round_limit, args.workers, times),
              flush=True)
    for level in LEVELS:
        t = times.get(level)
        if t:
            print(f"{level}: decisions {len(t)}  median {statistics.median(t) * 1e6:.0f} µs  max {max(t) * 1e3:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
