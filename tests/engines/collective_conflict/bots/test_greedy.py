"""The Collective Conflict greedy bot finishes games: it does not shuffle, and it fills the last hole.

Two greedy bots left alone at the end of a 4-player game (the search bot among three greedy ones is
often surrounded first) must not walk one unit back and forth until the repetition draw (CC-22) ends
the game.  So greedy is reluctant to leave a board behind again (as the search bot is) and its free
units go to the hex that would close a five-sided ring.
"""

from __future__ import annotations

from engines.collective_conflict import CollectiveConflictState, GreedyBot
from engines.collective_conflict.bots.evaluate import after
from engines.collective_conflict.bots.memory import board_key
from engines.core import GameOver, Referee
from tests.engines.collective_conflict.helpers import _midgame


def _board_after(state: CollectiveConflictState, seat: int, action, knowledge) -> object:  # type: ignore[no-untyped-def]
    return board_key(after(state, seat, action, knowledge, {}))


def test_a_board_the_greedy_bot_left_before_costs_it_and_it_takes_another_move() -> None:
    state, referee = _midgame(b"greedy-stale", 12)
    seat = state.pending().seat
    k = referee.seats[seat]
    legal = state.legal_actions(seat, k)
    first = GreedyBot(seat, b"g").choose(state, k, legal)
    left_before = _board_after(state, seat, first, k)
    remembering = GreedyBot(seat, b"g")  # the same stream: only its memory differs
    remembering.history[left_before] = 2
    again = remembering.choose(state, k, legal)
    assert _board_after(state, seat, again, k) != left_before
    forgetful = GreedyBot(seat, b"g", repeat=0)
    forgetful.history[left_before] = 2
    assert forgetful.choose(state, k, legal) == first  # without the cost the memory changes nothing


def test_the_greedy_bot_remembers_the_board_it_leaves() -> None:
    state, referee = _midgame(b"greedy-stale", 12)
    seat = state.pending().seat
    k = referee.seats[seat]
    bot = GreedyBot(seat, b"g")
    action = bot.choose(state, k, state.legal_actions(seat, k))
    assert bot.history == {_board_after(state, seat, action, k): 1}


def test_four_greedy_bots_that_ended_in_the_repetition_draw_now_play_it_out() -> None:
    """A staged game: four greedy bots as they were (no memory, not drawn to the hole of a five-sided
    ring) drew it by repetition at round 56; as they are, the same start ends by a surround."""
    seed = b"gg/4/4"
    ends = {}
    for old in (True, False):
        state = CollectiveConflictState(4, {"max_rounds": 150})
        bots = [GreedyBot(s, seed, repeat=0, hole=False) if old else GreedyBot(s, seed) for s in range(4)]
        over = Referee(state, seed).play(bots)
        assert isinstance(over, GameOver)
        ends[old] = over.reason
    assert ends[True] == "position repeated"
    assert ends[False] == "last active Network"
