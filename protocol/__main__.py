"""Command-line tools of the trust layer.

``python -m protocol simulate GAME --players P --games N --seed S [--cheat KIND]``
``python -m protocol simulate --list-cheats``
``python -m protocol verify FILE [--creator KEY] [--seat-key SEAT=KEY ...]``
(exit 0 fair, 1 cheat found, 2 unreadable, 3 damaged file, 4 not the identities given,
5 no cheat but no proven result: a seat disconnected, a two-seat claim, a contested claim, an abandoned game)
"""

from __future__ import annotations

import argparse
import json
import sys

#: ``python -m protocol verify`` exit codes (docs/protocol.md).
EXIT_FAIR, EXIT_CHEAT, EXIT_UNREADABLE, EXIT_DAMAGED, EXIT_IDENTITY, EXIT_NO_RESULT = 0, 1, 2, 3, 4, 5


def _seat_key(text: str) -> tuple[int, str]:
    seat, sep, key = text.partition("=")
    if not sep or not seat.strip().isdigit() or not key.strip():
        raise argparse.ArgumentTypeError("expected SEAT=KEY (the key in hex, or its fingerprint)")
    return int(seat), key


def _verify(args: argparse.Namespace) -> int:  # noqa: C901 (tests/test_complexity.py)
    from protocol.verify import DamagedFile, SaveFileError, check_bytes

    try:
        with open(args.file, "rb") as handle:
            data = handle.read()
        checked = check_bytes(data, args.creator, dict(args.seat_key or []))
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNREADABLE
    except DamagedFile as exc:
        print(f"damaged file: {exc} (nobody signed this damage; no seat is blamed)", file=sys.stderr)
        print(json.dumps({"verdict": "damaged", "reason": str(exc)}))
        return EXIT_DAMAGED
    except SaveFileError as exc:
        print(f"not a valid saved game: {exc}", file=sys.stderr)
        print(json.dumps({"verdict": "unreadable", "reason": str(exc)}))
        return EXIT_UNREADABLE
    for seat in checked.seats:
        print(f"seat {seat.seat}: {seat.name!r}, key fingerprint {seat.fingerprint}")
    verdict = checked.verdict
    if verdict.fair:
        print("fair: every signature, link, rule, card and commitment checks out")
    elif verdict.cheated:
        print(f"CHEAT: seat {verdict.seat} at entry {verdict.seq}: {verdict.reason}")
    elif verdict.seat is not None:
        print(f"NO CHEAT, NO PROVEN RESULT ({verdict.kind}): seat {verdict.seat}: {verdict.reason}")
    else:
        print(f"NO CHEAT, NO RESULT ({verdict.kind}): {verdict.reason}")
    for problem in checked.mismatches:
        print(f"NOT YOUR GAME: {problem}", file=sys.stderr)
    report = verdict.as_json()
    if checked.mismatches:
        report["identities"] = list(checked.mismatches)
    print(json.dumps(report, sort_keys=True))
    if checked.mismatches:
        return EXIT_IDENTITY
    if verdict.fair:
        return EXIT_FAIR
    return EXIT_CHEAT if verdict.cheated else EXIT_NO_RESULT


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
    ver.add_argument("--creator", default=None, help="the creator's (seat 0's) key you know: hex, or its fingerprint")
    ver.add_argument(
        "--seat-key",
        action="append",
        type=_seat_key,
        metavar="SEAT=KEY",
        help="a seat's key you know (hex or fingerprint); may be repeated",
    )
    args = parser.parse_args(argv)

    if args.command == "verify":
        return _verify(args)

    from protocol.sim.network import list_cheats, simulate

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
