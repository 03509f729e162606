"""Anomaly Maze ladder: every AI level against the others, seats rotated.

``python benchmarks/ladder_anomaly_maze.py [--games N] [--seed S] [--round-cap R] [--pairs hard:normal,...]``

Each pairing plays N games; the first-named level takes seat 0 in even games
and seat 1 in odd ones (the first player is drawn from each game's seed).
Prints per pairing the first level's wins, draws and losses, how the games
ended (the engine's reason), mean rounds and the share of games in which
someone reached the winning MP; then every level's decision time, median and
max.  The round cap is passed explicitly as the ``round_limit`` option (default
80) so that a game between two stalling players still ends; a game it ends
counts as not reaching the winning MP.  The bots' targets are printed
under the lines they concern ("target ...: met / NOT met"): hard wins at least
75% of its games against normal, and at least 90% of hard-vs-hard games reach
the winning MP within the cap (80 rounds).  ``--workers W`` (default 1, at most
2 on the shared machine) plays a pairing's games in W processes; every game has
its own seed, so the figures do not depend on it.  Figures only: nothing here asserts.
Called by ``benchmarks/bots.py`` as :func:`main`, or run on its own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timed_bot import Timed

from engines.anomaly_maze import SPEC
from engines.core import Referee

LEVELS = ("random", "easy", "normal", "hard")
#: The target: hard beats normal in at least this share of games.
HARD_VS_NORMAL = 0.75
#: The target: at least this share of hard-vs-hard games reach the winning MP by the round cap.
HARD_FINISHES = 0.90


def default_pairs() -> list[tuple[str, str]]:
    """Every level against every weaker one, and the strongest against itself."""
    pairs = [(a, b) for i, a in enumerate(LEVELS) for b in LEVELS[:i]]
    return [*pairs, (LEVELS[-1], LEVELS[-1])]


def play_one(job: tuple[str, str, int, str, int]) -> tuple[tuple[int, ...], str, int, bool, dict[str, list[float]]]:
    """Game ``g`` of a pairing: (winners, how it ended, rounds, someone reached the MP, decision times)."""
    a, b, g, seed, round_cap = job
    game_seed = f"{seed}/{a}:{b}/{g // 2}".encode()
    names = [a, b] if g % 2 == 0 else [b, a]
    times: dict[str, list[float]] = {}
    bots = [Timed(SPEC.bots[level](seat, game_seed), times.setdefault(level, [])) for seat, level in enumerate(names)]
    state = SPEC.new_state(2, {"round_limit": round_cap})
    over = Referee(state, game_seed).play(bots)
    return tuple(over.winners), over.reason, state.round, max(state.mp) >= state.opts["win_mp"], times


def play_pair(
    a: str, b: str, games: int, seed: str, round_cap: int, times: dict[str, list[float]], workers: int = 1
) -> str:
    wins = draws = losses = finished = rounds = 0
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    jobs = [(a, b, g, seed, round_cap) for g in range(games)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_one, jobs, chunksize=1)
    else:
        results = [play_one(job) for job in jobs]
    for g, (winners, reason, played, reached, t) in enumerate(results):
        seat_a = g % 2
        for level, xs in t.items():
            times.setdefault(level, []).extend(xs)
        rounds += played
        reasons[reason] += 1
        finished += reached
        if not winners:
            draws += 1
        elif winners[0] == seat_a:
            wins += 1
        else:
            losses += 1
    win_mp = SPEC.new_state(2, {}).opts["win_mp"]
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    line = (
        f"{a} vs {b}: games {games}  W/D/L {wins}/{draws}/{losses}  win rate {wins / games:.0%}"
        f"  reached {win_mp} MP {finished}/{games}  mean rounds {rounds / games:.1f}  ended: {ended}"
        f"  ({time.perf_counter() - started:.0f} s)"
    )
    if (a, b) == ("hard", "normal"):
        met = "met" if wins / games >= HARD_VS_NORMAL else "NOT met"
        line += f"\n  target: hard beats normal in >= {HARD_VS_NORMAL:.0%} of games: {met} ({wins}/{games})"
    if (a, b) == ("hard", "hard"):
        met = "met" if finished / games >= HARD_FINISHES else "NOT met"
        line += (
            f"\n  target: >= {HARD_FINISHES:.0%} of hard-vs-hard games reach {win_mp} MP by round {round_cap}:"
            f" {met} ({finished}/{games})"
        )
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pairing (default 4)")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--round-cap", type=int, default=80, help="passed as the round_limit option (default 80)")
    parser.add_argument("--pairs", default="", help="comma-separated a:b pairings (default: the whole ladder)")
    parser.add_argument("--workers", type=int, default=1, help="processes per pairing (default 1; at most 2 here)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.round_cap < 1 or args.workers < 1:
        parser.error("--games, --round-cap and --workers must be at least 1")
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")] if args.pairs else default_pairs()
    for pair in pairs:
        if len(pair) != 2 or not all(level in SPEC.bots for level in pair):
            parser.error(f"bad pairing {':'.join(pair)!r}; levels: {', '.join(SPEC.bots)}")
    print(f"Anomaly Maze ladder: {args.games} games per pairing, seed {args.seed!r}, round_cap {args.round_cap}")
    times: dict[str, list[float]] = {}
    for a, b in pairs:
        print(play_pair(a, b, args.games, args.seed, args.round_cap, times, args.workers), flush=True)
    for level in LEVELS:
        t = times.get(level)
        if t:
            print(
                f"{level}: decisions {len(t)}  median {statistics.median(t) * 1000:.1f} ms  max {max(t) * 1000:.1f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
