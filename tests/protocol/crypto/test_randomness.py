"""Joint randomness: commitments bind shares, and every share moves the outcome."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.crypto.entropy import Entropy, SystemEntropy
from protocol.crypto.randomness import joint_value, opens_share, outcome, share_commitment

STREAM = SeededStream(b"randomness-tests")


def shares(n: int) -> list[bytes]:
    return [STREAM.token(32) for _ in range(n)]


def test_a_share_opens_its_commitment_and_nothing_else_does():
    s = shares(2)
    digest = share_commitment("room", 1, "die/3", s[0])
    assert opens_share(digest, "room", 1, "die/3", s[0])
    assert not opens_share(digest, "room", 1, "die/3", s[1])
    assert not opens_share(digest, "room", 2, "die/3", s[0])
    assert not opens_share(digest, "room", 1, "die/4", s[0])
    assert not opens_share(digest, "room", 1, "die/3", b"short")


def test_shares_must_be_32_bytes():
    with pytest.raises(ValueError):
        share_commitment("room", 0, "x", b"\x00" * 31)
    with pytest.raises(ValueError):
        joint_value([b"\x00" * 32, b"\x00" * 5], "x")
    with pytest.raises(ValueError):
        joint_value([], "x")


def test_the_joint_value_depends_on_every_share_its_order_and_the_label():
    s = shares(3)
    base = joint_value(s, "seed")
    for i in range(3):
        changed = list(s)
        changed[i] = STREAM.token(32)
        assert joint_value(changed, "seed") != base
    assert joint_value([s[1], s[0], s[2]], "seed") != base
    assert joint_value(s, "other") != base
    assert joint_value(list(s), "seed") == base


def test_outcomes_are_in_range_and_the_same_on_every_peer():
    joint = joint_value(shares(4), "die")
    values = [outcome(joint, f"die/{i}", 6) for i in range(50)]
    assert all(0 <= v < 6 for v in values)
    assert values == [outcome(joint, f"die/{i}", 6) for i in range(50)]


def test_one_honest_share_alone_reaches_every_outcome():
    """With every other share fixed (say, chosen by cheaters), varying one share covers the whole range."""
    fixed = shares(3)
    seen = {outcome(joint_value([*fixed, STREAM.token(32)], "die"), "die", 6) for _ in range(200)}
    assert seen == set(range(6))


def test_system_entropy_is_an_entropy():
    source = SystemEntropy()
    assert isinstance(source, Entropy) and isinstance(STREAM, Entropy)
    assert len(source.token(48)) == 48
    assert all(0 <= source.below(7) < 7 for _ in range(20))
    with pytest.raises(ValueError):
        source.below(0)
