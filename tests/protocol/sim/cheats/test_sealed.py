"""A game's declared cheats become instances of the sealed-value mechanisms, and a bad declaration is refused."""

from __future__ import annotations

import pytest

from protocol.sim.cheats.catalogue import CHEATS
from protocol.sim.cheats.sealed import FalseOpening, HiddenSecretRuleBreach, declared


def keep_all(state, seat, knowledge, legal):
    return legal


def test_a_declaration_makes_a_cheat_of_its_mechanism_with_its_settings():
    cheat = declared("six-as-one", "false-opening", "opens a six as a one",
                     {"what": "die", "sealed": 6, "claim": 1, "steer": keep_all})  # fmt: skip
    assert issubclass(cheat, FalseOpening) and cheat.kind == "six-as-one" and cheat.text == "opens a six as a one"
    assert (cheat.what, cheat.sealed, cheat.claim) == ("die", 6, 1) and cheat.steer is keep_all
    assert cheat.stages == "false-reveal"


def test_a_declaration_of_no_mechanism_or_with_other_settings_is_refused():
    with pytest.raises(ValueError, match="no mechanism"):
        declared("x", "levitation", "", {})
    with pytest.raises(ValueError, match="takes"):
        declared("x", "false-opening", "", {"what": "die"})


def test_the_declared_cheats_are_in_the_catalogue_as_their_mechanisms():
    assert issubclass(CHEATS["hidden-tenth-move-breach"], HiddenSecretRuleBreach)
    assert issubclass(CHEATS["decoy-as-mothership"], FalseOpening)
