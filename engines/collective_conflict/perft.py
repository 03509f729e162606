"""Classic-mode perft (CC-21): count move-generation nodes from the start position.

Perft numbers of the classic hex tile game's base game are published by
established engines (Mzinga's perft table, also used by nokamute): 4, 96,
1440, 21600, 516240, 12219480 for depths 1..6.  Counting conventions follow
them: a placement is counted once per kind (not per identical unit), moves per
unit and destination, a pass only when nothing else is legal.

This module walks the tree with make/unmake on a minimal position and counts
the last ply in bulk.  It shares :mod:`.movegen` with the engine, so a match
with the published numbers checks the generator the game itself uses;
:func:`perft_state` walks the real :class:`~.state.CollectiveConflictState` (slower)
so that the engine's own turn rules are checked against the same numbers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import IO

from engines.collective_conflict import movegen as mg
from engines.collective_conflict.rules import CLIMBER, JUMPER, MOTHERSHIP, NETCASTER, RUNNER
from engines.core.hexgrid import DELTAS, ORIGIN, articulation_points
from engines.core.pending import Decision
from engines.core.state import GameState, Knowledge

#: Published perft of the base game from the start position (depth -> nodes).
PUBLISHED = {1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240, 6: 12219480}

_KINDS = (MOTHERSHIP, RUNNER, CLIMBER, NETCASTER, JUMPER)
_START_HAND = {MOTHERSHIP: 1, RUNNER: 3, JUMPER: 3, CLIMBER: 2, NETCASTER: 2}


class ClassicPosition:
    """A bare classic position: stacks of ``owner * 8 + kind`` codes, hands, turn."""

    __slots__ = ("hand", "moves", "placed", "queen", "stacks", "turn")

    def __init__(self) -> None:
        self.stacks: dict[int, list[int]] = {}
        self.hand = [[_START_HAND.get(k, 0) for k in range(8)] for _ in range(2)]
        self.queen = [-1, -1]
        self.moves = [0, 0]
        self.placed = [0, 0]
        self.turn = 0

    def over(self) -> bool:
        stacks = self.stacks
        return any(q >= 0 and all((q + d) in stacks for d in DELTAS) for q in self.queen)

    def generate(self) -> list[tuple[int, int, int] | None]:  # noqa: C901 (tests/test_complexity.py)
        """Legal moves: ``(0, kind, hex)`` placements, ``(1, src, dst)`` moves, ``None`` = pass."""
        if self.over():
            return []
        turn = self.turn
        stacks = self.stacks
        hand = self.hand[turn]
        out: list[tuple[int, int, int] | None] = []
        kinds = [k for k in _KINDS if hand[k]]
        if self.moves[turn] == 0:
            kinds = [k for k in kinds if k != MOTHERSHIP]
        elif self.moves[turn] >= 3 and hand[MOTHERSHIP]:
            kinds = [MOTHERSHIP]
        if kinds:
            if not stacks:
                hexes = [ORIGIN]
            elif self.placed[turn] == 0:
                hexes = mg.touching_hexes(stacks)
            else:
                tops = {h: s[-1] >> 3 for h, s in stacks.items()}
                hexes = mg.placement_hexes(tops, turn, True, 7)
            for k in kinds:
                out.extend((0, k, h) for h in hexes)
        if not hand[MOTHERSHIP]:
            cut = articulation_points(stacks)
            mine = turn << 3
            for h in list(stacks):
                stack = stacks[h]
                code = stack[-1]
                if code & ~7 != mine:
                    continue
                kind = code & 7
                dests: Collection[int]
                if len(stack) == 1:
                    if h in cut:
                        continue
                    if kind == CLIMBER:
                        dests = mg.climber_targets(stacks, h, False)
                    else:
                        del stacks[h]
                        if kind == MOTHERSHIP:
                            dests = mg.slide_steps(stacks, h)
                        elif kind == RUNNER:
                            dests = mg.runner_targets(stacks, h)
                        elif kind == NETCASTER:
                            dests = mg.walker_targets(stacks, h, 3)
                        else:
                            dests = [t for _, t in mg.jump_lines(stacks, h)]
                        stacks[h] = stack
                elif kind == CLIMBER:
                    dests = mg.climber_targets(stacks, h, False)
                else:  # pragma: no cover - only Climbers stand on stacks
                    dests = []
                out.extend((1, h, t) for t in dests)
        if not out:
            out.append(None)
        return out

    def make(self, move: tuple[int, int, int] | None) -> None:
        turn = self.turn
        if move is not None:
            if move[0] == 0:
                _, kind, h = move
                self.stacks.setdefault(h, []).append((turn << 3) | kind)
                self.hand[turn][kind] -= 1
                self.placed[turn] += 1
                if kind == MOTHERSHIP:
                    self.queen[turn] = h
            else:
                _, src, dst = move
                stack = self.stacks[src]
                code = stack.pop()
                if not stack:
                    del self.stacks[src]
                self.stacks.setdefault(dst, []).append(code)
                if code & 7 == MOTHERSHIP:
                    self.queen[code >> 3] = dst
        self.moves[turn] += 1
        self.turn = turn ^ 1

    def unmake(self, move: tuple[int, int, int] | None) -> None:
        turn = self.turn ^ 1
        self.turn = turn
        self.moves[turn] -= 1
        if move is None:
            return
        if move[0] == 0:
            _, kind, h = move
            stack = self.stacks[h]
            stack.pop()
            if not stack:
                del self.stacks[h]
            self.hand[turn][kind] += 1
            self.placed[turn] -= 1
            if kind == MOTHERSHIP:
                self.queen[turn] = -1
        else:
            _, src, dst = move
            stack = self.stacks[dst]
            code = stack.pop()
            if not stack:
                del self.stacks[dst]
            self.stacks.setdefault(src, []).append(code)
            if code & 7 == MOTHERSHIP:
                self.queen[code >> 3] = src


def perft_counts(depth: int, position: ClassicPosition | None = None) -> list[int]:
    """Node counts for plies 0..depth in one walk (the last ply counted in bulk)."""
    pos = position or ClassicPosition()
    counts = [1] + [0] * depth

    def walk(ply: int) -> None:
        moves = pos.generate()
        counts[ply + 1] += len(moves)
        if ply + 1 == depth:
            return
        for m in moves:
            pos.make(m)
            walk(ply + 1)
            pos.unmake(m)

    if depth > 0:
        walk(0)
    return counts


def perft_state(state: GameState, depth: int) -> int:
    """Leaf count of the real engine's public legal actions (slow; for tests)."""
    pending = state.pending()
    if not isinstance(pending, Decision):
        return 1 if depth == 0 else 0
    legal = state.legal_actions(pending.seat, Knowledge(None))
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.push(pending.seat, action)
        total += perft_state(child, depth - 1)
    return total


def perft_command(depth: int, classic: bool, out: IO[str]) -> int:
    """``python -m engines perft collective-conflict --classic --depth D``."""
    if not classic:
        out.write("perft is defined for classic mode only (--classic): the full game has hidden information\n")
        return 2
    started = time.perf_counter()
    counts = perft_counts(depth)
    seconds = time.perf_counter() - started
    for d in range(1, depth + 1):
        out.write(f"depth {d}: {counts[d]}\n")
    nodes = counts[depth] if depth else 1
    report = {
        "depth": depth,
        "nodes": nodes,
        "seconds": round(seconds, 4),
        "nodes_per_second": int(nodes / seconds) if seconds > 0 else 0,
    }
    out.write(json.dumps(report, sort_keys=True) + "\n")
    return 0
