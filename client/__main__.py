"""``sealed-table``: the desktop program, or a headless demo where there is no display."""

from __future__ import annotations

import argparse
import os
import sys

from client.registry import GAMES


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sealed-table", description=__doc__)
    parser.add_argument("--headless", action="store_true", help="run the headless demo even with a display")
    parser.add_argument("--game", default=GAMES[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default=None, help="the demo's bot in every seat (default: the game's own)")
    args = parser.parse_args(argv)
    if not args.headless and has_display():
        try:
            from client.app import run_app
        except ImportError as exc:  # the desktop program is not installed or built
            print(f"The desktop program cannot start ({exc}); running the headless demo.", file=sys.stderr)
        else:
            return run_app()
    else:
        print("No display found: running a headless demo game with bots.", file=sys.stderr)
    from client.headless.demo import headless_demo

    return headless_demo(args.game, args.players, args.bot)


if __name__ == "__main__":
    sys.exit(main())
