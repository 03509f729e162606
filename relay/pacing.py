"""A client's publishes, paced under a public broker's rate limit: never more than N in any window.

Public brokers throttle or disconnect a client that publishes faster than they allow
(:mod:`relay.public`: 50 a second is the strictest we plan for).  Play is slow (a few entries a
second), but a restore that puts a whole log back on a relay is hundreds of publishes at once:
dropped, the game would lose entries; sent at once, the broker would end the connection.  So every
publish of a client waits here first (``relay.mqtt.RelayClient.publish``).

The pacer is a sliding window rather than a token bucket: it lets :data:`MAX_PER_WINDOW` publishes
go at once (normal play is never delayed) and then at most that many in any :data:`WINDOW_S`
seconds.  A token bucket of ``burst`` and ``rate`` lets ``burst + rate`` through in one second: to
stay under the limit its burst would have to be small.  The window is a little longer than a
second and the count a little below 50 so that the network's jitter (publishes sent apart that
arrive together) does not carry a burst over the broker's count.
"""

from __future__ import annotations

import asyncio
import collections
import time

#: Publishes let through in any window, and the window's length (seconds): 45 in 1.1 s is 41 a second.
MAX_PER_WINDOW = 45
WINDOW_S = 1.1


class Pacer:
    """At most ``limit`` passes in any ``window`` seconds; :meth:`wait` holds a caller until its turn.

    Turns are taken in the order callers came (a restore's entries stay in order).
    """

    def __init__(self, limit: int = MAX_PER_WINDOW, window: float = WINDOW_S) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a pacer lets at least one publish through in a window longer than zero")
        self.limit, self.window = limit, window
        self._sent: collections.deque[float] = collections.deque()  # when the last ``limit`` passes went
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Return once a publish may go now without ``limit + 1`` of them falling in one window."""
        async with self._lock:
            while True:
                now = time.monotonic()
                while self._sent and now - self._sent[0] >= self.window:
                    self._sent.popleft()
                if len(self._sent) < self.limit:
                    self._sent.append(now)
                    return
                await asyncio.sleep(self.window - (now - self._sent[0]))
