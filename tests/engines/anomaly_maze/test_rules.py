"""Anomaly Maze rules through push(): anomalies, moves, items, combat, respawn."""

from __future__ import annotations

import pytest

from engines.anomaly_maze import board
from engines.anomaly_maze.board import E, N, S, W
from engines.core import TABLE, Chance, ChanceKind, Decision, GameOver, IllegalAction, Knowledge
from tests.engines.anomaly_maze.helpers import advance_to, c, fresh, position

# -- set-up ------------------------------------------------------------------


def test_setup_is_public_seeded_chance_with_small_outcomes():
    from engines.anomaly_maze.state import AnomalyMazeState

    s = AnomalyMazeState()
    seen = []
    while isinstance(p := s.pending(), Chance):
        assert p.kind is ChanceKind.PUBLIC_SEEDED
        seen.append((p.what, p.outcomes))
        s.push(TABLE, ("chance", p.outcomes - 1))
    assert seen[0] == ("first-player", 2)
    assert seen.count(("tile", 10)) == 47
    assert [w for w, _ in seen[-4:]] == ["key", "chest", "key", "chest"]
    assert s.pending() == Decision(1, "anomaly")  # outcome 1: seat 1 starts
    assert all(s.tiles[x] in board.SHAPES for x in board.ORDINARY)
    assert len({s.key[0], s.key[1], s.chest[0], s.chest[1]}) == 4
    assert not {s.key[0], s.key[1], s.chest[0], s.chest[1]} & set(board.RESPAWNS)


def test_options_default_to_the_rulings_and_reject_unknown_ones():
    s = fresh()
    assert s.opts["max_hp"] == 10 and s.opts["win_mp"] == 15 and s.opts["dice_per_turn"] == 2
    assert s.opts["combat_table"] == (0, 0, 1, 1, 2, 3)
    assert (s.opts["medkit_round"], s.opts["mine_round"], s.opts["spikes_round"]) == (2, 3, 4)
    with pytest.raises(ValueError, match="unknown"):
        fresh({"lives": 3})
    with pytest.raises(ValueError, match="combat_table"):
        fresh({"combat_table": (1, 2)})


# -- anomaly -----------------------------------------------------------------


def test_rotation_turns_an_ordinary_tile_and_keeps_what_stands_on_it():
    s = position(tiles={}, base=N | E, pawns=("D4", "A7"), keys=("D4", None))
    s.push(0, ("rotate", c("D4"), 1))
    assert s.tiles[c("D4")] == E | S
    assert s.pos[0] == c("D4") and s.key[0] == c("D4")
    assert s.pending() == Decision(0, "move")


@pytest.mark.parametrize(
    "action",
    [("rotate", c("G1"), 1), ("rotate", c("D4"), 0), ("rotate", c("D4"), 4), ("rotate", 49, 1), ("rotate", True, 1)],
)
def test_bad_rotations_are_refused_without_a_state_change(action):
    s = position()
    before = s.hash()
    with pytest.raises(IllegalAction):
        s.push(0, action)
    assert s.hash() == before


def test_a_row_shift_carries_pawns_and_objects_with_their_tiles():
    s = position(
        tiles={"D1": N, "D2": E},
        base=S,
        pawns=("D2", "A7"),
        keys=(None, "D3"),
        chests=("D5", None),
        items={"mine": "D7"},
    )
    s.push(0, ("shift", "row", 3, 1))
    assert s.tiles[c("D2")] == N and s.tiles[c("D3")] == E
    assert s.pos[0] == c("D3") and s.key[1] == c("D4") and s.chest[0] == c("D6")
    assert s.items["mine"] == c("D1")  # the tile crossing the edge takes its object round the cycle


def test_a_pawn_on_a_respawn_does_not_move_with_its_row():
    s = position(pawns=("G1", "A7"), keys=("G2", None))
    s.push(0, ("shift", "row", 6, -1))
    assert s.pos[0] == c("G1")
    assert s.key[0] == c("G7")  # G2's tile went round, jumping over the Respawn


def test_column_shift_with_respawn_keeps_the_pawn_on_it():
    s = position(pawns=("D4", "A7"), turn=0, chests=("B7", None))
    s.push(0, ("shift", "col", 6, -1))
    assert s.pos[1] == c("A7")
    assert s.chest[0] == c("G7")


def test_pushing_the_opponent_off_scores_and_drops_its_key_on_the_tile():
    s = position(pawns=("D4", "D7"), turn=0)
    s.carrying[1] = True
    s.push(0, ("shift", "row", 3, 1))
    assert s.pos[1] is None and s.mp == [1, 0]
    assert s.key[1] == c("D1") and not s.carrying[1]
    assert s.countdown[1] == 2
    assert s.pending() == Decision(0, "move")


def test_pushing_oneself_off_scores_nothing_and_ends_the_turn():
    s = position(pawns=("A1", "D4"), turn=0)
    s.push(0, ("shift", "col", 0, -1))
    assert s.pos[0] is None and s.mp == [0, 0]
    assert s.pending() == Decision(1, "anomaly")


@pytest.mark.parametrize(
    "action",
    [("shift", "diag", 3, 1), ("shift", "row", 7, 1), ("shift", "row", 3, 0), ("shift", "row", 3, True), ("jump",)],
)
def test_bad_shifts_are_refused(action):
    s = position()
    with pytest.raises(IllegalAction):
        s.push(0, action)


# -- movement ----------------------------------------------------------------


def corridor():
    """Row D open east-west; everything else closed."""
    return {name: E | W for name in ("D1", "D2", "D3", "D4", "D5", "D6", "D7")}


def test_moves_of_zero_to_three_steps_along_open_sides():
    s = position(tiles=corridor(), base=0, pawns=("D2", "A7"), phase="move")
    legal = s.legal_actions(0, Knowledge(0))
    assert ("move",) in legal and ("move", c("D3"), c("D4"), c("D5")) in legal
    assert ("move", c("D3"), c("D4"), c("D5"), c("D6")) not in legal
    for bad in [("move", c("E2")), ("move", c("D4")), ("move", c("D3"), c("D2")), ("move", "D3"), ("attack",)]:
        with pytest.raises(IllegalAction):
            s.check(0, bad)
    s.push(0, ("move", c("D1")))
    assert s.pos[0] == c("D1")


def test_the_opponent_blocks_passage_and_its_cell():
    s = position(tiles=corridor(), base=0, pawns=("D2", "D4"), phase="move")
    with pytest.raises(IllegalAction, match="opponent"):
        s.push(0, ("move", c("D3"), c("D4"), c("D5")))
    with pytest.raises(IllegalAction, match="opponent"):
        s.push(0, ("move", c("D3"), c("D4")))


def test_move_phase_ends_by_itself_when_no_step_is_possible():
    s = position(tiles=0, pawns=("D4", "B2"), turn=0)
    s.tiles[c("D4")] = N  # the neighbour to the north has no south side
    s.push(0, ("rotate", c("A1"), 1))
    assert s.pending() == Decision(1, "anomaly")  # no move, no target: the turn ended by itself


def test_entering_the_key_in_passing_then_the_chest_opens_it_and_draws_a_new_mission():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), keys=("D2", None), chests=("D4", None), phase="move")
    s.push(0, ("move", c("D2"), c("D3"), c("D4")))
    assert s.mp == [5, 0] and s.chest[0] is None and not s.carrying[0]
    p = s.pending()
    assert p.kind is ChanceKind.PUBLIC_SEEDED and p.what == "key" and p.outcomes == len(s.allowed_cells())
    allowed = s.allowed_cells()
    s.push(TABLE, ("chance", 3))
    assert s.key[0] == allowed[3]
    assert s.pending().what == "chest"
    s.push(TABLE, ("chance", 0))
    assert s.chest[0] not in (None, s.key[0])


def test_the_chest_without_the_key_does_nothing_and_the_opponents_key_is_not_taken():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), keys=("G7", "D2"), chests=("D3", None), phase="move")
    s.push(0, ("move", c("D2"), c("D3")))
    assert s.mp == [0, 0] and s.chest[0] == c("D3") and s.key[1] == c("D2") and not s.carrying[0]


def test_carried_key_travels_with_the_pawn_and_drops_where_it_dies():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), keys=("D2", None), items={"spikes": "D3"}, phase="move")
    s.hp[0] = 5
    s.push(0, ("move", c("D2"), c("D3"), c("D4")))
    assert s.pos[0] is None  # eliminated on D3: the rest of the path is not walked
    assert s.key[0] == c("D3") and s.mp == [0, 0] and s.items["spikes"] is None
    assert s.pending().what == "spikes"  # relocation, public-seeded
    s.push(TABLE, ("chance", 0))
    assert s.items["spikes"] == s.allowed_cells()[0] or s.items["spikes"] is not None
    assert s.pending() == Decision(1, "anomaly")


def test_medkit_heals_up_to_the_maximum_and_relocates():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), items={"medkit": "D2", "mine": "D3"}, phase="move")
    s.hp[0] = 9
    s.push(0, ("move", c("D2"), c("D3")))
    assert s.hp[0] == 8  # 9 → 10 (capped) → 8
    assert [t[0] for t in s.queue] == ["medkit", "mine"]
    allowed = [x for x in s.allowed_cells() if x != c("D2")]  # never back where it acted (AM-13)
    assert s.pending().outcomes == len(allowed)
    s.push(TABLE, ("chance", len(allowed) - 1))
    assert s.items["medkit"] == allowed[-1]
    assert s.items["medkit"] not in (c("D1"), c("D2"), c("D3"), *board.RESPAWNS)


def test_items_appear_from_their_rounds_on():
    s = fresh()
    assert s.round == 1 and all(v is None for v in s.items.values())
    advance_to(s, 0, "anomaly")
    s.push(0, ("rotate", c("D4"), 2))
    advance_to(s, 1, "anomaly")
    assert s.round == 1 and all(v is None for v in s.items.values())
    s.push(1, ("rotate", c("D4"), 2))
    advance_to(s, 0, "anomaly")
    assert s.round == 2 and s.items["medkit"] is not None and s.items["mine"] is None
    s.push(0, ("rotate", c("D4"), 2))
    advance_to(s, 1, "anomaly")
    s.push(1, ("rotate", c("D4"), 2))
    advance_to(s, 0, "anomaly")
    assert s.round == 3 and s.items["mine"] is not None and s.items["spikes"] is None
    s.push(0, ("rotate", c("D4"), 2))
    advance_to(s, 1, "anomaly")
    s.push(1, ("rotate", c("D4"), 2))
    advance_to(s, 0, "anomaly")
    assert s.round == 4 and s.items["spikes"] is not None
    placed = [v for v in s.items.values()]
    assert len(set(placed)) == 3 and not set(placed) & {*s.key, *s.chest, *s.pos}


# -- combat ------------------------------------------------------------------


def test_attack_is_offered_only_along_an_open_line():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="move")
    s.push(0, ("move",))
    assert s.pending() == Decision(0, "combat")
    assert s.legal_actions(0, Knowledge(0)) == [("attack",), ("no-attack",)]
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="move")
    s.tiles[c("D3")] = N | S
    s.tiles[c("D2")] = E | W | S
    s.tiles[c("E2")] = N
    s.push(0, ("move",))
    assert s.pending() == Decision(1, "anomaly")  # wall between: no combat phase


def test_the_die_is_interactive_and_rolled_only_after_the_declaration():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    assert isinstance(s.pending(), Decision)
    with pytest.raises(IllegalAction):
        s.push(TABLE, ("chance", 5))  # no die before an attack is declared
    s.push(0, ("attack",))
    p = s.pending()
    assert p == Chance(ChanceKind.INTERACTIVE, "die", 6)
    with pytest.raises(IllegalAction):
        s.push(1, ("chance", 5))
    with pytest.raises(IllegalAction):
        s.push(TABLE, ("chance", 6))


@pytest.mark.parametrize(("outcome", "lost"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 3)])
def test_combat_table(outcome, lost):
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    s.push(0, ("attack",))
    s.push(TABLE, ("chance", outcome))
    assert s.hp[1] == 10 - lost
    assert s.pending() == Decision(0, "combat") and s.dice_left == 1


def test_two_dice_per_turn_then_the_turn_ends():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    for _ in range(2):
        s.push(0, ("attack",))
        s.push(TABLE, ("chance", 5))
    assert s.hp[1] == 4 and s.pending() == Decision(1, "anomaly")


def test_the_attacker_may_stop_early():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    s.push(0, ("attack",))
    s.push(TABLE, ("chance", 2))
    s.push(0, ("no-attack",))
    assert s.hp[1] == 9 and s.pending() == Decision(1, "anomaly")


def test_elimination_in_combat_scores_and_drops_the_key():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    s.carrying[1] = True
    s.hp[1] = 3
    s.push(0, ("attack",))
    s.push(TABLE, ("chance", 5))
    assert s.pos[1] is None and s.mp == [1, 0] and s.key[1] == c("D5")
    # seat 1's turn came and was missed at once: seat 0 plays again
    assert s.pending() == Decision(0, "anomaly") and s.countdown[1] == 1


# -- countdown, respawn, blocking ------------------------------------------


def _eliminate_seat1(s):
    s.push(0, ("attack",))
    s.push(TABLE, ("chance", 5))


def test_an_eliminated_pawn_misses_two_turns_then_respawns_with_full_hp():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    s.hp[1] = 1
    _eliminate_seat1(s)
    missed = [e for e in s.events if e[0] == "turn-missed"]
    assert missed == [("turn-missed", 1, 1)]
    s.push(0, ("rotate", c("A1"), 1))
    s.push(0, ("move",))
    assert s.pending() == Decision(0, "anomaly")
    assert [e for e in s.events if e[0] == "turn-missed"][-1] == ("turn-missed", 1, 0)
    assert s.pos[1] is None
    s.push(0, ("rotate", c("A1"), 1))
    s.push(0, ("move",))
    assert s.pending() == Decision(1, "anomaly")
    assert s.pos[1] == c("A7") and s.hp[1] == 10


def _seat1_waiting_at_its_respawn(blocker="A7"):
    s = position(tiles=0, pawns=(blocker, None), turn=0)
    s.countdown[1] = 0
    return s


def test_blocking_one_third_two_thirds_then_blacksaw():
    s = _seat1_waiting_at_its_respawn()
    s.carrying[0] = True
    s.push(0, ("rotate", c("D4"), 1))  # no step from A7 (all closed): turn ends
    assert s.blocks[1] == 1 and s.pos[1] is None
    assert ("respawn-blocked", 1, 1) in s.events
    assert s.pending() == Decision(0, "anomaly")
    s.push(0, ("rotate", c("D4"), 1))
    assert s.blocks[1] == 2 and ("respawn-blocked", 1, 2) in s.events
    s.push(0, ("rotate", c("D4"), 1))
    assert ("blacksaw", 1, 0) in s.events
    assert s.pos[0] is None and s.pos[1] == c("A7") and s.mp == [0, 0]
    assert s.key[0] == c("A7") and not s.carrying[0]  # the blocker's key drops on the Respawn
    assert s.pending() == Decision(1, "anomaly") and s.blocks[1] == 0


def test_leaving_the_respawn_lets_the_opponent_back_at_once():
    s = _seat1_waiting_at_its_respawn()
    s.tiles[c("A7")] = S | W
    s.tiles[c("A6")] = E | W
    s.push(0, ("rotate", c("D4"), 1))
    s.push(0, ("move",))
    assert s.blocks[1] == 1
    s.push(0, ("rotate", c("D4"), 1))
    s.push(0, ("move", c("A6")))
    assert s.pos[1] == c("A7") and s.pending() == Decision(1, "anomaly") and s.blocks[1] == 0


def test_respawning_on_ones_own_dropped_key_picks_it_up():
    s = _seat1_waiting_at_its_respawn(blocker="D4")
    s.key[1] = c("A7")
    s.push(0, ("rotate", c("B2"), 1))
    assert s.pos[1] == c("A7") and s.carrying[1]


# -- the end -----------------------------------------------------------------


def test_fifteen_mission_points_win_at_once():
    s = position(tiles=corridor(), base=0, pawns=("D1", "A7"), keys=("D2", None), chests=("D3", None), phase="move")
    s.mp = [10, 14]
    s.push(0, ("move", c("D2"), c("D3"), c("D4")))
    assert s.pending() == GameOver((0,), "mission points")
    assert s.pos[0] == c("D3")  # the game stopped on the chest
    with pytest.raises(IllegalAction, match="over"):
        s.push(1, ("rotate", c("D4"), 1))


def test_the_kill_point_can_win_too():
    s = position(tiles=corridor(), base=0, pawns=("D1", "D5"), phase="combat")
    s.mp = [14, 0]
    s.hp[1] = 1
    s.push(0, ("attack",))
    s.push(TABLE, ("chance", 2))
    assert s.result() == GameOver((0,), "mission points")


def test_forfeit_gives_the_game_to_the_other_seat():
    s = position()
    s.forfeit(0)
    assert s.result() == GameOver((1,), "forfeit")
