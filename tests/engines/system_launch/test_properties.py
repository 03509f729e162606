"""Property tests over whole random games played with the Referee (hypothesis, modest sizes).

At every step: each of the 44 cards is in exactly one place (by the referee's
full truth); no seat's Knowledge or view holds a hidden card it was not dealt or
shown; public state holds only face-up identities.  Replaying the same actions
on a fresh state gives the same hashes.  Every game ends.  Garbage input is
refused with IllegalAction and no change.  A bigger run:
``SL_PROPERTY_EXAMPLES=300 python3 -m pytest tests/engines/system_launch``.
"""

from __future__ import annotations

import functools
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import TABLE, Decision, GameOver, IllegalAction, Knowledge, RandomBot, SeededStream
from engines.system_launch import GreedyBot, SystemLaunchState
from tests.engines.system_launch.helpers import CheckingReferee

EXAMPLES = int(os.environ.get("SL_PROPERTY_EXAMPLES", "25"))

options = st.fixed_dictionaries(
    {},
    optional={
        "hand_limit": st.integers(2, 7),
        "starting_hand": st.integers(0, 7),
        "round_limit": st.integers(2, 60),
    },
)


def play_checked(players: int, seed: bytes, opts: dict, greedy: list[bool], forfeit_per_mille: int):
    """Play one game step by step with invariant checks and random forfeits; return the log."""
    state = SystemLaunchState(players, opts)
    ref = CheckingReferee(state, seed)
    bots = [GreedyBot(s) if greedy[s] else RandomBot(s, seed) for s in range(players)]
    chaos = SeededStream(seed, "forfeits")
    log: list[tuple[str, int, tuple]] = []
    hashes: list[bytes] = []
    while not state.is_over():
        if forfeit_per_mille and chaos.below(1000) < forfeit_per_mille:
            alive = [s for s in range(players) if state.alive[s]]
            seat = alive[chaos.below(len(alive))]
            state.forfeit(seat)
            ref.after_step()
            log.append(("forfeit", seat, ()))
            hashes.append(state.hash())
            continue
        before = len(ref.history)
        if not ref.resolve_table():
            pending = state.pending()
            assert isinstance(pending, Decision)
            knowledge = ref.seats[pending.seat]
            legal = state.legal_actions(pending.seat, knowledge)
            assert legal, pending
            for other in range(players):
                if other != pending.seat:
                    assert state.legal_actions(other, ref.seats[other]) == []
            ref.decide(pending.seat, bots[pending.seat].choose(state, knowledge, legal))
        for seat, action in ref.history[before:]:
            log.append(("push", seat, action))
        hashes.append(state.hash())
        assert len(log) < 20_000, "game did not end"
    assert isinstance(state.pending(), GameOver)
    return state, ref, log, hashes


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    opts=options,
    greedy=st.lists(st.booleans(), min_size=6, max_size=6),
    forfeit_per_mille=st.sampled_from([0, 0, 2, 10]),
)
def test_random_games_keep_every_invariant_and_replay_identically(players, seed, opts, greedy, forfeit_per_mille):
    state, ref, log, hashes = play_checked(players, seed, opts, greedy, forfeit_per_mille)
    over = state.pending()
    assert over.draw or state.alive[over.winners[0]]
    # Replay with public information only, as every other peer does.
    fresh = SystemLaunchState(players, opts)
    replayed = []
    for kind, seat, action in log:
        if kind == "forfeit":
            fresh.forfeit(seat)
        else:
            fresh.push(seat, action)
        replayed.append(fresh.hash())
    assert replayed == hashes
    assert fresh.public() == state.public()
    # The audit: full knowledge accepts every decision that was made.
    audit = SystemLaunchState(players, opts)
    for kind, seat, action in log:
        if kind == "forfeit":
            audit.forfeit(seat)
        else:
            audit.push(seat, action, ref.truth if seat != TABLE else None)
    assert audit.hash() == state.hash()


@settings(max_examples=max(5, EXAMPLES // 3), deadline=None)
@given(players=st.integers(2, 6), seed=st.binary(min_size=1, max_size=8))
def test_clone_mid_game_follows_the_same_path(players, seed):
    _, _, log, hashes = play_checked(players, seed, {}, [False] * 6, 0)
    cut = len(log) // 2
    s = SystemLaunchState(players)
    for _, seat, action in log[:cut]:
        s.push(seat, action)
    twin = s.clone()
    for _, seat, action in log[cut:]:
        twin.push(seat, action)
    assert twin.hash() == hashes[-1]
    assert s.hash() == hashes[cut - 1]


VERBS = ["build", "play", "upgrade", "pass", "take", "take-none", "lose", "discard"]
VERBS += ["deal", "shuffled", "chance", "delivered", "reveal"]
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(VERBS) | st.binary(max_size=2),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner),
    max_leaves=6,
)
verb_first = st.tuples(st.sampled_from(VERBS), st.lists(junk, max_size=3)).map(lambda t: (t[0], *t[1]))


@functools.cache
def recorded_game(index: int) -> list[tuple[str, int, tuple]]:
    return play_checked(3, b"garbage/%d" % index, {}, [index % 2 == 0] * 6, 0)[2]


@settings(max_examples=max(20, EXAMPLES * 4), deadline=None)
@given(
    game=st.integers(0, 3),
    cut=st.integers(0, 400),
    actions=st.lists(verb_first | junk, min_size=1, max_size=8),
    seat=st.integers(-2, 6),
)
def test_garbage_is_refused_cleanly_or_is_legal(game, cut, actions, seat):
    log = recorded_game(game)
    s = SystemLaunchState(3)
    for _, who, action in log[: min(cut, len(log) - 1)]:
        s.push(who, action)
    for action in actions:
        before = s.hash()
        legal = s.legal_actions(seat, Knowledge(seat)) if seat >= 0 else []
        assert isinstance(s.shown(seat, action), tuple)
        try:
            s.clone().check(seat, action)
        except IllegalAction:
            assert s.hash() == before
            assert action not in legal
            continue
        s.apply(seat, action)
        assert s.hash() != before
        if s.is_over():
            break
