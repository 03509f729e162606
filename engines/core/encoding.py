"""Canonical msgpack encoding and state hashing.

Two peers must derive byte-identical encodings of the same public state, so the
encoding is canonical: maps are written with their keys sorted (by the encoded
key bytes), tuples and lists are both arrays, and floats are refused outright —
game state is integers, strings, bytes, booleans and ``None`` only.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

STATE_HASH_TAG = b"sealed-table/state/v1\x00"


class EncodingError(ValueError):
    """A value that has no canonical encoding (a float, a set, an object)."""


def canonical_encode(value: Any) -> bytes:
    """Encode ``value`` as canonical msgpack bytes."""
    out = bytearray()
    _write(value, out)
    return bytes(out)


def _write(value: Any, out: bytearray) -> None:
    if value is None or isinstance(value, (bool, int, str, bytes)):
        if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**64:
            raise EncodingError("integer out of msgpack range")
        out += msgpack.packb(value, use_bin_type=True)
        return
    if isinstance(value, (list, tuple)):
        n = len(value)
        out += _array_header(n)
        for item in value:
            _write(item, out)
        return
    if isinstance(value, dict):
        pairs = []
        for k, v in value.items():
            kb = bytearray()
            _write(k, kb)
            pairs.append((bytes(kb), v))
        pairs.sort(key=lambda kv: kv[0])
        for i in range(1, len(pairs)):
            if pairs[i][0] == pairs[i - 1][0]:
                raise EncodingError("duplicate map key")
        out += _map_header(len(pairs))
        for kb, v in pairs:
            out += kb
            _write(v, out)
        return
    raise EncodingError(f"no canonical encoding for {type(value).__name__}")


def _array_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x90 | n])
    if n < 2**16:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def _map_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x80 | n])
    if n < 2**16:
        return b"\xde" + n.to_bytes(2, "big")
    return b"\xdf" + n.to_bytes(4, "big")


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
