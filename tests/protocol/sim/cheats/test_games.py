"""What each game offers the staged cheats: what its engine folder declares is what its engine does.

The catalogue names no game; it offers each cheat for the games whose ``engines/<game>/staging.py``
declares the kind of pending the cheat needs.  Seeded self-play of every game (the engine alone,
with its random bot) must produce exactly the kinds declared, so the offer cannot drift from the
engine.
"""

from __future__ import annotations

import pytest

from engines.core import Chance, GameOver, Referee, registry
from protocol.sim.cheats.catalogue import CATALOGUE, CHEATS, GAME_CATALOGUE, MECHANISMS, stageable
from protocol.sim.cheats.games import offer, offers

#: Options that end the random bots' games soon (a game with no round limit of its own gets one).
OPTIONS = {"collective-conflict": {"max_rounds": 80}}
GAMES = 12


def produced(game: str) -> set[object]:
    """The kinds of pending seeded random games of ``game`` produce: a chance by its kind, others by class."""
    spec = registry.get(game)
    seen: set[object] = set()
    for index in range(GAMES):
        players = spec.min_players + index % (min(spec.max_players, 4) - spec.min_players + 1)
        state = spec.new_state(players, OPTIONS.get(game, {}))
        referee = Referee(state, f"staging/{index}".encode())
        bots = [spec.bots["random"](seat, b"staging") for seat in range(players)]
        while True:
            pending = state.pending()
            seen.add(pending.kind if isinstance(pending, Chance) else type(pending))
            if isinstance(pending, GameOver):
                break
            if referee.resolve_table():
                continue
            legal = state.legal_actions(pending.seat, referee.knowledge(pending.seat))
            referee.decide(pending.seat, bots[pending.seat].choose(state, referee.knowledge(pending.seat), legal))
    seen.discard(GameOver)
    return seen


@pytest.mark.parametrize("game", registry.names())
def test_a_game_declares_the_kinds_of_pending_its_engine_produces(game):
    assert produced(game) == set(offer(game).pendings)


def test_each_cheat_is_offered_where_the_engine_gives_it_its_chance():
    known = offers()
    for cheat in MECHANISMS:
        games, _text = GAME_CATALOGUE[cheat.kind]
        assert games == tuple(o.game for o in known if stageable(cheat, o)), cheat.kind
        assert games, f"{cheat.kind}: no registered game offers what it needs"
    for o in known:
        for name in o.cheats:
            assert GAME_CATALOGUE[name][0] == (o.game,) and name in CHEATS and name not in CATALOGUE


def test_the_games_offer_what_each_mechanism_needs():
    """Which game offers which kind of step, as the three engines have it."""
    by_game = {o.game: o for o in offers()}
    dice = {g for g, o in by_game.items() if stageable(CHEATS["forged-die"], o)}
    cards = {g for g, o in by_game.items() if stageable(CHEATS["copied-lock"], o)}
    assert dice == {"anomaly-maze"} and cards == {"system-launch"}
    assert set(GAME_CATALOGUE["two-seat-ejection"][0]) == set(by_game)  # every game seats two
