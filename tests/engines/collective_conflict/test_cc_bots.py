"""The Collective Conflict search bot: legal within its node budget, sees a win or a loss coming, deterministic."""

from __future__ import annotations

import pytest
from cc_helpers import build, reveal_all, seat_knowledge

from engines.collective_conflict import CollectiveConflict, GreedyBot, SearchBot
from engines.collective_conflict.search import destination
from engines.core import Decision, GameOver, Knowledge, Referee

# Seat 1's only command unit (its MotherShip) at the origin with five sides filled; (0, 1) is free and
# seat 0's Runner on (1, 1) can slide into it.
RING_ON_ONE = {
    (0, 0): "1M",
    (1, 0): "0M",
    (1, -1): "0R",
    (0, -1): "1R",
    (-1, 0): "1J",
    (-1, 1): "0J",
    (1, 1): "0R",
}
# The same with the colours swapped: now seat 0's MotherShip is the one in danger, and seat 0 moves.
RING_ON_ZERO = {qr: str(1 - int(code[0])) + code[1] for qr, code in RING_ON_ONE.items()}


def _midgame(seed: bytes, plies: int) -> tuple[CollectiveConflict, Referee]:
    """A real 2-player position: two greedy bots play ``plies`` decisions from the start."""
    state = CollectiveConflict(2, {})
    referee = Referee(state, seed)
    bots = [GreedyBot(0, seed), GreedyBot(1, seed)]
    for _ in range(plies):
        pending = referee.run_table()
        assert isinstance(pending, Decision)
        k = referee.seats[pending.seat]
        referee.decide(pending.seat, bots[pending.seat].choose(state, k, state.legal_actions(pending.seat, k)))
    assert isinstance(referee.run_table(), Decision)
    return state, referee


def _play(state: CollectiveConflict, seat: int, action, truth: Knowledge) -> tuple[CollectiveConflict, Knowledge]:
    """Copies of ``state`` and ``truth`` after ``seat`` plays its private ``action`` and the true reveals follow."""
    child = state.clone()
    publication = child.publish(seat, action, seat_knowledge(truth, child, seat))
    known = Knowledge(None)
    known.sealed.update(truth.sealed)
    known.sealed.update(publication.sealed)  # a command unit placed now: its identity joins the truth
    child.push(seat, publication.action, known)
    reveal_all(child, known)
    return child, known


def _opponent_can_win(state: CollectiveConflict, truth: Knowledge) -> bool:
    """Does the seat to move have an action that ends the game with it as the only winner?"""
    pending = state.pending()
    if not isinstance(pending, Decision):
        return False
    seat = pending.seat
    for action in state.legal_actions(seat, seat_knowledge(truth, state, seat)):
        over = _play(state, seat, action, truth)[0].pending()
        if isinstance(over, GameOver) and over.winners == (seat,):
            return True
    return False


@pytest.mark.parametrize(("seed", "plies", "budget"), [(b"mid-a", 16, 2400), (b"mid-b", 22, 300), (b"mid-c", 30, 60)])
def test_search_bot_returns_a_legal_action_within_its_node_budget(seed, plies, budget):
    state, referee = _midgame(seed, plies)
    seat = state.pending().seat
    knowledge = referee.seats[seat]
    legal = state.legal_actions(seat, knowledge)
    before = state.hash()
    bot = SearchBot(seat, b"budget", budget=budget)
    action = bot.choose(state, knowledge, legal)
    assert action in legal
    assert 0 < bot.nodes <= budget
    assert state.hash() == before  # thinking does not touch the real state


def test_search_bot_closes_the_ring_around_the_only_enemy_command_unit():
    state, truth = build(RING_ON_ONE)
    mine = seat_knowledge(truth, state, 0)
    legal = state.legal_actions(0, mine)
    winning = [a for a in legal if _play(state, 0, a, truth)[0].pending() == GameOver((0,), "last active Network")]
    assert winning and len(winning) < len(legal)  # the position has a win, and moves that are not
    action = SearchBot(0, b"win").choose(state, mine, legal)
    assert action in winning
    assert destination(action) == (0, 1)


def test_search_bot_parries_the_threat_on_its_mothership():
    state, truth = build(RING_ON_ZERO)
    mine = seat_knowledge(truth, state, 0)
    legal = state.legal_actions(0, mine)
    losing = [a for a in legal if _opponent_can_win(*_play(state, 0, a, truth))]
    assert losing and len(losing) < len(legal)  # many moves lose at once; some do not
    action = SearchBot(0, b"parry").choose(state, mine, legal)
    assert action not in losing


def test_search_bot_is_deterministic_by_seed_and_reads_only_its_view():
    state, referee = _midgame(b"det", 18)
    seat = state.pending().seat
    knowledge = referee.seats[seat]
    assert all(state.secrets[sid][0] == seat for sid in knowledge.sealed)  # nothing of anyone else
    legal = state.legal_actions(seat, knowledge)
    picks = {SearchBot(seat, b"same").choose(state.clone(), knowledge, list(legal)) for _ in range(2)}
    assert len(picks) == 1

    def game(seed: bytes) -> list:
        s = CollectiveConflict(2, {"max_rounds": 8})
        r = Referee(s, seed)
        r.play([SearchBot(0, seed), SearchBot(1, seed)])
        return r.history

    assert game(b"g1") == game(b"g1")


def test_search_bot_places_its_decoy_before_its_mothership():
    # the third own move must place a command unit: the search bot shows its Decoy first, to draw fire
    state, truth = build({(0, 0): "0R", (1, 0): "1R", (-1, 0): "0J", (2, 0): "1J"}, moves=2)
    mine = seat_knowledge(truth, state, 0)
    legal = state.legal_actions(0, mine)
    assert {a[1] for a in legal} == {"mothership", "decoy"}
    assert SearchBot(0, b"decoy").choose(state, mine, legal)[1] == "decoy"
