"""Anomaly Maze ladder: every AI level against the others, seats rotated.

``python benchmarks/ladder_anomaly_maze.py [--games N] [--seed S] [--round-cap R] [--pairs hard:normal,...]``

Each pairing plays N games; the first-named level takes seat 0 in even games
and seat 1 in odd ones (the first player is drawn from each game's seed).
Prints per pairing the first level's wins, draws and losses, how the games
ended (the engine's reason), mean rounds and the share of games in which
someone reached the winning MP; then every level's decision time, median and
max.  The round cap is passed explicitly as the ``round_limit`` option (default
80) so that a game between two stalling players still ends; a game it ends
counts as not reaching the winning MP.  Figures only: nothing here asserts.
Called by ``benchmarks/bots.py`` as :func:`main`, or run on its own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timed_bot import Timed

from engines.anomaly_maze import SPEC
from engines.core import Referee

LEVELS = ("random", "easy", "normal", "hard")


def default_pairs() -> list[tuple[str, str]]:
    """Every level against every weaker one, and the strongest against itself."""
    pairs = [(a, b) for i, a in enumerate(LEVELS) for b in LEVELS[:i]]
    return [*pairs, (LEVELS[-1], LEVELS[-1])]


def play_pair(a: str, b: str, games: int, seed: str, round_cap: int, times: dict[str, list[float]]) -> str:
    wins = draws = losses = finished = rounds = 0
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for g in range(games):
        game_seed = f"{seed}/{a}:{b}/{g // 2}".encode()
        seat_a = g % 2
        names = [a, b] if seat_a == 0 else [b, a]
        bots = [
            Timed(SPEC.bots[level](seat, game_seed), times.setdefault(level, [])) for seat, level in enumerate(names)
        ]
        state = SPEC.new_state(2, {"round_limit": round_cap})
        over = Referee(state, game_seed).play(bots)
        rounds += state.round
        reasons[over.reason] += 1
        win_mp = state.opts["win_mp"]
        finished += max(state.mp) >= win_mp
        if not over.winners:
            draws += 1
        elif over.winners[0] == seat_a:
            wins += 1
        else:
            losses += 1
    ended = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
    return (
        f"{a} vs {b}: games {games}  W/D/L {wins}/{draws}/{losses}  win rate {wins / games:.0%}"
        f"  reached {win_mp} MP {finished}/{games}  mean rounds {rounds / games:.1f}  ended: {ended}"
        f"  ({time.perf_counter() - started:.0f} s)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pairing (default 4)")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--round-cap", type=int, default=80, help="passed as the round_limit option (default 80)")
    parser.add_argument("--pairs", default="", help="comma-separated a:b pairings (default: the whole ladder)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.round_cap < 1:
        parser.error("--games and --round-cap must be at least 1")
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")] if args.pairs else default_pairs()
    for pair in pairs:
        if len(pair) != 2 or not all(level in SPEC.bots for level in pair):
            parser.error(f"bad pairing {':'.join(pair)!r}; levels: {', '.join(SPEC.bots)}")
    print(f"Anomaly Maze ladder: {args.games} games per pairing, seed {args.seed!r}, round_cap {args.round_cap}")
    times: dict[str, list[float]] = {}
    for a, b in pairs:
        print(play_pair(a, b, args.games, args.seed, args.round_cap, times), flush=True)
    for level in LEVELS:
        t = times.get(level)
        if t:
            print(
                f"{level}: decisions {len(t)}  median {statistics.median(t) * 1000:.1f} ms  max {max(t) * 1000:.1f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
