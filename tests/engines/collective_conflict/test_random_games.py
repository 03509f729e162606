"""Random games at every player count, with random leaves: the turn never stalls, ``check`` is exact.

What must hold in every position of every game:

* a pending decision belongs to an active seat that has a legal action (a seat without one is
  skipped, CC-5), and an owed reveal to an active seat;
* ``check`` accepts exactly the legal actions: every one of them, and none of many near misses
  (another hex, another verb, a missing or extra part, ``True`` for ``1``), without touching the state;
* a "no Network can act" draw is declared only when no active Network could act once its blocks
  expire (CC-25);
* with two players and no round limit the game ends by the rules: a surround, or the repetition
  draw (CC-22).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.collective_conflict import CollectiveConflictState, GreedyBot
from engines.core import Decision, GameOver, IllegalAction, RandomBot, Referee, RevealOwed
from engines.core.hexgrid import is_connected

RULE_ENDS = {"last active Network", "the last Networks collapsed together: shared draw", "position repeated"}


def typed(x: Any) -> Any:
    """A value with its types spelled out, so that ``True`` and ``1`` differ."""
    if isinstance(x, tuple):
        return tuple(typed(y) for y in x)
    return (type(x).__name__, x)


def near_misses(action: tuple, rng: random.Random) -> list[tuple]:
    """Actions that differ from a legal one in one small way."""
    out: list[tuple] = [action[:-1], (*action, 0), ("fly", *action[1:])]
    for i, part in enumerate(action):
        if isinstance(part, tuple) and len(part) == 2:
            dq, dr = rng.choice([(1, 0), (0, 1), (-1, 1), (2, -1), (0, -3)])
            out.append((*action[:i], (part[0] + dq, part[1] + dr), *action[i + 1 :]))
            if 1 in part or 0 in part:
                out.append((*action[:i], tuple(bool(c) if c in (0, 1) else c for c in part), *action[i + 1 :]))
        elif type(part) is int and part in (0, 1):
            out.append((*action[:i], bool(part), *action[i + 1 :]))
        elif type(part) is int:
            out.append((*action[:i], part + 1, *action[i + 1 :]))
    for verb in ("place", "move", "jump", "cast", "virus"):
        if verb != action[0]:
            out.append((verb, *action[1:]))
    if action[0] == "place":
        out.append(("place", "wreck", action[2]))
        out.append(("place", "mothership", action[2]))
    return out


def assert_check_is_exact(state: CollectiveConflictState, seat: int, rng: random.Random) -> None:
    legal = state._public_legal()
    exact = {typed(a) for a in legal}
    before = state.hash()
    for action in rng.sample(legal, min(6, len(legal))):
        state.check(seat, action)
        for miss in near_misses(action, rng):
            if typed(miss) in exact:
                state.check(seat, miss)
            else:
                with pytest.raises(IllegalAction):
                    state.check(seat, miss)
        with pytest.raises(IllegalAction):
            state.check((seat + 1) % state.players, action)
    assert state.hash() == before


def assert_nobody_could_act(state: CollectiveConflictState) -> None:
    """CC-25: no active Network has any action on this board, blocks aside."""
    for seat in range(state.players):
        if state.active[seat]:
            probe = state.clone()
            probe.over, probe.current, probe.blocked, probe._legal = None, seat, set(), None
            assert not probe._public_legal(), f"seat {seat} could act"


def run_game(players: int, seed: int, leave_chance: float, options: dict, bots=None) -> GameOver:
    """One random game, checking the invariants at every step; random seats leave at random moments."""
    rng = random.Random(f"cc-random/{players}/{seed}")
    state = CollectiveConflictState(players, options)
    referee = Referee(state, f"cc-random/{players}/{seed}".encode())
    bots = bots or [RandomBot(s, f"cc-random-bot/{seed}".encode()) for s in range(players)]
    while True:
        pending = state.pending()
        if isinstance(pending, GameOver):
            if pending.reason == "no Network can act":
                assert_nobody_could_act(state)
            return pending
        assert is_connected(state.stacks)
        if rng.random() < leave_chance:  # a leave, in turn or out of it, also while a reveal or a chance is due
            state.forfeit(rng.choice([s for s in range(players) if state.active[s]]))
            continue
        if isinstance(pending, RevealOwed) and rng.random() < leave_chance * 30:  # leaving rather than revealing
            state.forfeit(pending.seat)
            continue
        if isinstance(pending, Decision):
            seat = pending.seat
            assert state.active[seat]
            legal = state.legal_actions(seat, referee.seats[seat])
            assert legal, f"seat {seat} must decide but has no legal action"
            if rng.random() < 0.25:
                assert_check_is_exact(state, seat, rng)
            referee.decide(seat, bots[seat].choose(state, referee.seats[seat], legal))
            continue
        if isinstance(pending, RevealOwed):
            assert state.active[pending.seat]
        assert referee.resolve_table()


@pytest.mark.parametrize("players", range(2, 11))
def test_random_games_with_leaves_never_stall(players):
    for seed in range(2):
        over = run_game(players, seed, leave_chance=0.02, options={"max_rounds": 30})
        assert over.winners or over.reason == "the last Networks collapsed together: shared draw"


@pytest.mark.parametrize("players", [3, 6, 10])
def test_random_games_without_leaves_never_stall(players):
    over = run_game(players, 7, leave_chance=0.0, options={"max_rounds": 20})
    assert over.reason in RULE_ENDS | {"move limit", "no Network can act"}


def test_two_player_games_end_by_the_rules_without_a_limit():
    endings = []
    for seed in range(2):
        endings.append(run_game(2, seed, leave_chance=0.0, options={}).reason)
    for seed in range(2):
        greedy = [GreedyBot(s, f"cc-end/{seed}".encode()) for s in range(2)]
        endings.append(run_game(2, 100 + seed, leave_chance=0.0, options={}, bots=greedy).reason)
    assert set(endings) <= RULE_ENDS, endings
