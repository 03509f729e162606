"""Collective Conflict: every bot level against every other, at several player counts.

    python benchmarks/bots.py collective-conflict [--games N] [--players 2,4] [--levels random,greedy,search]
                                                  [--max-rounds R] [--seed S]

For each player count and each pair of levels (A, B) it plays ``--games``
games with A in one seat (seat ``g % players`` in game ``g``: the seats
rotate) and B in all the others, through the in-process referee, each bot
seeing only its seat's knowledge.  One JSON line per pairing: A's wins, draws
and losses, how the games ended (the engine's reason; "surround" is a Network
collapsing because its command unit was surrounded, counted apart when it came
before round 100), the mean number of rounds, and the decision time (median
and max wall-clock seconds of A and of B, and A's CPU seconds: the machine is
shared), and what A's actions were (placements, moves, climbs, jumps, traps,
Data Cores, the Virus).  Games are capped at ``--max-rounds`` (passed to the
engine as its self-play round limit; the harness also stops a game there, in
case the engine's option has gone).  Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from engines.collective_conflict import SPEC, CollectiveConflictState  # noqa: E402
from engines.collective_conflict.rules import CLIMBER, RUNNER  # noqa: E402
from engines.core import Decision, GameOver, Referee  # noqa: E402
from engines.core.hexgrid import hex_id  # noqa: E402

SURROUND_BY = 100


def new_state(players: int, max_rounds: int) -> CollectiveConflictState:
    """A game with the round limit as an option if the engine still has it (else the harness stops the game)."""
    try:
        return CollectiveConflictState(players, {"max_rounds": max_rounds})
    except ValueError:
        return CollectiveConflictState(players, {})


def play(players: int, seat_levels: list[str], seed: bytes, max_rounds: int) -> tuple[GameOver | None, int, list]:
    """One game: (its end or None at the harness's cap, its rounds, [(seat, wall, cpu seconds)] per decision)."""
    state = new_state(players, max_rounds)
    referee = Referee(state, seed)
    bots = [SPEC.bots[level](seat, seed) for seat, level in enumerate(seat_levels)]
    times: list[tuple[int, float]] = []
    while True:
        pending = referee.run_table()
        if not isinstance(pending, Decision):
            assert isinstance(pending, GameOver)
            return pending, state.round, times
        if state.round > max_rounds:
            return None, state.round, times
        seat = pending.seat
        knowledge = referee.seats[seat]
        legal = state.legal_actions(seat, knowledge)
        started, started_cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(state, knowledge, legal)
        times.append((seat, time.perf_counter() - started, time.process_time() - started_cpu, use(state, action)))
        referee.decide(seat, action)


def use(state: CollectiveConflictState, action: tuple) -> str:
    """What kind of action this is, for the tally of what each level uses."""
    verb = action[0]
    if verb == "place":
        return "place"
    if verb in ("jump", "virus"):
        return verb
    if verb == "cast":
        return "trap (armed)" if action[3] is True else "trap (unarmed)"
    kind = state.p_kind[state.stacks[hex_id(*action[1])][-1]]
    if kind == RUNNER and (len(action) == 4 or hex_id(*action[2]) in state.cores):
        return "data core"
    return "climb" if kind == CLIMBER else "move"


def _end(over: GameOver | None, rounds: int) -> str:
    if over is None:
        return "round cap (harness)"
    if over.reason == "last active Network":
        return "surround" if rounds < SURROUND_BY else f"surround from round {SURROUND_BY}"
    return over.reason


def pairing(players: int, a: str, b: str, games: int, seed: str, max_rounds: int) -> dict:
    wins = draws = losses = 0
    ends: dict[str, int] = {}
    rounds: list[int] = []
    a_times: list[float] = []
    b_times: list[float] = []
    a_cpu: list[float] = []
    uses: dict[str, int] = {}
    for g in range(games):
        a_seat = g % players
        levels = [a if s == a_seat else b for s in range(players)]
        over, n, times = play(players, levels, f"{seed}/{players}/{a}-{b}/{g}".encode(), max_rounds)
        end = _end(over, n)
        ends[end] = ends.get(end, 0) + 1
        rounds.append(n)
        for seat, t, cpu, kind in times:
            (a_times if seat == a_seat else b_times).append(t)
            if seat == a_seat:
                a_cpu.append(cpu)
                uses[kind] = uses.get(kind, 0) + 1
        if over is None or over.draw:
            draws += 1
        elif over.winners == (a_seat,):
            wins += 1
        else:
            losses += 1
        winner = "draw" if over is None or over.draw else f"seat {over.winners[0]} won"
        print(f"  {players}p {a} (seat {a_seat}) vs {b}: {end}, {winner}, round {n}", file=sys.stderr, flush=True)
    return {
        "players": players,
        "level": a,
        "against": b,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": round(wins / games, 3) if games else None,
        "ends": ends,
        "uses": dict(sorted(uses.items())),
        "surround_before_100": round(ends.get("surround", 0) / games, 3) if games else None,
        "mean_rounds": round(statistics.mean(rounds), 1) if rounds else None,
        "median_seconds": round(statistics.median(a_times), 3) if a_times else None,
        "max_seconds": round(max(a_times), 3) if a_times else None,
        "median_cpu_seconds": round(statistics.median(a_cpu), 3) if a_cpu else None,
        "max_cpu_seconds": round(max(a_cpu), 3) if a_cpu else None,
        "against_median_seconds": round(statistics.median(b_times), 3) if b_times else None,
        "against_max_seconds": round(max(b_times), 3) if b_times else None,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bots.py collective-conflict", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per pairing and player count")
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated")
    parser.add_argument("--levels", default=",".join(SPEC.bots), help="levels, weakest first, comma-separated")
    parser.add_argument("--max-rounds", type=int, default=150)
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--pairs", default="", help="only these pairings, e.g. search:greedy,greedy:random")
    args = parser.parse_args(argv)
    levels = [lv for lv in args.levels.split(",") if lv]
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",") if p]
    if not pairs:
        pairs = [(high, low) for i, low in enumerate(levels) for high in levels[i + 1 :]]
    for players in (int(p) for p in args.players.split(",")):
        for a, b in pairs:
            result = pairing(players, a, b, args.games, args.seed, args.max_rounds)
            print(json.dumps(result, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
