"""Work the relay layer starts and does not wait for: kept referenced until it ends, its failure taken.

asyncio keeps only a weak reference to a task, and logs "Task exception was never retrieved" for
one whose failure nobody asked about.  Such work (clearing a marker, withdrawing a request,
resolving an announcement, stopping a relay no longer used) fails only when its connection or
its relay is already gone, which whoever holds that connection has been told.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

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
