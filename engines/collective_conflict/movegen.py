"""The fast move generator: destinations per unit kind on integer hex ids.

Everything here works on ``stacks``: a dict from hex id to the list of what
stands there, bottom first (only occupancy and heights matter here).  The
caller lifts a board-level unit off its hex (``stacks.pop(h)``) before asking
for sliding or jumping destinations, so that the unit is "in transit" and the
structure without it is what it must stay in contact with (CC-11, CC-12); a
Climber on top of a stack is asked with the stack in place.  Coherence of the
whole structure is the caller's job too, with one articulation-point pass per
position instead of one connectivity search per move.

:mod:`tests.engines.collective_conflict.reference` is the slow, obviously correct
twin of this module; the differential tests compare the two.
"""

from __future__ import annotations

from engines.core.hexgrid import DELTAS, GATES


def slide_steps(occ: dict[int, list[int]], h: int) -> list[int]:
    """Free neighbours of ``h`` reachable by one slide (exactly one gate hex occupied)."""
    out = []
    for d, dl, dr in GATES:
        t = h + d
        if t in occ:
            continue
        if ((h + dl) in occ) != ((h + dr) in occ):
            out.append(t)
    return out


def runner_targets(occ: dict[int, list[int]], h: int) -> list[int]:
    """Every hex reachable by any number of slides (the unit already lifted off ``h``)."""
    seen = {h}
    todo = [h]
    out = []
    while todo:
        x = todo.pop()
        for d, dl, dr in GATES:
            t = x + d
            if t in seen or t in occ:
                continue
            if ((x + dl) in occ) != ((x + dr) in occ):
                seen.add(t)
                out.append(t)
                todo.append(t)
    return out


def walker_targets(occ: dict[int, list[int]], h: int, steps: int) -> set[int]:
    """Hexes reached by exactly ``steps`` slides, never revisiting a hex (NetCaster)."""
    out: set[int] = set()
    todo: list[tuple[int, tuple[int, ...]]] = [(h, (h,))]
    while todo:
        x, path = todo.pop()
        last = len(path) == steps
        for d, dl, dr in GATES:
            t = x + d
            if t in occ or t in path:
                continue
            if ((x + dl) in occ) != ((x + dr) in occ):
                if last:
                    out.add(t)
                else:
                    todo.append((t, (*path, t)))
    return out


def jump_lines(occ: dict[int, list[int]], h: int) -> list[tuple[int, int]]:
    """``(direction, landing)`` for each straight jump from ``h`` over occupied hexes."""
    out = []
    for i, d in enumerate(DELTAS):
        t = h + d
        if t not in occ:
            continue
        while t in occ:
            t += d
        out.append((i, t))
    return out


def _gate_open(left: int, right: int, cur: int, dest: int) -> bool:
    """The classic height-gate rule for a step between two hexes of heights ``cur`` and ``dest``.

    At board level (both heights 0) this is the slide rule: exactly one flanking
    hex occupied.  Otherwise the step is blocked only if both flanking stacks
    are higher than both the start and the destination.
    """
    if cur == 0 and dest == 0:
        return (left > 0) != (right > 0)
    return not (left > cur and left > dest and right > cur and right > dest)


def climber_targets(stacks: dict[int, list[int]], h: int, two_steps: bool) -> set[int]:
    """Destinations of the Climber on top of ``h`` (stacks unchanged; the Climber is still there).

    One step anywhere the height gates allow; with ``two_steps`` (CC-13) a
    Climber that starts on top of a stack may go one step across the top and
    then one more step (across or down), never ending on its start.
    """
    below = len(stacks[h]) - 1

    def height(x: int) -> int:
        s = stacks.get(x)
        if s is None:
            return 0
        return len(s) - 1 if x == h else len(s)

    out: set[int] = set()
    for d, dl, dr in GATES:
        t = h + d
        ht = height(t)
        if not _gate_open(height(h + dl), height(h + dr), below, ht):
            continue
        out.add(t)
        if not two_steps or below == 0 or ht == 0:
            continue
        for d2, dl2, dr2 in GATES:
            u = t + d2
            if u == h:
                continue
            hu = height(u)
            if _gate_open(height(t + dl2), height(t + dr2), ht, hu):
                out.add(u)
    return out


def placement_hexes(tops: dict[int, int], seat: int, forbid_foreign: bool, min_own: int) -> list[int]:  # noqa: C901 (tests/test_complexity.py)
    """Free hexes touching a stack whose top is ``seat``'s, sorted.

    ``tops`` maps every occupied hex to the owner of its top unit (-1 for a
    Wreck).  With ``forbid_foreign`` a hex that touches a foreign Network's top
    is allowed only if it touches at least ``min_own`` own tops (``min_own``
    larger than 6 forbids it outright, as in classic mode).
    """
    cand: set[int] = set()
    for x, owner in tops.items():
        if owner == seat:
            for d in DELTAS:
                t = x + d
                if t not in tops:
                    cand.add(t)
    if not forbid_foreign:
        return sorted(cand)
    out = []
    for t in cand:
        own = 0
        foreign = False
        for d in DELTAS:
            o = tops.get(t + d)
            if o is None:
                continue
            if o == seat:
                own += 1
            elif o >= 0:
                foreign = True
        if not foreign or own >= min_own:
            out.append(t)
    out.sort()
    return out


def touching_hexes(occ: dict[int, list[int]] | dict[int, int]) -> list[int]:
    """Free hexes adjacent to the structure, sorted (first units, Data Core spawns)."""
    cand = {x + d for x in occ for d in DELTAS}
    return sorted(t for t in cand if t not in occ)
