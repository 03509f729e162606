"""Anomaly Maze through the engine contract: registry, self-play, encoding, bad input."""

from __future__ import annotations

import os

import pytest

from engines.anomaly_maze import SPEC, board
from engines.anomaly_maze.state import AnomalyMazeState
from engines.core import (
    TABLE,
    Chance,
    ChanceKind,
    Decision,
    IllegalAction,
    Knowledge,
    RandomBot,
    Referee,
    SeededStream,
    canonical_encode,
    decode,
)
from engines.core.selfplay import selfplay
from tests.engines.anomaly_maze.helpers import c, fresh

SELFPLAY_GAMES = int(os.environ.get("AM_SELFPLAY_GAMES", "8"))


def test_spec():
    assert (SPEC.name, SPEC.title, SPEC.min_players, SPEC.max_players) == ("anomaly-maze", "Anomaly Maze", 2, 2)
    assert sorted(SPEC.bots) == ["easy", "hard", "normal", "random"]
    with pytest.raises(ValueError):
        SPEC.new_state(3, {})
    assert isinstance(SPEC.new_state(2, {}), AnomalyMazeState)


def test_selfplay_normal_is_deterministic_by_seed_and_every_game_ends():
    first = selfplay(SPEC, 2, SELFPLAY_GAMES, 1, "normal")
    assert sum(first.wins) + first.draws == SELFPLAY_GAMES
    again = selfplay(SPEC, 2, 2, 1, "normal")
    assert again.digest == selfplay(SPEC, 2, 2, 1, "normal").digest
    assert again.digest != selfplay(SPEC, 2, 2, 2, "normal").digest


def test_random_games_with_a_round_limit_end_and_are_deterministic():
    """Self-play's explicit round limit (AM-14: a draw); unlimited games are in test_properties."""
    a = selfplay(SPEC, 2, 60, "r", "random", {"round_limit": 60})
    b = selfplay(SPEC, 2, 60, "r", "random", {"round_limit": 60})
    assert a.digest == b.digest and sum(a.wins) + a.draws == 60
    assert a.draws  # random bots rarely reach 15 MP within 60 rounds: the limit is what ends them


def test_every_legal_action_checks_and_every_state_encodes():
    """Random games, validating each legal action and the plain data at every step."""
    for g in range(3):
        seed = f"contract/{g}".encode()
        state = SPEC.new_state(2, {"round_limit": 60})  # unlimited random games: test_properties
        ref = Referee(state, seed)
        bots = [RandomBot(p, seed) for p in (0, 1)]
        pick = SeededStream(seed, "probe")
        while not state.is_over():
            pending = ref.run_table()
            if not isinstance(pending, Decision):
                break
            legal = state.legal_actions(pending.seat, ref.knowledge(pending.seat))
            assert legal and len(set(legal)) == len(legal)
            other = 1 - pending.seat
            assert state.legal_actions(other, ref.knowledge(other)) == []
            for action in [legal[pick.below(len(legal))] for _ in range(3)]:
                state.check(pending.seat, decode(canonical_encode(action)))  # survives the wire
                with pytest.raises(IllegalAction):
                    state.check(other, action)
            data = state.public()
            assert decode(canonical_encode(data)) is not None
            canonical_encode(state.view(Knowledge(pending.seat)))
            twin = state.clone()
            assert twin.hash() == state.hash()
            _invariants(state)
            ref.decide(pending.seat, bots[pending.seat].choose(state, ref.knowledge(pending.seat), legal))
            assert twin.hash() != state.hash() or twin.public() == state.public()


def _invariants(s: AnomalyMazeState) -> None:
    """What must hold between any two decisions of a real game."""
    on_board = [p for p in s.pos if p is not None]
    assert len(set(on_board)) == len(on_board)
    for p in (0, 1):
        if s.pos[p] is None:
            assert 0 <= s.countdown[p] <= s.opts["countdown"] and not s.carrying[p]
        else:
            assert 0 < s.hp[p] <= s.opts["max_hp"]
        assert not (s.carrying[p] and s.key[p] is not None)
    placed = [x for x in (*s.chest, *s.items.values()) if x is not None]
    assert len(set(placed)) == len(placed)
    items = [x for x in s.items.values() if x is not None]
    assert not set(items) & set(on_board)  # an object under a pawn would have acted
    assert not set(placed) & set(board.RESPAWNS)
    assert all(s.tiles[x] in board.SHAPES for x in board.ORDINARY)


@pytest.mark.parametrize(
    "action",
    [
        (),
        ["rotate", 24, 1],
        ("rotate",),
        ("rotate", "D4", 1),
        ("move", c("D4")),
        ("attack",),
        ("chance", 0),
        ("shift", "row", 3, 1, 9),
        (None,),
    ],
)
def test_garbage_is_refused_with_a_reason_and_no_state_change(action):
    s = fresh()
    before = s.hash()
    with pytest.raises(IllegalAction) as info:
        s.push(0, action)
    assert str(info.value)
    assert s.hash() == before


def test_chance_outcomes_are_checked():
    s = AnomalyMazeState()
    assert s.pending() == Chance(ChanceKind.PUBLIC_SEEDED, "first-player", 2)
    for bad in [("chance", 2), ("chance", -1), ("chance", True), ("chance", "1"), ("chance",)]:
        with pytest.raises(IllegalAction):
            s.push(TABLE, bad)
    with pytest.raises(IllegalAction):
        s.push(0, ("chance", 0))


def test_view_is_plain_data_for_the_board():
    s = fresh()
    v = s.view(Knowledge(1))
    assert v["you"] == 1 and v["phase"] == "anomaly" and v["turn"] == 0 and v["dice_left"] == 2
    assert len(v["tiles"]) == 49 and v["tiles"][c("G1")]["respawn"] == 0 and v["tiles"][c("G1")]["open"] == "NE"
    assert [p["cell"] for p in v["players"]] == [c("G1"), c("A7")]
    assert v["players"][0]["hp"] == 10 and v["players"][0]["mp"] == 0
    assert set(v["items"]) == {"medkit", "mine", "spikes"}
    assert v["events"] and v["over"] is None
    assert s.view(Knowledge(0))["tiles"] == v["tiles"]  # nothing is secret in this game
    canonical_encode(v)


def test_options_travel_in_the_public_state():
    assert fresh().hash() != fresh({"win_mp": 20}).hash()


def test_every_event_and_action_of_a_game_has_a_line_of_text():
    from tests.engines.anomaly_maze.notation import describe_action, describe_event

    assert describe_action(("shift", "row", 3, 1)) == "shift row D east"
    assert describe_action(("shift", "col", 0, -1)) == "shift column 1 north"
    assert describe_action(("rotate", c("D4"), 3)) == "rotate D4 by 270°"
    assert describe_action(("move", c("G2"), c("F2")), start=c("G1")) == "move G1–G2–F2"
    assert describe_action(("move",)) == "stay"
    seed = b"text"
    state = SPEC.new_state(2, {})
    ref = Referee(state, seed)
    kinds = set()
    seen = 0
    bots = [SPEC.bots["normal"](0, seed), SPEC.bots["random"](1, seed)]
    while not state.is_over():
        pending = ref.run_table()
        if not isinstance(pending, Decision):
            break
        knowledge = ref.knowledge(pending.seat)
        legal = state.legal_actions(pending.seat, knowledge)
        ref.decide(pending.seat, bots[pending.seat].choose(state, knowledge, legal))
        new = state.event_seq - seen
        for event in state.events[-new:] if new else []:
            text = describe_event(event)
            assert text and not text.startswith(event[0] + " ")  # a real sentence, not the fallback
            kinds.add(event[0])
        seen = state.event_seq
    assert {"turn", "move", "eliminated", "game-over"} <= kinds


def test_the_selfplay_command_takes_an_explicit_round_limit(capsys):
    """``python -m engines selfplay anomaly-maze --option round_limit=N``: a run that surely ends (AM-14)."""
    import json

    from engines.__main__ import main

    assert main(["selfplay", "anomaly-maze", "--games", "2", "--option", "round_limit=3"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["results"] == {"wins": [0, 0], "draws": 2}  # nobody reaches 15 MP in 3 rounds
    for bad in ("round_limit=x", "round_limit", "=3", "no_such_setting=1"):
        with pytest.raises(SystemExit):
            main(["selfplay", "anomaly-maze", "--games", "1", "--option", bad])
        assert "option" in capsys.readouterr().err
