"""Unit tests: every rule of System Launch, each event with and without its protection."""

from __future__ import annotations

import pytest

from engines.core import TABLE, Chance, ChanceKind, Deal, Decision, GameOver, IllegalAction, Knowledge, PrivateDelivery
from engines.system_launch import SystemLaunchState
from engines.system_launch.cards import (
    ANTIVIRUS,
    CRASH,
    FIREWALL,
    GRAPHICS_CARD,
    HACKER_ATTACK,
    HARD_DRIVE,
    PASSWORD,
    PHISHING,
    PROCESSOR,
    RAM,
    UPGRADE,
)
from tests.engines.system_launch.helpers import Table, card

P0, P1, P2 = card(PROCESSOR, 0), card(PROCESSOR, 1), card(PROCESSOR, 2)
R0, R1 = card(RAM, 0), card(RAM, 1)
H0, H1 = card(HARD_DRIVE, 0), card(HARD_DRIVE, 1)
G0 = card(GRAPHICS_CARD, 0)
AV0, AV1 = card(ANTIVIRUS, 0), card(ANTIVIRUS, 1)
FW0 = card(FIREWALL, 0)
PW0 = card(PASSWORD, 0)
CR0, CR1 = card(CRASH, 0), card(CRASH, 1)
HA0, HA1 = card(HACKER_ATTACK, 0), card(HACKER_ATTACK, 1)
PH0, PH1 = card(PHISHING, 0), card(PHISHING, 1)
UP0 = card(UPGRADE, 0)

# Filler cards nobody will use in a test (Graphics Cards 1..5 and spare Hard Drives).
F = [card(GRAPHICS_CARD, i) for i in range(1, 6)] + [card(HARD_DRIVE, i) for i in range(2, 6)]


def two(hand0, hand1, top=(), **kw) -> Table:
    return Table(2, [hand0, hand1], top=top, **kw)


def unchanged(t: Table, seat: int, action: tuple, knowledge: Knowledge | None = None) -> str:
    """Push an illegal action: it must raise and leave the state (and its hash) as it was."""
    before = t.state.hash()
    with pytest.raises(IllegalAction) as info:
        t.state.push(seat, action, knowledge)
    assert t.state.hash() == before
    return str(info.value)


# -- set-up and turn order -------------------------------------------------------------------------


def test_opening_is_shuffle_then_first_player_then_round_robin_deal():
    s = SystemLaunchState(3)
    p = s.pending()
    assert p == Chance(ChanceKind.SECRET_SHUFFLE, "deck", cards=tuple(range(44)), slots=tuple(range(44)))
    s.push(TABLE, ("shuffled",))
    assert s.pending() == Chance(ChanceKind.PUBLIC_SEEDED, "first-player", outcomes=3)
    s.push(TABLE, ("chance", 1))
    dealt_to = []
    while isinstance(s.pending(), Deal):
        p = s.pending()
        dealt_to.append(p.seat)
        s.push(TABLE, ("deal", p.slot))
    # Four each, one at a time clockwise from the first player, then seat 1's Phase 1 draw.
    assert dealt_to == [1, 2, 0] * 4 + [1]
    assert [len(h) for h in s.hands] == [4, 5, 4]
    assert s.pending() == Decision(1, "action")
    assert s.hands[1][0] == 0  # the top of the deck is slot 0


def test_deal_slot_must_be_the_top_and_seats_cannot_resolve_chance():
    s = SystemLaunchState(2)
    with pytest.raises(IllegalAction):
        s.push(0, ("shuffled",))
    s.push(TABLE, ("shuffled",))
    for bad in [("chance", 2), ("chance", -1), ("chance", True), ("deal", 0), ("shuffled",)]:
        before = s.hash()
        with pytest.raises(IllegalAction):
            s.push(TABLE, bad)
        assert s.hash() == before
    s.push(TABLE, ("chance", 0))
    assert s.pending() == Deal(0, 0)
    with pytest.raises(IllegalAction):
        s.push(TABLE, ("deal", 1))


def test_turn_is_draw_then_action_then_next_player():
    t = two([P0, R0, H0, F[0]], [F[1], F[2], F[3], F[4]], top=[AV0, F[5]])
    assert t.state.pending() == Decision(0, "action")
    assert AV0 in t.hand_cards(0)
    deck = len(t.state.deck)
    assert t.do(0, ("pass",)) == Decision(1, "action")
    assert len(t.state.deck) == deck - 1
    assert F[5] in t.hand_cards(1)


# -- build rule and the win --------------------------------------------------------------------


def test_build_rule_no_two_identical_parts_or_protections():
    t = two([P0, P1, AV0, AV1], F[:4], top=[G0, F[4], R0])
    t.build(0, P0)
    t.idle(1)
    msg = unchanged(t, 0, ("build", t.slot_of(0, P1), P1), t.seats[0])
    assert "build rule" in msg
    assert ("build", t.slot_of(0, P1), P1) not in t.state.legal_actions(0, t.seats[0])
    t.build(0, AV0)  # a different kind: fine
    t.idle(1)
    assert "build rule" in unchanged(t, 0, ("build", t.slot_of(0, AV1), AV1), t.seats[0])
    t.build(0, G0)  # the Graphics Card is a Part kind of its own
    assert t.state.system[0] == [P0, AV0, G0]


def test_events_cannot_be_built_and_parts_cannot_be_played():
    t = two([CR0, P0, F[0], F[1]], F[2:6])
    assert "only Part and Protection" in unchanged(t, 0, ("build", t.slot_of(0, CR0), CR0))
    assert "only Event" in unchanged(t, 0, ("play", t.slot_of(0, P0), P0, 1))
    assert "Upgrade discards" in unchanged(t, 0, ("upgrade", t.slot_of(0, CR0), CR0))


def test_three_different_parts_and_a_protection_win_at_end_of_phase_2():
    t = two([H0, F[0], F[1], F[2]], F[3:7], system={0: [P0, R0, AV0]})
    over = t.build(0, H0)
    assert over == GameOver((0,), "system launched")
    assert t.state.is_over()
    # The win came at the end of Phase 2: no Phase 3 discard was asked for.
    assert len(t.state.hands[0]) == 4


def test_graphics_card_counts_as_a_part_kind():
    t = two([G0, F[0], F[1], F[2]], F[3:7], system={0: [P0, R0, PW0]})
    assert t.build(0, G0) == GameOver((0,), "system launched")


def test_parts_without_protection_do_not_win():
    t = two([H0, F[0], F[1], F[2]], F[3:7], system={0: [P0, R0, G0]})
    assert t.build(0, H0) == Decision(1, "action")


def test_win_is_checked_only_at_the_end_of_the_owners_phase_2():
    # Seat 1's System is complete, but the win is only checked at the end of seat 1's own Phase 2.
    t = two([F[0], F[1], F[2], F[3]], [F[4], F[5], F[6], F[7]], system={1: [P0, R0, H0, FW0]})
    assert t.state.pending() == Decision(0, "action")
    assert t.do(0, ("pass",)) == Decision(1, "action")  # seat 1 drew in Phase 1: no win yet
    assert t.do(1, ("pass",)) == GameOver((1,), "system launched")


def test_house_rule_parts_to_win():
    t = two([H0, F[0], F[1], F[2]], F[3:7], system={0: [P0, R0, AV0]}, options={"parts_to_win": 4})
    assert t.build(0, H0) == Decision(1, "action")


# -- Phase 2: Upgrade (action C) and Upgrade! (event) ----------------------------------------------


def test_upgrade_discards_a_part_and_draws_one():
    t = two([P0, F[0], F[1], F[2]], F[3:7], top=[F[7], R0])
    hand = len(t.state.hands[0])
    slot = t.slot_of(0, P0)
    t.push(0, ("upgrade", slot, P0))
    assert t.state.pending() == Deal(t.state.deck[0], 0)
    t.resolve()
    assert t.state.discard[0] == [P0]
    assert R0 in t.hand_cards(0) and len(t.state.hands[0]) == hand
    assert t.state.pending() == Decision(1, "action")


def test_upgrade_event_draws_one_and_is_discarded_by_its_player():
    t = two([UP0, F[0], F[1], F[2]], F[3:7], top=[F[7], R0])
    assert "on yourself" in unchanged(t, 0, ("play", t.slot_of(0, UP0), UP0, 1))
    t.play(0, UP0, 0)
    assert R0 in t.hand_cards(0)
    assert t.state.discard[0] == [UP0]
    assert t.state.pending() == Decision(1, "action")


# -- Crash! ------------------------------------------------------------------------------------


def test_crash_is_cancelled_by_antivirus_and_still_discarded():
    t = two([CR0, F[0], F[1], F[2]], F[3:7], system={1: [P0, R0, AV0]})
    t.play(0, CR0, 1)
    assert t.state.system[1] == [P0, R0, AV0]
    assert t.state.discard[0] == [CR0]
    assert t.state.pending() == Decision(1, "action")


def test_crash_without_antivirus_lets_the_target_choose_the_part():
    t = two([CR0, F[0], F[1], F[2]], F[3:7], system={1: [P0, R0, FW0]})
    assert t.play(0, CR0, 1) == Decision(1, "crash")
    legal = t.state.legal_actions(1, t.seats[1])
    assert legal == [("lose", P0), ("lose", R0)]
    assert t.state.legal_actions(0, t.seats[0]) == []
    assert "not a Part" in unchanged(t, 1, ("lose", FW0))
    assert "decision" in unchanged(t, 0, ("lose", R0))
    assert t.do(1, ("lose", R0)) == Decision(1, "action")
    assert t.state.system[1] == [P0, FW0]
    assert t.state.discard[1] == [R0]
    assert t.state.discard[0] == [CR0]


def test_crash_with_one_part_discards_it_without_asking():
    t = two([CR0, F[0], F[1], F[2]], F[3:7], system={1: [H0, PW0]})
    assert t.play(0, CR0, 1) == Decision(1, "action")
    assert t.state.system[1] == [PW0]
    assert t.state.discard[1] == [H0]


def test_crash_on_a_target_with_no_parts_has_no_effect():
    t = two([CR0, F[0], F[1], F[2]], F[3:7], system={1: [PW0]})
    assert t.play(0, CR0, 1) == Decision(1, "action")
    assert t.state.system[1] == [PW0]
    assert t.state.discard == [[CR0], []]


def test_attacks_need_another_live_player():
    t = Table(3, [[CR0, F[0], F[1], F[2]], F[3:7], [F[7], P0, P1, P2]])
    assert "against another player" in unchanged(t, 0, ("play", t.slot_of(0, CR0), CR0, 0))
    assert "no seat" in unchanged(t, 0, ("play", t.slot_of(0, CR0), CR0, 3))
    t.past_the_opening()  # a seat leaving before the first action would mean a re-deal (SL-11)
    t.state.forfeit(2)
    assert "has left" in unchanged(t, 0, ("play", t.slot_of(0, CR0), CR0, 2))


# -- Hacker Attack! ----------------------------------------------------------------------------


def test_hacker_attack_is_cancelled_by_firewall():
    t = two([HA0, F[0], F[1], F[2]], [P0, R0, H0, G0], system={1: [FW0]})
    assert t.play(0, HA0, 1) == Decision(1, "action")
    assert t.state.discard[0] == [HA0]
    assert not any(slot in t.seats[0].cards for slot in t.state.hands[1])


def test_hacker_attack_shows_the_hand_to_the_attacker_alone_and_takes_one():
    t = two([HA0, F[0], F[1], F[2]], [P0, R0, H0, G0])
    old_slots = list(t.state.hands[1])
    t.push(0, ("play", t.slot_of(0, HA0), HA0, 1))
    fresh = tuple(range(t.state.next_slot, t.state.next_slot + len(old_slots)))
    assert t.state.pending() == PrivateDelivery(1, 0, tuple(old_slots), "hacker-attack", fresh)
    assert "no decision is pending" in unchanged(t, 1, ("pass",))
    t.resolve()
    assert t.state.pending() == Decision(0, "hacker-take")
    target_slots = list(fresh)  # SL-10: the hand moved to fresh slots as it was shown
    assert t.state.hands[1] == target_slots
    assert all(slot in t.seats[0].cards for slot in target_slots)
    view = t.state.view(t.seats[0])
    assert view["seen"] == {1: [[s, t.truth.cards[s]] for s in target_slots]}
    legal = t.state.legal_actions(0, t.seats[0])
    assert legal == [("take", s) for s in target_slots] + [("take-none",)]
    assert "not in seat 1" in unchanged(t, 0, ("take", t.state.hands[0][0]))
    slot_r0 = t.slot_of(1, R0)
    assert t.do(0, ("take", slot_r0)) == Decision(1, "action")
    assert slot_r0 in t.state.hands[0] and slot_r0 not in t.state.hands[1]
    assert t.state.discard[0] == [HA0]
    # The third seat-free observer (public state) never learned R0's identity.
    assert R0 not in t.state.public()["system"][0] + t.state.public()["discard"][0]


def test_hacker_attack_take_none():
    t = two([HA0, F[0], F[1], F[2]], [P0, R0, H0, G0])
    t.play(0, HA0, 1)
    hands = [list(h) for h in t.state.hands]
    assert t.do(0, ("take-none",)) == Decision(1, "action")
    assert [len(h) for h in t.state.hands] == [len(hands[0]), len(hands[1]) + 1]


def test_hacker_attack_on_an_empty_hand_has_no_effect():
    # House rule: no opening hands, so seat 1 holds nothing when seat 0 draws its Hacker Attack.
    t = two([], [], top=[HA0], options={"starting_hand": 0})
    assert t.state.hands[1] == []
    assert t.play(0, HA0, 1) == Decision(1, "action")
    assert ("no-effect", 1) in t.state.events
    assert t.state.discard[0] == [HA0]


# -- Phishing! ---------------------------------------------------------------------------------


def test_phishing_is_cancelled_by_password():
    t = two([PH0, F[0], F[1], F[2]], F[3:7], system={1: [PW0]})
    assert t.play(0, PH0, 1) == Decision(1, "action")
    assert t.state.skip == [False, False]


def test_phishing_skips_the_next_turn_without_draw():
    t = two([PH0, F[0], F[1], F[2]], F[3:7])
    deck = len(t.state.deck)
    hand1 = len(t.state.hands[1])
    t.play(0, PH0, 1)
    # Seat 1's turn is skipped: straight back to seat 0, who draws; seat 1 drew nothing.
    assert t.state.pending() == Decision(0, "action")
    assert len(t.state.deck) == deck - 1
    assert len(t.state.hands[1]) == hand1
    assert ("skipped", 1) in t.state.events
    assert t.idle(0) == Decision(1, "action")  # only one turn is skipped


def test_phishing_does_not_stack():
    t = Table(3, [[PH0, F[0], F[1], F[2]], F[3:7], [PH1, F[7], F[8], P0]], first=2)
    t.play(2, PH1, 1)  # seat 2 plays first: phish seat 1
    assert t.state.skip == [False, True, False]
    t.play(0, PH0, 1)  # seat 0: phish seat 1 again before its turn
    # Seat 1 skips once (its turn right after seat 0), then plays on its next turn.
    assert t.state.pending() == Decision(2, "action")
    assert t.state.skip == [False, False, False]
    t.idle(2)
    t.idle(0)
    assert t.state.pending() == Decision(1, "action")


# -- Phase 3: hand limit -------------------------------------------------------------------------


def test_hand_limit_discards_one_at_a_time_down_to_five():
    t = two([F[0], F[1], F[2], F[3]], F[4:8], top=[P0, R0, H0, G0])
    t.do(0, ("pass",))  # seat 0 keeps 5
    t.idle(1)
    assert t.state.pending() == Decision(0, "action")
    assert len(t.state.hands[0]) == 6
    assert t.do(0, ("pass",)) == Decision(0, "discard")
    legal = t.state.legal_actions(0, t.seats[0])
    assert [a[0] for a in legal] == ["discard"] * 6
    assert "discard down to 5" in unchanged(t, 0, ("pass",))
    assert t.do(0, ("discard", t.slot_of(0, F[0]), F[0])) == Decision(1, "action")
    assert t.state.discard[0] == [F[0]]
    assert len(t.state.hands[0]) == 5


def test_hand_limit_house_rule():
    t = two([F[0], F[1], F[2], F[3]], F[4:8], options={"hand_limit": 3})
    assert t.do(0, ("pass",)) == Decision(0, "discard")
    t.do(0, ("discard", t.state.hands[0][0], t.truth.cards[t.state.hands[0][0]]))
    assert t.state.pending() == Decision(0, "discard")
    t.do(0, ("discard", t.state.hands[0][0], t.truth.cards[t.state.hands[0][0]]))
    assert t.state.pending() == Decision(1, "action")
    assert len(t.state.hands[0]) == 3


# -- empty deck: reshuffle (SL-3) and the draw (SL-9) ------------------------------------------------


def _six_full_hands(options=None) -> Table:
    # 6 players x 7 cards = 42 dealt; 2 cards left in the deck.
    hands = [list(range(7 * s, 7 * s + 7)) for s in range(6)]
    return Table(6, hands, options={"starting_hand": 7, "hand_limit": 44, **(options or {})})


def test_empty_deck_reshuffles_all_discards_into_fresh_slots():
    t = _six_full_hands({"hand_limit": 6})
    assert len(t.state.deck) == 1  # seat 0 drew one of the two
    t.idle(0)  # 8 cards: discards two
    assert t.state.deck == []  # seat 1 drew the last card
    assert t.do(1, ("pass",)) == Decision(1, "discard")
    for _ in range(2):
        slot = t.state.hands[1][0]
        t.push(1, ("discard", slot, t.truth.cards[slot]))
    pool = sorted(t.state.discard[0] + t.state.discard[1])
    assert len(pool) == 4
    # Seat 2's draw is due and the deck is empty: all discards go into fresh slots 44..47.
    p = t.state.pending()
    assert p == Chance(ChanceKind.SECRET_SHUFFLE, "reshuffle", cards=tuple(pool), slots=(44, 45, 46, 47))
    assert "secret shuffle" in unchanged(t, TABLE, ("deal", 44))
    t.reshuffle_orders.append([pool[2], pool[0], pool[3], pool[1]])
    t.resolve_one()
    assert t.state.discard == [[]] * 6
    assert t.state.pending() == Deal(44, 2)
    t.resolve()
    assert pool[2] in t.hand_cards(2)
    assert t.state.next_slot == 48 and len(t.state.deck) == 3


def test_no_card_to_draw_then_the_game_is_a_draw_at_the_end_of_the_round():
    t = Table(
        6, [list(range(7 * s, 7 * s + 7)) for s in range(6)], first=2, options={"starting_hand": 7, "hand_limit": 44}
    )
    # Seat 2 drew one of the two deck cards; seat 3 draws the last one.
    t.do(2, ("pass",))
    assert t.state.pending() == Decision(3, "action") and t.state.deck == []
    t.do(3, ("pass",))
    # Seat 4 finds the deck empty and nothing to reshuffle: no card, but the turn goes on.
    assert t.state.pending() == Decision(4, "action")
    assert t.state.exhausted and len(t.state.hands[4]) == 7
    t.do(4, ("pass",))
    t.do(5, ("pass",))
    t.do(0, ("pass",))
    # Seat 1 sits before the first player (2): its turn ends the round and the game.
    assert t.state.pending() == Decision(1, "action")
    assert t.do(1, ("pass",)) == GameOver((), "deck exhausted")
    assert t.state.pending().draw


def test_a_win_in_the_last_round_still_counts():
    system = {5: [P0, R0, AV0], 4: [P1, R1, FW0]}
    rigged = [c for cards in system.values() for c in cards]
    rest = [c for c in range(44) if c not in rigged and c != H0]
    hands = [rest[6 * s : 6 * s + 6] for s in range(5)] + [[H0, *rest[30:35]]]
    t = Table(6, hands, options={"starting_hand": 6, "hand_limit": 44}, system=system)
    assert len(t.state.deck) == 1
    for seat in range(5):
        t.do(seat, ("pass",))
    assert t.state.exhausted  # seat 2 found nothing to draw
    assert t.build(5, H0) == GameOver((5,), "system launched")


def test_round_limit_ends_the_game_in_a_draw():
    t = two(F[0:4], F[4:8], options={"round_limit": 2, "hand_limit": 44})
    for seat in [0, 1, 0, 1]:
        assert not t.state.is_over()
        t.do(seat, ("pass",))
    assert t.state.pending() == GameOver((), "round limit")
    assert t.state.round == 2


# -- forfeit ---------------------------------------------------------------------------------


def test_forfeit_with_two_players_gives_the_other_the_win():
    t = two(F[0:4], F[4:8])
    t.state.forfeit(1)
    assert t.state.pending() == GameOver((0,), "last seat standing")
    with pytest.raises(IllegalAction):
        t.state.forfeit(0)


def test_forfeit_of_the_active_seat_mid_decision_moves_play_on():
    t = Table(3, [F[0:4], F[4:8], [P0, R0, H0, AV0]], system={0: [G0, PW0]})
    assert t.past_the_opening() == Decision(0, "action")  # leaving earlier would mean a re-deal (SL-11)
    slots = list(t.state.hands[0])
    t.state.forfeit(0)
    assert t.state.out == slots and t.state.hands[0] == []
    assert t.state.discard[0] == [G0, PW0] and t.state.system[0] == []
    assert t.resolve() == Decision(1, "action")
    t.idle(1)
    t.idle(2)
    assert t.state.pending() == Decision(1, "action")  # seat 0 is passed over
    with pytest.raises(IllegalAction, match="already left"):
        t.state.forfeit(0)


def test_forfeit_of_the_crash_target_ends_the_attack():
    t = Table(3, [[CR0, F[0], F[1], F[2]], F[3:7], [*F[7:9], P2, R1]], system={1: [P0, R0]})
    assert t.play(0, CR0, 1) == Decision(1, "crash")
    t.state.forfeit(1)
    assert t.resolve() == Decision(2, "action")
    assert t.state.discard[0] == [CR0]
    assert sorted(t.state.discard[1]) == [P0, R0]


def test_forfeit_of_the_hacked_target_during_the_take():
    t = Table(3, [[HA0, F[0], F[1], F[2]], F[3:7], [*F[7:9], P2, R1]])
    t.play(0, HA0, 1)
    assert t.state.pending() == Decision(0, "hacker-take")
    t.state.forfeit(1)
    assert t.resolve() == Decision(2, "action")
    assert t.state.discard[0] == [HA0]


def test_forfeit_of_the_attacker_during_the_take_and_during_the_opening_deal():
    t = Table(3, [[HA0, F[0], F[1], F[2]], F[3:7], [*F[7:9], P2, R1]])
    t.play(0, HA0, 1)
    t.state.forfeit(0)
    assert t.state.discard[0] == [HA0]
    assert t.resolve() == Decision(1, "action")
    s = SystemLaunchState(3)
    s.push(TABLE, ("shuffled",))
    s.push(TABLE, ("chance", 0))
    s.push(TABLE, ("deal", 0))
    s.forfeit(1)  # SL-11: the opening is dealt again among seats 0 and 2, from fresh slots
    assert s.hands == [[], [], []]
    assert s.pending() == Chance(ChanceKind.SECRET_SHUFFLE, "deck", cards=tuple(range(44)), slots=tuple(range(44, 88)))
    s.push(TABLE, ("shuffled",))
    assert s.pending() == Chance(ChanceKind.PUBLIC_SEEDED, "first-player", outcomes=2)
    s.push(TABLE, ("chance", 0))
    assert s.pending() == Deal(44, 0)
    while isinstance(s.pending(), Deal):
        s.push(TABLE, ("deal", s.pending().slot))
    assert [len(h) for h in s.hands] == [5, 0, 4]


def test_forfeit_before_the_first_player_is_drawn():
    s = SystemLaunchState(3)
    s.forfeit(0)  # before the opening shuffle: it is simply run without seat 0
    s.push(TABLE, ("shuffled",))
    assert s.pending() == Chance(ChanceKind.PUBLIC_SEEDED, "first-player", outcomes=2)
    s.push(TABLE, ("chance", 0))
    assert s.first == 1
    s = SystemLaunchState(3)
    s.push(TABLE, ("shuffled",))
    s.forfeit(0)  # after it: the deck was locked by seat 0 too, so it is shuffled again (SL-11)
    assert s.pending().what == "deck" and s.pending().slots[0] == 44
    s.push(TABLE, ("shuffled",))
    s.push(TABLE, ("chance", 0))
    assert s.first == 1
