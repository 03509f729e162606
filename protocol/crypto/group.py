"""The prime-order group of edwards25519, for commutative card encryption.

Mental poker needs a group where ``(P * a) * b == (P * b) * a`` and where,
given ``P`` and ``P * a``, nobody can find ``a`` or link re-encrypted cards
(decisional Diffie–Hellman).  We use the prime-order subgroup (order ``L``) of
edwards25519 through libsodium's ``crypto_core_ed25519_*`` bindings in PyNaCl.

Why not ristretto255: PyNaCl 1.6 does not bind ``crypto_core_ristretto255_*``
(a pull request adding them was never merged).  Ristretto's benefit is a
cofactor-free *encoding*; we get the same safety by validating every element
with ``crypto_core_ed25519_is_valid_point``, which accepts only canonical
encodings of points in the prime-order subgroup, never the identity or a point
of small order.  Inside that subgroup every non-zero scalar is invertible, so
the scheme's algebra holds exactly.

Elements and scalars are plain ``bytes`` (32 each, scalars little-endian and
reduced below ``L``) so they go straight into msgpack bodies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeGuard

from nacl import bindings as sodium
from nacl import exceptions as sodium_errors

from protocol.crypto.framing import frame, int_bytes, text_bytes

#: Order of the prime-order subgroup of edwards25519.
L = 2**252 + 27742317777372353535851937790883648493
#: The field prime (for the canonical-encoding check of the y coordinate).
P = 2**255 - 19
ELEMENT_BYTES = 32
SCALAR_BYTES = 32
WIDE_BYTES = 64
CARD_DOMAIN = b"sealed-table/card-element/v1"
#: The encoding of the neutral element.  ``crypto_core_ed25519_from_uniform`` clears the cofactor and
#: encodes canonically, so the identity is the one unusable value it can return (a full
#: :func:`is_element` check on its output would cost half a multiplication for nothing).
IDENTITY = (1).to_bytes(ELEMENT_BYTES, "little")


class GroupError(ValueError):
    """An invalid element or scalar (identity, small order, non-canonical, zero, wrong size)."""


def is_element(data: object) -> bool:
    """True for a canonical encoding of a non-identity point of the prime-order subgroup."""
    if not isinstance(data, bytes) or len(data) != ELEMENT_BYTES:
        return False
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    if y >= P:
        return False
    try:
        return bool(sodium.crypto_core_ed25519_is_valid_point(data))
    except (sodium_errors.CryptoError, TypeError, ValueError):
        return False


def is_scalar(data: object) -> TypeGuard[bytes]:
    """True for a 32-byte little-endian integer in ``1..L-1`` (canonical and invertible)."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        return False
    value = int.from_bytes(data, "little")
    return 0 < value < L


def _need_scalar(data: object, what: str = "scalar") -> bytes:
    if not is_scalar(data):
        raise GroupError(f"invalid {what}: not a canonical non-zero scalar")
    return data


def card_element(room: str, card: int) -> bytes:
    """The group element of ``card`` in ``room``: hash-to-group of a domain-tagged hash.

    Elligator (``crypto_core_ed25519_from_uniform``) maps the hash into the
    prime-order subgroup; nobody knows a discrete-log relation between two
    cards' elements, so no card can be turned into another.
    """
    digest = hashlib.sha256(frame(CARD_DOMAIN, text_bytes(room), int_bytes(card))).digest()
    element = sodium.crypto_core_ed25519_from_uniform(digest)
    if element == IDENTITY:  # probability ~2^-250; refuse rather than use a weak element
        raise GroupError(f"card {card} hashes to an unusable element")
    return element


def scalar_from(wide: bytes) -> bytes:
    """A scalar from 64 uniform bytes (reduced mod ``L``; bias ~2^-259); zero is refused."""
    if not isinstance(wide, bytes) or len(wide) != WIDE_BYTES:
        raise GroupError("scalar_from needs exactly 64 bytes")
    scalar = sodium.crypto_core_ed25519_scalar_reduce(wide)
    if not is_scalar(scalar):
        raise GroupError("those 64 bytes reduce to the zero scalar")
    return scalar


def mul(element: bytes, scalar: bytes) -> bytes:
    """``element * scalar``; both validated, the result is again a valid element."""
    # libsodium's multiplication itself refuses a point that is off the curve,
    # outside the prime-order subgroup, of small order or non-canonical, so the
    # full validation is not repeated here; only the cheap shape checks are.
    if not isinstance(element, bytes) or len(element) != ELEMENT_BYTES:
        raise GroupError("invalid element: not 32 bytes")
    if int.from_bytes(element, "little") & ((1 << 255) - 1) >= P:
        raise GroupError("invalid element: non-canonical encoding")
    _need_scalar(scalar)
    try:
        return sodium.crypto_scalarmult_ed25519_noclamp(scalar, element)
    except (sodium_errors.CryptoError, sodium_errors.RuntimeError) as exc:
        raise GroupError("invalid element: not a point of the prime-order group") from exc


def invert(scalar: bytes) -> bytes:
    """``scalar^-1 mod L``."""
    _need_scalar(scalar)
    return sodium.crypto_core_ed25519_scalar_invert(scalar)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a * b mod L`` (the product of two non-zero scalars mod a prime is non-zero)."""
    _need_scalar(a)
    _need_scalar(b)
    return sodium.crypto_core_ed25519_scalar_mul(a, b)


def scalar_product(scalars: list[bytes]) -> bytes:
    """The product of one or more scalars mod ``L``."""
    if not scalars:
        raise GroupError("empty product")
    result = _need_scalar(scalars[0])
    for s in scalars[1:]:
        result = scalar_mul(result, s)
    return result


# -- what the shuffle and lock proofs need (protocol/cards/proofs.py) -------------------------------
# Proof arithmetic keeps scalars as Python integers mod L (cheaper than a libsodium call per
# operation) and turns them into 32 bytes only to multiply a point.

GENERATOR_DOMAIN = b"sealed-table/proof-generator/v1"


def base_mul_int(k: int) -> bytes:
    """``k * G`` for the standard base point G (libsodium's precomputed table: ~6x a variable point)."""
    k %= L
    if k == 0:
        raise GroupError("a zero scalar gives the identity")
    return sodium.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(SCALAR_BYTES, "little"))


def mul_int(element: bytes, k: int) -> bytes:
    """``element * k`` for an integer scalar; an invalid element or a zero scalar is a :class:`GroupError`.

    libsodium refuses any point off the curve, outside the prime-order subgroup, of small
    order or non-canonical, so a proof that multiplies every element it is given validates it.
    """
    k %= L
    if not isinstance(element, bytes) or len(element) != ELEMENT_BYTES or k == 0:
        raise GroupError("invalid element or zero scalar")
    if int.from_bytes(element, "little") & ((1 << 255) - 1) >= P:
        raise GroupError("invalid element: non-canonical encoding")
    try:
        return sodium.crypto_scalarmult_ed25519_noclamp(k.to_bytes(SCALAR_BYTES, "little"), element)
    except (sodium_errors.CryptoError, sodium_errors.RuntimeError) as exc:
        raise GroupError("invalid element: not a point of the prime-order group") from exc


def add(a: bytes, b: bytes) -> bytes:
    """``a + b`` (the group law; the identity may come out, and is refused by any later multiplication)."""
    try:
        return sodium.crypto_core_ed25519_add(a, b)
    except (sodium_errors.CryptoError, sodium_errors.RuntimeError, TypeError) as exc:
        raise GroupError("invalid element in a sum") from exc


def sub(a: bytes, b: bytes) -> bytes:
    """``a - b``."""
    try:
        return sodium.crypto_core_ed25519_sub(a, b)
    except (sodium_errors.CryptoError, sodium_errors.RuntimeError, TypeError) as exc:
        raise GroupError("invalid element in a difference") from exc


def generator(label: bytes) -> bytes:
    """An element nobody knows the discrete logarithm of (relative to G or any other): hash-to-group.

    Elligator over SHA-256 of a domain tag and ``label``; Pedersen commitments need
    generators with no known relation, which only hashing gives.
    """
    element = sodium.crypto_core_ed25519_from_uniform(hashlib.sha256(frame(GENERATOR_DOMAIN, label)).digest())
    if element == IDENTITY:  # pragma: no cover - probability ~2^-250
        raise GroupError("the generator label hashes to an unusable element")
    return element


def hash_to_int(*parts: bytes, bits: int = 512) -> int:
    """A challenge from framed ``parts``: SHA-512, reduced mod L (``bits`` < 253 gives a short challenge)."""
    value = int.from_bytes(hashlib.sha512(frame(*parts)).digest(), "little")
    return value % (1 << bits) if bits < 253 else value % L


def int_scalar(data: object) -> int | None:
    """A canonical 32-byte scalar as an integer (``0 <= k < L``), or None."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        return None
    value = int.from_bytes(data, "little")
    return value if value < L else None


def scalar_bytes(k: int) -> bytes:
    """``k mod L`` as 32 little-endian bytes."""
    return (k % L).to_bytes(SCALAR_BYTES, "little")


# -- x-only arithmetic on the Montgomery form, for two-term relations (the lock proof) -------------
# libsodium's edwards25519 multiplication checks that its point lies in the prime-order group (a
# multiplication by L), half of its cost.  X25519 (``crypto_scalarmult``) runs the Montgomery ladder
# on the u-coordinate alone with no such check: about a third of the cost.  It gives a point only up
# to sign, so it serves where a relation has two terms (``A = T + B`` checked as "T is A - B or
# A + B, up to sign"), and only on points already known to be in the prime-order group.

MONTGOMERY_A = 486662
_INV8 = pow(8, -1, L)
_CLAMP_TOP = 1 << 254
_CLAMP_LIMIT = 1 << 251


def montgomery_u(elements: Sequence[bytes]) -> list[int]:
    """The Montgomery u-coordinates ``(1 + y) / (1 - y)`` of valid elements (one inversion for all).

    The elements must already be validated (:func:`is_element`); the identity (``y = 1``) has none.
    """
    ys = []
    for element in elements:
        if not isinstance(element, bytes) or len(element) != ELEMENT_BYTES:
            raise GroupError("invalid element: not 32 bytes")
        y = int.from_bytes(element, "little") & ((1 << 255) - 1)
        if y >= P or y == 1:
            raise GroupError("invalid element: non-canonical or the identity")
        ys.append(y)
    # Montgomery's trick: invert the product of all (1 - y) once.
    prefix, acc = [], 1
    for y in ys:
        prefix.append(acc)
        acc = acc * (1 - y) % P
    inverse = pow(acc, -1, P)
    out = [0] * len(ys)
    for i in range(len(ys) - 1, -1, -1):
        out[i] = (1 + ys[i]) * inverse * prefix[i] % P
        inverse = inverse * (1 - ys[i]) % P
    return out


def x_mul(u: int, k: int) -> int:
    """The u-coordinate of ``k * Q`` for the point ``Q`` of the prime-order group with u-coordinate ``u``.

    X25519 clamps its scalar to ``2**254 + 8*m`` (``m < 2**251``); on the prime-order group that is
    the scalar mod L, so ``m`` is solved for ``k`` or, as ``-k*Q`` has the same u-coordinate, for
    ``-k``: one of the two fits except with probability about 2^-126 (then a :class:`GroupError`).
    """
    k %= L
    if k == 0:
        raise GroupError("a zero scalar gives the identity")
    for candidate in (k, L - k):
        m = (candidate - _CLAMP_TOP) * _INV8 % L
        if m < _CLAMP_LIMIT:
            scalar = (_CLAMP_TOP + 8 * m).to_bytes(SCALAR_BYTES, "little")
            try:
                return int.from_bytes(sodium.crypto_scalarmult(scalar, u.to_bytes(ELEMENT_BYTES, "little")), "little")
            except (sodium_errors.CryptoError, sodium_errors.RuntimeError) as exc:
                raise GroupError("invalid u-coordinate") from exc
    raise GroupError("no clamped scalar for this multiplier")  # pragma: no cover - probability ~2^-126


def x_relation(xa: int, xb: int, xt: int) -> bool:
    """Whether ``xt`` is the u-coordinate of ``A + B`` or ``A - B`` for points with u-coordinates ``xa``, ``xb``.

    The two are the roots of ``(xa - xb)^2 X^2 - 2((xa*xb + 1)(xa + xb) + 2*A*xa*xb) X + (xa*xb - 1)^2``
    (the x-only addition law of the Montgomery curve), so no square root is needed.
    """
    d = (xa - xb) % P
    prod = xa * xb % P
    middle = ((prod + 1) * (xa + xb) + 2 * MONTGOMERY_A * prod) % P
    return (d * d % P * xt % P * xt - 2 * middle * xt + (prod - 1) ** 2) % P == 0


def u_bytes(u: int) -> bytes:
    """A u-coordinate as 32 little-endian bytes."""
    return (u % P).to_bytes(ELEMENT_BYTES, "little")
