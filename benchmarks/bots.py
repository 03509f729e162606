"""Bot ladders for every game: each level against the others, and classic mode against another UHP engine.

    python benchmarks/bots.py [collective-conflict|classic|anomaly-maze|system-launch ...] [--games N]
                              [--uhp-opponent CMD] [options of the game's ladder]

With no game named, every game's ladder runs in turn.  Each game's ladder lives
in ``benchmarks/ladder_<game>.py`` (the game's name with underscores) and
exposes ``main(argv) -> int``; the arguments after the game names go to each
ladder as they are (``--uhp-opponent`` only to ``classic``).  A ladder module
that is not there is skipped with a message.  Figures only: nothing here asserts.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_ROOT = _HERE.parent
# this folder holds a module named ``engines.py``: the repository root must come first
sys.path[:] = [str(_ROOT), str(_HERE)] + [p for p in sys.path if Path(p or ".").resolve() not in (_ROOT, _HERE)]

GAMES = ("collective-conflict", "classic", "anomaly-maze", "system-launch")


def split(argv: list[str]) -> tuple[list[str], list[str]]:
    """The games named at the front of ``argv`` (all if none) and the arguments left for the ladders."""
    games: list[str] = []
    rest = list(argv)
    while rest and not rest[0].startswith("-"):
        name = rest.pop(0)
        if name not in GAMES:
            raise SystemExit(f"unknown game {name!r}; known: {', '.join(GAMES)}")
        games.append(name)
    return games or list(GAMES), rest


def ladder_argv(game: str, rest: list[str]) -> list[str]:
    """``rest`` without ``--uhp-opponent CMD`` for the games that have no UHP match."""
    if game == "classic":
        return rest
    out: list[str] = []
    skip = False
    for arg in rest:
        if skip:
            skip = False
        elif arg == "--uhp-opponent":
            skip = True
        elif not arg.startswith("--uhp-opponent="):
            out.append(arg)
    return out


def main(argv: list[str]) -> int:
    games, rest = split(argv)
    status = 0
    for game in games:
        module_name = "ladder_" + game.replace("-", "_")
        if not (_HERE / f"{module_name}.py").exists():
            print(f"# {game}: no ladder here (benchmarks/{module_name}.py is missing): skipped", flush=True)
            continue
        print(f"# {game}", flush=True)
        module = importlib.import_module(module_name)
        status = max(status, int(module.main(ladder_argv(game, rest)) or 0))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
