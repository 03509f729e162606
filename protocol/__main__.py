"""Command-line tools of the trust layer.

``python -m protocol simulate GAME --players P --games N --seed S [--cheat KIND]``
``python -m protocol simulate --list-cheats``
``python -m protocol verify FILE``  (exit 0 fair, 1 cheat found, 2 unreadable or tampered file)
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m protocol", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games among in-memory peers over a seeded, unreliable network")
    sim.add_argument("game", nargs="?")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", default="0")
    sim.add_argument("--cheat", default=None)
    sim.add_argument("--list-cheats", action="store_true")
    ver = sub.add_parser("verify", help="audit a saved game offline")
    ver.add_argument("file")
    args = parser.parse_args(argv)

    if args.command == "verify":
        from .savefile import SaveFileError, verify_bytes

        try:
            with open(args.file, "rb") as handle:
                data = handle.read()
            verdict = verify_bytes(data)
        except OSError as exc:
            print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
        except SaveFileError as exc:
            print(f"not a valid saved game: {exc}", file=sys.stderr)
            print(json.dumps({"verdict": "unreadable", "reason": str(exc)}))
            return 2
        if verdict.fair:
            print("fair: every signature, link, rule, card and commitment checks out")
        else:
            print(f"CHEAT: seat {verdict.seat} at entry {verdict.seq}: {verdict.reason}")
        print(json.dumps(verdict.as_json(), sort_keys=True))
        return 0 if verdict.fair else 1

    from .simulate import list_cheats, simulate

    if args.list_cheats:
        for line in list_cheats():
            print(line)
        return 0
    if not args.game:
        parser.error("simulate needs a GAME (or --list-cheats)")
    try:
        summary = simulate(args.game, args.players, args.games, args.seed, args.cheat)
    except (KeyError, ValueError) as exc:
        parser.error(str(exc.args[0] if exc.args else exc))
    print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
