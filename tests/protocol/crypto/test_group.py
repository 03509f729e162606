"""The prime-order group: card elements, commutativity, and refusal of bad encodings."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.crypto.group import (
    GroupError,
    L,
    P,
    card_element,
    invert,
    is_element,
    is_scalar,
    mul,
    scalar_from,
    scalar_mul,
)

STREAM = SeededStream(b"group-tests")


def scalar() -> bytes:
    return scalar_from(STREAM.token(64))


def test_every_card_is_its_own_valid_element_and_rooms_differ():
    elements = [card_element("room", c) for c in range(44)]
    assert all(is_element(e) for e in elements)
    assert len(set(elements)) == 44
    assert card_element("room", 3) == card_element("room", 3)
    assert card_element("other", 3) != card_element("room", 3)


def test_multiplication_commutes_and_inverts():
    e, a, b = card_element("r", 1), scalar(), scalar()
    assert mul(mul(e, a), b) == mul(mul(e, b), a)
    assert mul(mul(e, a), invert(a)) == e
    assert mul(e, scalar_mul(a, b)) == mul(mul(e, a), b)


def small_order_points() -> list[bytes]:
    """The identity and other torsion points, as canonical encodings."""
    pts = [
        (1).to_bytes(32, "little"),  # identity
        (P - 1).to_bytes(32, "little"),  # order 2
        bytes(32),  # y = 0: order 4
        bytes(31) + b"\x80",  # y = 0 with the sign bit
    ]
    return pts


@pytest.mark.parametrize("bad", [*small_order_points(), b"\xff" * 32, b"", b"\x00" * 33, "x" * 32, None])
def test_invalid_encodings_are_not_elements_and_mul_refuses_them(bad):
    assert not is_element(bad)
    with pytest.raises(GroupError):
        mul(bad, scalar())


def test_a_non_canonical_y_is_refused():
    e = card_element("r", 5)
    y = int.from_bytes(e, "little") & ((1 << 255) - 1)
    if y + P < 1 << 255:  # only y < 19 has a second encoding
        assert not is_element((y + P).to_bytes(32, "little"))
    assert not is_element(((P + 1) | 0).to_bytes(32, "little"))


@pytest.mark.parametrize("bad", [bytes(32), L.to_bytes(32, "little"), (L + 1).to_bytes(32, "little"), b"\x01", None])
def test_zero_and_non_canonical_scalars_are_refused(bad):
    assert not is_scalar(bad)
    with pytest.raises(GroupError):
        mul(card_element("r", 0), bad)
    with pytest.raises(GroupError):
        invert(bad)


def test_scalar_from_needs_64_bytes_and_refuses_zero():
    with pytest.raises(GroupError):
        scalar_from(b"\x01" * 32)
    with pytest.raises(GroupError):
        scalar_from(bytes(64))
    with pytest.raises(GroupError):
        scalar_from(L.to_bytes(64, "little"))
    assert is_scalar(scalar_from(STREAM.token(64)))
