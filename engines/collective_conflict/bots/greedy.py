"""Bots for Collective Conflict: random, greedy (one ply) and search (:mod:`.search`).

A bot sees what its seat's person sees: the public state and its own
knowledge.  Where the rules need a secret it does not hold (which opponent
command unit is the MotherShip, whether a trap is armed), the bots
*determinise* (:mod:`.evaluate`): they fix one guess per decision from their
own seeded stream and play the position out as if the guess were true.  Budgets
are counted in positions built, never in clock time, so a bot's choice is the
same on every machine.
"""

from __future__ import annotations

from engines.collective_conflict.bots.evaluate import WIN, after, determinise, evaluate
from engines.collective_conflict.bots.memory import LeftBoards, identity_filter
from engines.collective_conflict.bots.search import HOLE, REPEAT, SearchBot
from engines.collective_conflict.state import CollectiveConflictState
from engines.core.bots import RandomBot
from engines.core.pending import GameOver
from engines.core.seeded import SeededStream
from engines.core.state import Action, GameState, Knowledge


def random_bot(seat: int, seed: bytes) -> RandomBot:
    return RandomBot(seat, seed)


class GreedyBot:
    """Best action after one ply by :func:`evaluate`; ties broken by its seeded stream.

    Which command unit it places first is drawn like the search bot's (:func:`.memory.identity_filter`),
    so no level of bot gives its identities away by their order.
    """

    def __init__(self, seat: int, seed: bytes, *, repeat: int = REPEAT, hole: bool = HOLE) -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"cc-greedy/{seat}")
        self.repeat = repeat
        self.hole = hole
        #: The boards it left behind (as the search bot does: see :mod:`.search`).
        self.history = LeftBoards()

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        assert isinstance(state, CollectiveConflictState)
        legal = identity_filter(state, self.seat, legal, self.rng)
        guess = determinise(state, self.seat, knowledge, self.rng)
        best: list[tuple[Action, CollectiveConflictState]] = []
        best_value = None
        for action in legal:
            g = dict(guess)
            child = after(state, self.seat, action, knowledge, g)
            value = evaluate(child, self.seat, g, hole=self.hole)
            if value < WIN:
                value -= self.history.cost(child, self.repeat)
            if best_value is None or value > best_value:
                best, best_value = [(action, child)], value
            elif value == best_value:
                best.append((action, child))
        action, child = best[self.rng.below(len(best))]
        if self.repeat:
            self.history.leave(child)
        return action


__all__ = ["GameOver", "GreedyBot", "SearchBot", "evaluate", "random_bot"]
