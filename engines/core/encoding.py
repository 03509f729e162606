"""Canonical msgpack encoding and state hashing.

Two peers must derive byte-identical encodings of the same public state, so the
encoding is canonical: maps are written with their keys sorted (by the encoded
key bytes), tuples and lists are both arrays, and floats are refused outright —
game state is integers, strings, bytes, booleans and ``None`` only.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

import msgpack

STATE_HASH_TAG = b"sealed-table/state/v1\x00"


class EncodingError(ValueError):
    """A value that has no canonical encoding (a float, a set, an object)."""


def canonical_encode(value: Any) -> bytes:
    """Encode ``value`` as canonical msgpack bytes.

    One pass in Python puts every map's keys in canonical order (and refuses
    what has no canonical form); the C packer then writes the bytes, since
    msgpack keeps a dict's iteration order.  Integers are range-checked by the
    packer itself (an out-of-range one raises ``OverflowError`` there).
    """
    try:
        return _packb(_normalise(value))
    except OverflowError:
        raise EncodingError("integer out of msgpack range") from None


_packb = msgpack.Packer(use_bin_type=True, autoreset=True).pack
#: Exact types written as they are (their subclasses take the slow path below).
_LEAVES = frozenset({int, str, bytes, bool, type(None)})


@lru_cache(maxsize=4096, typed=True)
def _key_bytes(key: Any) -> bytes:
    """The encoding of a map key: a state's maps reuse a small set of keys, so it is cached."""
    return _packb(_normalise(key))


def _normalise(value: Any) -> Any:
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is list or kind is tuple:
        leaves = _LEAVES
        return [item if type(item) in leaves else _normalise(item) for item in value]
    if kind is dict:
        pairs = sorted(((_sort_key(k), k, v) for k, v in value.items()), key=_first)
        for i in range(1, len(pairs)):
            if pairs[i][0] == pairs[i - 1][0]:
                raise EncodingError("duplicate map key")
        return {_normalise(k): _normalise(v) for _, k, v in pairs}
    # Subclasses (enums, bool-like ints) are written as their base value.
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return bytes(value)
    raise EncodingError(f"no canonical encoding for {kind.__name__}")


def _sort_key(key: Any) -> bytes:
    if type(key) in _LEAVES and not (type(key) is bytes and len(key) > 64):
        return _key_bytes(key)
    return _packb(_normalise(key))


def _first(item: tuple[bytes, Any, Any]) -> bytes:
    return item[0]


def decode(data: bytes) -> Any:
    """Decode msgpack bytes into plain data (arrays become tuples).

    Strict: no floats are expected and maps may only have str/int/bytes keys;
    callers validate the shape of what comes back.
    """
    return msgpack.unpackb(
        data,
        raw=False,
        use_list=False,
        strict_map_key=False,
    )


def state_hash(public_state: Any) -> bytes:
    """SHA-256 over the tagged canonical encoding of a public state."""
    return hashlib.sha256(STATE_HASH_TAG + canonical_encode(public_state)).digest()


__all__ = ["EncodingError", "canonical_encode", "decode", "state_hash"]
