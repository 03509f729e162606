"""Every cheat of the catalogue (``python -m protocol simulate --list-cheats``) is classified as the kind it stages.

The simulator's label (``classify``) names what a verdict's evidence proves; each cheat declares
the kind it stages (``staged_kind``), and the two must agree: a tagged duplicate card labelled
"substituted-card", or a copied lock "other", names the right seat for the wrong kind.  The
System Launch cheats that take a short game are played here; the others are already played
elsewhere (the generic ones in sim/test_cheats.py, a false re-slotting in a 4-seat game in
cards/test_staged.py, those of Anomaly Maze and Collective Conflict, which need seeded
variations until the cheater gets its chance, by ``staged`` in sim/test_game_cheats.py and
``ejection`` in test_silence.py), where the staged kind is asserted too: this test checks
that every other cheat is staged there, so that none is left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol.sim.cheats.catalogue import CATALOGUE, GAME_CATALOGUE, staged_kind, staged_label
from protocol.sim.network import classify, list_cheats, play

#: (players, cheater seat) of the cheats played here, in System Launch.
PLAYED = {
    "tagged-duplicate-card": (3, 1),
    "copied-lock": (3, 1),
    "low-order-agreement-key": (3, 1),
    "small-order-signing-key": (3, 1),
    "two-seat-ejection": (2, 1),
}
#: The test files (under tests/protocol/) that stage the cheats no generic test plays.
ELSEWHERE = ("sim/test_game_cheats.py", "session/test_silence.py", "cards/test_staged.py")


def listed() -> list[tuple[str, str]]:
    """(cheat, a game it can be staged in) for every line of ``--list-cheats`` (generic cheats: System Launch)."""
    out = []
    for line in list_cheats():
        name = line.split(":")[0].split(" (")[0]
        game = line.split(" (")[1].split(")")[0].split(", ")[0] if name in GAME_CATALOGUE else "system-launch"
        out.append((name, game))
    return out


def test_the_list_is_the_whole_catalogue():
    assert {name for name, _ in listed()} == set(CATALOGUE) | set(GAME_CATALOGUE)


@pytest.mark.parametrize("cheat", sorted(PLAYED))
def test_each_cheat_is_classified_as_the_kind_it_stages(cheat):
    players, cheater = PLAYED[cheat]
    run = play("system-launch", players, f"cheat/{cheat}".encode(), cheat, cheater)
    for seat, verdict in run.verdicts.items():
        assert verdict is not None and not verdict.fair, (seat, verdict)
        assert classify(verdict) == staged_label(cheat, cheater), verdict
    assert run.agreed() == staged_label(cheat, cheater)


@pytest.mark.parametrize(("cheat", "game"), [c for c in listed() if c[0] not in PLAYED and c[0] not in CATALOGUE])
def test_each_other_cheat_is_staged_where_its_kind_is_checked(cheat, game):
    here = Path(__file__).parents[1]
    assert any(f'"{cheat}"' in (here / name).read_text() for name in ELSEWHERE), cheat


def test_the_generic_cheats_are_checked_with_their_staged_kind():
    text = (Path(__file__).parent / "test_cheats.py").read_text()
    assert "for cheat in CATALOGUE" in text and "staged_kind(cheat)" in text


def test_a_pass_whose_proof_fails_is_named_for_what_it_proves():
    kinds = {staged_kind(c) for c in ("substituted-card", "tagged-duplicate-card")}
    assert kinds == {"false-shuffle-pass"}  # the proof shows the pass false, not how it was falsified
    assert staged_kind("copied-lock") == "false-lock-pass" and staged_kind("duplicated-card") == "duplicated-card"
