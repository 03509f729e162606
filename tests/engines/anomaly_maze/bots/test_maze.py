"""The AI player: plays legal phases, takes the obvious tactics, beats random play."""

from __future__ import annotations

import pytest

from engines.anomaly_maze import SPEC, MazeBot, board
from engines.anomaly_maze.board import E, N, S, W
from engines.anomaly_maze.bots import maze
from engines.core import Knowledge, Referee
from tests.engines.anomaly_maze.helpers import c, position

LEVELS = ["easy", "normal", "hard"]


def choose(bot: MazeBot, s):
    p = s.pending()
    return bot.choose(s, Knowledge(p.seat), s.legal_actions(p.seat, Knowledge(p.seat)))


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_it_pushes_an_opponent_off_the_edge(level):
    # seat 1 stands on D7, the tile that crosses the edge when row D goes east
    s = position(tiles={}, base=N | S, pawns=("B2", "D7"), keys=("F3", "B5"), chests=("F5", "B3"))
    action = choose(MazeBot(0, b"t", level), s)
    s.push(0, action)
    assert s.pos[1] is None and s.mp[0] == 1, action


@pytest.mark.parametrize("level", LEVELS)
def test_it_always_rolls_when_it_can(level):
    s = position(tiles={}, base=E | W, pawns=("D1", "D5"), phase="combat")
    assert choose(MazeBot(0, b"t", level), s) == ("attack",)


@pytest.mark.parametrize("level", LEVELS)
def test_it_walks_key_to_chest_when_both_are_in_reach(level):
    corridor = {f"D{k}": E | W for k in range(1, 8)}
    s = position(tiles=corridor, base=0, pawns=("D1", "A7"), keys=("D2", "F2"), chests=("D4", "F4"), phase="move")
    action = choose(MazeBot(0, b"t", level), s)
    assert action == ("move", c("D2"), c("D3"), c("D4"))


def test_it_steps_around_spikes_when_hurt():
    # two ways from D1 to D3's chest row: straight through the spikes on D2, or round by E1-E2-E3
    tiles = {"D1": E | S, "D2": E | W, "D3": W | S, "E1": N | E, "E2": E | W, "E3": N | W}
    s = position(tiles=tiles, base=0, pawns=("D1", "A7"), items={"spikes": "D2"}, keys=("E3", "A2"), phase="move")
    s.hp[0] = 5
    s.chest[0] = c("B1")
    action = choose(MazeBot(0, b"t", "normal"), s)
    assert c("D2") not in action[1:], action
    assert action[-1] == c("E3")  # and still takes its key


def test_it_heals_when_hurt():
    tiles = {"D1": E, "D2": E | W, "D3": W}
    s = position(tiles=tiles, base=0, pawns=("D1", "A7"), items={"medkit": "D3"}, keys=("A1", "A2"), phase="move")
    s.chest = [c("A3"), c("A4")]
    s.hp[0] = 4
    assert choose(MazeBot(0, b"t", "normal"), s) == ("move", c("D2"), c("D3"))


def test_it_blocks_a_waiting_respawn_but_leaves_before_blacksaw():
    s = position(tiles={}, base=0, pawns=("B6", None), keys=("G7", "G6"), chests=("G5", "G4"), phase="move")
    s.countdown[1] = 0
    rules = maze.Rules(s.opts)
    snap = maze.Snap.of(s.view(Knowledge(0)))
    stay = maze.evaluate(snap, 0, 0, rules)
    snap.pos[0] = c("A7")
    assert maze.evaluate(snap, 0, 0, rules) > stay  # blocking is worth a step
    snap.blocks[1] = 2
    assert maze.evaluate(snap, 0, 0, rules) < stay  # but not the BlackSaw


def test_damage_distribution_counts_every_face_sequence():
    dist = maze._damage_distribution((0, 0, 1, 1, 2, 3), 2)
    assert sum(w for _, w in dist) == 36
    assert dict(dist)[6] == 1 and dict(dist)[0] == 4


def test_distances_count_walls_as_extra_steps():
    tiles = [0] * 49
    tiles[c("D1")] = E
    tiles[c("D2")] = W
    d = maze.distances(tiles, c("D1"))
    assert d[c("D2")] == 1 and d[c("D3")] == 1 + maze.WALL and d[c("D1")] == 0


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_plays_whole_games_legally_and_deterministically(level):
    seed = b"ai-legal"
    finals = []
    for _ in range(2):
        state = SPEC.new_state(2, {"round_limit": 12})
        bots = [MazeBot(0, seed, level), SPEC.bots["random"](1, seed)]
        Referee(state, seed).play(bots)  # the referee's push() refuses any illegal choice
        finals.append(state.hash())
    assert finals[0] == finals[1]


def test_normal_beats_random_and_easy():
    for g, opponent in enumerate(["random", "random", "easy", "easy"]):
        seed = f"ai-strength/{g}".encode()
        seat = g % 2
        bots = [None, None]
        bots[seat] = SPEC.bots["normal"](seat, seed)
        bots[1 - seat] = SPEC.bots[opponent](1 - seat, seed)
        state = SPEC.new_state(2, {})
        over = Referee(state, seed).play(bots)
        assert state.mp[seat] > state.mp[1 - seat], (opponent, over, state.mp)


class ViewOnly:
    """A stand-in state that offers the bot nothing but a seat's view."""

    def __init__(self, state):
        self._state = state

    def view(self, knowledge):
        return self._state.view(knowledge)


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_reads_nothing_but_its_view(level):
    s = position(tiles={}, base=N | E | S, pawns=("C3", "E5"), keys=("F3", "B5"), chests=("F6", "B2"))
    legal = s.legal_actions(0, Knowledge(0))
    expected = MazeBot(0, b"t", level).choose(s, Knowledge(0), legal)
    assert MazeBot(0, b"t", level).choose(ViewOnly(s), Knowledge(0), legal) == expected


def test_edge_cells_are_those_a_shift_pushes_off():
    assert c("D7") in maze.EDGE_CELLS and c("G2") in maze.EDGE_CELLS and c("F1") in maze.EDGE_CELLS
    assert c("D4") not in maze.EDGE_CELLS and not set(board.RESPAWNS) & maze.EDGE_CELLS
