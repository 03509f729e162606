"""A leaver's escrow (protocol/escrow.py): every share opens it, no fewer, and a false share is seen."""

from __future__ import annotations

import pytest

from protocol.escrow import EscrowError, check_escrow_shape, make_escrow, open_escrow, share_digest

GAME = bytes(range(32))


def test_every_share_opens_the_escrow_and_no_fewer():
    box, shares = make_escrow(GAME, 1, [0, 2, 3], b"the leaver's secrets", b"r" * 32)
    assert set(shares) == {0, 2, 3} and len(set(shares.values())) == 3
    assert open_escrow(GAME, 1, box, shares) == b"the leaver's secrets"
    for missing in shares:
        with pytest.raises(EscrowError):
            open_escrow(GAME, 1, box, {h: s for h, s in shares.items() if h != missing})
    with pytest.raises(EscrowError):  # the box is bound to its game and its leaver
        open_escrow(bytes(32), 1, box, shares)
    with pytest.raises(EscrowError):
        open_escrow(GAME, 2, box, shares)


def test_a_false_share_does_not_match_the_signed_digest_and_does_not_open():
    box, shares = make_escrow(GAME, 1, [0, 2], b"secrets", b"s" * 32)
    false = bytes(b ^ 1 for b in shares[2])
    assert share_digest(GAME, 1, 2, false) != share_digest(GAME, 1, 2, shares[2])
    assert share_digest(GAME, 1, 0, shares[2]) != share_digest(GAME, 1, 2, shares[2])  # bound to its holder
    with pytest.raises(EscrowError):
        open_escrow(GAME, 1, box, {0: shares[0], 2: false})


def test_the_box_length_does_not_depend_on_the_secrets_beyond_public_counts():
    short, _ = make_escrow(GAME, 1, [0], b"a", b"t" * 32)
    longer, _ = make_escrow(GAME, 1, [0], b"b" * 200, b"t" * 32)
    assert len(short) == len(longer)  # padded to whole blocks


def test_nobody_to_hold_a_share_opens_at_once_and_shares_name_only_other_seats():
    box, shares = make_escrow(GAME, 0, [], b"alone", b"u" * 32)
    assert shares == {} and open_escrow(GAME, 0, box, {}) == b"alone"
    assert check_escrow_shape({"shares": {1: {}}}, 0, 3) is None
    assert check_escrow_shape({"shares": {0: {}}}, 0, 3) is not None
    assert check_escrow_shape({"shares": {5: {}}}, 0, 3) is not None
