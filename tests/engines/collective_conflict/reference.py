"""The reference move generator: written for clarity, not speed.

It reads a :class:`~engines.collective_conflict.state.CollectiveConflictState` into plain ``(q, r)``
dictionaries and derives every public action straight from the rule text and
rulings: connectivity by breadth-first search for every candidate move (no
articulation points), the gates of a step as the two hexes both ends touch (no
direction tables), paths enumerated one by one.  The differential tests compare
its answer with the fast generator on many random positions in both modes.
"""

from __future__ import annotations

from typing import Any

from engines.collective_conflict.rules import (
    CLIMBER,
    COMMAND,
    DECOY,
    JUMPER,
    KIND_NAMES,
    MOTHERSHIP,
    NETCASTER,
    PLACE_ORDER,
    RUNNER,
    WRECK,
)
from engines.core.hexgrid import axial_neighbours, hex_qr

Hex = tuple[int, int]


def _nbrs(h: Hex) -> list[Hex]:
    return axial_neighbours(*h)


def _connected(cells: set[Hex]) -> bool:
    if not cells:
        return True
    start = min(cells)
    seen = {start}
    todo = [start]
    while todo:
        x = todo.pop()
        for n in _nbrs(x):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def _gates(a: Hex, b: Hex) -> list[Hex]:
    """The two hexes adjacent to both ``a`` and ``b``."""
    common = set(_nbrs(a)) & set(_nbrs(b))
    assert len(common) == 2
    return sorted(common)


def _can_slide(a: Hex, b: Hex, occupied: set[Hex]) -> bool:
    """Freedom to move, with contact: exactly one of the two gates is occupied."""
    g1, g2 = _gates(a, b)
    return b not in occupied and ((g1 in occupied) != (g2 in occupied))


def _step_ok(a: Hex, b: Hex, height: dict[Hex, int]) -> bool:
    """One Climber step between heights (the Climber not counted): the classic height gate."""
    ha, hb = height.get(a, 0), height.get(b, 0)
    g1, g2 = (height.get(g, 0) for g in _gates(a, b))
    if ha == 0 and hb == 0:
        return (g1 > 0) != (g2 > 0)
    return not (min(g1, g2) > max(ha, hb))


class ReferenceBoard:
    """A plain copy of a position: stacks of ``(owner, kind)`` by ``(q, r)``."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.stacks: dict[Hex, list[tuple[int, int, int]]] = {}
        for h, stack in state.stacks.items():
            self.stacks[hex_qr(h)] = [(p, state.p_owner[p], state.p_kind[p]) for p in stack]

    def occupied(self) -> set[Hex]:
        return set(self.stacks)

    def top_owner(self, h: Hex) -> int:
        return self.stacks[h][-1][1]


def reference_actions(state: Any) -> set[tuple[Any, ...]]:
    """Every public action of the seat to move, derived the slow way."""
    s = state.settings
    seat = state.current
    board = ReferenceBoard(state)
    occupied = board.occupied()
    out: set[tuple[Any, ...]] = set()

    # -- placements
    own_move = state.moves[seat] + 1
    kinds = [k for k in PLACE_ORDER if state.reserve[seat].get(k, 0) > 0]
    if s.classic:
        activated = state.reserve[seat].get(MOTHERSHIP, 0) == 0
        if own_move == 1:
            kinds = [k for k in kinds if k != MOTHERSHIP]
        if own_move >= s.classic_queen_by_move and MOTHERSHIP in kinds:
            kinds = [MOTHERSHIP]
    else:
        activated = bool(state.commands[seat])
        if own_move >= s.command_by_move and not state.commands[seat]:
            kinds = [COMMAND] if COMMAND in kinds else []
    frontier = {n for h in occupied for n in _nbrs(h)} - occupied
    if not occupied:
        hexes = {(0, 0)}
    elif state.placed[seat] == 0:
        hexes = frontier
    else:
        hexes = set()
        for h in frontier:
            tops = [board.top_owner(n) for n in _nbrs(h) if n in occupied]
            own = sum(1 for o in tops if o == seat)
            foreign = any(o >= 0 and o != seat for o in tops)
            if own == 0:
                continue
            if s.classic and foreign:
                continue
            if not s.classic and activated and foreign and own < s.own_sides_exception:
                continue
            hexes.add(h)
    for kind in kinds:
        for h in hexes:
            if kind == COMMAND:
                out.add(("place", KIND_NAMES[kind], h, state.next_sid))
            else:
                out.add(("place", KIND_NAMES[kind], h))
    if not activated:
        return out

    # -- unit moves
    cores = {hex_qr(c) for c in state.cores}
    removal = state._removal_started()
    for src in sorted(occupied):
        pid, owner, kind = board.stacks[src][-1]
        if owner != seat or pid in state.blocked:
            continue
        alone = len(board.stacks[src]) == 1
        rest = occupied - {src} if alone else occupied
        if alone and not _connected(rest):
            continue
        dests: set[Hex] = set()
        if kind in (MOTHERSHIP, DECOY, COMMAND):
            dests = {b for b in _nbrs(src) if _can_slide(src, b, rest)}
        elif kind == RUNNER:
            seen = {src}
            todo = [src]
            while todo:
                a = todo.pop()
                for b in _nbrs(a):
                    if b not in seen and _can_slide(a, b, rest):
                        seen.add(b)
                        todo.append(b)
            dests = seen - {src}
        elif kind == NETCASTER:
            paths = [[src]]
            for _ in range(s.netcaster_steps):
                paths = [[*p, b] for p in paths for b in _nbrs(p[-1]) if b not in p and _can_slide(p[-1], b, rest)]
            dests = {p[-1] for p in paths}
        elif kind == CLIMBER:
            height = {h: len(st) for h, st in board.stacks.items()}
            height[src] -= 1
            for b in _nbrs(src):
                if not _step_ok(src, b, height):
                    continue
                dests.add(b)
                if s.climber_two_steps and height[src] > 0 and height.get(b, 0) > 0:
                    for c in _nbrs(b):
                        if c != src and _step_ok(b, c, height):
                            dests.add(c)
        elif kind == JUMPER:
            firsts = []
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                land = (src[0] + dq, src[1] + dr)
                if land not in rest:
                    continue
                while land in rest:
                    land = (land[0] + dq, land[1] + dr)
                firsts.append(((dq, dr), land))
                out.add(("move", src, land))
            if s.jumper_double and not s.classic:
                for direction, land in firsts:
                    after = rest | {land}
                    if removal and _wreck_would_go(board, after, land):
                        continue
                    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                        if (dq, dr) == direction:
                            continue
                        land2 = (land[0] + dq, land[1] + dr)
                        if land2 not in after:
                            continue
                        while land2 in after:
                            land2 = (land2[0] + dq, land2[1] + dr)
                        if land2 != src:
                            out.add(("jump", src, land, land2))
            continue
        for d in dests:
            if kind == NETCASTER and s.traps and not s.classic:
                out.add(("cast", src, d, state.next_sid))
                continue
            out.add(("move", src, d))
            if kind == RUNNER and not s.classic and not state.virus[seat] and d not in cores:
                after_move = rest | {d}  # CC-24: the hop reaches a core on a hex free before or after the move
                for c in cores:
                    if (c in _nbrs(src) and c not in occupied) or (c in _nbrs(d) and c not in after_move):
                        out.add(("move", src, d, c))

    # -- the Virus
    if not s.classic and state.virus[seat]:
        for r in occupied:
            pid, owner, kind = board.stacks[r][-1]
            if owner != seat or kind != RUNNER or pid in state.blocked:
                continue
            for t in occupied:  # CC-24: any unit of another active Network, also one under a Climber
                stack = board.stacks[t]
                for level, (_, o, _) in enumerate(stack):
                    if o >= 0 and o != seat and state.active[o]:
                        out.add(("virus", r, t) if level == len(stack) - 1 else ("virus", r, t, level))
    return out


def _wreck_would_go(board: ReferenceBoard, occupied: set[Hex], jumper_at: Hex) -> bool:
    """Would a Wreck be removed with the Jumper standing at its first landing (CC-15, CC-19)?"""
    for h in occupied:
        if h == jumper_at:
            continue
        stack = board.stacks.get(h)
        if stack is None or len(stack) != 1 or stack[0][2] != WRECK:
            continue
        if len(occupied) > 1 and _connected(occupied - {h}):
            return True
    return False
