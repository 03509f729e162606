"""The shuffle and lock proofs: complete for honest passes, refusing every altered statement or proof."""

from __future__ import annotations

import pytest

from engines.core import SeededStream
from protocol.cards.proofs import (
    _first,
    _prefix_products,
    _prove_shuffle,
    _statement,
    context,
    prove_lock,
    prove_shuffle,
    verify_lock,
    verify_shuffle,
)
from protocol.crypto.group import L, add, base_mul_int, card_element, mul, mul_int, scalar_from

N = 6
STREAM = SeededStream(b"proof-tests")
X = [card_element("room", c) for c in range(N)]
S = scalar_from(STREAM.token(64))
PERM = [3, 0, 5, 1, 4, 2]
Y = [mul(X[PERM[j]], S) for j in range(N)]
CTX = context("room", 0, "shuffle", 0, 1, N)
PROOF = prove_shuffle(CTX, X, Y, PERM, S, [b"secret"])
M = [int.from_bytes(scalar_from(STREAM.token(64)), "little") for _ in range(N)]
W = [mul_int(Y[j], M[j]) for j in range(N)]
LCTX = context("room", 0, "lock", 0, 1, N)
LOCK = prove_lock(LCTX, Y, W, M, [b"secret"])


def test_honest_passes_verify():
    assert verify_shuffle(CTX, X, Y, PROOF)
    assert verify_lock(LCTX, Y, W, LOCK)


def test_a_tagged_substituted_or_reordered_output_is_refused():
    tagged = [Y[0], mul(Y[0], scalar_from(STREAM.token(64))), *Y[2:]]
    stranger = [mul(card_element("room", 99), S), *Y[1:]]
    other_scalar = [mul(X[PERM[j]], scalar_from(STREAM.token(64))) if j == 0 else Y[j] for j in range(N)]
    for outputs in (tagged, stranger, other_scalar, [Y[1], Y[0], *Y[2:]]):
        assert not verify_shuffle(CTX, X, outputs, PROOF)


def test_a_proof_is_bound_to_its_room_round_pass_and_seat():
    for ctx in (
        context("other", 0, "shuffle", 0, 1, N),
        context("room", 1, "shuffle", 0, 1, N),
        context("room", 0, "shuffle", 1, 1, N),
        context("room", 0, "shuffle", 0, 2, N),
    ):
        assert not verify_shuffle(ctx, X, Y, PROOF)
    assert not verify_lock(context("room", 0, "lock", 1, 1, N), Y, W, LOCK)


def test_even_a_valid_shuffle_cannot_be_proven_with_a_false_witness():
    wrong = prove_shuffle(CTX, X, Y, [0, 3, 5, 1, 4, 2], S, [b"secret"])  # not the permutation used
    assert not verify_shuffle(CTX, X, Y, wrong)


def _matrix_pass(matrix: list[list[int]]) -> tuple[list[bytes], object]:
    """Outputs ``Y[j] = s * sum_i matrix[i][j] * X[i]`` and the proof a prover that knows ``matrix`` can make."""
    s = int.from_bytes(S, "little")
    outputs = []
    for j in range(N):
        terms = [mul_int(X[i], matrix[i][j] * s) for i in range(N) if matrix[i][j] % L]
        total = terms[0]
        for term in terms[1:]:
            total = add(total, term)
        outputs.append(total)

    def opening(estar):
        return [sum(matrix[i][j] * estar[j] for j in range(N)) for i in range(N)]

    return outputs, opening


def _permutation_matrix(perm: list[int]) -> list[list[int]]:
    return [[1 if perm[j] == i else 0 for j in range(N)] for i in range(N)]


def test_the_general_prover_with_a_permutation_matrix_is_the_honest_prover():
    outputs, opening = _matrix_pass(_permutation_matrix(PERM))
    assert outputs == Y
    assert verify_shuffle(CTX, X, Y, _prove_shuffle(CTX, X, Y, S, [b"secret", S], opening))


def test_a_matrix_that_is_not_a_permutation_fails_the_product_check_however_the_chain_is_made():
    # Rows sum to one, every relation but the product holds: Y[0] = s*(2*X[0] - X[1]), Y[1] = s*(2*X[1] - X[0]).
    matrix = _permutation_matrix(list(range(N)))
    matrix[0][0], matrix[1][0], matrix[1][1], matrix[0][1] = 2, -1, 2, -1
    outputs, opening = _matrix_pass(matrix)
    assert len(set(outputs)) == N  # distinct elements: the duplicate check alone would let it through
    honest_chain = _prove_shuffle(CTX, X, outputs, S, [b"secret"], opening)
    assert not verify_shuffle(CTX, X, outputs, honest_chain)  # the chain ends at the wrong product

    def forged(shifted, e):
        # The last link and the end equation off by opposite amounts: their plain sum holds, so only
        # weights drawn after the chain catch it.
        out = _prefix_products(shifted, e)
        product = 1
        for value in e:
            product = product * value % L
        return [*out[:-1], (shifted[-1] * out[-2] + product) * pow(2, -1, L) % L]

    forged_chain = _prove_shuffle(CTX, X, outputs, S, [b"secret"], opening, forged)
    assert not verify_shuffle(CTX, X, outputs, forged_chain)


def test_a_copied_or_altered_lock_is_refused():
    copied = [W[0], mul_int(Y[0], M[1]), *W[2:]]
    assert not verify_lock(LCTX, Y, copied, LOCK)
    assert not verify_lock(LCTX, Y, copied, prove_lock(LCTX, Y, copied, M, [b"secret"]))


@pytest.mark.parametrize("field", ["S", "F", "chain", "ch", "k", "kp"])
def test_malformed_shuffle_proofs_are_refused_without_raising(field):
    value = PROOF[field]
    for bad in (None, b"x", [b"x"] * N, bytes(32), (1).to_bytes(32, "little"), [bytes(32)] * len(value or [])):
        assert not verify_shuffle(CTX, X, Y, {**PROOF, field: bad})
    assert not verify_shuffle(CTX, X, Y, {k: v for k, v in PROOF.items() if k != field})
    if isinstance(value, list):
        changed = list(value)
        changed[0] = value[1]
        assert not verify_shuffle(CTX, X, Y, {**PROOF, field: changed})


def test_malformed_lock_proofs_are_refused_without_raising():
    flipped = [bytes([LOCK["t"][0][0] ^ 1]) + LOCK["t"][0][1:], *LOCK["t"][1:]]
    for bad in (
        None,
        {},
        {"t": LOCK["t"]},
        {**LOCK, "z": LOCK["z"][:-1]},
        {**LOCK, "t": LOCK["t"][:-1]},
        {**LOCK, "t": [b"\xff" * 32] * N},
        {**LOCK, "t": flipped},
        {**LOCK, "z": [LOCK["z"][1], LOCK["z"][0], *LOCK["z"][2:]]},
        {**LOCK, "ch": LOCK["z"][0]},
    ):
        assert not verify_lock(LCTX, Y, W, bad)


def _off_subgroup(point: bytes) -> bytes:
    """``point`` plus the point of order 2: on the curve, canonical, but outside the prime-order group."""
    from nacl.bindings import crypto_core_ed25519_add

    return crypto_core_ed25519_add(point, (2**255 - 20).to_bytes(32, "little"))


def test_a_point_outside_the_prime_order_group_is_refused_wherever_it_stands():
    for field in ("S", "F"):
        assert not verify_shuffle(CTX, X, Y, {**PROOF, field: _off_subgroup(PROOF[field])})
    for index in (0, N - 1):
        chain = list(PROOF["chain"])
        chain[index] = _off_subgroup(chain[index])
        assert not verify_shuffle(CTX, X, Y, {**PROOF, "chain": chain})
        outputs, inputs, locked = list(Y), list(X), list(W)
        outputs[index], inputs[index], locked[index] = (_off_subgroup(p[index]) for p in (Y, X, W))
        assert not verify_shuffle(CTX, X, outputs, PROOF)
        assert not verify_shuffle(CTX, inputs, Y, PROOF)
        assert not verify_lock(LCTX, Y, locked, LOCK)
        assert not verify_lock(LCTX, outputs, W, LOCK)


def _even_weight_on_first_output(ctx: bytes, outputs: list[bytes], big_s: bytes) -> bool:
    _, e, gamma = _first(_statement(ctx, X, outputs), big_s, N)
    return (e[0] + gamma) % L % 2 == 0


def test_an_output_tagged_with_a_point_of_order_two_is_refused_even_where_the_equations_would_hold():
    # Y[0] + T (T of order 2) with a proof made for exactly those outputs: D picks up e*[0]*T, which
    # vanishes when e*[0] is even, so there only the validation of every output refuses it.
    tagged = [_off_subgroup(Y[0]), *Y[1:]]
    big_s = base_mul_int(int.from_bytes(S, "little"))
    contexts = (context("room", r, "shuffle", 0, 1, N) for r in range(64))
    ctx = next(c for c in contexts if _even_weight_on_first_output(c, tagged, big_s))
    _, opening = _matrix_pass(_permutation_matrix(PERM))
    proof = _prove_shuffle(ctx, X, tagged, S, [b"secret"], opening)
    assert not verify_shuffle(ctx, X, tagged, proof)


def test_the_x_only_ladder_agrees_with_the_edwards_multiplication_and_addition():
    from protocol.crypto.group import montgomery_u, sub, x_mul, x_relation

    us = montgomery_u(X)
    for i, k in enumerate((3, L - 5, 2**200 + 7, int.from_bytes(S, "little"), L // 2, L // 2 + 1)):
        assert x_mul(us[i], k) == montgomery_u([mul_int(X[i], k)])[0]  # every scalar mod L, either clamp case
    a, b = mul_int(X[0], 2**180 + 11), mul_int(X[1], 2**100 + 3)
    ua, ub = montgomery_u([a, b])
    assert x_relation(ua, ub, montgomery_u([sub(a, b)])[0]) and x_relation(ua, ub, montgomery_u([add(a, b)])[0])
    assert not x_relation(ua, ub, montgomery_u([add(a, X[2])])[0])
    assert x_relation(ua, ua, montgomery_u([add(a, a)])[0])  # equal u-coordinates: the doubling
