"""Commitments: binding on every field, hiding through the salt, unambiguous framing."""

from __future__ import annotations

import pytest

from engines.core import EncodingError, SeededStream
from protocol.crypto.commit import commitment, opens

SALT = SeededStream(b"commit-tests").token(32)
ARGS = ("decoy", "room-1", 2, SALT, {"unit": 7, "armed": True})


def test_a_commitment_opens_with_its_own_salt_and_value():
    digest = commitment(*ARGS)
    assert len(digest) == 32
    assert opens(digest, *ARGS)


@pytest.mark.parametrize("index, other", [(0, "trap"), (1, "room-2"), (2, 3), (3, bytes(32)), (4, {"unit": 7})])
def test_changing_any_field_breaks_the_opening(index, other):
    digest = commitment(*ARGS)
    changed = list(ARGS)
    changed[index] = other
    assert not opens(digest, *changed)


def test_framing_keeps_tag_and_room_apart():
    assert commitment("ab", "c", 0, SALT, 1) != commitment("a", "bc", 0, SALT, 1)


def test_the_value_encoding_is_canonical():
    assert commitment("t", "r", 0, SALT, {"a": 1, "b": 2}) == commitment("t", "r", 0, SALT, {"b": 2, "a": 1})


def test_the_salt_hides_small_values():
    other_salt = SeededStream(b"commit-tests", "other").token(32)
    assert commitment("trap", "r", 0, SALT, True) != commitment("trap", "r", 0, other_salt, True)


@pytest.mark.parametrize("salt", [b"", b"\x00" * 31, b"\x00" * 33, "s" * 32])
def test_a_salt_of_the_wrong_size_is_refused_and_never_opens(salt):
    with pytest.raises(ValueError):
        commitment("t", "r", 0, salt, 1)
    assert not opens(commitment("t", "r", 0, SALT, 1), "t", "r", 0, salt, 1)


def test_values_without_canonical_encoding_are_refused():
    with pytest.raises(EncodingError):
        commitment("t", "r", 0, SALT, 1.5)
    assert not opens(commitment("t", "r", 0, SALT, 1), "t", "r", 0, SALT, 1.5)


@pytest.mark.parametrize("digest", [b"", b"\x00" * 31, None, "x" * 32])
def test_opens_is_false_on_a_malformed_digest(digest):
    assert opens(digest, *ARGS) is False
