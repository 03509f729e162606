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


def _normalise(value: Any) -> Any:  # noqa: C901 (tests/test_complexity.py)
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is list or kind is tuple:
        leaves = _LEAVES
        return [item if type(item) in leaves else _normalise(item) for item in value]
    if kind is dict:
        order = _key_order(value)
        if order is not None:
            leaves = _LEAVES
            return {k: v if type(v) in leaves else _normalise(v) for k in order for v in (value[k],)}
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


#: Canonical key order of maps seen before, by their keys (and the keys' exact types):
#: a state's maps have the same few key sets every time, so most maps skip the sort.
_ORDERS: dict[tuple[tuple[Any, ...], tuple[type, ...]], tuple[Any, ...]] = {}
_MAX_ORDERS = 1024
_MAX_KEYS = 64  # bigger maps (rare, and often keyed by one-off values) are sorted each time


def _key_order(value: dict[Any, Any]) -> tuple[Any, ...] | None:
    """The keys of ``value`` in canonical order, or None when a key is not a plain leaf.

    Keys of the exact leaf types never share an encoding (``1`` and ``True`` cannot both be
    keys of one dict), so no duplicate check is needed; the types are part of the cache key
    because ``1 == True`` while their encodings, and so their order, differ.
    """
    if len(value) > _MAX_KEYS:
        return None
    keys = tuple(value)
    types = tuple(map(type, keys))
    sig = (keys, types)
    order = _ORDERS.get(sig)
    if order is not None:
        return order
    leaves = _LEAVES
    if not all(t in leaves and (t is not bytes or len(k) <= 64) for k, t in zip(keys, types, strict=True)):
        return None
    order = tuple(sorted(keys, key=_key_bytes))
    if len(_ORDERS) >= _MAX_ORDERS:
        _ORDERS.clear()
    _ORDERS[sig] = order
    return order


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
