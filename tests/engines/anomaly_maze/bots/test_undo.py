"""The hard AI does not undo the opponent's last anomaly while another good option exists.

Two hard AIs must not stall each other, one shifting a line and the other shifting
it back, turn after turn.  The position below is such a moment from a real game
(round 3: seat 1 shifted row A west in round 2, seat 0 shifted it back east).
"""

from __future__ import annotations

from engines.anomaly_maze import MazeBot, board
from engines.anomaly_maze.bots import maze
from engines.core import Knowledge
from tests.engines.anomaly_maze.helpers import fresh

TILES = [12, 5, 6, 12, 12, 12, 12, 12, 7, 3, 3, 9, 14, 3, 3, 6, 13, 3, 7, 11, 11, 10, 10, 3, 13]
TILES += [6, 14, 10, 13, 3, 11, 10, 13, 11, 6, 3, 7, 14, 7, 7, 12, 10, 3, 10, 11, 3, 9, 7, 11]
EAST = ("shift", "row", 0, 1)
WEST = ("shift", "row", 0, -1)


def stalled_position():
    s = fresh()
    s.tiles = list(TILES)
    s.pos, s.key, s.chest = [37, 6], [46, 0], [15, 13]
    s.items = {"medkit": 2, "mine": 1, "spikes": None}
    s.round, s.turn, s.first, s.phase = 3, 1, 0, "anomaly"
    s.events = [("turn", 1, 2), ("shift", 1, *WEST[1:]), ("move", 1), ("turn", 0, 3), ("shift", 0, *EAST[1:])]
    s.events += [("move", 0), ("turn", 1, 3)]
    return s


def test_normal_would_undo_here_but_hard_takes_another_good_option():
    s = stalled_position()
    view = s.view(Knowledge(1))
    assert maze.last_anomaly(view, 0) == EAST
    # the undo is the best single-turn plan: a greedy player would shift row A back
    plans = maze.plan_turn(maze.Snap.of(view), 1, maze.Rules(view["options"]), "normal", None)
    assert plans[0].anomaly == WEST
    legal = s.legal_actions(1, Knowledge(1))
    first = MazeBot(1, b"undo", "hard").choose(s, Knowledge(1), legal)
    assert not maze.undoes(first, EAST, s.tiles), first
    # and the same seed gives the same choice (budgets are counts, never time)
    assert MazeBot(1, b"undo", "hard").choose(s, Knowledge(1), legal) == first


def test_an_undo_is_the_opposite_shift_or_the_rotation_that_restores_the_sides():
    tiles = [board.N | board.S] * board.CELLS
    assert maze.undoes(WEST, EAST, tiles) and not maze.undoes(("shift", "row", 1, -1), EAST, tiles)
    assert not maze.undoes(EAST, EAST, tiles)
    corner = board.N | board.E
    tiles[10] = board.rotate(corner, 1)  # the opponent turned a corner by a quarter
    assert maze.undoes(("rotate", 10, 3), ("rotate", 10, 1), tiles)
    assert not maze.undoes(("rotate", 10, 1), ("rotate", 10, 1), tiles)
    tiles[11] = board.rotate(board.N | board.S, 1)  # a straight: a quarter either way restores it
    assert maze.undoes(("rotate", 11, 1), ("rotate", 11, 1), tiles)
    assert maze.undoes(("rotate", 11, 3), ("rotate", 11, 1), tiles)


def test_only_the_opponents_anomaly_since_my_own_counts():
    s = stalled_position()
    s.events.append(("shift", 1, "col", 2, 1))  # my own, newer: nothing of the opponent's since
    assert maze.last_anomaly(s.view(Knowledge(1)), 0) is None
