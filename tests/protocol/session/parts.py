"""Builders for the tests of the session's parts: a real table, and entries signed for it."""

from __future__ import annotations

from typing import Any

from protocol.crypto.signing import SigningKey
from protocol.envelope import Envelope, seal
from protocol.table import Table
from tests.protocol.helpers import lockstep, seat_keys


def table_of(players: int = 3, seed: bytes = b"parts") -> tuple[Table, list[SigningKey]]:
    """The replica of a fresh toy game (just its genesis) and the seats' signing keys."""
    creator = lockstep("toy", players, seed)[0]
    assert creator.table is not None
    return Table(creator.table.log[0]), seat_keys(seed, players)[0]


def entry(
    table: Table,
    key: SigningKey,
    seq: int,
    seat: int,
    type_: str = "keys",
    body: dict[str, Any] | None = None,
    prev: bytes | None = None,
) -> Envelope:
    """An entry for ``table`` signed with ``key`` in ``seat``'s name (chained to the head unless ``prev``)."""
    body = {"keys": {}, "hash": bytes(32)} if body is None else body
    return seal(
        key, table.room, seq, table.head_digest if prev is None else prev, seat, type_, body, game=table.game_id
    )
