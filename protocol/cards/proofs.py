"""Zero-knowledge proofs that make every shuffle and lock pass checkable the moment it arrives.

A shuffle pass claims ``Y[i] = X[pi[i]] * s`` for a secret permutation ``pi`` and one
secret scalar ``s``; a lock pass claims ``W[j] = Z[j] * m[j]`` for secret multipliers it
knows.  Without a proof a first shuffler could write ``Y[j] = Y[i] * t`` (a tagged
duplicate) and a locker could copy one slot into another; both passed every check until
the end of the game.  Each pass now carries a non-interactive proof (Fiat–Shamir, bound by
``context`` to the room, the round, the kind, the pass index and the seat), checked by every
peer on arrival.  ``docs/protocol-cards.md`` gives the construction and its soundness.

**Shuffle: a Terelius–Wikström proof adapted to one common exponent.**  The prover commits
to the permutation matrix column by column, in the basis of the pass's own inputs:
``c[j] = r[j]*G + X[pi[j]]`` (Pedersen commitments, binding because nobody knows a relation
between G and the inputs, hiding because ``r`` is uniform), and to its scalar by ``S = s*G``.
From a hash of all that come challenges ``e[j]`` (128 bits) and ``gamma``; ``e*[j] = e[j] +
gamma`` and ``e'[i] = e[j]`` for the position ``j`` input ``i`` goes to.  ``C = sum e*[j]*c[j]``
and ``D = sum e*[j]*Y[j]``.  The committed ``e'`` is chained, ``h[i] = rh[i]*G + e'[i]*h[i-1]``
(``h[-1] = H0``, a hash-to-group generator).  One sigma protocol shows knowledge of: (a)
``rho, f`` with ``C = rho*G + sum f[i]*X[i]``; (b) ``h[n-1] - (prod e)*H0`` a multiple of G,
the chain run with ``f[i] - gamma`` (so ``prod (f - gamma) = prod e``); (c) ``D = s*C - rho*S``
with (d) ``S = s*G``.  (a)+(b) for random ``e, gamma`` make the matrix a permutation (each row
sums to one and ``prod (B e) = prod e``: Terelius–Wikström, Theorem 1); (c)+(d) then give
``sum e*[j]*(Y[j] - s*X[pi[j]]) = 0`` for random ``e*``, so every ``Y[j] = s*X[pi[j]]``.
Verifying costs about ``5n`` variable-base multiplications.

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

from engines.core import canonical_encode
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
#: Verdicts kept per process, keyed by a digest of the whole statement and proof: a verification is
#: a pure function of them, so a process that runs several replicas (the simulator, the tests)
#: checks each proof once.  The benchmark turns it off to measure what one peer does.
VERDICT_MEMO = 1024
_verdicts: dict[bytes, bool] = {}
_memo_on = [True]


def remember_verdicts(on: bool) -> None:
    """Keep (``True``, the default) or forget and stop keeping proof verdicts in this process."""
    _memo_on[0] = on
    _verdicts.clear()


def _memoised(
    kind: bytes, ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object, check: Callable[[], bool]
) -> bool:
    if not _memo_on[0]:
        return check()
    try:
        key = hashlib.sha256(kind + _statement(ctx, inputs, outputs) + canonical_encode(proof)).digest()
    except Exception:  # an unencodable proof: no memo, the check refuses it
        return check()
    verdict = _verdicts.get(key)
    if verdict is None:
        verdict = check()
        if len(_verdicts) >= VERDICT_MEMO:
            _verdicts.clear()
        _verdicts[key] = verdict
    return verdict


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
    e, gamma = _challenges(first, n), hash_to_int(first, b"gamma")
    # e'[i] = e[j] for the position j that input i goes to.  With e* = e + gamma:
    # C = sum e*[j]*c[j] = rho*G + sum f[i]*X[i], f = e' + gamma (rows summing to one, and B*e).
    ep = [0] * n
    for j, i in enumerate(permutation):
        ep[i] = e[j]
    rh = [next(rand) for _ in range(n)]
    chain, prev, a = [], h0, 0
    for i in range(n):
        prev = add(base_mul_int(rh[i]), mul_int(prev, ep[i]))
        chain.append(prev)
        a = (rh[i] + ep[i] * a) % L
    estar = [(ej + gamma) % L for ej in e]
    rho = sum(rj * ej for rj, ej in zip(r, estar, strict=True)) % L
    c_big = _sum([mul_int(c[j], estar[j]) for j in range(n)])
    w2, w3, w4 = next(rand), next(rand), next(rand)
    wh = [next(rand) for _ in range(n)]
    wp = [next(rand) for _ in range(n)]
    t2 = base_mul_int(w2)
    t3 = add(base_mul_int(w3), _sum([mul_int(inputs[i], wp[i]) for i in range(n)]))
    t4 = sub(mul_int(c_big, w4), mul_int(big_s, w3))
    t5 = base_mul_int(w4)
    th = [add(base_mul_int(wh[i]), mul_int(chain[i - 1] if i else h0, wp[i])) for i in range(n)]
    ch = hash_to_int(first, b"".join(chain), t2, t3, t4, t5, b"".join(th))
    k = [w2 + ch * a, w3 + ch * rho, w4 + ch * s]
    return {
        "c": c,
        "chain": chain,
        "S": big_s,
        "ch": scalar_bytes(ch),
        "k": [scalar_bytes(x) for x in k],
        "khat": [scalar_bytes(wh[i] + ch * rh[i]) for i in range(n)],
        "kp": [scalar_bytes(wp[i] + ch * (ep[i] + gamma)) for i in range(n)],
    }


def verify_shuffle(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    """Whether ``proof`` shows ``outputs`` to be ``inputs`` permuted and multiplied by one secret scalar.

    Every output is multiplied once on the way, so an invalid point is refused here too.
    Never raises on malformed input: any defect is ``False``.
    """
    return _memoised(b"S", ctx, inputs, outputs, proof, lambda: _verify_shuffle(ctx, inputs, outputs, proof))


def _verify_shuffle(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    n = len(inputs)
    parsed = _parse_shuffle(proof, n)
    if parsed is None or len(outputs) != n:
        return False
    c, chain, big_s, ch, (k2, k3, k4), khat, kp = parsed
    h0 = _chain_base()
    try:
        statement = _statement(ctx, inputs, outputs)
        first = hashlib.sha512(frame(statement, b"".join(c), big_s)).digest()
        e, gamma = _challenges(first, n), hash_to_int(first, b"gamma")
        prod = 1
        for ej in e:
            prod = prod * ej % L
        estar = [(ej + gamma) % L for ej in e]
        c_big = _sum([mul_int(c[j], estar[j]) for j in range(n)])
        d_big = _sum([mul_int(outputs[j], estar[j]) for j in range(n)])
        h_bar = sub(chain[-1], mul_int(h0, prod))
        t2 = sub(base_mul_int(k2), mul_int(h_bar, ch))
        t3 = sub(add(base_mul_int(k3), _sum([mul_int(inputs[i], kp[i]) for i in range(n)])), mul_int(c_big, ch))
        t4 = sub(sub(mul_int(c_big, k4), mul_int(big_s, k3)), mul_int(d_big, ch))
        t5 = sub(base_mul_int(k4), mul_int(big_s, ch))
        shift = ch * gamma
        th = [
            sub(add(base_mul_int(khat[i]), mul_int(chain[i - 1] if i else h0, kp[i] - shift)), mul_int(chain[i], ch))
            for i in range(n)
        ]
    except GroupError:
        return False
    return hash_to_int(first, b"".join(chain), t2, t3, t4, t5, b"".join(th)) == ch


#: A shuffle proof's fields once checked for shape: c, chain, S, ch, (k2, k3, k4), khat, kp.
_ParsedShuffle = tuple[list[bytes], list[bytes], bytes, int, list[int], list[int], list[int]]


def _parse_shuffle(proof: object, n: int) -> _ParsedShuffle | None:
    if not isinstance(proof, Mapping) or set(proof.keys()) != SHUFFLE_FIELDS or n < 1:
        return None
    c, chain, big_s = proof["c"], proof["chain"], proof["S"]
    if not (_points(c, n) and _points(chain, n) and _points([big_s], 1)):
        return None
    ch = int_scalar(proof["ch"])
    k = _scalars(proof["k"], 3)
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
    return None if any(k is None for k in out) else out  # type: ignore[return-value]  # no None left: checked on this line


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
    return _memoised(b"L", ctx, inputs, outputs, proof, lambda: _verify_lock(ctx, inputs, outputs, proof))


def _verify_lock(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
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
