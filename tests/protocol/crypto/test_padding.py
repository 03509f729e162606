"""Padding of sealed plaintexts: the length on the wire shows a block count, never the content."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.crypto.padding import PAD_BLOCK, PaddingError, pad, padded_size, unpad
from protocol.crypto.private import AgreementKey, SealError, delivery_context, open_sealed, seal

ALICE = AgreementKey.generate(bytes(range(32)))
BOB = AgreementKey.generate(bytes(range(1, 33)))
CTX = delivery_context("room", 0, 1, 7)


def test_values_of_different_lengths_seal_to_one_length():
    values = (b"decoy", b"mothership")
    sealed = {seal(ALICE, BOB.public_bytes(), CTX, text, SeededStream(b"n").token) for text in values}
    assert len({len(s) for s in sealed}) == 1
    for s in sealed:
        assert open_sealed(BOB, ALICE.public_bytes(), CTX, s) in (b"decoy", b"mothership")


def test_pad_round_trip_and_sizes():
    for n in (0, 1, PAD_BLOCK - 5, PAD_BLOCK - 4, PAD_BLOCK - 3, 3 * PAD_BLOCK):
        text = bytes(range(256)) * (n // 256) + bytes(n % 256)
        padded = pad(text)
        assert len(padded) == padded_size(n) and len(padded) % PAD_BLOCK == 0
        assert unpad(padded) == text
    assert len(pad(b"x", 600)) == 600


def test_an_explicit_size_too_small_is_refused():
    with pytest.raises(PaddingError):
        pad(bytes(10), 12)
    with pytest.raises(SealError):
        seal(ALICE, BOB.public_bytes(), CTX, bytes(10), SeededStream(b"n").token, 12)


@pytest.mark.parametrize("bad", [b"", b"\x00\x00\x00\x09abc", b"\x00\x00\x00\x01ab", b"\x00\x00\x00\x01a\x00\x01"])
def test_malformed_padding_is_refused(bad):
    with pytest.raises(PaddingError):
        unpad(bad)
