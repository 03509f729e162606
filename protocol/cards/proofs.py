"""Zero-knowledge proofs that make every shuffle and lock pass checkable the moment it arrives.

A shuffle pass claims ``Y[i] = X[pi[i]] * s`` for a secret permutation ``pi`` and one
secret scalar ``s``; a lock pass claims ``W[j] = Z[j] * m[j]`` for secret multipliers it
knows.  Without a proof a first shuffler could write ``Y[j] = Y[i] * t`` (a tagged
duplicate) and a locker could copy one slot into another; nothing else sees either before
the end of the game.  Each pass carries a non-interactive proof (Fiat–Shamir, bound by
``context`` to the room, the round, the kind, the pass index and the seat), checked by every
peer on arrival.  ``docs/protocol-cards.md`` gives the construction and its soundness.

**Shuffle: a Terelius–Wikström permutation argument on the outputs themselves.**  For one
common exponent the outputs already commit to the permutation matrix ``B`` in the basis of the
inputs (``Y[j] = s * sum_i B[i][j]*X[i]``, binding because nobody knows a relation between the
inputs), so no separate commitment is made.  ``S = s*G`` fixes the scalar; from a hash of the
statement and ``S`` come ``e[j]`` (128 bits) and ``gamma``, ``e* = e + gamma``, ``f = B e*``,
so that ``D = sum e*[j]*Y[j] = s * sum f[i]*X[i]``.  ``F = rho*G + sum f[i]*X[i]`` commits to
``f``; the chain ``B[i] = beta[i]*G + b[i]*H0`` (``H0`` a hash-to-group generator) to the
partial products ``b[i] = prod_{k<=i} (f[k] - gamma)``.  Weights ``w`` from a hash of all that
fold the ``n`` links ``B[i] - (f[i]-gamma)*B[i-1]`` and the end ``B[n-1] - (prod e)*H0`` (each a
multiple of G) into one relation.  One sigma protocol shows knowledge of: (a) ``rho, f``
opening ``F``; (c) ``D = s*F - rho*S``; (d) ``S = s*G``; (p) the folded chain relation, with the
same ``f``.  (c)+(d) make every ``Y[j] = s * sum_i B[i][j]*X[i]`` with ``f = B e*``; (p) gives
``prod (f - gamma) = prod e`` for random ``e, gamma``, which makes ``B`` a permutation matrix
(Terelius–Wikström, Theorem 1).  Verifying costs about ``3n`` variable-base multiplications
(``D``, the opening of ``F``, one per chain point) and ``3n`` additions.

**Lock: one Schnorr proof of knowledge per slot**, ``W[j] = m[j]*Z[j]`` with a common
challenge.  A locker that copies slot ``a`` into slot ``b`` (``W[b] = k*Z[a]``) would have
to know ``log_{Z[b]} Z[a]``, a discrete-log relation between two card elements.
Each slot's check has two terms, so it runs on X25519's x-only ladder (no subgroup check, about
a third of an edwards25519 multiplication; "up to sign" only admits the challenge ``-ch`` too):
verifying costs ``2n`` X25519 multiplications and one validation per output.

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
    P,
    add,
    base_mul_int,
    generator,
    hash_to_int,
    int_scalar,
    is_element,
    montgomery_u,
    mul_int,
    scalar_bytes,
    sub,
    u_bytes,
    x_mul,
    x_relation,
)

SHUFFLE_DOMAIN = b"sealed-table/shuffle-proof/v2"
LOCK_DOMAIN = b"sealed-table/lock-proof/v2"
NONCE_DOMAIN = b"sealed-table/proof-nonce/v1"
#: Bits of each per-position challenge ``e[j]``: the permutation check fails to catch a bad
#: matrix with probability at most ``n / 2**128``, far below the 2**-40 asked for.
CHALLENGE_BITS = 128
SHUFFLE_FIELDS = frozenset({"S", "F", "chain", "ch", "k", "kp"})
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


LOCK_FIELDS = frozenset({"t", "z"})


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
def _first(statement: bytes, big_s: bytes, n: int) -> tuple[bytes, list[int], int]:
    """The permutation challenges: ``e`` (128 bits each) and ``gamma``, after the statement and ``S``."""
    first = hashlib.sha512(frame(SHUFFLE_DOMAIN, statement, big_s)).digest()
    return first, _challenges(first, n), hash_to_int(first, b"gamma")


def _second(first: bytes, big_f: bytes, chain: Sequence[bytes]) -> tuple[bytes, list[int]]:
    """The weights that fold the ``n`` links of the product chain into one equation, after ``F`` and the chain."""
    second = hashlib.sha512(frame(first, big_f, b"".join(chain))).digest()
    return second, _challenges(second, len(chain))


def prove_shuffle(
    ctx: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    permutation: Sequence[int],
    scalar: bytes,
    secret_parts: Sequence[bytes],
) -> dict[str, Any]:
    """The proof that ``outputs[j] = inputs[permutation[j]] * scalar`` for every ``j``."""

    def opening(estar: Sequence[int]) -> list[int]:
        # f = B e*: f[i] = e*[j] for the position j that input i goes to.
        f = [0] * len(estar)
        for j, i in enumerate(permutation):
            f[i] = estar[j]
        return f

    return _prove_shuffle(ctx, inputs, outputs, scalar, [*secret_parts, scalar], opening)


def _prefix_products(shifted: Sequence[int], e: Sequence[int]) -> list[int]:
    """``b[i] = prod_{k<=i} shifted[k]``: the values the product chain commits to."""
    out, acc = [], 1
    for value in shifted:
        acc = acc * value % L
        out.append(acc)
    return out


def _prove_shuffle(
    ctx: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    scalar: bytes,
    secret_parts: Sequence[bytes],
    opening: Callable[[Sequence[int]], list[int]],
    products: Callable[[Sequence[int], Sequence[int]], list[int]] = _prefix_products,
) -> dict[str, Any]:
    """The prover, for outputs claimed to be ``scalar * B`` of the inputs, ``opening(e*)`` being ``B e*``.

    The honest prover is :func:`prove_shuffle` (``B`` its permutation matrix).  The tests pass
    other openings and chains to stage a prover with a matrix that is not a permutation.
    """
    n = len(inputs)
    h0 = _chain_base()
    s = int.from_bytes(scalar, "little")
    statement = _statement(ctx, inputs, outputs)
    rand = _nonces(nonce_seed(secret_parts, statement))
    big_s = base_mul_int(s)
    first, e, gamma = _first(statement, big_s, n)
    # F commits to f = B e* in the basis of the inputs: D = sum e*[j]*Y[j] = s * sum f[i]*X[i].
    f = [x % L for x in opening([(ej + gamma) % L for ej in e])]
    rho = next(rand)
    big_f = add(base_mul_int(rho), _sum([mul_int(inputs[i], f[i]) for i in range(n)]))
    # The product chain B[i] = beta[i]*G + b[i]*H0, b[i] = prod_{k<=i} (f[k] - gamma).
    shifted = [(fi - gamma) % L for fi in f]
    b = products(shifted, e)
    beta = [next(rand) for _ in range(n)]
    chain = [add(base_mul_int(beta[i]), mul_int(h0, b[i])) for i in range(n)]
    second, w = _second(first, big_f, chain)
    # B[i-1] = beta_prev[i]*G + b_prev[i]*H0 (B[-1] = H0): the prover forms its chain commitment with two mults.
    beta_prev, b_prev = [0, *beta[:-1]], [1, *b[:-1]]
    a = (beta[-1] + sum(w[i] * (beta[i] - shifted[i] * beta_prev[i]) for i in range(n))) % L
    w3, w4, wa = next(rand), next(rand), next(rand)
    wp = [next(rand) for _ in range(n)]
    t3 = add(base_mul_int(w3), _sum([mul_int(inputs[i], wp[i]) for i in range(n)]))
    t4 = sub(mul_int(big_f, w4), mul_int(big_s, w3))
    t5 = base_mul_int(w4)
    tp = add(
        base_mul_int(wa + sum(w[i] * wp[i] * beta_prev[i] for i in range(n))),
        mul_int(h0, sum(w[i] * wp[i] * b_prev[i] for i in range(n))),
    )
    ch = hash_to_int(second, t3, t4, t5, tp)
    return {
        "S": big_s,
        "F": big_f,
        "chain": chain,
        "ch": scalar_bytes(ch),
        "k": [scalar_bytes(w3 + ch * rho), scalar_bytes(w4 + ch * s), scalar_bytes(wa + ch * a)],
        "kp": [scalar_bytes(wp[i] + ch * f[i]) for i in range(n)],
    }


def verify_shuffle(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    """Whether ``proof`` shows ``outputs`` to be ``inputs`` permuted and multiplied by one secret scalar.

    Every input, output and proof point is multiplied once on the way, so an invalid point
    is refused here too.  Never raises on malformed input: any defect is ``False``.
    """
    return _memoised(b"S", ctx, inputs, outputs, proof, lambda: _verify_shuffle(ctx, inputs, outputs, proof))


def _verify_shuffle(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    n = len(inputs)
    parsed = _parse_shuffle(proof, n)
    if parsed is None or len(outputs) != n:
        return False
    big_s, big_f, chain, ch, (k3, k4, ka), kp = parsed
    h0 = _chain_base()
    try:
        statement = _statement(ctx, inputs, outputs)
        first, e, gamma = _first(statement, big_s, n)
        second, w = _second(first, big_f, chain)
        prod = 1
        for ej in e:
            prod = prod * ej % L
        d_big = _sum([mul_int(outputs[j], e[j] + gamma) for j in range(n)])
        t3 = sub(add(base_mul_int(k3), _sum([mul_int(inputs[i], kp[i]) for i in range(n)])), mul_int(big_f, ch))
        t4 = sub(sub(mul_int(big_f, k4), mul_int(big_s, k3)), mul_int(d_big, ch))
        t5 = sub(base_mul_int(k4), mul_int(big_s, ch))
        # The n links B[i] - (f[i]-gamma)*B[i-1] in <G> and the end B[n-1] - (prod e)*H0 in <G>, folded
        # with the weights w (and 1): each chain point is multiplied once, by its collected coefficient.
        shifted = [k - ch * gamma for k in kp]
        terms = [mul_int(h0, w[0] * shifted[0] + ch * prod)]
        terms += [mul_int(chain[i], w[i + 1] * shifted[i + 1] - ch * w[i]) for i in range(n - 1)]
        terms.append(mul_int(chain[-1], -ch * (w[-1] + 1)))
        tp = add(base_mul_int(ka), _sum(terms))
    except GroupError:
        return False
    return hash_to_int(second, t3, t4, t5, tp) == ch


#: A shuffle proof's fields once checked for shape: S, F, chain, ch, (k3, k4, ka), kp.
_ParsedShuffle = tuple[bytes, bytes, list[bytes], int, list[int], list[int]]


def _parse_shuffle(proof: object, n: int) -> _ParsedShuffle | None:
    if not isinstance(proof, Mapping) or set(proof.keys()) != SHUFFLE_FIELDS or n < 1:
        return None
    big_s, big_f, chain = proof["S"], proof["F"], proof["chain"]
    if not (_points(chain, n) and _points([big_s, big_f], 2)):
        return None
    ch = int_scalar(proof["ch"])
    k = _scalars(proof["k"], 3)
    kp = _scalars(proof["kp"], n)
    if ch is None or k is None or kp is None:
        return None
    return big_s, big_f, list(chain), ch, k, kp


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
# One Schnorr proof of knowledge per slot, ``W[j] = m[j]*Z[j]``, with one challenge and the commitments
# sent (as u-coordinates): each slot's check ``z[j]*Z[j] = T[j] + ch*W[j]`` has two terms, so it runs
# on X25519's x-only ladder (see protocol/crypto/group.py), and every output is validated once.
def _lock_challenge(statement: bytes, commitments: Sequence[bytes]) -> int:
    return hash_to_int(LOCK_DOMAIN, statement, b"".join(commitments))


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
    commitments = [u_bytes(x_mul(u, wj)) for u, wj in zip(montgomery_u(inputs), w, strict=True)]
    ch = _lock_challenge(statement, commitments)
    return {"t": commitments, "z": [scalar_bytes(wj + ch * m) for wj, m in zip(w, multipliers, strict=True)]}


def verify_lock(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    """Whether ``proof`` shows that each output is its own input times a multiplier the prover knows.

    The inputs must be elements already validated (the previous pass's outputs, as the deck keeps
    them); every output is validated here.  Never raises on malformed input: any defect is ``False``.
    """
    return _memoised(b"L", ctx, inputs, outputs, proof, lambda: _verify_lock(ctx, inputs, outputs, proof))


def _verify_lock(ctx: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: object) -> bool:
    n = len(inputs)
    if not isinstance(proof, Mapping) or set(proof.keys()) != LOCK_FIELDS or len(outputs) != n:
        return False
    commitments, z = proof["t"], _scalars(proof["z"], n)
    if z is None or not _points(commitments, n) or not all(is_element(w) for w in outputs):
        return False
    ts = [int.from_bytes(t, "little") for t in commitments]
    if any(t >= P for t in ts):
        return False
    try:
        ch = _lock_challenge(_statement(ctx, inputs, outputs), commitments)
        uz, uw = montgomery_u(inputs), montgomery_u(outputs)
        return all(x_relation(x_mul(uz[j], z[j]), x_mul(uw[j], ch), ts[j]) for j in range(n))
    except GroupError:
        return False


ProofCheck = Callable[[bytes, Sequence[bytes], Sequence[bytes], object], bool]
