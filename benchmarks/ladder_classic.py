"""Classic mode over UHP: our engine's levels against each other, and a match against another UHP engine.

    python benchmarks/bots.py classic [--games N] [--levels "depth 1,depth 2,time 00:00:01"]
                                      [--uhp-opponent CMD] [--time 00:00:01] [--openings K]

Every game is played between two UHP engine processes (ours is
``python -m engines.collective_conflict.uhp``), the harness reading each
``bestmove`` answer (its last line before ``ok``) and sending the move to both
engines with ``play``.  The harness keeps its own copy of the game as the
referee: it ends a game when its status is decided, at the third occurrence of a
position (the repetition draw, CC-22), or at ``--max-plies`` (a "ply cap" draw,
reported apart).  Colours alternate game by game; because both engines are
deterministic, the first ``--openings`` plies of game ``g`` are drawn from the
harness's stream seeded by ``g`` so that the games differ.  For each pairing it
prints one JSON line: wins, draws and losses of the first engine, how the games
ended, and the first engine's decision times (median and max wall-clock
seconds, measured here around each ``bestmove``).  Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from engines.collective_conflict.classic_search import position_key  # noqa: E402
from engines.collective_conflict.uhp import UhpGame  # noqa: E402
from engines.core.seeded import SeededStream  # noqa: E402

OURS = f"{shlex.quote(sys.executable)} -m engines.collective_conflict.uhp"


class UhpProcess:
    """One UHP engine over a pipe: send a command, read its answer up to ``ok``."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            command, shell=True, cwd=_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.read()  # the engine's greeting (its ``info``)

    def read(self) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine {self.command!r} closed its output")
            line = line.rstrip("\n")
            if line == "ok":
                return lines
            lines.append(line)

    def ask(self, text: str) -> list[str]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()
        return self.read()

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write("exit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class _Budgeted:
    """A UHP engine whose ``bestmove`` always carries its own budget."""

    def __init__(self, engine: UhpProcess, budget: str) -> None:
        self.engine = engine
        self.budget = budget
        self.command = engine.command

    def ask(self, text: str) -> list[str]:
        if text.startswith("bestmove"):
            text = f"bestmove {self.budget}"
        return self.engine.ask(text)

    def close(self) -> None:
        self.engine.close()


def play_game(white: _Budgeted, black: _Budgeted, game_no: int, openings: int, max_plies: int) -> dict:
    """One game; returns its result (``WhiteWins`` ...), how it ended and each side's decision times."""
    referee = UhpGame()
    seen: dict[tuple, int] = {position_key(referee.state): 1}
    for engine in (white, black):
        engine.ask("newgame Base")
    rng = SeededStream(f"classic-openings/{game_no}".encode(), "openings")
    times: tuple[list[float], list[float]] = ([], [])
    for ply in range(max_plies):
        status = referee.status()
        if status in ("WhiteWins", "BlackWins", "Draw"):
            return {"result": status, "end": "rules", "plies": ply, "times": times}
        mover = referee.seat_to_move()
        if ply < openings:
            legal = referee.legal()
            move = referee.to_move_string(legal[rng.below(len(legal))])
        else:
            started = time.perf_counter()
            answer = (white, black)[mover].ask("bestmove")
            times[mover].append(time.perf_counter() - started)
            move = answer[-1].strip() if answer else ""
        try:
            referee.play(referee.parse(move))
        except Exception as exc:  # an engine's move the harness cannot play: reported apart, not scored
            return {
                "result": "error",
                "end": f"{(white, black)[mover].command} played {move!r} ({exc}) after {referee.game_string()}",
                "plies": ply,
                "times": times,
            }
        for engine in (white, black):
            reply = engine.ask(f"play {move}")
            if not reply or reply[0].startswith(("err", "invalidmove")):
                return {
                    "result": "error",
                    "end": f"{engine.command} refused {move!r}: {reply}",
                    "plies": ply,
                    "times": times,
                }
        key = position_key(referee.state)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3:
            return {"result": "Draw", "end": "repetition", "plies": ply + 1, "times": times}
    return {"result": "Draw", "end": "ply cap", "plies": max_plies, "times": times}


def match(
    first: str,
    second: str,
    first_budget: str,
    second_budget: str,
    games: int,
    openings: int,
    max_plies: int,
    start: int = 0,
) -> dict:
    """``games`` games of ``first`` against ``second``, colours alternating (``first`` is White in even games)."""
    a, b = _Budgeted(UhpProcess(first), first_budget), _Budgeted(UhpProcess(second), second_budget)
    wins = draws = losses = errors = 0
    ends: dict[str, int] = {}
    times: list[float] = []
    try:
        for g in range(start, start + games):
            first_white = g % 2 == 0
            white, black = (a, b) if first_white else (b, a)
            result = play_game(white, black, g, openings, max_plies)
            end = "error" if result["result"] == "error" else result["end"]
            ends[end] = ends.get(end, 0) + 1
            times.extend(result["times"][0 if first_white else 1])
            outcome = result["result"]
            if outcome == "error":
                errors += 1
            elif outcome == "Draw":
                draws += 1
            elif (outcome == "WhiteWins") == first_white:
                wins += 1
            else:
                losses += 1
            print(
                f"  game {g}: first engine {'White' if first_white else 'Black'}: {outcome} "
                f"({result['end']}, {result['plies']} plies)",
                file=sys.stderr,
                flush=True,
            )
    finally:
        a.close()
        b.close()
    decided = wins + losses
    return {
        "first": first if first != OURS else "ours",
        "first_budget": first_budget,
        "second": second if second != OURS else "ours",
        "second_budget": second_budget,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "errors": errors,
        "win_share_of_decided": round(wins / decided, 3) if decided else None,
        "ends": ends,
        "first_median_seconds": round(statistics.median(times), 3) if times else None,
        "first_max_seconds": round(max(times), 3) if times else None,
        "openings": openings,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bots.py classic", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pairing (colours alternate)")
    parser.add_argument(
        "--levels",
        default="depth 1,depth 2,time 00:00:01",
        help="our levels for the ladder (bestmove arguments), comma-separated; empty: no ladder",
    )
    parser.add_argument("--uhp-opponent", default="", help="command that starts a second UHP engine")
    parser.add_argument("--time", default="00:00:01", help="bestmove time for the match against --uhp-opponent")
    parser.add_argument("--openings", type=int, default=2, help="plies drawn at random at the start of each game")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--start", type=int, default=0, help="number of the first game (its openings follow it)")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for i, low in enumerate(levels):
        for high in levels[i + 1 :]:
            result = match(OURS, OURS, high, low, args.games, args.openings, args.max_plies, args.start)
            print(json.dumps({"pairing": f"{high} vs {low}", **result}, sort_keys=True), flush=True)
    if args.uhp_opponent:
        budget = f"time {args.time}"
        result = match(OURS, args.uhp_opponent, budget, budget, args.games, args.openings, args.max_plies, args.start)
        print(json.dumps({"pairing": f"ours ({budget}) vs opponent", **result}, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
