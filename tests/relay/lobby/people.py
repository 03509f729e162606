"""People for lobby tests: each with a signing key, a per-game secret and a real seat card."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import msgpack

from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession


@dataclass
class Person:
    name: str
    peer: str = ""
    key: SigningKey = field(default_factory=SigningKey.generate)
    secret: bytes = field(default_factory=lambda: os.urandom(32))

    def __post_init__(self) -> None:
        self.peer = self.peer or self.name.lower()

    @property
    def card(self) -> bytes:
        return msgpack.packb(PeerSession.seat_card(self.name, self.key, self.secret).as_body(), use_bin_type=True)

    def join_args(self) -> dict[str, object]:
        """The keyword arguments of ``join_room`` after the code: peer, name, card, key."""
        return {"peer": self.peer, "name": self.name, "card": self.card, "key": self.key}
