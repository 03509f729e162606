"""A Collective Conflict turn skipped for want of a legal action is said in the log, for everyone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from client.games.collective_conflict.present import CCLogWriter
from client.i18n import tr
from engines.core import Decision
from tests.engines.collective_conflict.helpers import build


@dataclass
class _Entry:
    seat: int
    action: tuple[Any, ...]


def _boxed_in() -> tuple[Any, Any, tuple[Any, ...]]:
    """Seat 1's only unit pins the structure and its reserve is empty; a move of seat 0 that keeps it so."""
    state, truth = build({(0, 0): "0M", (1, 0): "1M", (2, 0): "0R"})
    for seat in (0, 1):
        state.reserve[seat] = {}
    for action in state.legal_actions(0, truth):
        trial = state.clone()
        trial.apply(0, action)
        if trial.pending() == Decision(0, "turn"):
            return state, truth, action
    raise AssertionError("no move of seat 0 leaves seat 1 without an action")


def _writer(me: int | None, state: Any) -> CCLogWriter:
    writer = CCLogWriter(me, 2)
    writer.state = state.clone()
    writer.last_mover = 1  # seat 1 moved last, so seat 0's turn came in order
    return writer


def test_the_skipped_player_reads_that_their_turn_was_skipped():
    state, truth, action = _boxed_in()
    lines = _writer(1, state).lines(_Entry(0, action), truth)
    texts = [line.text(["Ada", "Boris"]) for line in lines]
    assert tr("cc.log.skipped_you") in texts


def test_the_others_read_who_was_skipped():
    state, truth, action = _boxed_in()
    lines = _writer(0, state).lines(_Entry(0, action), truth)
    texts = [line.text(["Ada", "Boris"]) for line in lines]
    assert tr("cc.log.skipped", name="Boris (B)") in texts
    assert not any(line.msg == "cc.log.skipped_you" for line in lines)


def test_an_ordinary_turn_order_logs_no_skip():
    state, truth = build({(0, 0): "0M", (1, 0): "1M", (2, 0): "0R"})
    action = state.legal_actions(0, truth)[0]
    lines = _writer(0, state).lines(_Entry(0, action), truth)
    assert not any(line.msg.startswith("cc.log.skipped") for line in lines)


def _covered_virus() -> tuple[Any, Any, tuple[Any, ...]]:
    """Seat 0 holds the Virus; seat 1's Runner lies under seat 0's own Climber (CC-24)."""
    units = {(0, 0): "0M", (-1, 0): "0R", (1, 0): ["1R", "0C"], (2, 0): "1M", (2, -1): "1J"}
    state, truth = build(units)
    state.virus[0] = True
    state._legal = None
    return state, truth, ("virus", (-1, 0), (1, 0), 0)


def test_a_virus_on_a_covered_unit_names_its_true_owner_in_the_log():
    state, truth, covered = _covered_virus()
    lines = _writer(1, state).lines(_Entry(0, covered), truth)
    texts = [line.text(["Ada", "Boris"]) for line in lines]
    assert any("Boris (B)" in t and "Climber" in t for t in texts if "Virus" in t), texts


def test_two_virus_choices_on_one_hex_have_different_buttons(qtbot):
    from client.games.collective_conflict.table import CollectiveConflictTable

    state, truth, covered = _covered_virus()
    table = CollectiveConflictTable(2, ["Ada", "Boris"])
    qtbot.addWidget(table)
    view = state.view(truth)
    table.view = view
    on_top = ("virus", (-1, 0), (2, 0))
    labels = {table.variant_label(covered), table.variant_label(on_top)}
    assert len(labels) == 2 and all("Virus" in label for label in labels)
    assert "Climber" in table.variant_label(covered)
