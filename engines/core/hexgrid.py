"""Axial hex-grid helpers with integer hex ids, shared by the hex games.

A hex ``(q, r)`` in axial coordinates (pointy-top: ``r`` grows downward) is
packed into one small integer ``hex_id(q, r)`` so that a neighbour is an
addition (``h + DELTAS[i]``) and a set of hexes is a set of ints: the fast move
generators use ids, and everything that leaves an engine (actions, public state)
uses ``(q, r)`` pairs.  The packing is exact for ``|q|, |r| < OFFSET``, far more
than any game on an unbounded board can reach.

``DIRECTIONS`` is in cyclic order (E, NE, NW, W, SW, SE): the two hexes that
flank a step in direction ``i`` are the neighbours in directions ``i - 1`` and
``i + 1`` — the "gate" of the freedom-to-move rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

WIDTH = 1 << 14
OFFSET = WIDTH // 2

#: Axial unit steps in cyclic order: E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
#: The same steps as id offsets.
DELTAS: tuple[int, ...] = tuple(dq * WIDTH + dr for dq, dr in DIRECTIONS)
#: ``(step, left gate, right gate)`` for each direction, as id offsets.
GATES: tuple[tuple[int, int, int], ...] = tuple((DELTAS[i], DELTAS[i - 1], DELTAS[(i + 1) % 6]) for i in range(6))


def hex_id(q: int, r: int) -> int:
    """The integer id of axial hex ``(q, r)``."""
    if not (-OFFSET < q < OFFSET and -OFFSET < r < OFFSET):
        raise ValueError(f"hex ({q}, {r}) is outside the representable board")
    return (q + OFFSET) * WIDTH + (r + OFFSET)


ORIGIN = hex_id(0, 0)


def hex_qr(h: int) -> tuple[int, int]:
    """The axial ``(q, r)`` of hex id ``h``."""
    q, r = divmod(h, WIDTH)
    return (q - OFFSET, r - OFFSET)


def neighbours(h: int) -> list[int]:
    """The six neighbour ids of ``h`` in :data:`DIRECTIONS` order."""
    return [h + d for d in DELTAS]


def axial_neighbours(q: int, r: int) -> list[tuple[int, int]]:
    """The six axial neighbours of ``(q, r)`` in :data:`DIRECTIONS` order."""
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance between two axial hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(centre: tuple[int, int]) -> list[tuple[int, int]]:
    """The six hexes around ``centre`` (the same as its neighbours)."""
    return axial_neighbours(*centre)


def is_connected(hexes: Iterable[int]) -> bool:
    """True if the hex ids form one edge-connected group (an empty set is connected)."""
    cells = set(hexes)
    if not cells:
        return True
    start = min(cells)
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for d in DELTAS:
            n = h + d
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def articulation_points(cells: Collection[int]) -> set[int]:  # noqa: C901 (tests/test_complexity.py)
    """Hexes whose removal splits the group ``cells`` (iterative Tarjan).

    One linear pass replaces a connectivity search per candidate move: a unit
    alone on its hex may leave only if its hex is not an articulation point.
    """
    if len(cells) < 3:
        return set()
    root = min(cells)
    disc = {root: 0}
    low = {root: 0}
    parent = {root: -1}
    points: set[int] = set()
    root_children = 0
    counter = 1
    stack = [[root, 0]]
    deltas = DELTAS
    while stack:
        frame = stack[-1]
        v = frame[0]
        i = frame[1]
        if i < 6:
            frame[1] = i + 1
            w = v + deltas[i]
            if w not in cells:
                continue
            if w not in disc:
                disc[w] = low[w] = counter
                counter += 1
                parent[w] = v
                if v == root:
                    root_children += 1
                stack.append([w, 0])
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                if low[v] < low[p]:
                    low[p] = low[v]
                if p != root and low[v] >= disc[p]:
                    points.add(p)
    if root_children > 1:
        points.add(root)
    return points


__all__ = [
    "DELTAS",
    "DIRECTIONS",
    "GATES",
    "OFFSET",
    "ORIGIN",
    "WIDTH",
    "articulation_points",
    "axial_neighbours",
    "distance",
    "hex_id",
    "hex_qr",
    "is_connected",
    "neighbours",
    "ring",
]
