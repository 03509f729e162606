"""The engine contract for System Launch: claims, shown cards, illegal input, views, options, registry."""

from __future__ import annotations

import pytest

from engines.core import TABLE, Decision, IllegalAction, Knowledge, registry
from engines.core.selfplay import selfplay
from engines.system_launch import DEFAULTS, SPEC, SystemLaunchState
from engines.system_launch.cards import ANTIVIRUS, CARD_KIND, CRASH, KIND_COUNTS, PROCESSOR, RAM
from tests.engines.system_launch.helpers import Table, card

P0, P1, R0 = card(PROCESSOR, 0), card(PROCESSOR, 1), card(RAM, 0)
AV0 = card(ANTIVIRUS, 0)
CR0 = card(CRASH, 0)
F = [*range(18, 24), 12, 13, 14, 15]  # Graphics Cards and Hard Drives


def table() -> Table:
    return Table(2, [[P0, R0, CR0, F[0]], F[1:5]], system={1: [P1]})


def unchanged(t: Table, seat: int, action, knowledge: Knowledge | None = None) -> str:
    before = t.state.hash()
    clone_before = t.state.clone().public()
    with pytest.raises(IllegalAction) as info:
        t.state.push(seat, action, knowledge)
    assert t.state.hash() == before
    assert t.state.public() == clone_before
    return str(info.value)


def test_card_table_matches_the_rule_text():
    assert len(CARD_KIND) == 44
    assert [CARD_KIND.count(k) for k in range(11)] == list(KIND_COUNTS)
    assert sum(KIND_COUNTS[:4]) == 24 and sum(KIND_COUNTS[4:7]) == 12 and sum(KIND_COUNTS[7:]) == 8


@pytest.mark.parametrize(
    "action",
    [
        "build",
        (),
        ("build",),
        ("build", 0),
        ("build", "x", 1),
        ("build", 0, 1.5),
        ("build", 0, 99),
        ("build", 0, -1),
        ("fly", 1),
        ("pass", 1),
        ("play", 0, CR0),
        ("play", 0, CR0, "1"),
        ("take", 0),
        ("take-none",),
        ("lose", P0),
        ("discard", 0, P0),
        ("deal", 0),
        ("shuffled",),
        ("chance", 0),
        ("delivered",),
        ("upgrade", 0, 0, 0),
        ["pass"],
    ],
)
def test_malformed_or_misplaced_actions_are_refused_without_change(action):
    t = table()
    unchanged(t, 0, action, t.seats[0])
    unchanged(t, 0, action)


def test_only_the_deciding_seat_may_act_and_the_table_may_not_decide():
    t = table()
    assert "seat 0's decision" in unchanged(t, 1, ("pass",))
    assert "not the table" in unchanged(t, TABLE, ("pass",))
    with pytest.raises(IllegalAction, match="no seat"):
        t.state.forfeit(7)


def test_forged_claims_are_rejected():
    t = table()
    slot_p0 = t.slot_of(0, P0)
    # A card already face up (seat 1's built Processor) cannot be claimed from a hand.
    assert "face up" in unchanged(t, 0, ("build", slot_p0, P1))
    # A slot that is not in the author's hand.
    other = t.state.hands[1][0]
    assert "not in seat 0's hand" in unchanged(t, 0, ("build", other, t.truth.cards[other]))
    # A consistent-looking lie passes the public check (the protocol's key check catches it) ...
    lie = ("build", slot_p0, AV0)
    t.state.clone().check(0, lie)
    # ... but not the author's own knowledge, nor the audit's full knowledge.
    assert "does not hold" in unchanged(t, 0, lie, t.seats[0])
    assert "does not hold" in unchanged(t, 0, lie, t.truth)
    # A knowledge that has never seen the slot cannot vouch for it.
    assert "not known" in unchanged(t, 0, ("build", slot_p0, P0), Knowledge(0))
    assert "not known" in unchanged(t, 0, ("build", slot_p0, P0), Knowledge(None))
    # Another seat's knowledge that does not know the slot does not object.
    t.state.clone().check(0, ("build", slot_p0, P0), t.seats[1])


def test_error_messages_do_not_name_hidden_cards():
    t = table()
    slot_p0 = t.slot_of(0, P0)
    msg = unchanged(t, 0, ("build", slot_p0, AV0), t.truth)
    assert "Processor" not in msg and str(P0) not in msg.replace(str(slot_p0), "")


def test_shown_names_the_slot_and_card_of_showing_actions():
    t = table()
    s = t.state
    assert s.shown(0, ("build", 3, P0)) == ((3, P0),)
    assert s.shown(0, ("play", 3, CR0, 1)) == ((3, CR0),)
    assert s.shown(0, ("upgrade", 3, P0)) == ((3, P0),)
    assert s.shown(0, ("discard", 3, P0)) == ((3, P0),)
    for action in [("pass",), ("take", 3), ("take-none",), ("lose", P0), ("deal", 3), ("build", "x", 1), "x"]:
        assert s.shown(0, action) == ()


def test_every_legal_action_passes_the_public_and_the_private_check():
    t = table()
    legal = t.state.legal_actions(0, t.seats[0])
    assert legal[-1] == ("pass",)
    assert ("play", t.slot_of(0, CR0), CR0, 1) in legal
    assert ("build", t.slot_of(0, P0), P0) in legal
    for action in legal:
        t.state.clone().check(0, action)
        t.state.clone().check(0, action, t.seats[0])
        t.state.clone().check(0, action, t.truth)
    assert t.state.legal_actions(1, t.seats[1]) == []


def test_view_shows_own_hand_and_only_counts_of_others():
    t = table()
    v0 = t.state.view(t.seats[0])
    assert v0["seat"] == 0
    assert [c for _, c in v0["hand"]] == t.hand_cards(0)
    assert v0["hands"] == [5, 4]
    assert v0["seen"] == {}
    assert v0["system"] == [[], [P1]]
    assert v0["deck"] == len(t.state.deck)
    assert v0["pending"] == {"kind": "decision", "seat": 0, "what": "action"}
    v1 = t.state.view(t.seats[1])
    hidden0 = set(t.hand_cards(0))
    assert not hidden0 & {c for _, c in v1["hand"]}
    assert all(c is not None for _, c in v1["hand"])
    full = t.state.view(t.truth)
    assert full["seen"] == {s: [[sl, t.truth.cards[sl]] for sl in t.state.hands[s]] for s in (0, 1)}


def test_public_state_holds_no_hidden_identity():
    t = table()
    public = t.state.public()
    hidden = set(t.hand_cards(0) + t.hand_cards(1))
    shown = {c for row in public["system"] + public["discard"] for c in row}
    assert not hidden & shown
    assert public["hands"] == t.state.hands  # slots only


def test_clone_is_independent():
    t = table()
    c = t.state.clone()
    assert c.hash() == t.state.hash()
    c.push(0, ("pass",))
    assert c.hash() != t.state.hash()
    assert t.state.pending() == Decision(0, "action")


def test_options_are_validated():
    with pytest.raises(ValueError, match="unknown"):
        SystemLaunchState(2, {"hand_size": 3})
    with pytest.raises(ValueError, match="integer"):
        SystemLaunchState(2, {"hand_limit": "5"})
    with pytest.raises(ValueError, match="more than 44"):
        SystemLaunchState(6, {"starting_hand": 8})
    with pytest.raises(ValueError, match="2–6"):
        SystemLaunchState(7)
    assert (
        SystemLaunchState(2).public()["options"]
        == DEFAULTS
        == {
            "starting_hand": 4,
            "hand_limit": 5,
            "parts_to_win": 3,
            "protections_to_win": 1,
            "round_limit": 200,
        }
    )
    assert SystemLaunchState(2, {"hand_limit": 6}).hash() != SystemLaunchState(2).hash()


def test_registry_and_selfplay_are_deterministic():
    # Registered on import (registry.get() imports every game package; tested here in isolation).
    assert registry._GAMES["system-launch"] is SPEC
    spec = SPEC
    assert spec.title == "System Launch" and (spec.min_players, spec.max_players) == (2, 6)
    assert set(spec.bots) == {"random", "greedy", "memory"}
    a = selfplay(spec, 4, 5, 1, "greedy")
    b = selfplay(spec, 4, 5, 1, "greedy")
    c = selfplay(spec, 4, 5, 2, "greedy")
    assert a.digest == b.digest and a.wins == b.wins
    assert a.digest != c.digest
    assert sum(a.wins) + a.draws == 5
