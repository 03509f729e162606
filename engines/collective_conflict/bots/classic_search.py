"""The classic-mode search behind UHP ``bestmove``: iterative-deepening alpha-beta that lives for a whole game.

Classic mode (CC-21) has no secrets and two players, so a plain negamax with
alpha-beta fits: every ply is searched in full, the best move of the last
finished depth is tried first in the next, a transposition table and the
killer/history tables carry over from one ``bestmove`` to the next (one
:class:`ClassicSearch` per UHP session, not one per move), and the search knows
the repetition draw of CC-22 from the positions the game has already been in
(given by the caller) plus the ones on its own path: a move into a position
that would occur for the third time is worth a draw, which a side that is
ahead avoids and a side that is behind seeks.  Wins are scored nearer-first, so
a won game is finished rather than circled.

There is no clock in here (engines are deterministic): ``bestmove depth N``
searches exactly N plies; for ``bestmove time`` the front end (:mod:`engines.collective_conflict.uhp`)
passes two callables built on its own clock: ``stop()`` (the time is up: return
the best move found so far) and ``enough()`` (too late to start another depth).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engines.collective_conflict.rules import CLIMBER, JUMPER, MOTHERSHIP, NETCASTER, RUNNER
from engines.collective_conflict.state import CollectiveConflictState
from engines.core.hexgrid import DELTAS, articulation_points, hex_id
from engines.core.pending import Decision, GameOver, RevealOwed
from engines.core.state import Action, PositionKey

#: Value of a won game (minus the plies it takes, so that the nearer win is preferred).
WIN = 1_000_000
#: Value of n occupied sides around a MotherShip, n = 0..5 (the sixth ends the game).
RING = (0, 40, 100, 200, 360, 700)
#: Worth of a unit free to move, by kind (Runners reach anywhere, Climbers pin what they stand on).
FREE = {RUNNER: 30, CLIMBER: 22, JUMPER: 14, NETCASTER: 9, MOTHERSHIP: 16}
#: Worth of a unit still in hand (placing it is a move that needs a free place).
HAND = 6
#: Worth of our unit standing next to the opposing MotherShip (it presses and is hard to dislodge).
NEAR = 12
#: Worth of our Climber on top of the opposing MotherShip (it cannot move while covered).
ON_TOP = 120
#: Nodes between two calls of ``stop()``.
POLL = 32
#: The transposition table is emptied when it grows past this many positions.
TABLE_LIMIT = 400_000

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Stop(Exception):
    """The caller's ``stop()`` said the time is up."""


def position_key(state: CollectiveConflictState) -> PositionKey:
    """The position for the repetition draw: who (owner, kind) stands where, what is in hand, who moves.

    Unit ids are left out (two Runners of one player are interchangeable), so
    this is never finer than the rules' own notion of "the same position": a
    repetition the rules would call is never missed.
    """
    owner = state.p_owner
    kind = state.p_kind
    board = tuple(sorted((h, tuple(owner[p] * 8 + kind[p] for p in stack)) for h, stack in state.stacks.items()))
    hands = tuple(tuple(sorted(r.items())) for r in state.reserve)
    pending = state.pending()
    mover = pending.seat if isinstance(pending, Decision) else -1
    return (board, hands, mover)


def evaluate(state: CollectiveConflictState, seat: int) -> int:  # noqa: C901 (tests/test_complexity.py)
    """The position for ``seat``: rings around the MotherShips, free units, pressure on the opposing one."""
    over = state.over
    if over is not None:
        return 0 if len(over.winners) != 1 else (WIN if over.winners[0] == seat else -WIN)
    stacks = state.stacks
    owner = state.p_owner
    kind = state.p_kind
    cut = articulation_points(stacks)
    score = 0
    queens: list[tuple[int, int]] = []
    for h, stack in stacks.items():
        if kind[stack[0]] == MOTHERSHIP:
            queens.append((h, owner[stack[0]]))
    for h, stack in stacks.items():
        top = stack[-1]
        sign = 1 if owner[top] == seat else -1
        if len(stack) > 1 or h not in cut:
            score += sign * FREE.get(kind[top], 0)
        if len(stack) > 1 and kind[top] == CLIMBER:
            for p in stack[:-1]:
                if kind[p] == MOTHERSHIP and owner[p] != owner[top]:
                    score += sign * ON_TOP
    for h, queen_owner in queens:
        sign = 1 if queen_owner != seat else -1  # pressure on theirs is good for us
        n = 0
        for d in DELTAS:
            s = stacks.get(h + d)
            if s is None:
                continue
            n += 1
            if owner[s[-1]] != queen_owner:
                score += sign * NEAR
        score += sign * RING[min(n, 5)]
    for side, reserve in enumerate(state.reserve):
        score += (HAND if side == seat else -HAND) * sum(reserve.values())
    return score


def _touches(h: int, targets: set[int]) -> bool:
    return any(h + d in targets for d in DELTAS)


class ClassicSearch:
    """Negamax with alpha-beta, iterative deepening, a transposition table and killer/history move order."""

    def __init__(self) -> None:
        self.table: dict[PositionKey, tuple[int, int, int, Action | None]] = {}
        self.history: dict[Action, int] = {}
        self.killers: dict[int, list[Action]] = {}
        #: Positions searched by the last ``choose`` and the deepest depth it finished (benchmarks, tests).
        self.nodes = 0
        self.depth_done = 0
        self._seen: Mapping[PositionKey, int] = {}
        self._path: dict[PositionKey, int] = {}
        self._stop: Callable[[], bool] = lambda: False

    def choose(
        self,
        state: CollectiveConflictState,
        seen: Mapping[PositionKey, int],
        depth: int | None = None,
        stop: Callable[[], bool] | None = None,
        enough: Callable[[], bool] | None = None,
    ) -> Action:
        """The best action for the seat to move.

        ``seen`` counts the positions (:func:`position_key`) the game has been
        in, this one included.  With ``depth`` exactly that many plies; without
        it, deeper and deeper until ``stop()`` or ``enough()`` says otherwise
        (``stop`` is polled during a depth, ``enough`` between depths).
        """
        pending = state.pending()
        assert isinstance(pending, Decision)
        legal = list(state._public_legal())
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        self._seen = seen
        self._path = {}
        self._stop = stop or (lambda: False)
        self.nodes = 0
        self.depth_done = 0
        self.killers = {}
        best = legal[0]
        if len(legal) == 1:
            return best
        limit = depth if depth is not None else 64
        order = self._order(state, legal, None, 0)
        for d in range(1, limit + 1):
            try:
                best_here, value, order = self._root(state, order, d)
            except _Stop as partial:
                if partial.args and partial.args[0] is not None:
                    best = partial.args[0]  # the previous best was searched first: anything better stands
                break
            best = best_here
            self.depth_done = d
            if abs(value) >= WIN - 1000:
                break  # a forced result is found: deeper cannot change it
            if depth is None and enough is not None and enough():
                break
        return best

    # -- the search ---------------------------------------------------------------
    def _root(
        self, state: CollectiveConflictState, order: list[Action], depth: int
    ) -> tuple[Action, int, list[Action]]:
        """One full-width search of the root to ``depth``; the moves come back best first."""
        seat = state.current
        alpha = -WIN - 1
        scored: list[tuple[int, int, Action]] = []
        best: Action | None = None
        key = position_key(state)
        self._path[key] = self._path.get(key, 0) + 1
        try:
            for i, action in enumerate(order):
                try:
                    value = self._child(state, seat, action, depth - 1, alpha, WIN + 1, 1)
                except _Stop:
                    raise _Stop(best) from None
                scored.append((value, -i, action))
                if value > alpha:
                    alpha, best = value, action
        finally:
            self._path[key] -= 1
        scored.sort(reverse=True)
        assert best is not None
        return best, alpha, [a for _, _, a in scored]

    def _child(
        self, state: CollectiveConflictState, seat: int, action: Action, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The value for ``seat`` of playing ``action``: negated when the opponent moves next, not when it passes."""
        child = state.clone()
        child.apply(seat, action)
        pending = child.pending()
        if isinstance(pending, GameOver):
            self.nodes += 1
            if len(pending.winners) != 1:
                return 0
            return WIN - ply if pending.winners[0] == seat else -(WIN - ply)
        # Collective Conflict has no chance and no cards: a seat is always owed the next step
        assert isinstance(pending, Decision | RevealOwed)
        if pending.seat == seat:
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _negamax(self, state: CollectiveConflictState, depth: int, alpha: int, beta: int, ply: int) -> int:  # noqa: C901 (tests/test_complexity.py)
        """The value of ``state`` for the seat to move in it, searched ``depth`` more plies."""
        self.nodes += 1
        if self.nodes % POLL == 0 and self._stop():
            raise _Stop
        pending = state.pending()
        assert isinstance(pending, Decision)  # a finished game is scored by ``_child``
        seat = pending.seat
        key = position_key(state)
        if self._seen.get(key, 0) + self._path.get(key, 0) >= 2:
            return 0  # this is the position's third time: the repetition draw (CC-22)
        if depth <= 0:
            return evaluate(state, seat)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_value, tt_move = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value >= beta:
                    return e_value
                if e_flag == _UPPER and e_value <= alpha:
                    return e_value
        legal = state._public_legal()
        if not legal:  # pragma: no cover - the engine skips a player without actions
            return evaluate(state, seat)
        start_alpha = alpha
        best_value = -WIN - 1
        best_move: Action | None = None
        self._path[key] = self._path.get(key, 0) + 1
        try:
            for action in self._order(state, legal, tt_move, ply):
                value = self._child(state, seat, action, depth - 1, alpha, beta, ply + 1)
                if value > best_value:
                    best_value, best_move = value, action
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            self._cut(action, depth, ply)
                            break
        finally:
            self._path[key] -= 1
        flag = _EXACT if start_alpha < best_value < beta else (_LOWER if best_value >= beta else _UPPER)
        if abs(best_value) < WIN - 1000:  # mate scores depend on the ply: not stored
            self.table[key] = (depth, flag, best_value, best_move)
        return best_value

    def _cut(self, action: Action, depth: int, ply: int) -> None:
        """Remember a move that refuted its siblings: tried early at the same ply and elsewhere."""
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        self.history[action] = self.history.get(action, 0) + depth * depth

    def _order(
        self, state: CollectiveConflictState, legal: list[Action], tt_move: Action | None, ply: int
    ) -> list[Action]:
        """The table's move, killers, then moves next to the opposing MotherShip, then by history."""
        seat = state.current
        stacks = state.stacks
        theirs: set[int] = set()
        mine: set[int] = set()
        for h, stack in stacks.items():
            if state.p_kind[stack[0]] == MOTHERSHIP:
                (mine if state.p_owner[stack[0]] == seat else theirs).add(h)
        killers = self.killers.get(ply, [])
        history = self.history

        def score(action: Action) -> int:
            if action == tt_move:
                return 1 << 40
            if action in killers:
                return (1 << 39) - killers.index(action)
            s = history.get(action, 0)
            d = hex_id(*action[2])
            if theirs and _touches(d, theirs):
                s += 1 << 30
            if action[0] == "move":
                src = hex_id(*action[1])
                if mine and _touches(src, mine) and not _touches(d, mine):
                    s += 1 << 29
            return s

        return sorted(legal, key=score, reverse=True)


__all__ = ["WIN", "ClassicSearch", "evaluate", "position_key"]
