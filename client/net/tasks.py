"""Running network coroutines from widgets without blocking the window.

The program's asyncio loop is qasync's ``QEventLoop`` on top of Qt's own event loop, so a
coroutine started here makes progress between paint and input events.  Widgets hand over a
coroutine and two callbacks; the callbacks run on the same (GUI) thread once the coroutine ends
(a cancelled one calls neither).  Tasks are kept referenced until they finish (asyncio keeps
only weak references to them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_RUNNING: set[asyncio.Task[Any]] = set()


def ignore(_: object) -> None:
    """A callback for a task whose result (or failure) nobody waits for."""


def spawn(
    coro: Coroutine[Any, Any, T],
    on_done: Callable[[T], None],
    on_error: Callable[[BaseException], None],
) -> asyncio.Task[T]:
    """Schedule ``coro`` on the current loop; report its result or exception by callback."""
    loop = asyncio.get_event_loop()
    task = loop.create_task(coro)
    _RUNNING.add(task)

    def finished(t: asyncio.Task[T]) -> None:
        _RUNNING.discard(t)
        if t.cancelled():
            return
        exc = t.exception()
        if exc is not None:
            on_error(exc)
        else:
            on_done(t.result())

    task.add_done_callback(finished)
    return task


def cancel_all() -> None:
    """Cancel every task still running (the window is closing)."""
    for task in list(_RUNNING):
        task.cancel()
