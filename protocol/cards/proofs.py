"""Zero-knowledge proofs that make every shuffle and lock pass checkable the moment it arrives.

A shuffle pass claims ``Y[i] = X[pi[i]] * s`` for a secret permutation ``pi`` and one
secret scalar ``s``; a lock pass claims ``W[j] = Z[j] * m[j]`` for secret multipliers it
knows.  Without a proof a first shuffler could write ``Y[j] = Y[i] * t`` (a tagged
duplicate) and a locker could copy one slot into another; both passed every check until
the end of the game.  Each pass now carries a non-interactive proof (Fiat–Shamir, bound by
``context`` to the room, the round, the kind, the pass index and the seat), checked by every
peer on arrival.  ``docs/protocol-cards.md`` gives the construction and its soundness.

**Shuffle: a Terelius–Wikström proof adapted to one common exponent.**  The prover commits
to the permutation matrix column by column with Pedersen commitments
``c[j] = r[j]*G + H[pi^-1(j)]`` (generators ``H`` from hash-to-group: nobody knows a
relation between them or to ``G``) and to its scalar by ``S = s*Q``.  From a hash of all
that come challenges ``e``; ``e'[i] = e[pi[i]]`` are the permuted challenges, committed in
a chain ``h[i] = rh[i]*G + e'[i]*h[i-1]`` (``h[-1] = H0``).  One sigma protocol then shows
knowledge of openings with: (1) ``sum c - sum H`` is a multiple of ``G`` (each row of the
matrix sums to one); (2) ``h[n-1] - (prod e)*H0`` is a multiple of ``G`` (the product of
the committed ``e'`` is the product of ``e``); (3) ``sum e[j]*c[j] = r*G + sum e'[i]*H[i]``
(the committed vector is the matrix applied to ``e``); (4) ``sum e'[i]*Y[i] = s*A`` with
``A = sum e[j]*X[j]`` and (5) ``S = s*Q`` (the same ``s`` for every challenge).  (1)–(3)
make the matrix a permutation (Terelius–Wikström, Theorem 1), and (4)–(5) for random
``e`` make every ``Y[i]`` that permutation's ``X`` times ``s``.  Verifying costs about
``6n`` variable-base multiplications.

**Lock: one Schnorr proof of knowledge per slot**, ``W[j] = m[j]*Z[j]`` with a common
challenge.  A locker that copies slot ``a`` into slot ``b`` (``W[b] = k*Z[a]``) would have
to know ``log_{Z[b]} Z[a]``, a discrete-log relation between two card elements.
Verifying costs ``2n`` multiplications.

Scalars are Python integers mod ``L`` inside; on the wire every point and scalar is 32
bytes.  Nonces are derived from the prover's secrets and the statement (as deterministic
signatures do), so a pass is reproducible from its seat's secrets and never reuses a nonce
for two statements.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from protocol.crypto.framing import frame, int_bytes, text_bytes
from protocol.crypto.group import (
    ELEMENT_BYTES,
    GroupError,
    L,
    add,
    base_mul_int,
    generator,
    hash_to_int,
    int_scalar,
    mul_int,
    scalar_bytes,
    sub,
)

SHUFFLE_DOMAIN = b"sealed-table/shuffle-proof/v1"
LOCK_DOMAIN = b"sealed-table/lock-proof/v1"
NONCE_DOMAIN = b"sealed-table/proof-nonce/v1"
#: Bits of each per-position challenge ``e[j]``: the permutation check fails to catch a bad
#: matrix with probability at most ``n / 2**128``, far below the 2**-40 asked for.
CHALLENGE_BITS = 128
SHUFFLE_FIELDS = frozenset({"c", "chain", "S", "ch", "k", "khat", "kp"})
LOCK_FIELDS = frozenset({"ch", "z"})


def context(room: str, round_index: int, kind: str, index: int, seat: int, size: int) -> bytes:
    """What a proof is bound to: nothing proven for one pass can be presented for another."""
    return frame(
        text_bytes(room), int_bytes(round_index), text_bytes(kind), int_bytes(index), int_bytes(seat), int_bytes(size)
    )


@lru_cache(maxsize=1)
def _chain_base() -> bytes:
    """``H0``, the base of the product chain (independent of G: hash-to-group)."""
    return generator(b"chain")


def _sum(points: Sequence[bytes]) -> bytes:
    total = points[0]
    for point in points[1:]:
        total = add(total, point)
    return total


def _nonces(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        counter += 1
        value = int.from_bytes(hashlib.sha512(seed + counter.to_bytes(4, "big")).digest(), "little") % L
        if value:
            yield value


def nonce_seed(secret_parts: Sequence[bytes], statement: bytes) -> bytes:
    """Deterministic nonces: a hash of the prover's secrets and the whole statement."""
    return hashlib.sha512(frame(NONCE_DOMAIN, *secret_parts, statement)).digest()


def _challenges(digest: bytes, n: int) -> list[int]:
    out = []
    for j in range(n):
        word = hashlib.sha512(digest + j.to_bytes(4, "big")).digest()
        out.append(int.from_bytes(word[:16], "little") + 1)  # 1 .. 2**128: never zero
    return out


def _statement(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes]) -> bytes:
    return hashlib.sha512(frame(ctx, b"".join(inputs), b"".join(outputs))).digest()


# -- shuffle --------------------------------------------------------------------------------------
def prove_shuffle(
    ctx: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    permutation: Sequence[int],
    scalar: bytes,
    secret_parts: Sequence[bytes],
) -> dict[str, Any]:
    """The proof that ``outputs[j] = inputs[permutation[j]] * scalar`` for every ``j``."""
    n = len(inputs)
    h0 = _chain_base()
    s = int.from_bytes(scalar, "little")
    statement = _statement(ctx, inputs, outputs)
    rand = _nonces(nonce_seed([*secret_parts, scalar], statement))
    # c[j] = r[j]*G + X[pi[j]]: a Pedersen commitment, in the basis of the inputs, to the input
    # that goes to position j (column j of the permutation matrix).
    r = [next(rand) for _ in range(n)]
    c = [add(base_mul_int(r[j]), inputs[permutation[j]]) for j in range(n)]
    big_s = base_mul_int(s)
    first = hashlib.sha512(frame(statement, b"".join(c), big_s)).digest()
    e = _challenges(first, n)
    # e'[i] = e[j] for the position j that input i goes to: C = sum e[j]*c[j] = rbar*G + sum e'[i]*X[i].
    ep = [0] * n
    for j, i in enumerate(permutation):
        ep[i] = e[j]
    rh = [next(rand) for _ in range(n)]
    chain, prev, a = [], h0, 0
    for i in range(n):
        prev = add(base_mul_int(rh[i]), mul_int(prev, ep[i]))
        chain.append(prev)
        a = (rh[i] + ep[i] * a) % L
    rsum = sum(r) % L
    rbar = sum(rj * ej for rj, ej in zip(r, e, strict=True)) % L
    c_big = _sum([mul_int(c[j], e[j]) for j in range(n)])
    w1, w2, w3, w4 = next(rand), next(rand), next(rand), next(rand)
    wh = [next(rand) for _ in range(n)]
    wp = [next(rand) for _ in range(n)]
    t1, t2 = base_mul_int(w1), base_mul_int(w2)
    t3 = add(base_mul_int(w3), _sum([mul_int(inputs[i], wp[i]) for i in range(n)]))
    t4 = sub(mul_int(c_big, w4), mul_int(big_s, w3))
    t5 = base_mul_int(w4)
    th = [add(base_mul_int(wh[i]), mul_int(chain[i - 1] if i else h0, wp[i])) for i in range(n)]
    ch = hash_to_int(first, b"".join(chain), t1, t2, t3, t4, t5, b"".join(th))
    k = [w1 + ch * rsum, w2 + ch * a, w3 + ch * rbar, w4 + ch * s]
    return {
        "c": c,
        "chain": chain,
        "S": big_s,
        "ch": scalar_bytes(ch),
        "k": [scalar_bytes(x) for x in k],
        "khat": [scalar_bytes(wh[i] + ch * rh[i]) for i in range(n)],
        "kp": [scalar_bytes(wp[i] + ch * ep[i]) for i in range(n)],
    }


def verify_shuffle(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    """Whether ``proof`` shows ``outputs`` to be ``inputs`` permuted and multiplied by one secret scalar.

    Every output is multiplied once on the way, so an invalid point is refused here too.
    Never raises on malformed input: any defect is ``False``.
    """
    n = len(inputs)
    parsed = _parse_shuffle(proof, n)
    if parsed is None or len(outputs) != n:
        return False
    c, chain, big_s, ch, (k1, k2, k3, k4), khat, kp = parsed
    h0 = _chain_base()
    try:
        statement = _statement(ctx, inputs, outputs)
        first = hashlib.sha512(frame(statement, b"".join(c), big_s)).digest()
        e = _challenges(first, n)
        prod = 1
        for ej in e:
            prod = prod * ej % L
        c_big = _sum([mul_int(c[j], e[j]) for j in range(n)])
        d_big = _sum([mul_int(outputs[j], e[j]) for j in range(n)])
        c_bar = sub(_sum(c), _sum(inputs))
        h_bar = sub(chain[-1], mul_int(h0, prod))
        t1 = sub(base_mul_int(k1), mul_int(c_bar, ch))
        t2 = sub(base_mul_int(k2), mul_int(h_bar, ch))
        t3 = sub(add(base_mul_int(k3), _sum([mul_int(inputs[i], kp[i]) for i in range(n)])), mul_int(c_big, ch))
        t4 = sub(sub(mul_int(c_big, k4), mul_int(big_s, k3)), mul_int(d_big, ch))
        t5 = sub(base_mul_int(k4), mul_int(big_s, ch))
        th = [
            sub(add(base_mul_int(khat[i]), mul_int(chain[i - 1] if i else h0, kp[i])), mul_int(chain[i], ch))
            for i in range(n)
        ]
    except GroupError:
        return False
    return hash_to_int(first, b"".join(chain), t1, t2, t3, t4, t5, b"".join(th)) == ch


def _parse_shuffle(proof: object, n: int) -> tuple | None:
    if not isinstance(proof, Mapping) or set(proof.keys()) != SHUFFLE_FIELDS or n < 1:
        return None
    c, chain, big_s = proof["c"], proof["chain"], proof["S"]
    if not (_points(c, n) and _points(chain, n) and _points([big_s], 1)):
        return None
    ch = int_scalar(proof["ch"])
    k = _scalars(proof["k"], 4)
    khat, kp = _scalars(proof["khat"], n), _scalars(proof["kp"], n)
    if ch is None or k is None or khat is None or kp is None:
        return None
    return list(c), list(chain), big_s, ch, k, khat, kp


def _points(items: object, n: int) -> bool:
    return (
        isinstance(items, (list, tuple))
        and len(items) == n
        and all(isinstance(p, bytes) and len(p) == ELEMENT_BYTES for p in items)
    )


def _scalars(items: object, n: int) -> list[int] | None:
    if not isinstance(items, (list, tuple)) or len(items) != n:
        return None
    out = [int_scalar(k) for k in items]
    return None if any(k is None for k in out) else out  # type: ignore[return-value]


# -- lock -----------------------------------------------------------------------------------------
def prove_lock(
    ctx: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    multipliers: Sequence[int],
    secret_parts: Sequence[bytes],
) -> dict[str, Any]:
    """The proof that the prover knows ``m[j]`` with ``outputs[j] = inputs[j] * m[j]`` for every ``j``."""
    statement = _statement(ctx, inputs, outputs)
    rand = _nonces(nonce_seed(secret_parts, statement))
    w = [next(rand) for _ in inputs]
    commitments = [mul_int(z, wj) for z, wj in zip(inputs, w, strict=True)]
    ch = hash_to_int(statement, b"".join(commitments))
    return {"ch": scalar_bytes(ch), "z": [scalar_bytes(wj + ch * m) for wj, m in zip(w, multipliers, strict=True)]}


def verify_lock(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    """Whether ``proof`` shows that each output is its own input times a multiplier the prover knows."""
    n = len(inputs)
    if not isinstance(proof, Mapping) or set(proof.keys()) != LOCK_FIELDS or len(outputs) != n:
        return False
    ch, z = int_scalar(proof["ch"]), _scalars(proof["z"], n)
    if ch is None or z is None:
        return False
    try:
        statement = _statement(ctx, inputs, outputs)
        commitments = [sub(mul_int(inputs[j], z[j]), mul_int(outputs[j], ch)) for j in range(n)]
    except GroupError:
        return False
    return hash_to_int(statement, b"".join(commitments)) == ch


ProofCheck = Callable[[bytes, Sequence[bytes], Sequence[bytes], object], bool]
