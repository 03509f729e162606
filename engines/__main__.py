"""Command-line tools for the engines.

``python -m engines selfplay GAME --players P --games N --seed S --bot B [--option NAME=VALUE ...]``
``python -m engines perft GAME [--classic] --depth D``
``python -m engines list``
"""

from __future__ import annotations

import argparse
import json
import sys

from engines.core import registry
from engines.core.selfplay import selfplay


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engines", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    sp = sub.add_parser("selfplay", help="play whole games with bots in every seat")
    sp.add_argument("game")
    sp.add_argument("--players", type=int, default=2)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", default="0")
    sp.add_argument("--bot", default="random")
    sp.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option for every game, e.g. a round limit for self-play (VALUE is JSON, else a string)",
    )

    pf = sub.add_parser("perft", help="count move-generation nodes from the start position")
    pf.add_argument("game")
    pf.add_argument("--depth", type=int, default=3)
    pf.add_argument("--classic", action="store_true")

    sub.add_parser("list", help="list the games")

    args = parser.parse_args(argv)
    if args.command == "list":
        for name in registry.names():
            print(name)
        return 0
    try:
        spec = registry.get(args.game)
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    if args.command == "selfplay":
        try:
            summary = selfplay(spec, args.players, args.games, args.seed, args.bot, registry.parse_options(args.option))
        except ValueError as exc:
            parser.error(str(exc))
        print(json.dumps(summary.as_json(), sort_keys=True))
        return 0
    if spec.perft is None:
        parser.error(f"{spec.name} has no perft")
    return spec.perft(depth=args.depth, classic=args.classic, out=sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
