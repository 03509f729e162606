"""The bot seats this machine plays at a networked table: each its own keys, session and relay connection."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from typing import Any

from client.net.address import RelayAddress
from client.net.bot_seat import BotSeat
from client.net.seat_card import new_peer_id
from client.net.transport import relay_transport
from engines.core import canonical_encode
from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from relay.transport.failover import FailoverTransport
from relay.transport.room import Journal


class LocalBot:
    """A bot seat this machine plays in a network game: its own keys, session and relay connection.

    The protocol still has one signer per seat, so the audit covers the bot like anyone else.
    A resumed game gives back the bot's kept ``key``, ``secret`` and ``peer``
    (:func:`client.net.resume.resume_seat`).
    """

    def __init__(
        self,
        kind: str,
        name: str,
        key: SigningKey | None = None,
        secret: bytes | None = None,
        peer: str | None = None,
    ) -> None:
        self.kind = kind
        self.name = name
        self.key = key or SigningKey.generate()
        self.secret = secret or os.urandom(32)
        self.peer = peer or new_peer_id()
        self.card = canonical_encode(PeerSession.seat_card(name, self.key, self.secret).as_body())
        self.session: PeerSession | None = None
        self.transport: FailoverTransport | None = None
        self.driver: BotSeat | None = None
        #: The task playing the seat (done when the game has ended, or the bot was stopped).
        self.task: asyncio.Task[None] | None = None

    def play(
        self,
        session: PeerSession,
        relay: str | RelayAddress,
        think_ms: int,
        fallbacks: tuple[str, ...] = (),
        lan: bool = False,
        journal: Journal | None = None,
    ) -> Coroutine[Any, Any, None]:
        """The coroutine that plays the seat to the end (its transport's ``run()``)."""
        RUNNING_BOTS[self.peer] = self
        self.session = session
        self.driver = BotSeat(session, self.kind, self.secret, quiet=True, think_ms=think_ms)
        info: dict[str, object] = {"seat": session.seat, "name": self.name}
        if lan:
            info["hosts_relay"] = True  # it runs in the host's program: it dies with the relay
        relays = [relay, *fallbacks]
        self.transport = relay_transport(
            relays, session, self.peer, self.driver.handle, presence_info=info, journal=journal
        )
        self.driver.transport = self.transport
        return self.transport.run()

    def stop(self) -> None:
        if self.transport is not None:
            self.transport.stop()

    @property
    def running(self) -> bool:
        """Still playing (a task being cancelled, as when its window closed, is not)."""
        task = self.task
        return task is not None and not task.done() and not task.cancelling()


#: The bots this program plays, by peer id: a game resumed in the same run finds its bots still playing.
RUNNING_BOTS: dict[str, LocalBot] = {}
