"""The Collective Conflict search bot: legal within its node budget, sees a win or a loss coming, deterministic."""

from __future__ import annotations

import pytest

from engines.collective_conflict import CollectiveConflictState, GreedyBot, SearchBot
from engines.collective_conflict.bots.evaluate import evaluate
from engines.collective_conflict.bots.memory import identity_filter, position_key
from engines.collective_conflict.bots.search import destination
from engines.core import Decision, GameOver, Knowledge, Referee
from engines.core.hexgrid import DELTAS, hex_id
from engines.core.seeded import SeededStream
from tests.engines.collective_conflict.helpers import _midgame, build, reveal_all, seat_knowledge

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




def _play(
    state: CollectiveConflictState, seat: int, action, truth: Knowledge
) -> tuple[CollectiveConflictState, Knowledge]:
    """Copies of ``state`` and ``truth`` after ``seat`` plays its private ``action`` and the true reveals follow."""
    child = state.clone()
    publication = child.publish(seat, action, seat_knowledge(truth, child, seat))
    known = Knowledge(None)
    known.sealed.update(truth.sealed)
    known.sealed.update(publication.sealed)  # a command unit placed now: its identity joins the truth
    child.push(seat, publication.action, known)
    reveal_all(child, known)
    return child, known


def _opponent_can_win(state: CollectiveConflictState, truth: Knowledge) -> bool:
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
        s = CollectiveConflictState(2, {"max_rounds": 8})
        r = Referee(s, seed)
        r.play([SearchBot(0, seed), SearchBot(1, seed)])
        return r.history

    assert game(b"g1") == game(b"g1")


# The third own move must place a command unit.  Seat 0's placement hexes are to the west; seat 1 crowds
# them (EXPOSED) or stands far off while seat 0's own units guard them (GUARDED).
EXPOSED = {(0, 0): "0R", (1, 0): "1R", (-1, 0): "0J", (2, 0): "1J", (1, -1): "1C", (0, 1): "1N", (2, -1): "1R"}
GUARDED = {(0, 0): "0R", (1, 0): "1R", (-1, 0): "0J", (2, 0): "1J", (-1, 1): "0C", (-2, 1): "0N", (-2, 0): "0R"}


def _first_identity(bot: type, units: dict, seed: bytes) -> str:
    state, truth = build(units, moves=2)
    mine = seat_knowledge(truth, state, 0)
    legal = state.legal_actions(0, mine)
    assert {a[1] for a in legal} == {"mothership", "decoy"}
    return bot(0, seed).choose(state, mine, legal)[1]


@pytest.mark.parametrize("bot", [SearchBot, GreedyBot])
def test_which_command_unit_goes_first_is_drawn_not_a_fixed_order(bot):
    picks = [_first_identity(bot, EXPOSED, b"id%d" % i) for i in range(16)]
    assert set(picks) == {"mothership", "decoy"}  # an opponent cannot read the identity off the order
    assert picks == [_first_identity(bot, EXPOSED, b"id%d" % i) for i in range(16)]  # and the seed decides it


def test_the_identity_draw_is_weighed_by_the_position():
    def decoys(units: dict) -> int:
        state, truth = build(units, moves=2)
        legal = state.legal_actions(0, seat_knowledge(truth, state, 0))
        drawn = [identity_filter(state, 0, legal, SeededStream(b"w%d" % i, "t")) for i in range(60)]
        assert all(len({a[1] for a in d if a[1] in ("mothership", "decoy")}) == 1 for d in drawn)
        return sum(1 for d in drawn if any(a[1] == "decoy" for a in d))

    exposed, guarded = decoys(EXPOSED), decoys(GUARDED)
    assert exposed > guarded  # the Decoy goes first more often where foreign units crowd
    assert guarded >= 12 and exposed <= 48  # ... but never by more than two to one (at 60 draws, with room)


def test_search_bots_develop_their_reserves():
    state = CollectiveConflictState(2, {"first_player": 0})
    referee = Referee(state, b"develop")
    bots = [SearchBot(0, b"develop"), SearchBot(1, b"develop")]
    for _ in range(24):
        pending = referee.run_table()
        assert isinstance(pending, Decision)
        k = referee.seats[pending.seat]
        referee.decide(pending.seat, bots[pending.seat].choose(state, k, state.legal_actions(pending.seat, k)))
    assert min(state.placed) >= 3 and sum(state.placed) >= 7  # not one command unit walked about the board


def _after(state: CollectiveConflictState, seat: int, action, knowledge: Knowledge) -> CollectiveConflictState:
    child = state.clone()
    publication = child.publish(seat, action, knowledge)
    child.apply(seat, publication.action)
    return child


@pytest.mark.parametrize("plies", [18, 26])
def test_the_search_bot_knows_the_repetition_draw(plies):
    state, referee = _midgame(b"rep", plies)
    seat = state.pending().seat
    knowledge = referee.seats[seat]
    legal = state.legal_actions(seat, knowledge)
    bot = SearchBot(seat, b"rep")
    chosen = bot.choose(state, knowledge, legal)
    again = SearchBot(seat, b"rep")
    again.memory.counts[position_key(_after(state, seat, chosen, knowledge))] = 2
    second = again.choose(state, knowledge, legal)
    if bot.value > 0:
        assert second != chosen  # ahead: a third repetition would throw the game away
    else:
        assert second == chosen  # not ahead: the draw is as good as its best
    # a move into a third repetition is taken when every other line loses
    behind = SearchBot(seat, b"rep", defence=800)
    behind.choose(state, knowledge, legal)
    if behind.value < 0:
        other = next(a for a in legal if a != chosen)
        seeker = SearchBot(seat, b"rep", defence=800)
        seeker.memory.counts[position_key(_after(state, seat, other, knowledge))] = 2
        assert seeker.choose(state, knowledge, legal) == other or seeker.value >= 0


# Seat 0's only command unit (its MotherShip) at the origin with five sides filled by seat 1 and the sixth,
# (0, 1), free: it cannot slide out (both hexes flanking the step are taken) and none of the sides is its own.
BOXED_IN = {
    (0, 0): "0M",
    (1, 0): "1M",
    (1, -1): "1R",
    (0, -1): "1R",
    (-1, 0): "1J",
    (-1, 1): "1J",
    (2, -2): "0R",
}


def test_a_five_sided_ring_that_no_action_opens_counts_as_lost():
    state, truth = build(BOXED_IN)
    bot = SearchBot(0, b"doom")
    assert bot._doomed(state, dict(seat_knowledge(truth, state, 0).sealed))


def test_a_five_sided_ring_with_a_side_of_our_own_that_can_step_away_is_not_lost():
    state, truth = build({**BOXED_IN, (-1, 0): "0J"})
    bot = SearchBot(0, b"doom")
    assert not bot._doomed(state, dict(seat_knowledge(truth, state, 0).sealed))


def test_a_command_unit_that_cannot_slide_out_of_three_foreign_sides_is_weighed_as_trapped():
    # three foreign sides, every free side a gate with both flanks taken: no way out
    boxed, truth = build({(0, 0): "0M", (1, 0): "1M", (0, -1): "1R", (-1, 1): "1R"})
    guess = dict(truth.sealed)
    assert evaluate(boxed, 0, guess, trapped=60) < evaluate(boxed, 0, guess, trapped=0)
    # three foreign sides side by side: the unit can still slide out through the open half of its ring
    open_ring, truth = build({(0, 0): "0M", (1, 0): "1M", (1, -1): "1R", (0, -1): "1R"})
    guess = dict(truth.sealed)
    assert evaluate(open_ring, 0, guess, trapped=60) == evaluate(open_ring, 0, guess, trapped=0)


def test_a_five_sided_ring_with_no_way_out_costs_closing_times_the_trapped_cost():
    # the ring stays one hex from closing until the opponent reaches that hex: far worse than four sides
    boxed, truth = build(BOXED_IN)
    guess = dict(truth.sealed)
    free = evaluate(boxed, 0, guess, trapped=0)
    once = evaluate(boxed, 0, guess, trapped=60, closing=1)
    four_times = evaluate(boxed, 0, guess, trapped=60, closing=4)
    assert four_times - free == 4 * (once - free) < 0


def _foreign_sides(state: CollectiveConflictState, at: tuple[int, int]) -> int:
    """Sides of the hex ``at`` topped by a unit not of seat 0."""
    h = hex_id(*at)
    return sum(1 for d in DELTAS if (h + d) in state.stacks and state.p_owner[state.stacks[h + d][-1]] not in (0, -1))


# An opening (the benchmark's games 2, 26 and 39 reach it): seat 0's MotherShip on (0, 0) beside its Decoy,
# seat 1's two Runners and a command unit around it.  Stepping to (1, -1) puts the MotherShip beside the
# foreign command unit; stepping to (1, 0) keeps every foreign unit two steps away.
OPENING = {(-1, 0): "1R", (-1, 1): "1R", (0, -1): "1M", (0, 0): "0M", (0, 1): "0D"}


def test_the_search_bot_keeps_its_mothership_clear_of_foreign_units_in_the_opening():
    state, truth = build(OPENING)
    mine = seat_knowledge(truth, state, 0)
    legal = state.legal_actions(0, mine)
    # both weigh the command units by identity (the MotherShip at 8), so that only the exposure cost differs
    careless = SearchBot(0, b"open", exposure=0, alike=0).choose(state, mine, legal)
    careful = SearchBot(0, b"open", alike=0).choose(state, mine, legal)
    assert careless[:2] == careful[:2] == ("move", (0, 0))  # both walk the MotherShip ...
    assert _foreign_sides(_play(state, 0, careless, truth)[0], careless[2]) == 1  # ... one into contact
    assert _foreign_sides(_play(state, 0, careful, truth)[0], careful[2]) == 0  # ... the other not


def test_exposure_counts_free_foreign_units_beside_the_command_unit_twice_those_two_steps_away():
    # a foreign Runner beside our MotherShip, another two steps away beyond our Jumper
    near, truth = build({(0, 0): "0M", (1, 0): "1R", (-1, 0): "0J", (-2, 0): "1R"})
    guess = dict(truth.sealed)
    cost = evaluate(near, 0, guess) - evaluate(near, 0, guess, exposure=64)
    assert cost == (2 + 1) * 64 * 8 * 5 // 128  # (beside twice, two steps once) * weight 8 * defence 5 eighths
    # a foreign unit that holds the board together cannot step closer: only the one beyond it counts
    chain, truth = build({(0, 0): "0M", (1, 0): "1R", (2, 0): "1R"})
    guess = dict(truth.sealed)
    assert evaluate(chain, 0, guess) - evaluate(chain, 0, guess, exposure=64) == 1 * 64 * 8 * 5 // 128


# Seat 0's two command units, one pressed by two foreign Runners, the other free; and the same board with the
# identities swapped.  An opponent sees the two boards as one.
PRESSED_MOTHERSHIP = {(0, 0): "0M", (1, 0): "1R", (1, -1): "1R", (-1, 0): "0J", (-2, 0): "0D", (2, -1): "1M"}
PRESSED_DECOY = {**PRESSED_MOTHERSHIP, (0, 0): "0D", (-2, 0): "0M"}


def test_the_search_bot_guards_its_two_command_units_alike_so_its_defence_is_no_tell():
    boards = [build(units) for units in (PRESSED_MOTHERSHIP, PRESSED_DECOY)]
    by_identity = [evaluate(state, 0, dict(truth.sealed)) for state, truth in boards]
    assert by_identity[0] < by_identity[1]  # weighed by identity, pressure on the MotherShip costs more
    assert len({evaluate(state, 0, dict(truth.sealed), alike=5) for state, truth in boards}) == 1

    def choices(**kwargs) -> list:
        out = []
        for state, truth in boards:
            mine = seat_knowledge(truth, state, 0)
            out.append(SearchBot(0, b"alike", **kwargs).choose(state, mine, state.legal_actions(0, mine)))
        return out

    told_apart = choices(alike=0)  # the bot before: it answers the two boards differently ...
    assert told_apart[0] != told_apart[1]
    same = choices()  # ... and now alike
    assert same[0] == same[1]


def test_a_ring_about_to_close_around_either_own_command_unit_counts_as_deciding():
    # seat 0's Decoy with five occupied sides, its MotherShip free beyond them
    ring = {(0, 0): "0D", (1, 0): "1R", (1, -1): "1R", (0, -1): "1J", (-1, 0): "0J", (-1, 1): "1M", (-2, 0): "0M"}
    state, truth = build(ring)
    guess = dict(truth.sealed)
    assert SearchBot(0, b"ring", alike=0)._decisive_rings(state, guess) == set()  # by identity: only a Decoy
    assert SearchBot(0, b"ring")._decisive_rings(state, guess) == {hex_id(0, 0)}
