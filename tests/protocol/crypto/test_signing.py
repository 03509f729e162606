"""Ed25519 signing: round trips, determinism from a seed, and a verify that never raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import SeededStream
from protocol.crypto.signing import SigningKey, verify


def key(label: str) -> SigningKey:
    return SigningKey.generate(SeededStream(b"signing-tests", label).token(32))


def test_a_signature_verifies_under_its_own_public_key():
    k = key("a")
    sig = k.sign(b"entry bytes")
    assert len(k.public_bytes()) == 32 and len(sig) == 64
    assert verify(k.public_bytes(), b"entry bytes", sig)


def test_tampered_data_signature_or_key_fails():
    a, b = key("a"), key("b")
    sig = a.sign(b"entry")
    assert not verify(a.public_bytes(), b"entrY", sig)
    assert not verify(b.public_bytes(), b"entry", sig)
    flipped = bytes([sig[0] ^ 1]) + sig[1:]
    assert not verify(a.public_bytes(), b"entry", flipped)


def test_the_same_seed_gives_the_same_key_and_private_bytes_round_trip():
    seed = SeededStream(b"s").token(32)
    a, b = SigningKey.generate(seed), SigningKey.generate(seed)
    assert a.public_bytes() == b.public_bytes()
    assert a.private_bytes() == seed
    again = SigningKey.from_private_bytes(a.private_bytes())
    assert verify(again.public_bytes(), b"x", a.sign(b"x"))


def test_os_generated_keys_differ_and_repr_hides_the_secret():
    a, b = SigningKey.generate(), SigningKey.generate()
    assert a.public_bytes() != b.public_bytes()
    assert a.private_bytes().hex() not in repr(a)


@pytest.mark.parametrize("bad", [b"", b"\x00" * 31, b"\x00" * 33, "x" * 32, None])
def test_a_private_key_of_the_wrong_shape_is_refused(bad):
    with pytest.raises(ValueError):
        SigningKey.from_private_bytes(bad)


@settings(max_examples=60)
@given(st.one_of(st.binary(max_size=40), st.none(), st.integers(), st.text(max_size=5)), st.binary(max_size=70))
def test_verify_never_raises_on_garbage(public, signature):
    assert verify(public, b"data", signature) is False


def test_verify_rejects_non_bytes_data():
    k = key("c")
    assert verify(k.public_bytes(), "text", k.sign(b"text")) is False
