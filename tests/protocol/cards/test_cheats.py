"""Bad inputs and staged cheats: each is refused without a state change, or named by the audit."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from engines.core import SeededStream
from protocol.cards import CardLedger, CardProtocolError, Deck, SeatSecrets
from protocol.crypto.group import P, card_element, invert, mul, scalar_from, scalar_mul

ROOM = "room-cheats"
SEATS = 3
N = 8
STREAM = SeededStream(b"cheat-tests", "noise")


def secrets_for(seats: int = SEATS, n: int = N) -> dict[int, SeatSecrets]:
    return {s: SeatSecrets.generate(s, n, SeededStream(b"cheat-tests", f"seat/{s}")) for s in range(seats)}


def fresh_scalar() -> bytes:
    return scalar_from(STREAM.token(64))


def new_deck() -> Deck:
    return Deck(ROOM, SEATS, list(range(N)), list(range(10, 10 + N)))


def snapshot(deck: Deck) -> tuple:
    return copy.deepcopy((deck.shuffles, deck.locks, deck._keys, deck._key_order, deck._dealt, deck._shown))


def run_shuffles(deck: Deck, secrets: dict[int, SeatSecrets], upto: int = SEATS) -> None:
    for s in range(upto):
        deck.accept_shuffle_pass(s, deck.make_shuffle_pass(secrets[s]))


def run_locks(deck: Deck, secrets: dict[int, SeatSecrets]) -> None:
    for s in range(SEATS):
        deck.accept_lock_pass(s, deck.make_lock_pass(secrets[s]))


def ready_deck() -> tuple[Deck, dict[int, SeatSecrets]]:
    deck, secrets = new_deck(), secrets_for()
    run_shuffles(deck, secrets)
    run_locks(deck, secrets)
    return deck, secrets


def draw(deck: Deck, secrets: dict[int, SeatSecrets], slot: int, seat: int) -> int:
    deck.deal(slot, seat)
    for other in range(SEATS):
        if other != seat:
            deck.accept_key(other, slot, deck.key_for(slot, secrets[other]))
    return deck.open_slot(slot, deck.key_for(slot, secrets[seat]))


def refused(deck: Deck, seat: int | None, call, *args) -> CardProtocolError:
    before = snapshot(deck)
    with pytest.raises(CardProtocolError) as err:
        call(*args)
    assert err.value.seat == seat
    assert snapshot(deck) == before
    return err.value


# -- malformed passes: refused at once, naming the author ---------------------------------
def bad_bodies(good: dict) -> list:
    elements = list(good["elements"])
    return [
        None,
        "pass",
        {**good, "extra": 1},
        {"round": 0, "kind": "shuffle"},
        {**good, "round": 1},
        {**good, "round": True},
        {**good, "kind": "lock"},
        {**good, "elements": elements[:-1]},
        {**good, "elements": [*elements, elements[0]]},
        {**good, "elements": "x" * N},
        {**good, "elements": [(1).to_bytes(32, "little"), *elements[1:]]},  # identity
        {**good, "elements": [bytes(32), *elements[1:]]},  # small order
        {**good, "elements": [(P + 1).to_bytes(32, "little"), *elements[1:]]},  # non-canonical
        {**good, "elements": [b"\xff" * 32, *elements[1:]]},  # not on the curve
        {**good, "elements": [elements[0][:31], *elements[1:]]},
        {**good, "elements": [None, *elements[1:]]},
    ]


@pytest.mark.parametrize("case", range(16))
def test_a_malformed_shuffle_pass_is_refused_naming_its_author(case):
    deck, secrets = new_deck(), secrets_for()
    good = deck.make_shuffle_pass(secrets[0])
    refused(deck, 0, deck.accept_shuffle_pass, 0, bad_bodies(good)[case])


def test_a_duplicated_card_in_a_shuffle_pass_is_caught_at_once():
    deck, secrets = new_deck(), secrets_for()
    run_shuffles(deck, secrets, 1)
    body = deck.make_shuffle_pass(secrets[1])
    body["elements"][5] = body["elements"][6]
    err = refused(deck, 1, deck.accept_shuffle_pass, 1, body)
    assert "duplicated" in err.reason


def test_passes_out_of_turn_or_phase_are_refused():
    deck, secrets = new_deck(), secrets_for()
    refused(deck, 1, deck.accept_shuffle_pass, 1, deck.make_shuffle_pass(secrets[0]))
    with pytest.raises(CardProtocolError):
        deck.make_shuffle_pass(secrets[1])
    with pytest.raises(CardProtocolError):
        deck.make_lock_pass(secrets[0])
    body = deck.make_shuffle_pass(secrets[0])
    refused(deck, 0, deck.accept_lock_pass, 0, body)
    deck.accept_shuffle_pass(0, body)
    refused(deck, 0, deck.accept_shuffle_pass, 0, body)  # a replayed pass


def test_secrets_for_another_size_are_refused():
    deck, _ = new_deck(), None
    with pytest.raises(CardProtocolError):
        deck.make_shuffle_pass(SeatSecrets.generate(0, N + 1, STREAM))


# -- cheats caught at their pass (the proofs) or named by the audit ------------------------
def test_a_substituted_card_is_refused_at_its_pass_by_the_shuffle_proof():
    deck, secrets = new_deck(), secrets_for()
    body = deck.make_shuffle_pass(secrets[0])
    # Seat 0 puts a card from outside the round (card 99) in place of one of its elements:
    # distinct, valid elements, so only the proof can tell (before proofs: the audit, at the end).
    body["elements"][3] = mul(card_element(ROOM, 99), secrets[0].scalar)
    err = refused(deck, 0, deck.accept_shuffle_pass, 0, body)
    assert "shuffle pass" in err.reason and "proof" in err.reason


def test_a_garbled_element_in_a_later_shuffle_pass_is_refused_naming_that_seat():
    deck, secrets = new_deck(), secrets_for()
    run_shuffles(deck, secrets, 1)
    body = deck.make_shuffle_pass(secrets[1])
    body["elements"][2] = mul(body["elements"][2], fresh_scalar())
    refused(deck, 1, deck.accept_shuffle_pass, 1, body)


def test_a_lock_pass_with_a_wrong_inverse_breaks_the_draw_and_is_named():
    """A wrong factor its author knows passes the lock proof (it proves knowledge, not the inverse)."""
    from protocol.cards.proofs import prove_lock

    deck, secrets = new_deck(), secrets_for()
    run_shuffles(deck, secrets)
    deck.accept_lock_pass(0, deck.make_lock_pass(secrets[0]))
    wrong = scalar_mul(invert(fresh_scalar()), secrets[1].keys[0])
    body = deck.make_lock_pass(secrets[1])
    body["elements"][0] = mul(deck.current()[0], wrong)
    factors = [scalar_mul(invert(secrets[1].scalar), k) for k in secrets[1].keys]
    factors[0] = wrong
    ctx = deck._proof_context("lock", 1)
    multipliers = [int.from_bytes(f, "little") for f in factors]
    body["proof"] = prove_lock(ctx, deck.current(), body["elements"], multipliers, [])
    deck.accept_lock_pass(1, body)
    deck.accept_lock_pass(2, deck.make_lock_pass(secrets[2]))
    with pytest.raises(CardProtocolError):
        draw(deck, secrets, deck.slots[0], 2)
    seat, reason = deck.audit(secrets)
    assert seat == 1 and "lock pass" in reason


def test_a_wrong_card_key_at_a_draw_stops_the_receiver_and_the_audit_names_the_publisher():
    deck, secrets = ready_deck()
    slot = deck.slots[4]
    deck.deal(slot, 0)
    deck.accept_key(1, slot, deck.key_for(slot, secrets[1]))
    deck.accept_key(2, slot, fresh_scalar())  # seat 2 lies about its key
    with pytest.raises(CardProtocolError) as err:
        deck.open_slot(slot, deck.key_for(slot, secrets[0]))
    assert err.value.seat is None
    seat, reason = deck.audit(secrets)
    assert seat == 2 and "false key" in reason


def test_a_false_owner_key_or_a_card_not_held_is_refused_naming_the_shower():
    deck, secrets = ready_deck()
    slot = deck.slots[1]
    card = draw(deck, secrets, slot, 0)
    refused(deck, 0, deck.accept_shown, 0, slot, fresh_scalar(), card)  # false key
    other = next(c for c in deck.cards if c != card)
    refused(deck, 0, deck.accept_shown, 0, slot, deck.key_for(slot, secrets[0]), other)  # not the card held
    refused(deck, 1, deck.accept_shown, 1, slot, deck.key_for(slot, secrets[1]), card)  # not its key
    refused(deck, 0, deck.accept_shown, 0, slot, b"\x00" * 32, card)
    assert deck.shown(slot) is None
    deck.accept_shown(0, slot, deck.key_for(slot, secrets[0]), card)
    assert deck.shown(slot) == card
    refused(deck, 0, deck.accept_shown, 0, slot, deck.key_for(slot, secrets[0]), card)  # shown twice


def test_end_of_game_secrets_that_differ_from_the_passes_name_their_seat():
    deck, secrets = ready_deck()
    draw(deck, secrets, deck.slots[0], 1)
    assert deck.audit(secrets) is None
    perm = list(secrets[2].permutation)
    perm[0], perm[1] = perm[1], perm[0]
    assert deck.audit({**secrets, 2: replace(secrets[2], permutation=tuple(perm))})[0] == 2
    assert deck.audit({**secrets, 1: replace(secrets[1], scalar=fresh_scalar())})[0] == 1
    keys = list(secrets[0].keys)
    keys[0] = fresh_scalar()  # seat 0's key for slot 0 was published at the draw
    assert deck.audit({**secrets, 0: replace(secrets[0], keys=tuple(keys))})[0] == 0
    missing = dict(secrets)
    del missing[1]
    assert deck.audit(missing) == (1, "did not publish its card secrets for round 0")
    assert deck.audit({**secrets, 2: replace(secrets[2], permutation=(0,) * N)})[0] == 2


# -- keys, deals and rounds ---------------------------------------------------------------
def test_keys_are_refused_before_the_locks_or_when_malformed():
    deck, secrets = new_deck(), secrets_for()
    refused(deck, 0, deck.accept_key, 0, 10, secrets[0].keys[0])
    run_shuffles(deck, secrets)
    run_locks(deck, secrets)
    refused(deck, 0, deck.accept_key, 0, 10, bytes(32))
    refused(deck, 0, deck.accept_key, 0, 10, "key")
    refused(deck, 0, deck.accept_key, 0, 999, secrets[0].keys[0])
    refused(deck, None, deck.accept_key, 7, 10, secrets[0].keys[0])
    deck.deal(10, 1)
    refused(deck, 1, deck.accept_key, 1, 10, secrets[1].keys[0])  # the receiver's key only by showing
    deck.accept_key(0, 10, secrets[0].keys[0])
    deck.accept_key(0, 10, secrets[0].keys[0])  # a harmless repeat
    refused(deck, 0, deck.accept_key, 0, 10, fresh_scalar())  # a second, different key


def test_a_slot_is_dealt_once_to_a_seated_player():
    deck, _ = ready_deck()
    refused(deck, None, deck.deal, 10, 5)
    refused(deck, None, deck.deal, 10, True)
    deck.deal(10, 0)
    refused(deck, None, deck.deal, 10, 1)


def test_the_ledger_routes_by_round_and_refuses_unknown_rounds_and_slots():
    ledger = CardLedger(ROOM, SEATS)
    deck = ledger.open_round(list(range(N)), list(range(N)))
    body = deck.make_shuffle_pass(secrets_for()[0])
    for bad in ({**body, "round": 1}, {**body, "round": "0"}, None):
        with pytest.raises(CardProtocolError) as err:
            ledger.accept_pass(0, bad)
        assert err.value.seat == 0
    ledger.accept_pass(0, body)
    assert len(deck.shuffles) == 1
    with pytest.raises(CardProtocolError):
        ledger.deck_for(N)
    with pytest.raises(CardProtocolError) as err:
        ledger.accept_shown(2, N + 5, secrets_for()[2].keys[0], 0)
    assert err.value.seat == 2
    assert not ledger.verify_shown(N + 5, b"k", 0)


@pytest.mark.parametrize(
    "args", [(0, [1], [1]), (2, [], []), (2, [1, 2], [1]), (2, [1, 1], [1, 2]), (2, [1, 2], [3, 3])]
)
def test_a_deck_needs_seats_and_distinct_cards_and_slots(args):
    with pytest.raises(ValueError):
        Deck(ROOM, *args)


def test_errors_never_carry_key_bytes():
    deck, secrets = ready_deck()
    slot = deck.slots[2]
    card = draw(deck, secrets, slot, 1)
    own = deck.key_for(slot, secrets[1])
    near = own[:-1] + bytes([own[-1] ^ 1])
    with pytest.raises(CardProtocolError) as err:
        deck.accept_shown(1, slot, near, card)
    text = str(err.value) + repr(err.value)
    for secret in (own, near, secrets[1].scalar):
        assert secret.hex() not in text and repr(secret) not in text
