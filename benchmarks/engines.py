"""Engine speed and bot strength in self-play (prints figures; asserts nothing).

    python3 benchmarks/engines.py                 # short default run (a few seconds)
    python3 benchmarks/engines.py --games 500     # longer, steadier figures
    python3 benchmarks/engines.py --game system-launch --players 2 4 6
    python3 benchmarks/engines.py --game collective-conflict --option max_rounds=200

For each player count and each bot it plays whole games with that bot in every
seat through the in-process Referee (so the figure includes the referee's
shuffles and deals and the bots' choices) and prints actions applied per second
on one core against the target of 20,000.  Then it seats one greedy bot among
random bots (rotating its seat) and prints greedy's win rate next to the fair
share 1/P, and the ratio of the two.

Games are played with the game's defaults plus ``--option NAME=VALUE``.  Collective
Conflict has no round limit (CC-22) and its random games run to thousands of rounds,
so unless ``--option`` says otherwise it is played here with ``max_rounds=80``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from importlib import import_module

from engines.core import Referee, registry
from engines.core.registry import GameSpec
from engines.core.selfplay import game_seed, selfplay

TARGET = 20_000
#: Options used unless ``--option`` gives others: a round limit keeps bot games of a game without one short.
BENCH_OPTIONS = {"collective-conflict": {"max_rounds": 80}}


def load(name: str) -> GameSpec:
    """The game called ``name``, even while another game's package fails to import."""
    try:
        return registry.get(name)
    except ImportError as exc:
        print(f"(registry: {exc}; loading {name} alone)", file=sys.stderr)
        import_module("engines." + name.replace("-", "_"))
        return registry._GAMES[name]


def speed(game: str, players: int, bot: str, games: int, seed: str, options: dict) -> tuple[int, float]:
    summary = selfplay(load(game), players, games, seed, bot, options)
    return summary.actions, summary.seconds


class HashingReferee(Referee):
    """Hashes the public state after every action, as a networked peer does."""

    def _push(self, seat, action, knowledge=None):  # type: ignore[no-untyped-def]
        super()._push(seat, action, knowledge)
        self.state.hash()


def hashed_speed(game: str, players: int, bot: str, games: int, seed: str, options: dict) -> tuple[int, float]:
    spec = load(game)
    actions = 0
    started = time.perf_counter()
    for index in range(games):
        seed_bytes = game_seed(seed, index)
        referee = HashingReferee(spec.new_state(players, dict(options)), seed_bytes)
        referee.play([spec.bots[bot](s, seed_bytes) for s in range(players)])
        actions += len(referee.history)
    return actions, time.perf_counter() - started


def strength(
    game: str, players: int, strong: str, weak: str, games: int, seed: str, options: dict
) -> tuple[int, int, float]:
    """``strong`` in one seat (rotating), ``weak`` in the others: (strong wins, draws, seconds)."""
    spec = load(game)
    wins = draws = 0
    started = time.perf_counter()
    for index in range(games):
        seed_bytes = game_seed(f"{seed}/strength", index)
        strong_seat = index % players
        bots = [spec.bots[strong if s == strong_seat else weak](s, seed_bytes) for s in range(players)]
        over = Referee(spec.new_state(players, dict(options)), seed_bytes).play(bots)
        if over.draw:
            draws += 1
        elif over.winners[0] == strong_seat:
            wins += 1
    return wins, draws, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="system-launch")
    parser.add_argument("--games", type=int, default=200, help="games per configuration")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    args = parser.parse_args(argv)
    spec = load(args.game)
    options = {**BENCH_OPTIONS.get(args.game, {}), **registry.parse_options(args.option)}
    bots = sorted(spec.bots)
    print(f"{spec.title}: {args.games} games per configuration, one process, one core, options {options}")
    print(f"{'players':>7} {'bot':>8} {'actions':>9} {'seconds':>8} {'actions/s':>10} {'vs target':>9}")
    for players in args.players:
        for bot in bots:
            actions, seconds = speed(args.game, players, bot, args.games, args.seed, options)
            rate = actions / seconds if seconds else float("inf")
            print(f"{players:>7} {bot:>8} {actions:>9} {seconds:>8.3f} {rate:>10.0f} {rate / TARGET:>8.1f}x")
    print()
    print("the same, hashing the public state after every action (what a networked peer adds)")
    for players in args.players:
        actions, seconds = hashed_speed(args.game, players, "random", max(1, args.games // 4), args.seed, options)
        rate = actions / seconds if seconds else float("inf")
        print(f"{players:>7} {'random':>8} {actions:>9} {seconds:>8.3f} {rate:>10.0f} {rate / TARGET:>8.1f}x")
    if "greedy" in spec.bots and "random" in spec.bots:
        print()
        print("one greedy bot among random bots (seat rotates)")
        header = ("players", "games", "greedy wins", "draws", "win rate", "fair share", "ratio")
        print(" ".join(f"{h:>{w}}" for h, w in zip(header, (7, 6, 11, 6, 8, 10, 6), strict=True)))
        for players in args.players:
            wins, draws, _ = strength(args.game, players, "greedy", "random", args.games, args.seed, options)
            rate = wins / args.games
            fair = 1 / players
            print(f"{players:>7} {args.games:>6} {wins:>11} {draws:>6} {rate:>8.1%} {fair:>10.1%} {rate / fair:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
