"""Work the relay layer starts and does not wait for: kept referenced until it ends, its failure taken.

asyncio keeps only a weak reference to a task, and logs "Task exception was never retrieved" for
one whose failure nobody asked about.  Such work (clearing a marker, withdrawing a request,
resolving an announcement, stopping a relay no longer used) fails only when its connection or
its relay is already gone, which whoever holds that connection has been told.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

_T = TypeVar("_T")


def keep(task: asyncio.Future[_T], held: set[asyncio.Future[_T]] | None = None) -> asyncio.Future[_T]:
    """``task``, held in ``held`` until it ends (if given), its failure taken when it ends."""
    if held is not None:
        held.add(task)
    task.add_done_callback(lambda done: _ended(done, held))
    return task


def _ended(task: asyncio.Future[_T], held: set[asyncio.Future[_T]] | None) -> None:
    if held is not None:
        held.discard(task)
    if not task.cancelled():
        task.exception()


#: How often a task that goes on after it was cancelled is asked again.
CANCEL_AGAIN_S = 0.5


async def stopped(*tasks: asyncio.Future[Any]) -> None:
    """Cancel ``tasks`` and wait until every one has ended, asking again while one goes on.

    Under Python 3.11 ``asyncio.wait_for`` (inside aiomqtt's publish and subscribe, among others)
    loses a cancellation that arrives as its wait ends: a task cancelled once may go on for ever, and
    whoever waits for it with it.  Their results and failures are the caller's to take.
    """
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=CANCEL_AGAIN_S)
