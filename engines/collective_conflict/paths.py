"""The route of a unit move: which hexes a unit passes through (a pure, read-only query).

The engine's actions name only a move's start and end (and a jump's middle
landing), which is all the rules and the protocol need.  A person watching the
board needs more: the way a Runner slides around the structure, the four steps
of a NetCaster, the step up and across of a Climber.  :func:`move_path`
answers that for a legal ``"move"``, ``"cast"`` or ``"jump"`` action, and
:func:`public_move_path` does the same from a public state or a seat's view
(the dictionaries the client holds), so the board never rebuilds a state.

A route is a list of axial ``(q, r)`` hexes, start and end included, each
consecutive pair adjacent.  When several routes exist the choice is fixed so
that every peer draws the same one:

* MotherShip, Decoy, command unit: the single slide ``[src, dst]``;
* Runner: a shortest chain of slides (CC-16), found breadth first with
  neighbours tried in :data:`~engines.core.hexgrid.DIRECTIONS` order (E, NE,
  NW, W, SW, SE), so ties go to the earliest direction at the earliest step;
* NetCaster: exactly ``netcaster_steps`` slides never revisiting a hex (CC-14),
  the first such walk in the same depth-first direction order;
* Climber: one step when one step reaches the end, else the two steps across
  the top (CC-13) through the first middle hex in direction order;
* Jumper: every hex of the straight line: start, each hex jumped over, the
  landing, and for a double jump (CC-15) the second line from the middle
  landing on.

A Runner's Data Core hop (``("move", src, dst, core)``) is not part of the
route: the hop "is not checked for coherence" (CC-16) and the unit does not
travel there, so the route is the slide from ``src`` to ``dst``; the board
marks the collected core separately.

Every slide follows the movement rules exactly as :mod:`.movegen` does (the
unit lifted off its start, freedom to move, contact with the structure); the
property tests check each route step by step against those rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.collective_conflict.rules import CLIMBER, COMMAND_KINDS, JUMPER, KIND_BY_NAME, NETCASTER, RUNNER
from engines.core.hexgrid import DELTAS, GATES, hex_id, hex_qr
from engines.core.pending import Decision
from engines.core.state import Action, IllegalAction

Hex = tuple[int, int]
#: What the route finders read: hex id -> the stack there, bottom first (only presence and height matter).
Stacks = Mapping[int, Sequence[Any]]

_VERBS = ("move", "cast", "jump")


# -- route finders on hex ids ---------------------------------------------------------------
def _slides_from(occ: Stacks, x: int) -> list[int]:
    """Free neighbours of ``x`` one slide away (exactly one gate occupied), in direction order."""
    out = []
    for d, dl, dr in GATES:
        t = x + d
        if t not in occ and ((x + dl) in occ) != ((x + dr) in occ):
            out.append(t)
    return out


def slide_route(occ: Stacks, src: int, dst: int) -> list[int] | None:
    """A shortest chain of slides from ``src`` to ``dst`` (the unit already lifted off ``src``)."""
    if src == dst:
        return None
    parent = {src: src}
    frontier = [src]
    while frontier:
        following = []
        for x in frontier:
            for t in _slides_from(occ, x):
                if t in parent:
                    continue
                parent[t] = x
                if t == dst:
                    route = [t]
                    while route[-1] != src:
                        route.append(parent[route[-1]])
                    return route[::-1]
                following.append(t)
        frontier = following
    return None


def walk_route(occ: Stacks, src: int, dst: int, steps: int) -> list[int] | None:
    """The first walk of exactly ``steps`` slides from ``src`` to ``dst`` never revisiting a hex."""
    route = [src]

    def extend() -> bool:
        if len(route) == steps + 1:
            return route[-1] == dst
        for t in _slides_from(occ, route[-1]):
            if t in route:
                continue
            route.append(t)
            if extend():
                return True
            route.pop()
        return False

    return list(route) if extend() else None


def _height_gate(left: int, right: int, cur: int, dest: int) -> bool:
    """CC-12/CC-13: a slide at board level; otherwise blocked only between two stacks higher than both ends."""
    if cur == 0 and dest == 0:
        return (left > 0) != (right > 0)
    return not (left > cur and left > dest and right > cur and right > dest)


def climber_route(stacks: Stacks, src: int, dst: int, two_steps: bool) -> list[int] | None:
    """One Climber step if it reaches ``dst``, else two across the top (stacks as they are, the Climber on ``src``)."""

    def height(x: int) -> int:
        s = stacks.get(x)
        if s is None:
            return 0
        return len(s) - 1 if x == src else len(s)

    def step_ok(a: int, b: int) -> bool:
        i = DELTAS.index(b - a)
        _, dl, dr = GATES[i]
        return _height_gate(height(a + dl), height(a + dr), height(a), height(b))

    if src not in stacks:
        return None
    if dst - src in DELTAS and step_ok(src, dst):
        return [src, dst]
    if not two_steps or height(src) == 0 or dst == src:
        return None
    for d in DELTAS:
        mid = src + d
        if height(mid) == 0 or not step_ok(src, mid):
            continue
        if dst - mid in DELTAS and step_ok(mid, dst):
            return [src, mid, dst]
    return None


def jump_line(occ: Stacks, src: int, land: int) -> list[int] | None:
    """The straight line ``src``, each occupied hex jumped over, ``land`` (the first free hex)."""
    for d in DELTAS:
        t = src + d
        if t not in occ:
            continue
        line = [src]
        while t in occ:
            line.append(t)
            t += d
        if t == land:
            return [*line, t]
    return None


# -- the query -------------------------------------------------------------------------------
def _ids(action: Action) -> tuple[str, int, int, int | None]:
    """``(verb, src, dst, middle)`` of a unit action, or a clear error."""
    if not isinstance(action, (tuple, list)) or not action or action[0] not in _VERBS:
        raise IllegalAction(f"a route exists only for {', '.join(_VERBS)} actions, not {action!r:.80}")
    verb = action[0]
    if len(action) < 3:
        raise IllegalAction(f"malformed {verb} action")

    def one(value: Any) -> int:
        if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(type(c) is int for c in value)):
            raise IllegalAction(f"not a hex: {value!r:.40}")
        try:
            return hex_id(value[0], value[1])
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    if verb == "jump":
        if len(action) != 4:
            raise IllegalAction("a double jump is ('jump', src, middle, dst)")
        return verb, one(action[1]), one(action[3]), one(action[2])
    return verb, one(action[1]), one(action[2]), None


def route(  # noqa: C901 (tests/test_complexity.py)
    stacks: Stacks, kind: int, verb: str, src: int, dst: int, middle: int | None, netcaster_steps: int, two_steps: bool
) -> list[int] | None:
    """The route on hex ids for a unit of ``kind`` on top of ``src``; ``None`` if the rules allow none."""
    if kind == CLIMBER:
        return climber_route(stacks, src, dst, two_steps) if verb == "move" else None
    occ = {h: s for h, s in stacks.items() if h != src}
    if kind == JUMPER:
        if verb == "move":
            return jump_line(occ, src, dst)
        if verb != "jump" or middle is None:
            return None
        first = jump_line(occ, src, middle)
        if first is None:
            return None
        occ[middle] = stacks[src]
        second = jump_line(occ, middle, dst)
        if second is None or DELTAS.index(second[1] - middle) == DELTAS.index(first[1] - src):
            return None
        return first + second[1:]
    if verb == "jump":
        return None
    if kind == NETCASTER:
        return walk_route(occ, src, dst, netcaster_steps)
    if verb == "cast":
        return None
    if kind == RUNNER:
        return slide_route(occ, src, dst)
    if kind in COMMAND_KINDS:
        return [src, dst] if dst in _slides_from(occ, src) else None
    return None


def move_path(state: Any, action: Action) -> list[Hex]:
    """The hexes a legal unit action of the seat to move passes through, start and end included.

    ``action`` is a ``"move"``, ``"cast"`` (public or private form) or ``"jump"``
    of :class:`~.state.CollectiveConflictState`; anything that is not one of the
    seat's legal unit moves now raises :class:`IllegalAction` (the state is
    never changed).
    """
    verb, src, dst, middle = _ids(action)
    if not isinstance(state.pending(), Decision):
        raise IllegalAction("no seat is choosing a move now")
    extra = middle
    if verb == "move" and len(action) == 4:
        extra = _ids(("move", action[1], action[3]))[2]
    if verb == "cast" and not (state.settings.traps and not state.classic):
        raise IllegalAction("NetCaster moves are plain moves in this game")
    if (src, dst, extra) not in set(state.unit_moves(state.current)):
        raise IllegalAction(f"{action!r:.80} is not a legal unit move for seat {state.current} now")
    kind = state.p_kind[state.stacks[src][-1]]
    if (verb == "cast") != (kind == NETCASTER and state.settings.traps and not state.classic):
        raise IllegalAction(f"{action!r:.80} has the wrong verb for this unit")
    s = state.settings
    found = route(state.stacks, kind, verb, src, dst, middle, s.netcaster_steps, s.climber_two_steps)
    if found is None:  # pragma: no cover - unit_moves said it is legal; a route must exist
        raise IllegalAction(f"no route for {action!r:.80}")
    return [hex_qr(h) for h in found]


def public_move_path(public: Mapping[str, Any], action: Action) -> list[Hex]:
    """:func:`move_path` from ``state.public()`` or a seat's ``view`` (what a client holds).

    The rules that decide *whether* a move is legal (turn, coherence, blocked
    units) are the engine's; this only finds the route the movement rules
    allow from the stacks shown, and raises :class:`IllegalAction` if there is
    none.
    """
    verb, src, dst, middle = _ids(action)
    stacks: dict[int, list[Any]] = {}
    for q, r, layers in public["stacks"]:
        stacks[hex_id(int(q), int(r))] = list(layers)
    if src not in stacks:
        raise IllegalAction(f"no unit on {action[1]!r:.40}")
    kind_name = stacks[src][-1][2]
    kind = KIND_BY_NAME.get(kind_name, -1)
    settings = public["settings"]
    found = route(
        stacks, kind, verb, src, dst, middle, int(settings["netcaster_steps"]), bool(settings["climber_two_steps"])
    )
    if found is None:
        raise IllegalAction(f"the rules allow no route for {action!r:.80}")
    return [hex_qr(h) for h in found]


__all__ = ["climber_route", "jump_line", "move_path", "public_move_path", "route", "slide_route", "walk_route"]
