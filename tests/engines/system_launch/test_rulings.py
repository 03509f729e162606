"""System Launch: ruling SL-11 — a seat gone during the opening means a re-deal.

A seat that leaves, or is declared gone, before the first player's first action: the opening
is dealt again among the remaining seats, from a fresh secret shuffle of all 44 cards into
slots never used before (the old deck was locked by the departed seat's keys too).  The
protocol's part is played by :class:`tests.engines.system_launch.helpers.GoneTable`.
"""

from __future__ import annotations

import pytest

from engines.core import TABLE, Chance, ChanceKind, Decision, IllegalAction, RandomBot
from engines.system_launch import SystemLaunchState
from engines.system_launch.state import AFTER_DEAL, AFTER_PHASE1, DRAW
from tests.engines.system_launch.helpers import GoneTable


def until(ref: GoneTable, stop) -> None:
    """Resolve and decide (random bots) until ``stop(state)`` holds."""
    bots = [RandomBot(s, b"sl-11") for s in range(ref.state.players)]
    for _ in range(10_000):
        if stop(ref.state):
            return
        if not ref.resolve_table():
            pending = ref.state.pending()
            assert isinstance(pending, Decision), pending
            knowledge = ref.seats[pending.seat]
            ref.decide(
                pending.seat,
                bots[pending.seat].choose(ref.state, knowledge, ref.state.legal_actions(pending.seat, knowledge)),
            )
    raise AssertionError("never reached")


def dealt_so_far(k: int):
    return lambda s: s.stage == DRAW and s.after == AFTER_DEAL and sum(len(h) for h in s.hands) == k


def first_decision(s: SystemLaunchState) -> bool:
    return isinstance(s.pending(), Decision)


def first_phase1_draw(s: SystemLaunchState) -> bool:
    return s.stage == DRAW and s.after == AFTER_PHASE1


def after_the_shuffle(s: SystemLaunchState) -> bool:
    return isinstance(s.pending(), Chance) and s.pending().what == "first-player"


POINTS = {
    "after the shuffle": after_the_shuffle,
    "first card dealt": dealt_so_far(1),
    "mid-deal": dealt_so_far(5),
    "last card due": lambda s: s.stage == DRAW and s.after == AFTER_DEAL and sum(s.to_deal) == 0,
    "first player's phase 1": first_phase1_draw,
    "first player's decision": first_decision,
}


@pytest.mark.parametrize("declared_gone", [True, False], ids=["declared gone", "left"])
@pytest.mark.parametrize("point", sorted(POINTS))
@pytest.mark.parametrize("players", [3, 6])
def test_a_seat_gone_before_the_first_action_means_a_fresh_deal_for_the_others(players, point, declared_gone):
    state = SystemLaunchState(players)
    ref = GoneTable(state, f"sl-11/{players}/{point}".encode())
    until(ref, POINTS[point])
    used = set(range(state.next_slot))
    leaver = 1
    ref.depart(leaver, declared_gone)
    # A fresh secret shuffle of all 44 cards into slots never used, among the seats still in.
    pending = state.pending()
    assert isinstance(pending, Chance) and pending.kind is ChanceKind.SECRET_SHUFFLE
    assert sorted(pending.cards) == list(range(44))
    assert len(pending.slots) == 44 and not set(pending.slots) & used
    assert state.hands == [[] for _ in range(players)] and state.out == []
    until(ref, first_decision)
    first = state.active
    assert first != leaver and state.round == 1
    for seat in range(players):
        expected = 0 if seat == leaver else 4 + (seat == first)  # the first player has drawn for Phase 1
        assert len(state.hands[seat]) == expected, (seat, state.hands)
    assert ref.asides == [] and state.deck_end - state.deck_top == 44 - (players - 1) * 4 - 1
    assert not state.exhausted


def test_a_seat_declared_gone_during_the_opening_deal_no_longer_ends_the_game_after_round_one():
    state = SystemLaunchState(4)
    ref = GoneTable(state, b"sl-11/whole-game")
    until(ref, dealt_so_far(6))
    ref.depart(2, declared_gone=True)
    until(ref, lambda s: s.is_over() or s.round >= 3)
    assert state.round >= 3 or state.result().reason == "system launched"


def test_the_first_player_leaving_during_the_opening_means_a_new_first_player():
    state = SystemLaunchState(3)
    ref = GoneTable(state, b"sl-11/first")
    until(ref, dealt_so_far(2))
    leaver = state.first
    ref.depart(leaver, declared_gone=True)
    until(ref, after_the_shuffle)
    assert state.pending().outcomes == 2  # drawn again among the two seats still in
    until(ref, first_decision)
    assert state.first != leaver and state.active == state.first


def test_a_seat_gone_after_the_first_action_is_no_reason_to_deal_again():
    state = SystemLaunchState(3)
    ref = GoneTable(state, b"sl-11/later")
    until(ref, first_decision)
    first = state.active
    until(ref, lambda s: isinstance(s.pending(), Decision) and s.active != first)
    leaver = next(s for s in range(3) if s not in (first, state.active))
    hands = [list(h) for h in state.hands]
    ref.depart(leaver, declared_gone=False)
    assert state.out == hands[leaver]  # set aside face down, as before
    assert all(state.hands[s] == hands[s] for s in range(3) if s != leaver)
    assert not isinstance(state.pending(), Chance)


def test_a_seat_gone_before_the_opening_shuffle_is_simply_left_out():
    state = SystemLaunchState(3)
    opening = state.pending()
    state.forfeit(0)
    assert state.pending() == opening  # the shuffle has not happened: it is run without the seat
    state.push(TABLE, ("shuffled",))
    assert state.pending() == Chance(ChanceKind.PUBLIC_SEEDED, "first-player", outcomes=2)


def test_slots_of_the_abandoned_opening_are_already_out_of_play():
    """A second seat declared gone later: the protocol names every undrawn slot it locked, the
    abandoned opening's too; those are out of play already and change nothing."""
    state = SystemLaunchState(4)
    ref = GoneTable(state, b"sl-11/second")
    until(ref, dealt_so_far(3))
    ref.depart(3, declared_gone=False)  # left: its keys were published, the old deck is not blocked by it
    until(ref, lambda s: s.round >= 2 and isinstance(s.pending(), Decision))
    ref.depart(0, declared_gone=True)
    until(ref, lambda s: bool(ref.asides))
    old = [slot for slot in ref.asides[0] if slot < 44]
    assert old, "the abandoned opening's undrawn slots are named too"
    assert not set(old) & set(state.out)  # not counted twice: their cards were re-dealt
    assert sorted(state.locate(ref.truth)) == list(range(44))
    with pytest.raises(IllegalAction, match="neither"):
        state.set_aside((10_000,))
    until(ref, lambda s: s.is_over())


def test_the_public_state_names_the_re_dealt_opening_only_after_a_re_deal():
    """Games without a re-deal keep their public state (and so their hashes and saved logs) as before."""
    state = SystemLaunchState(3)
    ref = GoneTable(state, b"sl-11/public")
    until(ref, dealt_so_far(2))
    assert "opening" not in state.public()
    twin = state.clone()
    ref.depart(2, declared_gone=True)
    assert state.public()["opening"] == 44 and twin.hash() != state.hash()
