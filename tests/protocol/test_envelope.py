"""The envelope: strict parsing with precise codes, signatures over everything."""

from __future__ import annotations

import msgpack
import pytest

from engines.core import SeededStream, canonical_encode
from protocol.crypto.signing import SigningKey
from protocol.envelope import MAX_ENTRY_BYTES, ZERO_HASH, parse, seal
from protocol.errors import Code, ProtocolError

KEY = SigningKey.generate(SeededStream(b"env", "k").token(32))
BODY = {"c": bytes(32), "hash": bytes(32)}
GAME = bytes(range(100, 132))  # the hash of some genesis


def good() -> bytes:
    return seal(KEY, "room", 3, bytes(range(32)), 1, "seed-commit", BODY, game=GAME).data


def fields(data: bytes) -> dict:
    return dict(msgpack.unpackb(data, raw=False))


def code_of(data) -> Code:
    with pytest.raises(ProtocolError) as info:
        parse(data)
    return info.value.code


def test_a_sealed_entry_parses_and_verifies():
    env = parse(good())
    assert (env.room, env.seq, env.seat, env.type) == ("room", 3, 1, "seed-commit")
    assert env.signed_by(KEY.public_bytes())
    assert not env.signed_by(SigningKey.generate(bytes(32)).public_bytes())


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda f: f.pop("sig"), Code.UNSIGNED),
        (lambda f: f.update(sig=b"short"), Code.UNSIGNED),
        (lambda f: f.update(v=1), Code.VERSION),
        (lambda f: f.update(game=b"x"), Code.MALFORMED),
        (lambda f: f.update(game=bytes(32)), Code.MALFORMED),  # the zero hash: the genesis's alone
        (lambda f: f.pop("game"), Code.MALFORMED),
        (lambda f: f.update(type="teleport"), Code.UNKNOWN_TYPE),
        (lambda f: f.update(seq=-1), Code.MALFORMED),
        (lambda f: f.update(prev=b"x"), Code.MALFORMED),
        (lambda f: f.update(body={"c": b"x", "hash": bytes(32)}), Code.MALFORMED),
        (lambda f: f.update(body={"c": bytes(32)}), Code.MALFORMED),
        (lambda f: f.update(extra=1), Code.MALFORMED),
        (lambda f: f.update(room=""), Code.MALFORMED),
    ],
)
def test_malformed_entries_are_refused_with_a_precise_code(change, code):
    f = fields(good())
    change(f)
    assert code_of(canonical_encode(f)) == code


def test_garbage_oversize_and_non_canonical_bytes_are_refused():
    assert code_of(b"") == Code.MALFORMED
    assert code_of(b"\xc1\xc1") == Code.MALFORMED
    assert code_of("text") == Code.MALFORMED
    assert code_of(b"\x91" * 5000 + b"\xc0") == Code.MALFORMED  # deep nesting
    assert code_of(bytes(MAX_ENTRY_BYTES + 1)) == Code.OVERSIZED
    # same content, keys in another order: not the canonical bytes of a signed entry
    f = fields(good())
    shuffled = msgpack.packb(dict(reversed(list(f.items()))), use_bin_type=True)
    assert code_of(shuffled) == Code.MALFORMED


def test_only_entry_zero_is_a_genesis():
    body = {"game": "toy", "options": {}, "seats": [], "nonce": bytes(32), "timeout_ms": 5}
    with pytest.raises(ProtocolError):
        seal(KEY, "room", 1, ZERO_HASH, 0, "genesis", body, game=ZERO_HASH)
    with pytest.raises(ProtocolError):
        seal(KEY, "room", 0, ZERO_HASH, 0, "genesis", body, game=GAME)
    with pytest.raises(ProtocolError):
        seal(KEY, "room", 0, ZERO_HASH, 0, "seed-commit", BODY, game=GAME)


def test_signature_covers_every_field():
    f = fields(good())
    f["seq"] = 4
    assert not parse(canonical_encode(f)).signed_by(KEY.public_bytes())
    g = fields(good())
    g["game"] = bytes(range(1, 33))  # the same entry, claimed for another game
    assert not parse(canonical_encode(g)).signed_by(KEY.public_bytes())


def _reference_depth_ok(value, limit: int) -> bool:
    """Every item visited, keys included: the plain statement of the nesting limit."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            if depth >= limit:
                return False
            pairs = item.items() if isinstance(item, dict) else ((x, None) for x in item)
            for k, v in pairs:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
    return True


def test_the_nesting_limit_counts_arrays_and_maps_keys_included():
    from hypothesis import given
    from hypothesis import strategies as st

    from protocol.envelope import _depth_ok

    leaves = st.none() | st.integers() | st.binary(max_size=3)
    trees = st.recursive(
        leaves,
        lambda inner: (
            st.tuples(inner, inner)
            | st.lists(inner, max_size=3)
            | st.dictionaries(st.recursive(leaves, lambda key: st.tuples(key, key), max_leaves=8), inner, max_size=3)
        ),
        max_leaves=40,
    )

    @given(trees, st.integers(1, 8))
    def agrees(value, limit):
        assert _depth_ok(value, limit) == _reference_depth_ok(value, limit)

    agrees()
    nest = 0
    for _ in range(12):
        nest = [nest]
    assert _depth_ok(nest, 12) and not _depth_ok([nest], 12)  # twelve arrays deep is the most
    key: object = 1
    for _ in range(12):
        key = (key,)
    assert not _depth_ok({key: 0}, 12) and _depth_ok({key[0]: 0}, 12)  # deep inside a key


def test_peek_reads_author_position_and_signature_without_decoding() -> None:
    """peek agrees with parse on every entry and notice of a played game, and reads nothing else."""
    from protocol.envelope import peek
    from protocol.sim.network import play

    run = play("toy", 3, b"env/peek")
    entries = [bytes(getattr(e, "data", e)) for e in run.log]
    entries.append(seal(KEY, "r" * 64, 2**31, bytes(32), 63, "vote", {"target": 1}, game=GAME).data)  # str8, u32
    for data in entries:
        head, env = peek(data), parse(data)
        assert head is not None
        assert (head.seq, head.seat, head.type, head.room, head.game, head.prev, head.sig) == (
            env.seq,
            env.seat,
            env.type,
            env.room,
            env.game,
            env.prev,
            env.sig,
        )
        assert head.signed == env.signed_bytes() and head.signed_by(KEY.public_bytes()) == env.signed_by(
            KEY.public_bytes()
        )
    shuffled = msgpack.packb(dict(reversed(list(fields(good()).items()))), use_bin_type=True)  # keys out of order
    for bad in (b"", b"\xc1", good()[:-1], good() + b"\x00", shuffled, bytes(MAX_ENTRY_BYTES + 1), "text"):
        assert peek(bad) is None
