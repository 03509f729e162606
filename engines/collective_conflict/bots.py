"""Bots for Collective Conflict: random, greedy (one ply) and search (two plies, determinised).

A bot sees what its seat's person sees: the public state and its own
knowledge.  Where the rules need a secret it does not hold (which opponent
command unit is the MotherShip, whether a trap is armed), the search bot
*determinises*: it fixes one guess per decision from its own seeded stream and
plays the position out as if the guess were true.  Budgets are counted in
simulated actions, never in clock time, so a bot's choice is the same on every
machine; the budgets are chosen so that a move takes well under a second here
(``benchmarks/cc_bots.py`` prints the figures).
"""

from __future__ import annotations

from typing import Any

from engines.core.bots import RandomBot
from engines.core.hexgrid import DELTAS, WIDTH, articulation_points
from engines.core.pending import Chance, Decision, GameOver, RevealOwed
from engines.core.seeded import SeededStream
from engines.core.state import TABLE, Action, GameState, Knowledge

from .rules import CLIMBER, COMMAND, JUMPER, MOTHERSHIP, NETCASTER, RUNNER
from .state import CollectiveConflict

WIN = 1_000_000
#: Value of n occupied sides around a command unit (the sixth ends it).
PRESSURE = (0, 10, 30, 70, 150, 400, 5000)
#: Value of a unit that is free to move, by kind (a pinned unit is worth nothing here).
UNIT = 25
MOBILITY = {RUNNER: 12, CLIMBER: 9, JUMPER: 7, NETCASTER: 5, COMMAND: 3, MOTHERSHIP: 3}


def random_bot(seat: int, seed: bytes) -> RandomBot:
    return RandomBot(seat, seed)


def evaluate(
    state: CollectiveConflict, seat: int, guess: dict[int, Any], defence: int = 5, expect: bool = False
) -> int:
    """Pressure on the opponents' command units minus pressure on one's own, plus closeness to them.

    ``defence`` (in quarters) weighs pressure on one's own command units against pressure on theirs.
    With ``expect`` an opponent's command unit of unknown identity counts at its expected weight
    instead of the guessed one.
    """
    over = state.over
    if over is not None:
        if seat in over.winners:
            return WIN if len(over.winners) == 1 else 0
        return -WIN
    stacks = state.stacks
    p_owner = state.p_owner
    p_kind = state.p_kind
    others = max(1, state.players - 1)
    foe_unit = -UNIT // others
    score = 0
    commands = []
    for h, stack in stacks.items():
        for unit in stack:
            unit_owner = p_owner[unit]
            if unit_owner >= 0:
                score += UNIT if unit_owner == seat else foe_unit
        bottom = stack[0]
        if p_kind[bottom] == COMMAND or p_kind[bottom] == MOTHERSHIP:
            commands.append((h, bottom, p_owner[bottom]))
    lone = [sum(1 for c in commands if c[2] == o) == 1 for o in range(state.players)]
    targets = []
    for h, piece, owner in commands:
        n = sum(1 for d in DELTAS if (h + d) in stacks)
        sid = state.piece_sid.get(piece)
        identity = guess.get(sid, "mothership") if sid is not None else "mothership"
        # a lone command unit is as good as a MotherShip: surrounding a Decoy alone collapses its Network
        if lone[owner] or (owner != seat and state.decoy_revealed[owner]):
            weight = 8
        elif owner != seat and expect:
            weight = 5  # unknown: the mean of a MotherShip (8) and a Decoy (2)
        else:
            weight = 8 if identity == "mothership" else 2
        if owner == seat:
            score -= weight * PRESSURE[n] * defence // 8
        else:
            score += weight * PRESSURE[n] // 2
            targets.append(divmod(h, WIDTH))
    cut = articulation_points(stacks)
    chasers = []
    for h, stack in stacks.items():
        top = stack[-1]
        owner = p_owner[top]
        if owner < 0:
            continue
        kind = p_kind[top]
        if owner == seat and kind != COMMAND and kind != MOTHERSHIP:
            chasers.append(h)
        if len(stack) == 1 and h in cut:
            continue
        value = MOBILITY.get(kind, 0)
        score += value if owner == seat else -value // others
    for h in chasers if targets else ():
        hq, hr = divmod(h, WIDTH)
        score -= 3 * min((abs(hq - q) + abs(hr - r) + abs(hq - q + hr - r)) // 2 for q, r in targets)
    return score


def settle(state: CollectiveConflict, guess: dict[int, Any]) -> None:
    """Resolve reveals and chance with the guessed values until someone must decide."""
    for _ in range(64):
        p = state.pending()
        if isinstance(p, RevealOwed):
            if p.what == "trap":
                value: Any = bool(guess.get(p.secret, True))
            else:
                value = guess.get(p.secret, "mothership")
                if value == "decoy" and state.decoy_revealed[p.seat]:
                    value = "mothership"
            state.apply(p.seat, ("reveal", p.secret, value))
        elif isinstance(p, Chance):
            state.apply(TABLE, ("chance", 0))
        else:
            return


def determinise(state: CollectiveConflict, seat: int, knowledge: Knowledge, rng: SeededStream) -> dict[int, Any]:
    """One guess for every secret the seat does not hold; its own from its knowledge."""
    guess: dict[int, Any] = dict(knowledge.sealed)
    for other in range(state.players):
        sids = state.commands[other]
        if other == seat or not sids:
            continue
        if state.decoy_revealed[other]:
            for sid in sids:
                guess.setdefault(sid, "mothership" if state.secrets[sid][3] is None else state.secrets[sid][3])
            continue
        mothership = sids[rng.below(len(sids))] if len(sids) == 2 or rng.below(2) else None
        for sid in sids:
            guess.setdefault(sid, "mothership" if sid == mothership else "decoy")
    return guess


def _after(state: CollectiveConflict, seat: int, action: Action, knowledge: Knowledge | None, guess: dict) -> Any:
    child = state.clone()
    if knowledge is not None:
        pub = child.publish(seat, action, knowledge)
        guess.update(pub.sealed)
        action = pub.action
    child.apply(seat, action)
    settle(child, guess)
    return child


class GreedyBot:
    """Best action after one ply by :func:`evaluate`; ties broken by its seeded stream."""

    def __init__(self, seat: int, seed: bytes) -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"cc-greedy/{seat}")

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        assert isinstance(state, CollectiveConflict)
        guess = determinise(state, self.seat, knowledge, self.rng)
        best: list[Action] = []
        best_value = None
        for action in legal:
            g = dict(guess)
            value = evaluate(_after(state, self.seat, action, knowledge, g), self.seat, g)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self.rng.below(len(best))]


class SearchBot:
    """Two-ply alpha-beta over one determinisation, with a budget of simulated actions.

    Our candidates are ordered by their one-ply value and the best ``width``
    are searched against every reply of the next seat to move (the most
    threatening replies first, so that alpha cuts come early); a budget in
    simulated actions bounds the work so that a move stays under a second.
    """

    def __init__(self, seat: int, seed: bytes, width: int = 24, budget: int = 3000, defence: int = 5) -> None:
        self.seat = seat
        self.defence = defence
        self.rng = SeededStream(seed, f"cc-search/{seat}")
        self.width = width
        self.budget = budget

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        assert isinstance(state, CollectiveConflict)
        seat = self.seat
        guess = determinise(state, seat, knowledge, self.rng)
        first: list[tuple[int, int, Action, Any, dict]] = []
        for i, action in enumerate(legal):
            g = dict(guess)
            child = _after(state, seat, action, knowledge, g)
            value = evaluate(child, seat, g, self.defence, expect=True)
            if value >= WIN:
                return action
            first.append((value, -i, action, child, g))
        first.sort(key=lambda x: (x[0], x[1]), reverse=True)
        budget = self.budget - len(legal)
        best_value = None
        best_action = first[0][2]
        for value, _, action, child, g in first[: self.width]:
            worst = value
            pending = child.pending()
            if isinstance(pending, Decision) and pending.seat != seat:
                replies = _ordered_replies(child, pending.seat, seat)
                if len(replies) > budget and best_value is not None:
                    break  # a half-searched candidate would look better than it is
                lowest = None
                for reply in replies:
                    budget -= 1
                    g2 = dict(g)
                    v = evaluate(_after(child, pending.seat, reply, None, g2), seat, g2, self.defence, expect=True)
                    if lowest is None or v < lowest:
                        lowest = v
                    if best_value is not None and lowest <= best_value:
                        break
                worst = value if lowest is None else lowest
            if best_value is None or worst > best_value:
                best_value, best_action = worst, action
        return best_action


def _ordered_replies(state: CollectiveConflict, mover: int, victim: int) -> list[Action]:
    """The mover's public actions, those ending next to the victim's command units first."""
    danger: set[int] = set()
    for h, stack in state.stacks.items():
        piece = stack[0]
        if state.p_owner[piece] == victim and state.p_kind[piece] in (COMMAND, MOTHERSHIP):
            danger.update(h + d for d in DELTAS)
    near: list[Action] = []
    rest: list[Action] = []
    from engines.core.hexgrid import hex_id

    for action in state._public_legal():
        verb = action[0]
        dest = action[2] if verb in ("place", "move", "cast") else action[3] if verb == "jump" else None
        if dest is not None and hex_id(*dest) in danger:
            near.append(action)
        else:
            rest.append(action)
    return near + rest


def best_classic_action(state: CollectiveConflict, depth: int = 2) -> Action:
    """The UHP ``bestmove``: the search bot (depth 2) or the greedy bot (depth 1), full knowledge."""
    pending = state.pending()
    assert isinstance(pending, Decision)
    knowledge = Knowledge(None)
    legal = state.legal_actions(pending.seat, knowledge)
    bot: GreedyBot | SearchBot
    bot = GreedyBot(pending.seat, b"uhp") if depth <= 1 else SearchBot(pending.seat, b"uhp")
    return bot.choose(state, knowledge, legal)


__all__ = ["GameOver", "GreedyBot", "SearchBot", "best_classic_action", "evaluate", "random_bot"]
