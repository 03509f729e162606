"""Actions match exactly, types included: ``True`` is not the secret id ``1`` nor the coordinate ``1``."""

from __future__ import annotations

import pytest

from engines.collective_conflict import CollectiveConflictState
from engines.core import IllegalAction, Knowledge
from tests.engines.collective_conflict.helpers import build


def _fresh() -> CollectiveConflictState:
    return CollectiveConflictState(2, {"first_player": 0, "data_cores": False})


def test_true_is_not_the_secret_id_of_a_command_placement():
    state = _fresh()
    assert ("place", "command", (0, 0), 1) in state._public_legal()
    before = state.hash()
    with pytest.raises(IllegalAction):
        state.check(0, ("place", "command", (0, 0), True))
    with pytest.raises(IllegalAction):
        state.push(0, ["place", "command", [0, 0], True])
    assert state.hash() == before
    state.push(0, ("place", "command", (0, 0), 1))
    honest = _fresh()
    honest.push(0, ("place", "command", (0, 0), 1))
    assert state.hash() == honest.hash()


def _cast_position(first_free: bool = False):
    units = {(0, 0): "0M", (1, 0): "1M", (2, 0): "0J", (3, 0): "1R", (1, -1): "0N"}
    state, _ = build(units)
    if first_free:  # give the command units other ids, so that the cast seals secret 1
        for pid, sid in list(state.piece_sid.items()):
            state.piece_sid[pid] = sid + 100
            state.secrets[sid + 100] = state.secrets.pop(sid)
        state.commands = [[sid + 100 for sid in c] for c in state.commands]
        state.next_sid = 1
        state._legal = None
    return state


def test_true_is_not_the_secret_id_of_a_cast():
    state = _cast_position(first_free=True)
    cast = next(a for a in state._public_legal() if a[0] == "cast")
    assert cast[3] == 1
    before = state.hash()
    with pytest.raises(IllegalAction):
        state.check(0, (*cast[:3], True))
    assert state.hash() == before


def test_private_forms_need_exact_types_too():
    state = _cast_position()
    cast = next(a for a in state._public_legal() if a[0] == "cast")
    with pytest.raises(IllegalAction):
        state.publish(0, (*cast[:3], 1), Knowledge(0))  # armed is true or false, not 1
    assert state.publish(0, (*cast[:3], True), Knowledge(0)).sealed == {cast[3]: True}
    first = _fresh()
    with pytest.raises(IllegalAction):
        first.publish(0, ("place", "mothership", (False, 0)), Knowledge(0))


def test_a_boolean_coordinate_is_refused_by_check_not_by_apply():
    state = _cast_position()
    move = next(a for a in state._public_legal() if a[0] == "move" and 1 in a[1] + a[2])
    fake = tuple(tuple(True if c == 1 else c for c in part) if isinstance(part, tuple) else part for part in move)
    assert fake == move  # Python compares them equal ...
    before = state.hash()
    with pytest.raises(IllegalAction):
        state.check(0, fake)  # ... the rules do not
    assert state.hash() == before
