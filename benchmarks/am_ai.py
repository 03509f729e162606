"""Anomaly Maze AI benchmark: win rates between levels and decision times.

``python3 benchmarks/am_ai.py [--games N] [--seed S] [--pairs normal:random,...] [--round-limit R]``

Each pairing plays N games, alternating which seat the first-named bot takes
(the first player itself is drawn from each game's seed).  Prints, per
pairing, the first bot's wins, losses and draws and its win rate over decided
and over all games, and how many games reached the winning MP (the rest were
ended by the round limit, passed explicitly as the ``round_limit`` option because
a game with a person in it has none, AM-14); then the decision times (p50 / p99, anomaly decisions and
all decisions) of every AI level seen.  Figures only: nothing here asserts.
A game has no round limit (AM-14); ``--round-limit`` (default 200) makes sure a
benchmark ends: a game reaching it is a draw, counted with the draws.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.anomaly_maze import SPEC
from engines.core import Referee

DEFAULT_PAIRS = "normal:random,normal:easy,hard:normal"


class Timed:
    """Wraps a bot and records how long each of its decisions took."""

    def __init__(self, bot, times: list[float], anomaly_times: list[float]) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.times = times
        self.anomaly_times = anomaly_times

    def choose(self, state, knowledge, legal):
        started = time.perf_counter()
        action = self.bot.choose(state, knowledge, legal)
        took = time.perf_counter() - started
        self.times.append(took)
        if state.phase == "anomaly":
            self.anomaly_times.append(took)
        return action


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--round-limit", type=int, default=200, help="draw after this many rounds (0: none)")
    args = parser.parse_args(argv)
    spec = SPEC  # not registry.get(): it imports every game, finished or not
    times: dict[str, list[float]] = {}
    anomaly_times: dict[str, list[float]] = {}
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        wins = losses = draws = 0
        mp_a = mp_b = 0
        rounds = finished = 0
        started = time.perf_counter()
        for g in range(args.games):
            seed = f"{args.seed}/{pair}/{g // 2}".encode()
            seat_a = g % 2
            names = [a, b] if seat_a == 0 else [b, a]
            bots = []
            for seat, level in enumerate(names):
                bot = spec.bots[level](seat, seed)
                bots.append(Timed(bot, times.setdefault(level, []), anomaly_times.setdefault(level, [])))
            state = spec.new_state(2, {"round_limit": args.round_limit})
            over = Referee(state, seed).play(bots)
            rounds += state.round
            finished += max(state.mp) >= state.opts["win_mp"]
            mp_a += state.mp[seat_a]
            mp_b += state.mp[1 - seat_a]
            if over.draw:
                draws += 1
            elif over.winners[0] == seat_a:
                wins += 1
            else:
                losses += 1
        n = args.games
        decided = wins + losses
        print(
            f"{a} vs {b}: games {n}  wins {wins}  losses {losses}  draws {draws}  "
            f"win rate {wins / n:.1%} of all, {wins / decided if decided else 0:.1%} of decided  "
            f"mean MP {mp_a / n:.1f} vs {mp_b / n:.1f}  mean rounds {rounds / n:.1f}  "
            f"reached the winning MP {finished}/{n}  "
            f"({time.perf_counter() - started:.1f} s)",
            flush=True,
        )
    for level in sorted(times):
        if level == "random":
            continue
        t, at = times[level], anomaly_times[level]
        print(
            f"{level}: decisions {len(t)}  p50 {percentile(t, 0.5) * 1000:.1f} ms"
            f"  p99 {percentile(t, 0.99) * 1000:.1f} ms"
            f"  | anomaly decisions {len(at)}  p50 {percentile(at, 0.5) * 1000:.1f} ms"
            f"  p99 {percentile(at, 0.99) * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
