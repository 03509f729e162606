"""Property tests over seeded random games of System Launch at every player count, with seats
leaving or declared gone at random moments.

The protocol's part for departures is played by :class:`tests.engines.system_launch.helpers.GoneTable` (a forfeit, and
for a seat declared gone the set-aside of every undrawn card it locked).  Every step keeps the
checking referee's invariants (each card in one place, no seat knowing what it was not shown);
every pending Decision has a legal action, only that seat has any, and ``check()`` with the
seat's knowledge accepts exactly the legal actions among a superset of candidates (every verb
over the seat's slots and other slots, true and false card identities, every target).  Every
game ends, and replaying its log on a fresh state reaches the same hash.  A bigger run:
``SL_DEPARTURE_GAMES=30 python3 -m pytest tests/engines/system_launch/test_departures.py``.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from engines.core import TABLE, Decision, GameOver, IllegalAction, Knowledge, RandomBot, SeededStream
from engines.system_launch import GreedyBot, SystemLaunchState
from engines.system_launch.state import ACTION, CRASH_CHOICE, DISCARD, HACK_TAKE
from tests.engines.system_launch.helpers import GoneTable

GAMES = int(os.environ.get("SL_DEPARTURE_GAMES", "6"))
#: One departure is tried at about one step in this many (the opening included).
DEPART_EVERY = 60
#: check() is compared with legal_actions() at about one decision in this many.
PROBE_EVERY = 3

JUNK: list[Any] = [("pass", 1), ("take-none", 0), ("lose",), ("build", 0), ("play", 0, 0), ("deal", 0)]
JUNK += [("shuffled",), ("chance", 0), ("delivered",), ("build", True, 0), ("discard", 0, 0.0), ("take", None)]


def candidates(state: SystemLaunchState, seat: int, knowledge: Knowledge, rng: SeededStream) -> list[Any]:
    """Legal and illegal actions for ``seat`` at this decision."""
    n = state.players
    mine = list(state.hands[seat])
    others = [slot for h in state.hands for slot in h if slot not in mine][:3]
    slots = [*mine, *others, state.deck_top, -1]
    cards = [rng.below(44) for _ in range(4)]
    out: list[Any] = [("pass",), ("take-none",), *JUNK]
    st = state.stage
    for slot in slots:
        for card in {*cards, knowledge.cards.get(slot, 0), 44}:
            if st == ACTION:
                out += [("build", slot, card), ("upgrade", slot, card)]
                out += [("play", slot, card, target) for target in range(-1, n + 1)]
            elif st == DISCARD:
                out.append(("discard", slot, card))
        out.append(("take", slot))
    if st == HACK_TAKE:
        out += [("take", slot) for slot in state.hands[state.target]]
    if st == CRASH_CHOICE:
        out += [("lose", card) for card in range(-1, 45)]
    return out


def accepted(state: SystemLaunchState, seat: int, action: Any, knowledge: Knowledge | None) -> bool:
    try:
        state.check(seat, action, knowledge)
    except IllegalAction:
        return False
    return True


def play(players: int, index: int) -> GoneTable:
    seed = f"sl-departures/{players}/{index}".encode()
    state = SystemLaunchState(players)
    ref = GoneTable(state, seed)
    rng = SeededStream(seed, "chaos")
    bots = [GreedyBot(s) if rng.below(2) else RandomBot(s, seed) for s in range(players)]
    for _ in range(20_000):
        if state.is_over():
            return ref
        if rng.below(DEPART_EVERY) == 0:
            alive = [s for s in range(players) if state.alive[s]]
            ref.depart(alive[rng.below(len(alive))], declared_gone=bool(rng.below(2)))
            continue
        if ref.resolve_table():
            continue
        pending = state.pending()
        assert isinstance(pending, Decision), pending
        seat = pending.seat
        knowledge = ref.seats[seat]
        legal = state.legal_actions(seat, knowledge)
        assert legal, f"seat {seat} must decide {pending.what!r} with no legal action"
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other, ref.seats[other]) == []
        if rng.below(PROBE_EVERY) == 0:
            pool = candidates(state, seat, knowledge, rng) + legal
            took = {a for a in pool if accepted(state, seat, a, knowledge)}
            assert took == set(legal), (took ^ set(legal), pending)
            assert not any(accepted(state, TABLE, a, None) for a in legal)
            other = (seat + 1) % players
            assert not any(accepted(state, other, a, ref.seats[other]) for a in legal)
        ref.decide(seat, bots[seat].choose(state, knowledge, legal))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("index", range(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_departures_keep_every_rule_and_end(players, index):
    ref = play(players, index)
    state = ref.state
    over = state.pending()
    assert isinstance(over, GameOver)
    assert over.draw or state.alive[over.winners[0]]
    for seat in range(players):
        assert state.legal_actions(seat, ref.seats[seat]) == []
    fresh = SystemLaunchState(players)
    for kind, seat, action in ref.log:
        if kind == "forfeit":
            fresh.forfeit(seat)
        elif kind == "aside":
            fresh.set_aside(action)
        else:
            fresh.push(seat, action)
    assert fresh.hash() == state.hash()
