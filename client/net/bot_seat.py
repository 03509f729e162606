"""A bot in a network seat: it answers the session's events, deciding on ``YourTurn``.

Shared by the desktop program's bot seats at a networked table and the headless peer.  Each
decision is made by a fresh bot seeded by the seat's secret and the entry it writes, so a seat
restarted from the relay's log makes the same decision again and can never contradict itself.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from engines.core import GameOver, registry
from protocol.events import Abandoned, Audited, CheatDetected, ClaimVoided, Event, GameEnded, Gone, Overdue, YourTurn
from protocol.session import PeerSession
from relay.transport.failover import RelayMoved
from relay.transport.room import Connected, Disconnected, Restored, RoomTransport


class BotSeat:
    """Answers the session's events: a bot decides on ``YourTurn``; the rest is reported."""

    def __init__(
        self, session: PeerSession, bot_name: str, secret: bytes, quiet: bool = False, think_ms: int = 0
    ) -> None:
        self.session = session
        self.think_ms = think_ms
        self.transport: RoomTransport | None = None
        self.bot_name = bot_name
        self.secret = secret
        self.quiet = quiet
        self.decisions = 0
        self.result: GameOver | None = None
        self.abandoned: str | None = None

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    def handle(self, events: Sequence[object]) -> None:
        """Decide on ``YourTurn`` (now, or after ``think_ms``), note the end, report the rest."""
        todo = list(events)
        while todo:
            event = todo.pop(0)
            if isinstance(event, YourTurn):
                if self.think_ms and self.transport is not None:
                    asyncio.get_running_loop().call_later(self.think_ms / 1000, self.decide_later, event)
                else:
                    todo += self.decide(event)
            elif isinstance(event, GameEnded):
                self.result = event.result
            elif isinstance(event, Abandoned):
                self.abandoned = event.reason
                self.say(f"[seat {self.session.seat}] {event}")
            elif isinstance(
                event, Gone | ClaimVoided | Overdue | CheatDetected | Abandoned | Audited | Restored | Disconnected
            ):
                self.say(f"[seat {self.session.seat}] {event}")
            elif isinstance(event, Connected) and event.count > 1:
                self.say(f"[seat {self.session.seat}] reconnected (connection {event.count}); log read back")
            elif isinstance(event, RelayMoved):
                self.say(f"[seat {self.session.seat}] moved to relay {event.new} ({event.reason})")

    def decide_later(self, event: YourTurn) -> None:
        """A paced decision (``--think-ms``): decide, then hand what was written to the transport."""
        events = self.decide(event)
        self.handle(events)
        if self.transport is not None:
            self.transport.flush()

    def decide(self, event: YourTurn) -> list[Event]:
        """The bot's decision for the entry the session waits for, submitted; the events it made."""
        session = self.session
        if session.finished or session.seat is None or session.state is None:
            return []
        legal = session.legal_actions()
        if not legal:
            return []
        spec = registry.get(session.state.game)
        waiting = session.waiting_for
        seq = waiting[1] if waiting is not None else event.seq
        # A fresh bot per decision, seeded by the seat's secret and the entry it writes: the same
        # decision again after a restart, so a resumed seat can never contradict itself.
        bot = registry.bot(spec, self.bot_name)(session.seat, self.secret + seq.to_bytes(8, "big"))
        action = bot.choose(session.state, session.knowledge, legal)
        self.decisions += 1
        # With a transport, publish first and apply after: the transport settles the entry
        # once it is on the wire, so the other peers need not wait for this replica.
        events = session.submit(action, settle=self.transport is None)
        # Progress for people and fault tests; never the action itself (it may name a secret).
        self.say(f"[seat {session.seat}] wrote entry {seq}")
        return events
