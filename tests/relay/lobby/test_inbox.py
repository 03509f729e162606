"""relay/lobby/inbox.py: a deadline loses no message, and a cancellation is never swallowed.

The client is the one part not real here: a queue behind the same ``messages`` iterator
shape as aiomqtt's, so that a message can be made ready in the very step a deadline or a
cancellation falls (the races that a broker's timing only hits now and then).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from relay.lobby.inbox import Inbox


class _Messages:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    def __aiter__(self) -> _Messages:
        return self

    async def __anext__(self) -> str:  # as aiomqtt 2.5 reads its queue
        task = asyncio.ensure_future(self.queue.get())
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            task.cancel()
            raise
        return task.result()


class _Client:
    def __init__(self) -> None:
        self.messages = _Messages()


def test_a_deadline_that_passes_keeps_the_read_and_the_message_it_brings() -> None:
    async def main() -> None:
        client = _Client()
        inbox = Inbox(client)  # type: ignore[arg-type]
        assert await inbox.next(0.01) is None
        client.messages.queue.put_nowait("late")
        assert await inbox.next(1) == "late"
        inbox.close()

    asyncio.run(main())


def test_a_message_arriving_as_the_deadline_falls_is_not_lost() -> None:
    async def main() -> list[Any]:
        client = _Client()
        got: list[Any] = []
        async with Inbox(client) as inbox:  # type: ignore[arg-type]
            for i in range(200):
                asyncio.get_running_loop().call_later(0.001, client.messages.queue.put_nowait, f"m{i}")
                got.append(await inbox.next(0.001))
            while len([g for g in got if g is not None]) < 200:
                late = await inbox.next(1)
                if late is None:
                    break  # nothing more is coming: a message was lost
                got.append(late)
        return [g for g in got if g is not None]

    assert asyncio.run(main()) == [f"m{i}" for i in range(200)]


def test_a_cancellation_as_a_message_arrives_is_raised_not_swallowed() -> None:
    async def one(steps: int) -> None:
        client = _Client()
        inbox = Inbox(client)  # type: ignore[arg-type]
        task = asyncio.create_task(inbox.next(5))
        await asyncio.sleep(0.01)  # the read is pending
        client.messages.queue.put_nowait("seat list")
        for _ in range(steps):  # the message makes its way up, step by step ...
            await asyncio.sleep(0)
        if task.cancel():  # ... and the caller gives up at one of those steps, before the read ended:
            with pytest.raises(asyncio.CancelledError):
                await task
        else:  # the read had ended: too late to give up
            assert task.result() == "seat list"
        inbox.close()

    async def main() -> None:
        for steps in range(8):
            await one(steps)

    asyncio.run(main())
