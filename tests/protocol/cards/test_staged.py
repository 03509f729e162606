"""Duplicates made without a repeated element are refused at the pass that makes them.

Staged by one peer of the simulator among honest peers (``protocol.sim.cheats.cards``): every honest
peer must stop at the cheater's pass (the game goes no further), naming the cheater for a pass
whose proof fails.  Without the proofs both cheats would pass every check until the end of the game.
"""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.cards import CardProtocolError, Deck, SeatSecrets
from protocol.cards import deck as deck_module
from protocol.envelope import parse
from protocol.sim.cheats.catalogue import staged_kind
from protocol.sim.network import classify, play

ROOM, SEATS, N = "room-staged", 3, 8


def secrets_for() -> dict[int, SeatSecrets]:
    return {s: SeatSecrets.generate(s, N, SeededStream(b"staged", f"seat/{s}")) for s in range(SEATS)}


def new_deck() -> Deck:
    return Deck(ROOM, SEATS, list(range(N)), list(range(10, 10 + N)))


def run_shuffles(deck: Deck, secrets: dict[int, SeatSecrets]) -> None:
    for s in range(SEATS):
        deck.accept_shuffle_pass(s, deck.make_shuffle_pass(secrets[s]))


def draw(deck: Deck, secrets: dict[int, SeatSecrets], slot: int, seat: int) -> int:
    deck.deal(slot, seat)
    for other in range(SEATS):
        if other != seat:
            deck.accept_key(other, slot, deck.key_for(slot, secrets[other]))
    return deck.open_slot(slot, deck.key_for(slot, secrets[seat]))


def _caught_at_the_pass(cheat: str, players: int, cheater: int, kind: str) -> None:
    run = play("system-launch", players, f"staged/{cheat}/{cheater}".encode(), cheat, cheater)
    entries = [parse(d) for d in run.log]
    passes = [e.seq for e in entries if e.seat == cheater and e.type == kind]
    assert len(run.verdicts) == players - 1
    for seat, verdict in run.verdicts.items():
        assert verdict is not None and not verdict.fair, (seat, verdict)
        assert verdict.seat == cheater and f"{kind} pass" in verdict.reason and "proof" in verdict.reason, verdict
        assert classify(verdict) == f"{staged_kind(cheat)} by seat {cheater}", verdict
    # The honest peers stopped at that pass: nothing after it is on their log.
    assert not passes and all(e.type in ("genesis", "seed-commit", "seed-reveal", "shuffle", "lock") for e in entries)
    assert {v.seq for v in run.verdicts.values()} == {len(entries)}


@pytest.mark.parametrize(("players", "cheater"), [(3, 0), (4, 2)])
def test_a_tagged_duplicate_card_is_refused_at_its_shuffle_pass(players, cheater):
    _caught_at_the_pass("tagged-duplicate-card", players, cheater, "shuffle")


@pytest.mark.parametrize(("players", "cheater"), [(3, 0), (3, 1)])
def test_a_copied_lock_is_refused_at_its_lock_pass(players, cheater):
    _caught_at_the_pass("copied-lock", players, cheater, "lock")


def test_one_card_opened_in_two_slots_raises_a_dispute(monkeypatch):
    """Defence in depth: were a copied lock ever accepted, its second opening is a dispute, not a card."""
    from protocol.crypto.group import invert, mul, scalar_mul

    monkeypatch.setattr(deck_module, "verify_lock", lambda *args: True)  # as if the lock proof were broken
    deck, secrets = new_deck(), secrets_for()
    run_shuffles(deck, secrets)
    for seat in range(3):
        body = deck.make_lock_pass(secrets[seat])
        if seat == 0:  # the first locker copies slot 0 into slot 1: both open to one card
            s = secrets[0]
            body["elements"][1] = mul(deck.current()[0], scalar_mul(invert(s.scalar), s.keys[1]))
            body["proof"] = {}
        deck.accept_lock_pass(seat, body)
    card = draw(deck, secrets, deck.slots[0], 0)
    deck.accept_shown(0, deck.slots[0], deck.key_for(deck.slots[0], secrets[0]), card)
    with pytest.raises(CardProtocolError) as err:
        draw(deck, secrets, deck.slots[1], 1)
    assert err.value.seat is None and "dispute" in err.value.reason


def test_a_false_reslot_of_a_shown_hand_is_refused_at_the_delivery():
    """SL-10's re-slotting is a proven pass too: a target that swaps in another card is named at once.

    In this seeded 4-seat game seat 2's hand is shown by a Hacker Attack (the same game as in
    test_hidden_take.py up to that point): it is the cheater.
    """
    run = play("system-launch", 4, b"sl10/1", "false-reslot", 2)
    entries = [parse(d) for d in run.log]
    assert entries[-1].type != "deliver" or entries[-1].seat != 2
    for verdict in run.verdicts.values():
        assert verdict is not None and verdict.seat == 2 and "re-slotting" in verdict.reason, verdict
        assert classify(verdict) == f"{staged_kind('false-reslot')} by seat 2"
        assert verdict.seq == len(entries)  # the cheater's delivery, refused: the game stops there
