"""The bot seats this machine plays at a networked table: each its own keys, session and relay connection."""

from __future__ import annotations

import os
from typing import Any

from client.net.address import RelayAddress
from client.net.seat_card import new_peer_id
from client.net.transport import relay_transport


class LocalBot:
    """A bot seat this machine plays in a network game: its own keys, session and relay connection.

    The protocol still has one signer per seat, so the audit covers the bot like anyone else.
    A resumed game gives back the bot's kept ``key``, ``secret`` and ``peer`` (:func:`resume_seat`).
    """

    def __init__(
        self, kind: str, name: str, key: Any = None, secret: bytes | None = None, peer: str | None = None
    ) -> None:
        from engines.core import canonical_encode
        from protocol.crypto.signing import SigningKey
        from protocol.session import PeerSession

        self.kind = kind
        self.name = name
        self.key = key or SigningKey.generate()
        self.secret = secret or os.urandom(32)
        self.peer = peer or new_peer_id()
        self.card = canonical_encode(PeerSession.seat_card(name, self.key, self.secret).as_body())
        self.session: Any = None
        self.transport: Any = None
        self.driver: Any = None
        #: The task playing the seat (done when the game has ended, or the bot was stopped).
        self.task: Any = None

    def play(
        self, session: Any, relay: str | RelayAddress, think_ms: int, fallbacks: tuple[str, ...] = (), lan: bool = False
    ) -> Any:
        """The coroutine that plays the seat to the end (a ``RoomTransport.run()``)."""
        from client.net.bot_seat import BotSeat

        RUNNING_BOTS[self.peer] = self
        self.session = session
        self.driver = BotSeat(session, self.kind, self.secret, quiet=True, think_ms=think_ms)
        info: dict[str, Any] = {"seat": session.seat, "name": self.name}
        if lan:
            info["hosts_relay"] = True  # it runs in the host's program: it dies with the relay
        self.transport = relay_transport(
            [relay, *fallbacks], session, self.peer, self.driver.handle, presence_info=info
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
        return task is not None and not task.done() and not (hasattr(task, "cancelling") and task.cancelling())


#: The bots this program plays, by peer id: a game resumed in the same run finds its bots still playing.
RUNNING_BOTS: dict[str, LocalBot] = {}
