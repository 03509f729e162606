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
ended, and each engine's decision times (median and max wall-clock seconds,
measured here around each ``bestmove``, and how many took longer than the
time given).

Only proper games are scored.  An engine whose answer is not a legal move is
restarted (a fresh process: no cached answer) and asked again from the same
position (``newgame`` with the game string), up to ``--retries`` times; the
count of such re-asks is reported.  This is for hivemind, whose time-limited
search answers ``pass`` (its move for "no best move found") when its first
depth does not finish within the time, which on a loaded machine happens often;
it caches that answer for the position, so a plain re-ask returns it again.
A game that still cannot go on is void: it is reported, not scored, and the
same game (colours and openings) is played again, once; the match goes on
until ``--games`` proper games are played or twice as many were tried.
Figures only: nothing here asserts.
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

from engines.collective_conflict.bots.classic_search import position_key  # noqa: E402
from engines.collective_conflict.uhp import UhpGame  # noqa: E402
from engines.core.seeded import SeededStream  # noqa: E402

OURS = f"{shlex.quote(sys.executable)} -m engines.collective_conflict.uhp"


class UhpProcess:
    """One UHP engine over a pipe: send a command, read its answer up to ``ok``."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command, shell=True, cwd=_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
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

    def restart(self) -> None:
        """A fresh process (nothing cached); the caller sets its position again."""
        self.close()
        self.start()

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

    def restart(self) -> None:
        self.engine.restart()

    def close(self) -> None:
        self.engine.close()


def play_game(
    white: _Budgeted, black: _Budgeted, game_no: int, openings: int, max_plies: int, retries: int = 2
) -> dict:
    """One game; returns its result (``WhiteWins`` ... or ``void``), how it ended, times and re-asks."""
    referee = UhpGame()
    seen: dict[tuple, int] = {position_key(referee.state): 1}
    for engine in (white, black):
        engine.ask("newgame Base")
    rng = SeededStream(f"classic-openings/{game_no}".encode(), "openings")
    times: tuple[list[float], list[float]] = ([], [])
    reasks = [0, 0]

    def result(outcome: str, end: str, plies: int) -> dict:
        return {"result": outcome, "end": end, "plies": plies, "times": times, "reasks": reasks}

    for ply in range(max_plies):
        status = referee.status()
        if status in ("WhiteWins", "BlackWins", "Draw"):
            return result(status, "rules", ply)
        mover = referee.seat_to_move()
        engine = (white, black)[mover]
        if ply < openings:
            legal = referee.legal()
            move = referee.to_move_string(legal[rng.below(len(legal))])
            referee.play(referee.parse(move))
        else:
            for attempt in range(retries + 1):
                started = time.perf_counter()
                answer = engine.ask("bestmove")
                elapsed = time.perf_counter() - started
                move = answer[-1].strip() if answer else ""
                try:
                    referee.play(referee.parse(move))  # an illegal move raises before changing anything
                except Exception as exc:  # not a legal move here: a fresh engine is asked again
                    if attempt == retries:
                        return result(
                            "void", f"{engine.command} played {move!r} ({exc}) after {referee.game_string()}", ply
                        )
                    reasks[mover] += 1
                    engine.restart()
                    engine.ask(f"newgame {referee.game_string()}")
                    continue
                times[mover].append(elapsed)
                break
        for other in (white, black):
            reply = other.ask(f"play {move}")
            if not reply or reply[0].startswith(("err", "invalidmove")):
                return result("void", f"{other.command} refused {move!r}: {reply}", ply)
        key = position_key(referee.state)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3:
            return result("Draw", "repetition", ply + 1)
    return result("Draw", "ply cap", max_plies)


def _budget_seconds(budget: str) -> float | None:
    """The seconds of a ``time hh:mm:ss`` budget (None for a depth)."""
    words = budget.split()
    if len(words) == 2 and words[0] == "time":
        h, m, sec = (int(x) for x in words[1].split(":"))
        return float(h * 3600 + m * 60 + sec)
    return None


def _timing(values: list[float], budget: str) -> dict:
    """Median and max seconds of one engine's answers, and how many took longer than its time."""
    limit = _budget_seconds(budget)
    return {
        "median_seconds": round(statistics.median(values), 3) if values else None,
        "max_seconds": round(max(values), 3) if values else None,
        "over_time": sum(1 for t in values if t > limit) if limit is not None else None,
        "answers": len(values),
    }


def match(
    first: str,
    second: str,
    first_budget: str,
    second_budget: str,
    games: int,
    openings: int,
    max_plies: int,
    start: int = 0,
    retries: int = 2,
) -> dict:
    """``games`` proper games of ``first`` against ``second``, colours alternating (``first`` White in even games)."""
    a, b = _Budgeted(UhpProcess(first), first_budget), _Budgeted(UhpProcess(second), second_budget)
    wins = draws = losses = void = 0
    ends: dict[str, int] = {}
    times: tuple[list[float], list[float]] = ([], [])
    reasks = [0, 0]
    g = start
    try:
        while wins + draws + losses < games and g < start + 2 * games:
            first_white = g % 2 == 0
            white, black = (a, b) if first_white else (b, a)
            for _attempt in range(2):
                result = play_game(white, black, g, openings, max_plies, retries)
                ours, theirs = (0, 1) if first_white else (1, 0)
                times[0].extend(result["times"][ours])
                times[1].extend(result["times"][theirs])
                reasks[0] += result["reasks"][ours]
                reasks[1] += result["reasks"][theirs]
                outcome = result["result"]
                mine, other = result["times"][ours], result["times"][theirs]
                print(
                    f"  game {g}: first engine {'White' if first_white else 'Black'}: {outcome} "
                    f"({result['end']}, {result['plies']} plies; slowest answer: first "
                    f"{max(mine, default=0):.3f} s, second {max(other, default=0):.3f} s; "
                    f"re-asks {result['reasks'][ours]}/{result['reasks'][theirs]})",
                    file=sys.stderr,
                    flush=True,
                )
                if outcome != "void":
                    break
                void += 1
            g += 1
            if outcome == "void":
                continue
            ends[result["end"]] = ends.get(result["end"], 0) + 1
            if outcome == "Draw":
                draws += 1
            elif (outcome == "WhiteWins") == first_white:
                wins += 1
            else:
                losses += 1
    finally:
        a.close()
        b.close()
    decided = wins + losses
    return {
        "first": first if first != OURS else "ours",
        "first_budget": first_budget,
        "second": second if second != OURS else "ours",
        "second_budget": second_budget,
        "games": wins + draws + losses,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "void_games": void,
        "reasks": {"first": reasks[0], "second": reasks[1]},
        "win_share_of_decided": round(wins / decided, 3) if decided else None,
        "ends": ends,
        "first_timing": _timing(times[0], first_budget),
        "second_timing": _timing(times[1], second_budget),
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
    parser.add_argument("--retries", type=int, default=2, help="re-asks of a restarted engine after an illegal answer")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for i, low in enumerate(levels):
        for high in levels[i + 1 :]:
            result = match(OURS, OURS, high, low, args.games, args.openings, args.max_plies, args.start, args.retries)
            print(json.dumps({"pairing": f"{high} vs {low}", **result}, sort_keys=True), flush=True)
    if args.uhp_opponent:
        budget = f"time {args.time}"
        result = match(
            OURS, args.uhp_opponent, budget, budget, args.games, args.openings, args.max_plies, args.start, args.retries
        )
        print(json.dumps({"pairing": f"ours ({budget}) vs opponent", **result}, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
