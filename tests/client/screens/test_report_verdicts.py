"""The report keeps "disconnected" and "claimed" apart from "cheated" (silence is not cheating)."""

from __future__ import annotations

from client.i18n import tr
from client.screens.report import verdict_of
from protocol.events import CLAIMED, DISCONNECTED, Verdict


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
