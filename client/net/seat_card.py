"""A new seat of this user: its keys, its per-game secret, and the seat card a room's host gathers."""

from __future__ import annotations

import os
from pathlib import Path

from client.net.errors import NetError
from client.store.identity import signing_key
from engines.core import canonical_encode
from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from protocol.table import SeatInfo
from relay.lobby.seat_card import BadCard, check_card


def new_seat(name: str, identity_dir: Path | None = None) -> tuple[SigningKey, bytes, bytes]:
    """(signing key, per-game secret, seat card bytes) for a new seat of this user.

    The key is the user's own (:mod:`client.store.identity`), so every room sees the same player;
    the secret is fresh, so no two games share one.
    """
    key = signing_key(identity_dir)
    secret = os.urandom(32)
    card = canonical_encode(PeerSession.seat_card(name, key, secret).as_body())
    return key, secret, card


def seat_info(card: bytes) -> SeatInfo:
    """A seat card the lobby gathered, as the genesis takes it (checked again: shape, sizes, valid points)."""
    try:
        checked = check_card(card)
    except BadCard as exc:
        raise NetError("relay-failed", address="", reason=str(exc)) from None
    info = SeatInfo(checked.name[:24], checked.sign, checked.box)
    problem = info.problem()  # the protocol's own check of the keys (protocol.table), the one every peer makes
    if problem is not None:
        raise NetError("relay-failed", address="", reason=f"a seat card is refused: {problem}")
    return info


def new_peer_id() -> str:
    """A fresh peer id: how the relay's topics tell this program's connection for a seat apart."""
    return "p" + os.urandom(5).hex()
