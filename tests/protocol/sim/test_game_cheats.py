"""Game-specific cheats through the protocol: dice in Anomaly Maze, sealed values in Collective Conflict.

Each cheat is staged by one peer of the simulator (``protocol.sim.cheats.catalogue``) among honest peers over
the seeded, unreliable network; every honest peer must stop or end with a verdict that names the
cheater's seat, at the entry where the cheat is, for the right reason.  A cheater steers its own
(legal) choices toward its chance, but the chance still depends on the game: games are played
with seeded variations until the cheater has staged its cheat, and every game before that must
end ``fair`` (so a cheat that was staged but not caught cannot pass unnoticed).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from engines.core import RevealOwed, registry
from protocol.envelope import parse
from protocol.sim.cheats.catalogue import CATALOGUE, CHEATS, GAME_CATALOGUE, Cheater, staged_kind
from protocol.sim.network import GameRun, classify, list_cheats, play
from tests.protocol.helpers import replica

TRIES = 16
#: Collective Conflict has no round limit (CC-22); these random bot games get one, so that each ends soon.
OPTIONS = {"collective-conflict": {"max_rounds": 80}}


def need(game: str) -> None:
    if game not in registry.names():
        pytest.skip(f"{game} is not registered")


def staged(game: str, cheat: str, players: int = 2, cheater: int = 1, want=None) -> tuple[GameRun, Cheater]:
    """The first seeded game in which the cheater stages its cheat (``want``: in the way wanted), and the cheater.

    A game where it staged the cheat otherwise must still name it.
    """
    need(game)
    made: list[Cheater] = []

    class Watched(CHEATS[cheat]):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    for index in range(TRIES):
        made.clear()
        seed = f"game-cheat/{cheat}/{players}/{index}".encode()
        run = play(game, players, seed, cheat, cheater, options=OPTIONS.get(game), classes={cheater: Watched})
        if made[0].staged and (want is None or want(run, made[0])):
            for verdict in run.verdicts.values():  # the simulator's label: the kind this cheat stages
                assert classify(verdict) == f"{staged_kind(cheat)} by seat {cheater}", verdict
            return run, made[0]
        if made[0].staged:
            assert {v.seat for v in run.verdicts.values() if v is not None and not v.fair} == {cheater}, run.verdicts
            assert all(v is not None and not v.fair for v in run.verdicts.values()), run.verdicts
        else:
            assert run.agreed() == "fair", (index, run.verdicts)  # nothing staged: nothing to find
    pytest.fail(f"{cheat}: the cheater found no chance in {TRIES} games of {game}")


def named(run: GameRun, players: int, cheater: int, pattern: str) -> int:
    """Every honest peer names the cheater for ``pattern``; returns the entry they name (all agree)."""
    assert len(run.verdicts) == players - 1
    seqs = set()
    for seat, verdict in run.verdicts.items():
        assert verdict is not None and not verdict.fair, (seat, verdict)
        assert verdict.seat == cheater, (seat, verdict)
        assert re.search(pattern, verdict.reason), (seat, verdict.reason)
        seqs.add(verdict.seq)
    assert len(seqs) == 1, run.verdicts
    return seqs.pop()


# -- Anomaly Maze: dice ---------------------------------------------------------------------------
@pytest.mark.parametrize("cheat", ["forged-die", "copied-die-commitment"])
def test_a_die_share_opened_with_another_value_is_caught(cheat):
    run, _cheater = staged("anomaly-maze", cheat)
    seq = named(run, 2, 1, r"false reveal: the share does not open its commitment \(chance/\d+\)")
    assert replica(run, seq).expected().type == "chance-reveal"  # the die it was revealing for
    assert len(run.log) == seq, "the game stops at the forged share; it never enters the log"


@pytest.mark.parametrize("cheat", ["withheld-die", "die-abort"])
def test_a_withheld_die_share_is_declared_gone_and_named(cheat):
    run, _cheater = staged("anomaly-maze", cheat)
    # Two seats: the other seat's vote alone is a claim (the two-seat rule), never a proven result.
    seq = named(run, 2, 1, r"^disconnected at entry \d+: a win claimed by seat 0 after disconnection")
    assert {v.kind for v in run.verdicts.values()} == {"claimed"}
    owed = replica(run, seq).expected()
    assert (owed.seq, owed.writer, owed.type) == (seq, 1, "chance-reveal")
    gone = parse(run.log[seq])
    assert (gone.type, gone.seat, gone.body["target"], gone.body["reason"]) == ("gone", 0, 1, "silent")
    # The honest seat is not blamed for the die that can no longer be rolled (a forfeit ends the game); it
    # keeps its secrets, so that the silent seat's own reveal, if it comes, voids the claim and play goes on.
    assert len(run.log) == seq + 1


def test_a_die_share_revealed_before_its_commitment_is_caught():
    run, _cheater = staged("anomaly-maze", "early-die-reveal")
    seq = named(run, 2, 1, r"wrote a chance-reveal entry where a chance-commit entry was due")
    assert replica(run, seq).expected().type == "chance-commit"


# -- Collective Conflict: sealed identities, traps, the tenth-move rule, refused reveals ---------------
LIES = [
    ("decoy-as-mothership", "command-unit", "decoy", 2),
    ("mothership-as-decoy", "command-unit", "mothership", 2),
    ("trap-claimed-armed", "trap", False, 2),
    ("trap-claimed-unarmed", "trap", True, 2),
    ("decoy-as-mothership", "command-unit", "decoy", 4),
]


@pytest.mark.parametrize(("cheat", "what", "sealed", "players"), LIES)
def test_a_false_opening_of_a_sealed_value_is_caught_at_once(cheat, what, sealed, players):
    run, cheater = staged("collective-conflict", cheat, players)
    seq = named(run, players, 1, r"false reveal: the value does not open the commitment of entry (\d+)")
    committed_in = int(re.search(r"entry (\d+)", run.verdicts[0].reason).group(1))
    table = replica(run, seq)
    owed = table.state.pending()
    assert isinstance(owed, RevealOwed) and owed.seat == 1 and owed.what == what
    assert table.commits[owed.secret][0] == 1 and table.commits[owed.secret][2] == committed_in
    assert cheater.salts[owed.secret][1] == sealed  # what it really sealed; it claimed the other
    assert len(run.log) == seq


@pytest.mark.parametrize("players", [2, 4])
def test_a_tenth_move_breach_passes_the_public_check_and_is_caught_by_the_audit(players):
    run, cheater = staged("collective-conflict", "tenth-move-breach", players)
    seq = named(run, players, 1, r"^illegal action with full knowledge: tenth-move rule \(CC-7\)")
    breach = parse(run.log[seq])  # every honest peer took it: the public rules allow it
    assert breach.seat == 1 and breach.type == "action"
    assert breach.body["action"][0] == "place" and breach.body["action"][1] not in ("command", "mothership")
    before = replica(run, seq).state
    assert before.moves[1] + 1 >= before.settings.mothership_only_from
    assert "mothership" not in {cheater.salts[sid][1] for sid in before.commands[1]}
    assert parse(run.log[-1]).type == "secrets"  # found in the end-of-game audit, after the game


def test_a_breach_covered_by_a_false_final_opening_is_caught_by_the_opening_check():
    def decoy_never_revealed(run: GameRun, cheater: Cheater) -> bool:
        decoys = {sid for sid, (_salt, value) in cheater.salts.items() if value == "decoy"}
        return not any(e.type == "reveal" and e.body["secret"] in decoys for e in map(parse, run.log))

    # (A Decoy revealed in play cannot be opened otherwise at the end: then the replay finds the breach.)
    run, cheater = staged("collective-conflict", "hidden-tenth-move-breach", want=decoy_never_revealed)
    seq = named(run, 2, 1, r"^false reveal: sealed value \d+ does not open at the end$")
    secret = int(re.search(r"sealed value (\d+)", run.verdicts[0].reason).group(1))
    placed = parse(run.log[seq])  # named at the commitment it lied about: its Decoy's placement
    assert placed.seat == 1 and placed.body["action"][:2] == ("place", "command") and secret in placed.body["commits"]
    assert cheater.salts[secret][1] == "decoy"
    assert parse(run.log[-1]).type == "secrets"


@pytest.mark.parametrize("players", [2, 4])
def test_a_refused_reveal_is_declared_gone_and_named(players):
    run, _cheater = staged("collective-conflict", "refused-reveal", players)
    kind = "claimed" if players == 2 else "disconnected"  # silence: never "cheated"
    seq = named(run, players, 1, r"^disconnected at entry \d+: ")
    assert {v.kind for v in run.verdicts.values()} == {kind}
    owed = replica(run, seq).expected()
    assert (owed.seq, owed.writer, owed.type) == (seq, 1, "reveal")
    assert parse(run.log[seq]).body["target"] == 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_honest_collective_conflict_games_are_fair(players):
    need("collective-conflict")
    run = play("collective-conflict", players, f"cc-honest/{players}".encode(), options=OPTIONS["collective-conflict"])
    assert run.agreed() == "fair", run.verdicts
    assert parse(run.log[-1]).type == "secrets"


# -- the catalogue and the command line -------------------------------------------------------------
def test_every_game_cheat_is_listed_and_registered():
    listed = "\n".join(list_cheats())
    for name, (games, _text) in GAME_CATALOGUE.items():
        assert games and f"{name} ({', '.join(games)}):" in listed
        assert name in CHEATS and name not in CATALOGUE


def test_the_command_line_stages_a_game_cheat():
    need("collective-conflict")
    out = subprocess.run(
        [sys.executable, "-m", "protocol", "simulate", "collective-conflict", "--cheat", "decoy-as-mothership"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["cheat"] == "decoy-as-mothership"
    assert set(summary["verdicts"]) <= {"fair", "false-reveal by seat 1"}, summary
