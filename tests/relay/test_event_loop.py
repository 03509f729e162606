"""Every process that speaks MQTT runs on a selector loop, the one loop kind with add_reader on every platform."""

from __future__ import annotations

import asyncio

from relay import event_loop


def test_run_gives_the_coroutine_a_selector_loop_and_its_result():
    async def kind() -> type:
        return type(asyncio.get_running_loop())

    assert issubclass(event_loop.run(kind()), asyncio.SelectorEventLoop)
