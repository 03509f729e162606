"""``run(main)``: ``asyncio.run`` on a selector loop on every platform.

paho-mqtt, under aiomqtt, waits on its socket with ``loop.add_reader``; Windows' default loop (the
proactor) has no such method, so every process that speaks MQTT (the headless peer, the demo, the
relay's own tests of itself) runs its coroutine here.  On Linux and macOS the selector loop is
already the default, so nothing changes there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to its end on a new selector loop, as ``asyncio.run`` would (and close the loop)."""
    with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
        return runner.run(main)
