"""Reading a client's messages against a deadline, without losing a message or a cancellation.

``asyncio.wait_for(client.messages.__anext__(), t)`` gets two races wrong on Python 3.11:

- a deadline that falls as a message arrives cancels the queue read after it took the
  message, and the message is gone;
- a cancellation of the caller that falls as a message arrives is swallowed (``wait_for``
  returns the message and the caller never learns it was cancelled).  A joiner that gave up
  just as the host's seat list reached it went on waiting in the room, its seat never freed.

An :class:`Inbox` keeps one read pending across deadlines and waits for it with
:func:`asyncio.wait`, which neither cancels it on a timeout nor swallows a cancellation.
"""

from __future__ import annotations

import asyncio
from types import TracebackType

import aiomqtt


class Inbox:
    """The messages of one client, read one at a time with an optional deadline each."""

    def __init__(self, client: aiomqtt.Client) -> None:
        self._messages = client.messages
        self._pending: asyncio.Future[aiomqtt.Message] | None = None

    async def next(self, timeout: float | None = None) -> aiomqtt.Message | None:
        """The next message, or None when ``timeout`` seconds pass first (the read stays pending).

        Raises what the client's iterator raises: :class:`aiomqtt.MqttError` when the connection
        is lost, :class:`StopAsyncIteration` when it ended.
        """
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._messages.__anext__())
        done, _ = await asyncio.wait({self._pending}, timeout=None if timeout is None else max(0.0, timeout))
        if not done:
            return None
        read, self._pending = self._pending, None
        return read.result()

    def close(self) -> None:
        """Drop the pending read (what it would have brought is not wanted any more)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        if not pending.done():
            pending.cancel()
        elif not pending.cancelled():
            pending.exception()  # retrieved: a lost connection at the end is no news

    async def __aenter__(self) -> Inbox:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
