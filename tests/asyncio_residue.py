"""A check that a test leaves no asyncio residue behind: the relay's and the desktop program's tests use it.

Residue is work a test started and never finished: a task still pending when its loop let go of it
(and the coroutine it never started), a coroutine never awaited, a failure nobody retrieved.  Each
is a bug of the code under test (a close that does not wait for its tasks, an error that is lost),
and each shows only as a log line or a warning when the object is freed, long after the test that
made it passed.
"""

from __future__ import annotations

import gc
import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

#: What asyncio, qasync and amqtt report of work left behind: a task still pending when its loop went
#: away (and the coroutine it never started), a failure nobody retrieved, amqtt's broadcast loop torn down.
RESIDUE = (
    "Task was destroyed but it is pending",
    "Task exception was never retrieved",
    "Future exception was never retrieved",
    "Broadcast loop stopped by exception",
)

#: Who reports it: asyncio's own loops, qasync's loop on Qt (its own logger), and amqtt (the embedded relay).
LOGGERS = ("asyncio", "qasync", "amqtt")


class _Residue(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if any(text.startswith(kind) for kind in RESIDUE):
            self.found.append(f"{record.name}: {text}")


@contextmanager
def no_asyncio_residue() -> Iterator[None]:
    """Fail the test run inside it if it leaves a task pending, a coroutine never awaited or an error never retrieved.

    Each is reported only when the garbage collector frees the object, so the check collects at the
    end (and once before, so that what an earlier test left is not blamed on this one).  Only what
    runs in this process is seen: peers and relays in child processes log theirs.  Used by an autouse
    fixture, it wraps every other fixture of the test: their teardown (a loop's, a relay's) is inside.
    """
    gc.collect()
    handler = _Residue()
    loggers = [logging.getLogger(name) for name in LOGGERS]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
            gc.collect()
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    never_awaited = [str(w.message) for w in caught if "was never awaited" in str(w.message)]
    for w in caught:
        if "was never awaited" not in str(w.message):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    if handler.found or never_awaited:
        pytest.fail("asyncio residue after the test:\n" + "\n".join(handler.found + never_awaited), pytrace=False)
