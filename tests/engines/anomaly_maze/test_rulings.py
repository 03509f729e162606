"""Anomaly Maze: the points of the rules audit and rulings AM-13, AM-14.

Each test stages one point through ``push``/``forfeit`` only, the way the
protocol drives the engine.
"""

from __future__ import annotations

import pytest

from engines.anomaly_maze.board import E, W
from engines.anomaly_maze.options import DEFAULTS
from engines.anomaly_maze.state import AnomalyMazeState
from engines.core import TABLE, Chance, ChanceKind, Decision, GameOver, IllegalAction, Knowledge
from tests.engines.anomaly_maze.helpers import c, fresh, position


def corridor() -> dict[str, int]:
    """Row D open east-west; everything else closed."""
    return {name: E | W for name in ("D1", "D2", "D3", "D4", "D5", "D6", "D7")}


# -- AM-13: a used object reappears on another allowed cell ----------------------------


@pytest.mark.parametrize("item", ["medkit", "mine", "spikes"])
@pytest.mark.parametrize("hp", [10, 4])  # with 4 HP the spikes eliminate the pawn on the cell itself
def test_a_used_object_never_reappears_on_the_cell_where_it_acted(item, hp):
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), items={item: "D3"}, phase="move")
    s.hp[0] = hp
    s.push(0, ("move", c("D2"), c("D3"), c("D4")))
    pending = s.pending()
    assert isinstance(pending, Chance) and pending.kind is ChanceKind.PUBLIC_SEEDED and pending.what == item
    placed = set()
    for n in range(pending.outcomes):
        twin = s.clone()
        twin.push(TABLE, ("chance", n))
        placed.add(twin.items[item])
    assert c("D3") not in placed
    assert placed == set(s.allowed_cells()) - {c("D3")}  # every other allowed cell stays possible
    assert len(placed) == pending.outcomes


def test_an_object_appearing_at_the_start_of_its_round_may_use_any_allowed_cell():
    s = AnomalyMazeState({"medkit_round": 1})
    while s.pending().what != "medkit":
        s.push(TABLE, ("chance", 0))
    assert s.pending().outcomes == len(s.allowed_cells())


# -- AM-14: no round limit unless asked for; a limit ends in a draw ---------------------------


def test_there_is_no_round_limit_by_default():
    assert DEFAULTS["round_limit"] == 0
    s = position(tiles=0, pawns=("D4", "B2"), turn=1)
    s.round = 5000
    s.mp = [3, 2]
    s.push(1, ("rotate", c("A1"), 1))
    assert s.result() is None
    assert s.round == 5001 and s.pending() == Decision(0, "anomaly")


@pytest.mark.parametrize("mp", [(3, 2), (2, 3), (2, 2), (14, 0)])
def test_a_round_limit_asked_for_ends_in_a_draw_whatever_the_mission_points(mp):
    s = position(tiles=0, pawns=("D4", "B2"), turn=1, options={"round_limit": 5})
    s.round = 5
    s.mp = list(mp)
    s.push(1, ("rotate", c("A1"), 1))
    assert s.result() == GameOver((), "round limit")


def test_the_round_limit_option_is_checked():
    with pytest.raises(ValueError, match="round_limit"):
        fresh({"round_limit": -1})
    with pytest.raises(ValueError, match="unknown"):
        fresh({"round_cap": 60})  # no cap crowns the higher MP: a limit only ends in a draw (AM-14)


# -- forfeit, the display log, the order of placements ---------------------------


@pytest.mark.parametrize("seat", [2, -1, 7, True, "0", None])
def test_forfeit_refuses_a_seat_that_does_not_exist(seat):
    s = fresh()
    before = s.hash()
    with pytest.raises(IllegalAction, match="no seat"):
        s.forfeit(seat)
    assert s.result() is None and s.hash() == before


def test_forfeit_after_the_end_changes_nothing():
    s = fresh()
    s.forfeit(1)
    assert s.result() == GameOver((0,), "forfeit")
    before = s.hash()
    s.forfeit(0)
    assert s.result() == GameOver((0,), "forfeit") and s.hash() == before


def test_the_display_log_is_not_part_of_the_hashed_public_state():
    s = fresh()
    twin = s.clone()
    twin.events.append(("turn", 0, 99))
    twin.event_seq += 1
    assert "events" not in s.public() and "event_seq" not in s.public()
    assert twin.hash() == s.hash()
    assert twin.view(Knowledge(0))["events"][-1] == ["turn", 0, 99]  # the board and the game log still read it


def test_new_key_and_chest_come_before_the_objects_used_on_the_way():
    """The rules page: once the move is over, the new key, then the new chest, then the objects in the
    order they acted — even when an object acted before the chest was opened."""
    s = position(
        tiles=corridor(),
        base=0,
        pawns=("D1", "A7"),
        keys=("D3", None),
        chests=("D4", None),
        items={"mine": "D2"},
        phase="move",
    )
    s.push(0, ("move", c("D2"), c("D3"), c("D4")))
    assert s.mp == [5, 0] and s.hp[0] == 8
    order = []
    while isinstance(p := s.pending(), Chance):
        order.append(p.what)
        s.push(TABLE, ("chance", 0))
    assert order == ["key", "chest", "mine"]


def test_objects_used_on_the_way_are_placed_in_the_order_they_acted():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), items={"mine": "D2", "medkit": "D3"}, phase="move")
    s.push(0, ("move", c("D2"), c("D3")))
    order = []
    while isinstance(p := s.pending(), Chance):
        order.append(p.what)
        s.push(TABLE, ("chance", 0))
    assert order == ["mine", "medkit"]
