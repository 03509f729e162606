"""``set_aside``: cards nobody can open any more go out of play, and the game goes on by SL-3 and SL-9.

The protocol calls it when a seat declared gone took its card keys with it
(docs/rules/system-launch-engine.md §7).  Unit tests set up each situation with a
stacked deck; a property test sets random runs of the deck and random hand
cards aside during whole random games and checks every invariant after each step.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import (
    TABLE,
    Chance,
    ChanceKind,
    Deal,
    Decision,
    GameOver,
    IllegalAction,
    RandomBot,
    SeededStream,
    registry,
)
from engines.system_launch import SystemLaunchState
from engines.system_launch.cards import GRAPHICS_CARD, HACKER_ATTACK, HARD_DRIVE, PROCESSOR, RAM, UPGRADE
from tests.engines.system_launch.helpers import CheckingReferee, Table, card

EXAMPLES = int(os.environ.get("SL_PROPERTY_EXAMPLES", "15"))

P0, R0, H0 = card(PROCESSOR, 0), card(RAM, 0), card(HARD_DRIVE, 0)
HA0, UP0 = card(HACKER_ATTACK, 0), card(UPGRADE, 0)
F = [card(GRAPHICS_CARD, i) for i in range(1, 6)] + [card(HARD_DRIVE, i) for i in range(2, 6)]


def refused(state: SystemLaunchState, slots: object, match: str) -> None:
    """``set_aside`` must refuse, say why, and change nothing (public state and hash)."""
    before, digest = state.public(), state.hash()
    with pytest.raises(IllegalAction, match=match):
        state.set_aside(slots)  # type: ignore[arg-type]
    assert state.public() == before and state.hash() == digest


def in_one_place(t: Table) -> None:
    where = t.state.locate(t.truth)
    assert sorted(where) == list(range(44))


def test_a_game_without_cards_refuses_by_default():
    for name in ("anomaly-maze", "collective-conflict"):
        spec = registry.get(name)
        state = spec.new_state(spec.min_players, {})
        with pytest.raises(IllegalAction, match="no cards"):
            state.set_aside((0,))


def test_the_whole_deck_goes_out_and_the_next_draw_reshuffles_the_discards():
    t = Table(3, [F[0:4], F[4:8], [P0, R0, H0, UP0]], discard={1: [card(PROCESSOR, 1)]})
    state = t.state
    assert state.pending() == Decision(0, "action")
    deck = tuple(state.deck)
    state.set_aside(deck)
    assert state.deck == [] and state.out[-len(deck) :] == sorted(deck)
    assert state.public()["out"] == list(deck)
    in_one_place(t)
    assert state.pending() == Decision(0, "action")  # nothing to draw now: the decision stands
    t.push(0, ("pass",))
    # Seat 1's Phase 1 draw: the deck is empty, so the Discard rows are reshuffled (SL-3).
    pending = state.pending()
    assert isinstance(pending, Chance) and pending.kind is ChanceKind.SECRET_SHUFFLE
    assert card(PROCESSOR, 1) in pending.cards and not set(pending.slots) & set(deck)
    t.resolve()
    in_one_place(t)


def test_setting_aside_at_a_pending_draw_restarts_the_draw():
    t = Table(2, [[P0, R0, H0, UP0], F[0:4]], discard={1: [card(PROCESSOR, 1)]})
    state = t.state
    t.push(0, ("play", t.slot_of(0, UP0), UP0, 0))  # Upgrade!: a draw is due now
    assert isinstance(state.pending(), Deal)
    state.set_aside(tuple(state.deck))
    pending = state.pending()
    assert isinstance(pending, Chance) and pending.cards == (card(PROCESSOR, 1),)
    in_one_place(t)


def test_with_no_discards_nothing_is_drawn_and_the_game_ends_at_the_end_of_the_round():
    t = Table(3, [F[0:4], F[4:8], [P0, R0, H0, card(RAM, 1)]])
    state = t.state
    state.set_aside(tuple(state.deck))
    t.do(0, ("pass",))
    assert state.exhausted  # SL-9: seat 1's draw found nothing
    assert state.pending() == Decision(1, "action")
    t.do(1, ("pass",))
    assert t.do(2, ("pass",)) == GameOver((), "deck exhausted")
    in_one_place(t)


def test_during_the_opening_deal_the_rest_of_the_deal_finds_no_cards():
    state = SystemLaunchState(3)
    state.push(TABLE, ("shuffled",))
    state.push(TABLE, ("chance", 1))
    state.push(TABLE, ("deal", 0))
    state.push(TABLE, ("deal", 1))
    assert state.pending() == Deal(2, 0)
    state.set_aside(tuple(range(2, 44)))
    assert state.hands == [[], [0], [1]]
    assert state.pending() == Decision(1, "action") and state.round == 1 and state.exhausted
    assert sorted(state.out) == list(range(2, 44))


def test_a_run_from_the_top_or_the_bottom_of_the_deck():
    t = Table(2, [F[0:4], F[4:8]])
    state = t.state
    top, end = state.deck_top, state.deck_end
    state.set_aside((top, top + 1))
    assert state.deck_top == top + 2 and state.deck_end == end
    state.set_aside((end - 1, end - 2))
    assert state.deck_end == end - 2
    assert state.out == [top, top + 1, end - 2, end - 1]
    in_one_place(t)
    refused(state, (state.deck_top + 1,), "run from the top or the bottom")


def test_hand_cards_go_out_and_a_discard_phase_that_is_no_longer_needed_ends():
    t = Table(2, [[P0, R0, H0, UP0, F[0]], F[1:6]], options={"starting_hand": 5})
    state = t.state
    assert len(state.hands[0]) == 6
    t.push(0, ("pass",))
    assert state.pending() == Decision(0, "discard")
    slot = state.hands[0][0]
    state.set_aside((slot,))
    assert slot in state.out and slot not in state.hands[0]
    assert state.pending() == Deal(state.deck_top, 1)  # seat 0's turn ended: seat 1 draws
    in_one_place(t)


def test_a_hand_under_hacker_attack_keeps_its_cards_until_the_attack_is_resolved():
    t = Table(2, [[HA0, R0, H0, UP0], F[0:4]])
    state = t.state
    t.push(0, ("play", t.slot_of(0, HA0), HA0, 1))
    refused(state, (state.hands[1][0],), "Hacker Attack")
    state.set_aside((state.hands[0][0],))  # the attacker's own hand is not being looked at


@pytest.mark.parametrize(
    ("slots", "match"),
    [
        ([0], "tuple"),
        ((), "non-empty"),
        (("0",), "integer"),
        ((True,), "integer"),
        ((1.0,), "integer"),
        ((10**6,), "neither in the deck nor in a hand"),
        ((-1,), "neither"),
    ],
)
def test_garbage_is_refused_without_a_change(slots, match):
    t = Table(3, [F[0:4], F[4:8], [P0, R0, H0, UP0]])
    refused(t.state, slots, match)


def test_twice_named_out_already_and_after_the_game_are_refused():
    t = Table(2, [F[0:4], F[4:8]])
    state = t.state
    top = state.deck_top
    refused(state, (top, top), "twice")
    state.set_aside((top,))
    refused(state, (top,), "neither")
    state.forfeit(1)
    refused(state, (state.deck_top,), "over")


def play_with_set_asides(players: int, seed: bytes, per_mille: int) -> tuple[SystemLaunchState, CheckingReferee, list]:
    """A random game where, now and then, a run of the deck or a hand card is set aside."""
    state = SystemLaunchState(players)
    ref = CheckingReferee(state, seed)
    bots = [RandomBot(s, seed) for s in range(players)]
    chaos = SeededStream(seed, "set-aside")
    log: list[tuple[str, int, tuple]] = []
    while not state.is_over():
        if state.stage != 0 and chaos.below(1000) < per_mille:
            choice = _random_set(state, chaos)
            if choice:
                try:
                    state.set_aside(choice)
                except IllegalAction:
                    pass  # e.g. the hand under Hacker Attack: refused, nothing changed
                else:
                    log.append(("aside", TABLE, choice))
                    ref.after_step()
                    continue
        before = len(ref.history)
        if not ref.resolve_table():
            pending = state.pending()
            knowledge = ref.seats[pending.seat]
            legal = state.legal_actions(pending.seat, knowledge)
            ref.decide(pending.seat, bots[pending.seat].choose(state, knowledge, legal))
        log.extend(("push", seat, action) for seat, action in ref.history[before:])
        assert len(log) < 20_000, "game did not end"
    return state, ref, log


def _random_set(state: SystemLaunchState, chaos: SeededStream) -> tuple[int, ...]:
    deck = state.deck
    if deck and chaos.below(3):
        k = 1 + chaos.below(len(deck))
        return tuple(deck[:k]) if chaos.below(2) else tuple(deck[-k:])
    held = [slot for hand in state.hands for slot in hand]
    return (held[chaos.below(len(held))],) if held else ()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.binary(min_size=1, max_size=8), per_mille=st.sampled_from([5, 20, 80]))
def test_random_set_asides_keep_every_invariant_and_replay_identically(players, seed, per_mille):
    state, _ref, log = play_with_set_asides(players, seed, per_mille)
    fresh = SystemLaunchState(players)
    for kind, seat, action in log:
        if kind == "aside":
            fresh.set_aside(action)
        else:
            fresh.push(seat, action)
    assert fresh.public() == state.public()
    assert isinstance(state.pending(), GameOver)
