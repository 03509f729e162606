"""Turn rules, secrets, reveals, collapse, Wrecks, traps, the Virus, leaving."""

from __future__ import annotations

import pytest

from engines.collective_conflict import CollectiveConflictState
from engines.collective_conflict.rules import COMMAND, WRECK
from engines.core import Chance, Decision, GameOver, IllegalAction, Knowledge, Referee, RevealOwed
from engines.core.hexgrid import DELTAS, hex_id
from engines.core.state import TABLE
from tests.engines.collective_conflict.helpers import build, dests, reveal_all, seat_knowledge

# seat 1's command unit at the origin, five of six sides filled; seat 0's Runner can close the gap
SURROUND = {
    (0, 0): "1M",
    (1, 0): "0M",
    (1, -1): "0R",
    (0, -1): "1R",
    (-1, 0): "1J",
    (-1, 1): "0J",
    (1, 1): "0R",
}


def test_first_player_and_data_core_come_from_public_seeded_chance():
    state = CollectiveConflictState(3, {})
    p = state.pending()
    assert isinstance(p, Chance) and p.what == "first-player" and p.outcomes == 3
    state.push(TABLE, ("chance", 2))
    p = state.pending()
    assert isinstance(p, Chance) and p.what == "data-core" and p.outcomes == 6  # around the start Wreck
    candidates = state._core_candidates()
    state.push(TABLE, ("chance", 4))
    assert state.cores == {candidates[4]}
    assert state.pending() == Decision(2, "turn")
    with pytest.raises(IllegalAction):
        state.check(TABLE, ("chance", 0))


def test_start_layouts_follow_cc3():
    assert len(CollectiveConflictState(2, {}).stacks) == 0
    assert len(CollectiveConflictState(4, {}).stacks) == 1
    assert len(CollectiveConflictState(7, {}).stacks) == 3
    ring = CollectiveConflictState(9, {})
    assert len(ring.stacks) == 6 and hex_id(0, 0) not in ring.stacks
    two = CollectiveConflictState(2, {"first_player": 0})
    assert {a[2] for a in two._public_legal()} == {(0, 0)}  # the very first unit goes at the origin


def test_third_move_rule_forces_a_command_unit():
    state, _ = build({(0, 0): "0R", (1, 0): "1R", (-1, 0): "0J"}, moves=2)
    legal = state._public_legal()
    assert legal and all(a[:2] == ("place", "command") for a in legal)
    mine = state.legal_actions(0, Knowledge(0))
    assert {a[1] for a in mine} == {"mothership", "decoy"}


def test_three_own_sides_exception_after_activation():
    units = {(0, 0): "0M", (1, -1): "0R", (0, -1): "0J", (1, 0): "1R", (2, 0): "1M"}
    state, _ = build(units)
    hexes = {a[2] for a in state._public_legal() if a[0] == "place"}
    assert (1, 1) not in hexes and (0, 1) not in hexes  # touch seat 1, fewer than three own sides
    state2, _ = build({**units, (-1, 1): "0J"})
    hexes2 = {a[2] for a in state2._public_legal() if a[0] == "place"}
    assert (0, 1) not in hexes2  # (0, 1) touches (0,0), (-1,1) own and (1,0) foreign: only two own
    units3 = {(0, 0): "0M", (1, -1): "0R", (2, -1): "0J", (2, 0): "1M"}
    state3, _ = build(units3)
    hexes3 = {a[2] for a in state3._public_legal() if a[0] == "place"}
    assert (1, 0) in hexes3  # touches (0,0), (1,-1), (2,-1): three own sides, and (2,0) foreign


def test_tenth_move_rule_is_enforced_by_the_owner_and_audited():
    state, truth = build({(0, 0): "0D", (1, 0): "1M", (-1, 0): "0R"}, moves=9)
    mine = state.legal_actions(0, seat_knowledge(truth, state, 0))
    places = {a[1] for a in mine if a[0] == "place"}
    assert places == {"mothership"}
    assert [a for a in mine if a[0] == "move"]  # moves stay legal
    breach = next(a for a in state._public_legal() if a[:2] == ("place", "runner"))
    state.check(0, breach)  # the public cannot tell ...
    with pytest.raises(IllegalAction, match="tenth-move"):
        state.check(0, breach, truth)  # ... the audit can
    cmd = next(a for a in state._public_legal() if a[:2] == ("place", "command"))
    lie = Knowledge(None, sealed={**truth.sealed, cmd[3]: "decoy"})
    with pytest.raises(IllegalAction):
        state.check(0, cmd, lie)  # a second Decoy
    honest = Knowledge(None, sealed={**truth.sealed, cmd[3]: "mothership"})
    state.check(0, cmd, honest)


def test_publish_seals_the_identity_and_the_public_state_cannot_tell():
    hashes = []
    for name in ("mothership", "decoy"):
        state = CollectiveConflictState(2, {"first_player": 0, "data_cores": False})
        k = Knowledge(0)
        pub = state.publish(0, ("place", name, (0, 0)), k)
        assert pub.action == ("place", "command", (0, 0), 1) and pub.sealed == {1: name}
        k.sealed.update(pub.sealed)
        state.push(0, pub.action, k)
        hashes.append(state.hash())
        assert state.public()["stacks"][0][2][0][2] == "command"
        assert state.public()["reserve"][0]["command"] == 1
    assert hashes[0] == hashes[1]


def test_surrounded_mothership_is_revealed_and_its_network_collapses():
    state, truth = build(SURROUND)
    state.push(0, ("move", (1, 1), (0, 1)))
    p = state.pending()
    sid = state.commands[1][0]
    assert p == RevealOwed(1, sid, "command-unit")
    with pytest.raises(IllegalAction, match="does not match"):
        state.check(1, ("reveal", sid, "decoy"), seat_knowledge(truth, state, 1))
    with pytest.raises(IllegalAction):
        state.check(0, ("reveal", sid, "mothership"))
    reveal_all(state, truth)
    assert state.pending() == GameOver((0,), "last active Network")
    assert not state.active[1]
    assert all(state.p_owner[s[0]] != 1 for s in state.stacks.values())


def test_surrounded_decoy_becomes_a_wreck_when_the_mothership_is_placed():
    units = {**SURROUND, (0, 0): "1D", (-1, -1): "1M"}
    state, truth = build(units)
    decoy = state.stacks[hex_id(0, 0)][0]
    state.push(0, ("move", (1, 1), (0, 1)))
    owed = state.pending()
    assert isinstance(owed, RevealOwed)
    with pytest.raises(IllegalAction, match="does not match"):
        state.check(1, ("reveal", owed.secret, "mothership"), truth)  # a Decoy passed off as the MotherShip
    state.check(1, ("reveal", owed.secret, "mothership"))  # the public alone cannot tell
    reveal_all(state, truth)
    assert state.active[1] and state.decoy_revealed[1]
    assert state.p_kind[decoy] == WRECK and state.p_owner[decoy] == -1
    assert state.p_pos[decoy] == -1  # and, freed (the ring around it stays connected), it was removed (CC-19)
    assert state.pending() == Decision(1, "turn")


def test_surrounded_decoy_collapses_the_network_without_its_mothership():
    state, truth = build({**SURROUND, (0, 0): "1D"})
    state.push(0, ("move", (1, 1), (0, 1)))
    reveal_all(state, truth)
    assert state.result() == GameOver((0,), "last active Network")


def test_collapse_in_a_three_player_game_leaves_wrecks_and_removes_higher_units():
    units = {**SURROUND, (2, 0): ["2R", "1C"], (-1, 2): "2M"}
    state, truth = build(units, players=3)
    state.reserve[1][COMMAND] = 0
    state.push(0, ("move", (1, 1), (0, 1)))
    reveal_all(state, truth)
    assert state.active == [True, False, True]
    assert state.reserve[1] == {}
    assert state.stacks[hex_id(2, 0)] == [state.stacks[hex_id(2, 0)][0]]  # seat 1's Climber is gone
    assert state.pending() == Decision(2, "turn")


def test_two_last_networks_collapsing_together_share_a_draw():
    units = {
        (0, 0): "0M",
        (1, 0): "1M",
        (1, -1): "0R",
        (0, -1): "1R",
        (-1, 0): "0J",
        (-1, 1): "1J",
        (2, 0): "0J",
        (2, -1): "1J",
        (1, 1): "0R",
        (0, 2): "0R",
    }
    state, truth = build(units, wreck_removal=False)
    state.push(0, ("move", (0, 2), (0, 1)))
    assert isinstance(state.pending(), RevealOwed)
    reveal_all(state, truth)
    over = state.result()
    assert over is not None and over.winners == (0, 1) and over.draw


def test_wreck_removal_goes_lowest_hex_first_and_keeps_the_structure_connected():
    units = {(0, 0): "0M", (0, 1): "W", (1, 0): "W", (1, 1): "1M", (-1, 0): "0R"}
    state, _ = build(units)
    place = next(a for a in state._public_legal() if a[:2] == ("place", "runner"))
    state.push(0, place)
    assert hex_id(0, 1) not in state.stacks  # lower (q, r) first
    assert hex_id(1, 0) in state.stacks  # now it holds the structure together


def test_wrecks_wait_until_every_network_has_a_command_unit():
    units = {(0, 0): "0M", (1, 0): "W", (2, 0): "1R", (-1, 0): "0R"}
    state, _ = build(units, moves=1)
    place = next(a for a in state._public_legal() if a[:2] == ("place", "runner"))
    state.push(0, place)
    assert hex_id(1, 0) in state.stacks


def _trap_position():
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "0J", (3, 0): "1R", (1, -1): "0N"}
    return build(units)


def test_trap_reveal_immobilises_the_unit_for_its_next_turn():
    state, truth = _trap_position()
    for armed in (True, False):
        for cast in [a for a in state._public_legal() if a[0] == "cast" and a[1] == (1, -1)]:
            trial = state.clone()
            k = Knowledge(0)
            pub = trial.publish(0, ("cast", cast[1], cast[2], armed), k)
            k.sealed.update(pub.sealed)
            trial.push(0, pub.action, k)
            if (1, -1) in dests(trial, (3, 0)):
                break
        else:
            pytest.fail("no cast lets the Runner reach the trap")
        sid = pub.action[3]
        trial.push(1, ("move", (3, 0), (1, -1)))
        assert trial.pending() == RevealOwed(0, sid, "trap")
        with pytest.raises(IllegalAction):
            trial.check(0, ("reveal", sid, not armed), k)
        trial.push(0, ("reveal", sid, armed), k)
        runner = trial.stacks[hex_id(1, -1)][-1]
        assert (runner in trial.frozen_next) is armed
        # seat 0 plays, then at seat 1's turn the runner is stuck only if the trap was armed
        trial.push(0, trial._public_legal()[0])
        while isinstance(trial.pending(), RevealOwed):
            reveal_all(trial, Knowledge(None, sealed={**truth.sealed, **k.sealed}))
        if trial.pending() == Decision(1, "turn"):
            assert (runner in trial.blocked) is armed


def test_trap_expires_at_the_start_of_its_owners_next_turn():
    state, _ = _trap_position()
    cast = next(a for a in state._public_legal() if a[0] == "cast")
    state.push(0, cast)
    assert len(state.traps) == 1
    state.push(1, next(a for a in state._public_legal() if a[0] == "place"))
    assert state.pending() == Decision(0, "turn") and state.traps == []


def test_runner_collects_a_data_core_by_hop_and_spends_the_virus_on_a_foreign_unit():
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "1R", (-1, 0): "0R", (3, 0): "1J"}
    state, _ = build(units)
    state.cores = {hex_id(-1, -1)}
    state._legal = None
    hops = [a for a in state._public_legal() if a[0] == "move" and len(a) == 4]
    assert hops and all(a[3] == (-1, -1) for a in hops)
    state.push(0, hops[0])
    assert state.virus[0] and not state.cores
    state.push(1, next(a for a in state._public_legal() if a[0] == "place"))
    viruses = [a for a in state._public_legal() if a[0] == "virus"]
    assert viruses and all(state.p_owner[state.stacks[hex_id(*a[2])][-1]] == 1 for a in viruses)
    target = next(a for a in viruses if a[2] == (2, 0))
    state.push(0, target)
    assert not state.virus[0]
    assert state.pending() == Decision(1, "turn")
    blocked_hexes = {state.p_pos[p] for p in state.blocked}
    target_hex = hex_id(2, 0)
    own_neighbours = {h for h, s in state.stacks.items() if state.p_owner[s[-1]] == 1 and abs(h - target_hex) in _NEAR}
    assert hex_id(1, 0) in own_neighbours and hex_id(3, 0) in own_neighbours
    assert blocked_hexes == {target_hex} | own_neighbours  # the target and its own Network's neighbours
    assert dests(state, (3, 0)) == set() and dests(state, (1, 0)) == set()


_NEAR = {abs(d) for d in DELTAS}


def test_runner_ending_on_a_data_core_collects_it():
    units = {(0, 0): "0M", (1, 0): "1M", (-1, 0): "0R"}
    state, _ = build(units)
    state.cores = {hex_id(2, 0)}
    state._legal = None
    state.push(0, ("move", (-1, 0), (2, 0)))
    assert state.virus[0] and not state.cores


def test_leaving_out_of_turn_is_a_voluntary_collapse():
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "2M", (-1, 0): "1R"}
    state, _ = build(units, players=3)
    state.forfeit(1)
    assert state.active == [True, False, True]
    assert state.p_kind[state.stacks[hex_id(1, 0)][0]] == WRECK
    assert state.pending() == Decision(0, "turn")
    state.forfeit(0)
    assert state.result() == GameOver((2,), "last active Network")


def test_a_player_without_any_action_is_skipped():
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "0R"}
    state, _ = build(units, reserve={"mothership": 1, "decoy": 0})
    for seat in (0, 1):
        state.reserve[seat] = {}
    state.current = 1
    state._begin_turn()
    assert state.current == 0 and state.skips == 1 and state.moves[1] == 5


def test_bad_input_is_refused_without_changing_the_state():
    state, _ = build(SURROUND)
    before = state.hash()
    for bad in [
        (),
        ("fly", (0, 0)),
        ("move", (1, 1)),
        ("move", (1, 1), (9, 9)),
        ("move", "a", "b"),
        ("place", "runner", (0, 0)),
        ("move", (1, 1), (0, 1), {"x": 1}),
        ("reveal", 1, "mothership"),
        ("chance", 0),
        ("move", (1, 1), (10**9, 0)),
    ]:
        with pytest.raises(IllegalAction):
            state.push(0, bad)
    with pytest.raises(IllegalAction):
        state.push(1, ("move", (-1, 0), (-1, -1)))  # not seat 1's turn
    assert state.hash() == before


def test_referee_game_reveals_owed_secrets_and_the_audit_replays_it():
    from engines.core import RandomBot

    state = CollectiveConflictState(4, {"max_rounds": 25})
    referee = Referee(state, b"audit")
    over = referee.play([RandomBot(s, b"b") for s in range(4)])
    assert isinstance(over, GameOver)
    replay = CollectiveConflictState(4, {"max_rounds": 25})
    for seat, action in referee.history:
        replay.push(seat, action, referee.truth)  # full knowledge: every audited rule holds
    assert replay.hash() == state.hash()
