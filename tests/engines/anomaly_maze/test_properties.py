"""Property tests over whole seeded random games of Anomaly Maze.

With the default settings — no round limit (AM-14) — random players always reach 15 Mission
Points: every game below ends by mission points, not by a limit, within a generous bound on
its length.  Along the way every pending Decision has a legal action (phases with nothing to
choose end by themselves), only the seat to move has any, and ``check()`` accepts exactly the
legal actions: it is compared with ``legal_actions()`` over a superset of candidate actions
(every rotation and shift with out-of-range values, every grid path of up to three steps, and
junk).  Some games see a seat leave or be declared gone at a random moment (a forfeit): the
other seat wins and nothing is legal afterwards.  A bigger run:
``AM_PROPERTY_GAMES=100 python3 -m pytest tests/engines/anomaly_maze/test_properties.py``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from engines.anomaly_maze import board
from engines.anomaly_maze.state import AnomalyMazeState
from engines.core import TABLE, Chance, Decision, GameOver, IllegalAction, Knowledge, SeededStream

GAMES = int(os.environ.get("AM_PROPERTY_GAMES", "6"))
#: A random game lasts several hundred to a few thousand rounds (a few thousand decisions); this
#: bound only stops a game that would never end.
MAX_DECISIONS = 400_000
#: check() is compared with legal_actions() at about one decision in this many.
PROBE_EVERY = 25

JUNK: list[Any] = [(), ("pass",), ("move", "D3"), ("move", None), ("rotate", 24.0, 1), ("shift", "row", True, 1)]
JUNK += [("attack", 1), ("no-attack", 0), ("chance", 0), ["rotate", 24, 1], None, "move", ("rotate", 24, True)]


def anomaly_candidates() -> list[Any]:
    out: list[Any] = [("rotate", cell, q) for cell in range(-1, board.CELLS + 1) for q in range(-1, 5)]
    out += [("shift", a, i, d) for a in ("row", "col", "diag") for i in range(-1, 8) for d in (-1, 0, 1, 2)]
    return out


ANOMALY = anomaly_candidates()


def grid_paths(start: int) -> list[Any]:
    """Every path of 0–3 orthogonal steps on the grid from ``start``, walls and revisits ignored."""
    out: list[tuple[int, ...]] = [()]
    frontier: list[tuple[int, ...]] = [()]
    for _ in range(4):
        grown = []
        for path in frontier:
            here = path[-1] if path else start
            r, col = divmod(here, board.SIZE)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < board.SIZE and 0 <= col + dc < board.SIZE:
                    grown.append((*path, (r + dr) * board.SIZE + col + dc))
        out += grown
        frontier = grown
    return [("move", *p) for p in out]


def candidates(state: AnomalyMazeState) -> list[Any]:
    if state.phase == "anomaly":
        base = ANOMALY
    elif state.phase == "move":
        me = state.pos[state.turn]
        base = grid_paths(me) if me is not None else []
    else:
        base = [("attack",), ("no-attack",)]
    return [*base, *JUNK, ("move",), ("attack",), ("rotate", 24, 1)]


def accepted(state: AnomalyMazeState, seat: int, action: Any) -> bool:
    try:
        state.check(seat, action)
    except IllegalAction:
        return False
    return True


def probe(state: AnomalyMazeState, seat: int, legal: list[Any]) -> None:
    """check() accepts exactly the legal actions, for the seat to move and for the other one."""
    pool = candidates(state) + legal
    took = {a for a in pool if accepted(state, seat, a)}
    assert took == set(legal), (took ^ set(legal), state.phase)
    assert not any(accepted(state, 1 - seat, a) for a in legal[:20])
    assert not any(accepted(state, TABLE, a) for a in legal[:20])


def play(index: int, forfeit: bool) -> AnomalyMazeState:
    """One random game (default settings: no limit), optionally with a forfeit at a random step."""
    seed = f"am-properties/{index}".encode()
    rng = SeededStream(seed, "play")
    leave_at = rng.below(3000) if forfeit else -1
    state = AnomalyMazeState()
    decisions = steps = 0
    while not state.is_over():
        if steps == leave_at:
            seat = rng.below(2)
            state.forfeit(seat)
            assert state.result() == GameOver((1 - seat,), "forfeit")
            break
        steps += 1
        pending = state.pending()
        if isinstance(pending, Chance):
            state.push(TABLE, ("chance", rng.below(pending.outcomes)))
            continue
        assert isinstance(pending, Decision)
        seat = pending.seat
        legal = state.legal_actions(seat, Knowledge(seat))
        assert legal, f"seat {seat} must decide {pending.what!r} with no legal action"
        assert state.legal_actions(1 - seat, Knowledge(1 - seat)) == []
        if pending.what == "move":
            assert len(legal) > 1  # a move phase with only "stay" ends by itself
        if rng.below(PROBE_EVERY) == 0:
            probe(state, seat, legal)
        state.push(seat, legal[rng.below(len(legal))])
        decisions += 1
        assert decisions < MAX_DECISIONS, "the game did not end"
    return state


@pytest.mark.parametrize("index", range(GAMES))
def test_random_games_end_at_fifteen_mission_points_without_a_limit(index):
    state = play(index, forfeit=False)
    over = state.result()
    assert over is not None and over.reason == "mission points", over
    (winner,) = over.winners
    assert state.mp[winner] >= state.opts["win_mp"] > state.mp[1 - winner]
    assert state.opts["round_limit"] == 0
    for seat in (0, 1):
        assert state.legal_actions(seat, Knowledge(seat)) == []


@pytest.mark.parametrize("index", range(GAMES))
def test_a_seat_leaving_at_a_random_moment_ends_the_game_for_the_other(index):
    state = play(1000 + index, forfeit=True)
    over = state.result()
    assert over is not None and over.reason in ("forfeit", "mission points")
    if over.reason == "forfeit":
        for seat in (0, 1):
            assert state.legal_actions(seat, Knowledge(seat)) == []
        assert not any(accepted(state, seat, a) for seat in (0, 1, TABLE) for a in [*ANOMALY[:40], *JUNK])
        before = state.hash()
        state.forfeit(over.winners[0])  # a second departure after the end changes nothing
        assert state.hash() == before and state.result() == over
