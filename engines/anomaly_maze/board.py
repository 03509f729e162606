"""Geometry of the 7×7 maze: cells, tiles, shifts, paths and lines of sight.

Pure functions over plain lists, so that the engine and the AI's fast
look-ahead share one definition of every rule of movement.

A cell is an int ``row * 7 + col``: row 0 is A (the top, AM-1), column 0 is
column 1.  A tile is a 4-bit mask of its open sides (N=1, E=2, S=4, W=8).
"""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 7
CELLS = SIZE * SIZE
N, E, S, W = 1, 2, 4, 8
SIDES = (N, E, S, W)
SIDE_NAMES = {N: "N", E: "E", S: "S", W: "W"}
OPPOSITE = {N: S, E: W, S: N, W: E}
_STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}

#: The ten tile shapes a layout chance picks from (outcome = index):
#: two straights, four corners, four T-junctions.
SHAPES = (N | S, E | W, N | E, E | S, S | W, W | N, E | S | W, N | S | W, N | E | W, N | E | S)

#: Respawn cell of each seat: seat 0 (player 1) G1, seat 1 (player 2) A7 (AM-1).
RESPAWNS = (6 * SIZE + 0, 0 * SIZE + 6)
#: Respawn tiles open towards the board (AM-2).
RESPAWN_TILES = {RESPAWNS[0]: N | E, RESPAWNS[1]: S | W}
ORDINARY = tuple(c for c in range(CELLS) if c not in RESPAWN_TILES)

AXES = ("row", "col")


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def row_col(c: int) -> tuple[int, int]:
    return divmod(c, SIZE)


def name(c: int) -> str:
    """``"G1"`` style name of a cell (row letter, column number)."""
    r, k = divmod(c, SIZE)
    return "ABCDEFG"[r] + str(k + 1)


def parse(text: str) -> int:
    """The cell called ``text`` (``"a7"`` or ``"A7"``); ValueError otherwise."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in "ABCDEFG" or t[1] not in "1234567":
        raise ValueError(f"not a cell name: {text!r}")
    return cell("ABCDEFG".index(t[0]), int(t[1]) - 1)


def rotate(mask: int, quarter_turns: int) -> int:
    """The tile turned clockwise by ``quarter_turns`` × 90°."""
    for _ in range(quarter_turns % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def open_names(mask: int) -> str:
    return "".join(SIDE_NAMES[s] for s in SIDES if mask & s)


def _neighbours(c: int) -> tuple[tuple[int, int], ...]:
    r, k = divmod(c, SIZE)
    out = []
    for side in SIDES:
        dr, dk = _STEP[side]
        rr, kk = r + dr, k + dk
        if 0 <= rr < SIZE and 0 <= kk < SIZE:
            out.append((side, rr * SIZE + kk))
    return tuple(out)


#: For every cell, its (side, neighbour) pairs in N, E, S, W order.
NEIGHBOURS = tuple(_neighbours(c) for c in range(CELLS))


def linked(tiles: Sequence[int], a: int, side: int, b: int) -> bool:
    """True if ``a``'s ``side`` and ``b``'s opposite side are both open."""
    return bool(tiles[a] & side) and bool(tiles[b] & OPPOSITE[side])


def exits(tiles: Sequence[int], c: int) -> list[int]:
    """Neighbours reachable in one step from ``c`` (N, E, S, W order)."""
    t = tiles[c]
    return [b for side, b in NEIGHBOURS[c] if t & side and tiles[b] & OPPOSITE[side]]


def line_cells(axis: str, index: int) -> tuple[int, ...]:
    """The seven cells of a row (west → east) or column (north → south)."""
    if axis == "row":
        return tuple(cell(index, k) for k in range(SIZE))
    return tuple(cell(r, index) for r in range(SIZE))


def _shift_map(axis: str, index: int, direction: int) -> tuple[dict[int, int], int, int]:
    ordinary = [c for c in line_cells(axis, index) if c not in RESPAWN_TILES]
    n = len(ordinary)
    mapping = {ordinary[i]: ordinary[(i + direction) % n] for i in range(n)}
    source = ordinary[-1] if direction == 1 else ordinary[0]
    return mapping, source, mapping[source]


#: ``SHIFTS[(axis, index, direction)] = (mapping, wrap_source, wrap_target)``:
#: where each ordinary tile of the line goes, and which tile crosses the edge
#: (AM-3: the Respawn is jumped over; every Respawn lies at a line's end).
SHIFTS = {(a, i, d): _shift_map(a, i, d) for a in AXES for i in range(SIZE) for d in (1, -1)}


def shift_tiles(tiles: Sequence[int], axis: str, index: int, direction: int) -> list[int]:
    """A new tile list with the line shifted cyclically."""
    mapping = SHIFTS[(axis, index, direction)][0]
    out = list(tiles)
    for old, new in mapping.items():
        out[new] = tiles[old]
    return out


def paths(tiles: Sequence[int], start: int, blocked: int | None, max_steps: int) -> list[tuple[int, ...]]:
    """Every simple path of 0..max_steps steps from ``start`` (AM-5).

    Steps go through mutually open sides, never onto ``blocked`` (the
    opponent's cell).  The empty path (stay) comes first; the order is a
    depth-first walk in N, E, S, W order, the same on every machine.
    """
    out: list[tuple[int, ...]] = [()]
    path: list[int] = []

    def walk(c: int, depth: int) -> None:
        if depth == max_steps:
            return
        for b in exits(tiles, c):
            if b in (blocked, start) or b in path:
                continue
            path.append(b)
            out.append(tuple(path))
            walk(b, depth + 1)
            path.pop()

    walk(start, 0)
    return out


def line_of_sight(tiles: Sequence[int], a: int, b: int) -> bool:
    """Same row or column and an unbroken open corridor between (AM-7)."""
    if a == b:
        return False
    ra, ka = divmod(a, SIZE)
    rb, kb = divmod(b, SIZE)
    if ra == rb:
        lo, hi = (a, b) if ka < kb else (b, a)
        return all(tiles[c] & E and tiles[c + 1] & W for c in range(lo, hi))
    if ka == kb:
        lo, hi = (a, b) if ra < rb else (b, a)
        return all(tiles[c] & S and tiles[c + SIZE] & N for c in range(lo, hi, SIZE))
    return False
