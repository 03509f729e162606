"""The report keeps "disconnected", "claimed" and "contested" apart from "cheated" (silence is not cheating)."""

from __future__ import annotations

from client.i18n import tr
from client.screens.report import verdict_of
from protocol.events import CLAIMED, CONTESTED, DISCONNECTED, Verdict


def test_a_disconnection_is_reported_as_such_never_as_cheating():
    names = ["Ann", "Bob", "Cy"]
    gone = verdict_of(Verdict(False, 1, 14, "disconnected at entry 14: declared gone", DISCONNECTED))
    assert gone.kind == "disconnected"
    assert gone.text(names) == tr("report.disconnected", name="Bob", seq=14)
    claimed = verdict_of(Verdict(False, 0, 9, "disconnected at entry 9: a win claimed by seat 1", CLAIMED))
    assert claimed.kind == "claimed" and claimed.text(names) == tr("report.claimed", name="Ann", seq=9)
    for verdict in gone, claimed:
        cheated = tr("report.cheat", name=names[verdict.seat], seq=verdict.seq, reason=verdict.reason)
        assert verdict.text(names) != cheated
    cheat = verdict_of(Verdict(False, 2, 30, "false reveal: the share does not open its commitment"))
    assert cheat.kind == "cheat" and "false reveal" in cheat.text(names)


def test_two_claims_against_each_other_are_reported_as_no_result_naming_nobody(qtbot):
    from client.screens.report import ReportScreen
    from client.screens.report import Verdict as Reported
    from engines.core import GameOver, Knowledge, registry

    reason = "contested at entry 12: seat 1 claimed seat 0 gone at entry 12, but seat 0 had claimed seat 1 gone at 11"
    contested = verdict_of(Verdict(False, None, 12, reason, CONTESTED))
    assert contested.kind == "contested" and contested.text(["Ann", "Bob"]) == tr("report.contested", seq=12)
    assert "Ann" not in contested.text(["Ann", "Bob"]) and "Bob" not in contested.text(["Ann", "Bob"])
    # The rules ended the game on a forfeit (seat 1 "wins"); the headline says what the audit says.
    state = registry.get("system-launch").new_state(2, {})
    screen = ReportScreen(
        "game.system-launch", ["Ann", "Bob"], 1, GameOver((1,), "last seat standing"), state.view(Knowledge(None)), 0,
        Reported("pending"),
    )  # fmt: skip
    qtbot.addWidget(screen)
    assert screen.headline.text() != tr("report.no_winner")  # until the audit's word comes
    screen.set_verdict(contested)
    assert screen.headline.text() == tr("report.no_winner") and screen.verdict_text.text() == contested.text(["Ann"])
