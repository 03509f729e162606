"""Sealed private messages: only the right recipient, in the right context, opens them."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.crypto.private import AgreementKey, SealError, delivery_context, open_as_auditor, open_sealed, seal

STREAM = SeededStream(b"private-tests")
ALICE = AgreementKey.generate(STREAM.token(32))
BOB = AgreementKey.generate(STREAM.token(32))
CAROL = AgreementKey.generate(STREAM.token(32))
CTX = delivery_context("room", 0, 1, 17)


def sealed(plaintext: bytes = b"the keys of my hand", context: bytes = CTX) -> bytes:
    return seal(ALICE, BOB.public_bytes(), context, plaintext, SeededStream(b"nonces").token)


def test_the_recipient_opens_what_the_sender_sealed():
    assert open_sealed(BOB, ALICE.public_bytes(), CTX, sealed()) == b"the keys of my hand"


def test_the_ciphertext_does_not_contain_the_plaintext():
    assert b"the keys of my hand" not in sealed()


def test_the_sender_s_revealed_key_opens_it_for_the_audit():
    assert open_as_auditor(ALICE, BOB.public_bytes(), CTX, sealed()) == b"the keys of my hand"


def test_another_recipient_cannot_open_it():
    with pytest.raises(SealError):
        open_sealed(CAROL, ALICE.public_bytes(), CTX, sealed())


def test_a_wrong_claimed_sender_cannot_open_it():
    with pytest.raises(SealError):
        open_sealed(BOB, CAROL.public_bytes(), CTX, sealed())


@pytest.mark.parametrize(
    "other",
    [
        delivery_context("room2", 0, 1, 17),
        delivery_context("room", 2, 1, 17),
        delivery_context("room", 0, 2, 17),
        delivery_context("room", 0, 1, 18),
    ],
)
def test_the_context_binds_room_sender_recipient_and_sequence(other):
    with pytest.raises(SealError):
        open_sealed(BOB, ALICE.public_bytes(), other, sealed())


def test_any_tampered_byte_is_caught():
    ct = sealed()
    for i in (0, 12, len(ct) - 1):
        bad = ct[:i] + bytes([ct[i] ^ 0x40]) + ct[i + 1 :]
        with pytest.raises(SealError):
            open_sealed(BOB, ALICE.public_bytes(), CTX, bad)


def test_short_or_non_bytes_ciphertexts_are_a_clear_error():
    for bad in (b"", b"x" * 27, "text"):
        with pytest.raises(SealError):
            open_sealed(BOB, ALICE.public_bytes(), CTX, bad)


def test_a_low_order_public_key_is_refused():
    with pytest.raises(SealError):
        seal(ALICE, bytes(32), CTX, b"x", STREAM.token)


def test_malformed_keys_and_nonce_sources_are_refused():
    with pytest.raises(SealError):
        seal(ALICE, b"short", CTX, b"x", STREAM.token)
    with pytest.raises(SealError):
        seal(ALICE, BOB.public_bytes(), CTX, b"x", lambda n: b"\x00" * (n - 1))
    with pytest.raises(SealError):
        AgreementKey.from_private_bytes(b"\x01" * 31)


def test_private_bytes_round_trip_and_match_the_announced_public_key():
    again = AgreementKey.from_private_bytes(ALICE.private_bytes())
    assert again.matches(ALICE.public_bytes())
    assert not again.matches(BOB.public_bytes())
    assert ALICE.private_bytes().hex() not in repr(ALICE)
