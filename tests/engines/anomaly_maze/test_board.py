"""Maze geometry: tiles, rotations, cyclic shifts, paths and lines of sight."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.anomaly_maze import board
from engines.anomaly_maze.board import E, N, S, W
from tests.engines.anomaly_maze.helpers import c


def test_cell_names_follow_the_rule_text():
    assert board.name(board.RESPAWNS[0]) == "G1" and board.name(board.RESPAWNS[1]) == "A7"
    assert board.parse("a1") == 0 and board.name(48) == "G7"
    assert all(board.parse(board.name(x)) == x for x in range(49))
    with pytest.raises(ValueError):
        board.parse("H1")


def test_respawn_tiles_open_towards_the_board():
    assert {c("G1"): N | E, c("A7"): S | W} == board.RESPAWN_TILES
    assert len(board.ORDINARY) == 47


def test_shapes_are_straights_corners_and_tees_in_every_rotation():
    shapes = set(board.SHAPES)
    assert len(shapes) == 10
    assert {bin(m).count("1") for m in shapes} == {2, 3}
    for m in shapes:
        assert {board.rotate(m, q) for q in range(4)} <= shapes


def test_rotation_is_clockwise_quarter_turns():
    assert board.rotate(N, 1) == E and board.rotate(N | E, 1) == E | S and board.rotate(W, 1) == N
    assert board.rotate(N | E | S, 2) == S | W | N
    for m in range(16):
        assert board.rotate(m, 4) == m


def _row_tiles(tiles, r):
    return [tiles[board.cell(r, k)] for k in range(7)]


@pytest.mark.parametrize("direction", [1, -1])
def test_column_shift_without_respawn_is_a_cycle_of_seven(direction):
    tiles = list(range(49))
    shifted = board.shift_tiles(tiles, "col", 3, direction)
    col = [tiles[board.cell(r, 3)] for r in range(7)]
    expected = col[-1:] + col[:-1] if direction == 1 else col[1:] + col[:1]
    assert [shifted[board.cell(r, 3)] for r in range(7)] == expected
    _, source, target = board.SHIFTS[("col", 3, direction)]
    assert (board.name(source), board.name(target)) == (("G4", "A4") if direction == 1 else ("A4", "G4"))


@pytest.mark.parametrize("direction", [1, -1])
def test_row_shift_without_respawn_is_a_cycle_of_seven(direction):
    tiles = list(range(49))
    shifted = board.shift_tiles(tiles, "row", 3, direction)
    row = _row_tiles(tiles, 3)
    expected = row[-1:] + row[:-1] if direction == 1 else row[1:] + row[:1]
    assert _row_tiles(shifted, 3) == expected
    assert [shifted[x] for x in range(49) if x // 7 != 3] == [x for x in range(49) if x // 7 != 3]
    _, source, target = board.SHIFTS[("row", 3, direction)]
    assert (source, target) == ((c("D7"), c("D1")) if direction == 1 else (c("D1"), c("D7")))
    for _ in range(6):
        shifted = board.shift_tiles(shifted, "row", 3, direction)
    assert shifted == tiles  # seven shifts: every tile travelled the full cycle


@pytest.mark.parametrize(
    ("axis", "index", "respawn"), [("row", 6, "G1"), ("col", 0, "G1"), ("row", 0, "A7"), ("col", 6, "A7")]
)
@pytest.mark.parametrize("direction", [1, -1])
def test_lines_with_a_respawn_cycle_six_tiles_around_it(axis, index, respawn, direction):
    tiles = list(range(49))
    shifted = board.shift_tiles(tiles, axis, index, direction)
    assert shifted[c(respawn)] == c(respawn)
    line = [x for x in board.line_cells(axis, index) if x != c(respawn)]
    assert sorted(shifted[x] for x in line) == sorted(line)
    assert all(shifted[x] != x for x in line)
    for _ in range(5):
        shifted = board.shift_tiles(shifted, axis, index, direction)
    assert shifted == tiles  # six shifts bring every ordinary tile home
    _, source, target = board.SHIFTS[(axis, index, direction)]
    assert {source, target} == {line[0], line[-1]}


def test_the_respawn_is_jumped_over():
    # row G shifted east: G7's tile comes back in on G2, jumping over G1
    mapping, source, target = board.SHIFTS[("row", 6, 1)]
    assert (board.name(source), board.name(target)) == ("G7", "G2")
    mapping, source, target = board.SHIFTS[("col", 6, -1)]
    assert (board.name(source), board.name(target)) == ("B7", "G7")
    assert c("A7") not in mapping


def test_paths_follow_open_corridors_and_avoid_the_opponent():
    tiles = [0] * 49
    tiles[c("D1")] = E
    tiles[c("D2")] = E | W
    tiles[c("D3")] = E | W | S
    tiles[c("D4")] = W
    tiles[c("E3")] = N
    found = board.paths(tiles, c("D1"), None, 3)
    names = [tuple(board.name(x) for x in p) for p in found]
    assert names[0] == ()
    assert set(names) == {(), ("D2",), ("D2", "D3"), ("D2", "D3", "D4"), ("D2", "D3", "E3")}
    blocked = board.paths(tiles, c("D1"), c("D3"), 3)
    assert [tuple(board.name(x) for x in p) for p in blocked] == [(), ("D2",)]
    assert len(board.paths(tiles, c("D1"), None, 2)) == 3


def test_a_wall_on_either_side_blocks_a_step():
    tiles = [0] * 49
    tiles[c("D1")] = E
    tiles[c("D2")] = N | S  # D2 has no west side open
    assert board.paths(tiles, c("D1"), None, 3) == [()]


def test_paths_never_revisit_a_cell():
    tiles = [15] * 49
    for p in board.paths(tiles, c("D4"), None, 3):
        assert len(set(p)) == len(p) and c("D4") not in p


def test_line_of_sight_needs_an_unbroken_corridor():
    tiles = [E | W] * 49
    assert board.line_of_sight(tiles, c("D1"), c("D7"))
    assert not board.line_of_sight(tiles, c("A1"), c("D1"))  # same column, but no N/S sides
    tiles[c("D4")] = N | S
    assert not board.line_of_sight(tiles, c("D1"), c("D7"))
    assert board.line_of_sight(tiles, c("D1"), c("D3"))
    assert not board.line_of_sight(tiles, c("D1"), c("E2"))  # different row and column
    tiles = [N | S] * 49
    assert board.line_of_sight(tiles, c("A3"), c("G3"))
    assert not board.line_of_sight(tiles, c("A3"), c("A3"))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(board.AXES), st.integers(0, 6), st.sampled_from([1, -1])), min_size=1, max_size=12
    )
)
def test_shifts_are_permutations_undone_in_reverse(moves):
    tiles = list(range(49))
    shifted = tiles
    for axis, index, direction in moves:
        shifted = board.shift_tiles(shifted, axis, index, direction)
        assert sorted(shifted) == tiles
        assert shifted[c("G1")] == c("G1") and shifted[c("A7")] == c("A7")
    for axis, index, direction in reversed(moves):
        shifted = board.shift_tiles(shifted, axis, index, -direction)
    assert shifted == tiles
