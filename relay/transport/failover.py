"""Relay failover: a room names several relays, and the game moves when its relay stays unreachable.

Why this is safe: every peer holds the whole signed log, bound to the genesis, and the transport
re-publishes (retained) every entry a relay lacks after each connection (see :mod:`relay.transport.room`,
``_after_sync``).  So moving a game is only *connecting somewhere else*: the first peer to arrive
puts the log there, the others read it back, and play goes on.  A relay can lose or withhold
entries, never change one.

The rule every peer follows (so that they all end up in the same place without talking):

- The relays come in one order: the one the peer was given (command line, invitation), then the
  invitation's fallbacks, then those the genesis names (``relays``, signed by the host).
- When the current relay has been unreachable for :data:`FAILOVER_S` seconds without a single
  connection whose read-back completed, the peer moves to the next relay in that order (after
  the last: the first again, which may be back).  Each move starts the wait again.
- A peer that starts while its relay is down probes the relays in order and takes the first that
  answers (a late peer finds the game where the others moved it).
- :meth:`FailoverTransport.move_to` moves a running game at once (the desktop's "Move this game
  to another relay…", the headless ``move ADDRESS`` command): the others follow when *their*
  relay is gone, or when they are told the same address.

On a LAN (:mod:`relay.transport.handover`) there is no list: a surviving peer starts a relay and announces it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, Unpack

import aiomqtt

from relay.address import RelayAddress, parse_address
from relay.background import keep, stopped
from relay.errors import RelayError
from relay.probe import probe
from relay.transport.room import Driver, RoomTransport, SessionLike, TransportOptions

log = logging.getLogger("relay.transport.failover")

#: Seconds the current relay may stay unreachable before the game moves to the next one: longer
#: than a broker restart or a short network hiccup (the transport's backoff retries within it),
#: short enough that people at the table hardly notice.  ``--failover-after`` changes it.
FAILOVER_S = 15.0


@dataclass(frozen=True)
class RelayMoved:
    """The game moved from relay ``old`` to ``new`` (``reason``: why), for the driver and the logs."""

    old: str
    new: str
    reason: str


class NextRelay(Protocol):
    """Who picks the relay after the current one failed (a LAN handover); None: keep trying the same."""

    async def start(self, transport: FailoverTransport) -> None: ...

    async def next_relay(self, transport: FailoverTransport) -> RelayAddress | None: ...

    def describe(self) -> str:
        """Where :meth:`next_relay` went, for the move's reason ("seat 2's relay, found on the LAN")."""
        ...

    async def close(self) -> None: ...


def _where(address: RelayAddress) -> tuple[str, str, int, str]:
    """What makes two addresses one relay: scheme, host, port, path (not the login, nor TLS files)."""
    return (address.scheme, address.host.lower(), address.port, address.path)


class FailoverTransport(RoomTransport):
    """A :class:`RoomTransport` that knows several relays and moves the game between them."""

    def __init__(
        self,
        relays: Sequence[str | RelayAddress],
        session: SessionLike,
        peer_id: str,
        driver: Driver | None = None,
        *,
        failover_s: float = FAILOVER_S,
        handover: NextRelay | None = None,
        resolve: Callable[[str | RelayAddress], RelayAddress] = parse_address,
        **options: Unpack[TransportOptions],
    ) -> None:
        if not relays:
            raise RelayError("a room needs at least one relay")
        super().__init__(relays[0], session, peer_id, driver, **options)
        self.resolve = resolve
        self.failover_s = failover_s
        self.handover = handover
        self.ring: list[RelayAddress] = []
        for relay in relays:
            self._add(relay)
        if not self.ring:
            raise RelayError(f"{relays[0]!s} is not a relay address")
        self.address = self.ring[0]
        self._down_since: float | None = None
        self._pending: RelayAddress | None = None
        self._move = asyncio.Event()
        self.moves: list[RelayMoved] = []

    # -- the relays ----------------------------------------------------------------------
    def _add(self, relay: str | RelayAddress) -> RelayAddress | None:
        """Put ``relay`` at the end of the ring (once: the same address without a login is the same relay)."""
        try:
            address = self.resolve(relay)
        except Exception as exc:  # a bad address from a genesis or a link: skip it, say why
            log.warning("%s: relay %r is not an address (%s); skipped", self.peer_id, str(relay), exc)
            return None
        for known in self.ring:
            if _where(known) == _where(address):
                return known  # the first form kept (the one given with a login, if any)
        self.ring.append(address)
        return address

    def _take_genesis_relays(self) -> None:
        """The relays the genesis names (signed by the host) join the ring, after those known already."""
        table = self.session.table
        for relay in table.relays if table is not None else ():
            self._add(relay)

    def _index(self) -> int:
        for i, known in enumerate(self.ring):
            if _where(known) == _where(self.address):
                return i
        return -1

    def move_to(self, relay: str | RelayAddress) -> RelayAddress:
        """Move the running game to ``relay`` now (added to the ring if new); call from the loop's thread."""
        address = self._add(relay)
        if address is None:
            raise RelayError(f"{relay!s} is not a relay address")
        self._pending = address
        self._move.set()
        self._wake.set()
        return address

    def move_next(self) -> RelayAddress:
        """Move to the next relay of the ring now."""
        self._take_genesis_relays()
        return self.move_to(self.ring[(self._index() + 1) % len(self.ring)])

    def _switch(self, new: RelayAddress, reason: str) -> None:
        old = self.address
        self.address = new
        self.host, self.port = new.host, new.port
        self._down_since = None
        if str(old) == str(new):
            return
        moved = RelayMoved(str(old), str(new), reason)
        self.moves.append(moved)
        log.info("%s: game moved from relay %s to %s (%s)", self.peer_id, old, new, reason)
        self.driver([moved])

    # -- the transport's hooks ---------------------------------------------------------------
    async def _first_relay(self) -> None:
        """The first relay of the ring that answers (a late peer finds the game where it went)."""
        self._take_genesis_relays()
        if self.handover is not None:
            await self.handover.start(self)
        first: RelayError | None = None
        start = max(self._index(), 0)
        for i in range(len(self.ring)):
            address = self.ring[(start + i) % len(self.ring)]
            try:
                await probe(address, self.probe_timeout)
            except RelayError as exc:
                first = first or exc
                log.info("%s: relay %s does not answer (%s)", self.peer_id, address, exc)
                continue
            if i:
                self._switch(address, f"{self.ring[start]} does not answer")
            return
        if self.handover is not None:
            found = await self.handover.next_relay(self)
            if found is not None:
                self._switch(found, f"{self.ring[start]} does not answer; {self.handover.describe()}")
                return
        assert first is not None
        raise first

    async def _choose_relay(self) -> None:
        if self._pending is not None:
            target, self._pending = self._pending, None
            self._move.clear()
            self._switch(target, "asked to move")
            return
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now  # the first attempt after a break (or ever) tries the same relay
            return
        down = now - self._down_since
        if down < self.failover_s:
            return
        self._take_genesis_relays()
        reason = f"{self.address} unreachable for {down:.0f} s"
        chosen: RelayAddress | None
        if self.handover is not None:
            chosen = await self.handover.next_relay(self)
            reason += f"; {self.handover.describe()}"
        else:
            chosen = self.ring[(self._index() + 1) % len(self.ring)]
        if chosen is not None:
            self._switch(chosen, reason)
        self._down_since = time.monotonic()

    def _after_sync(self) -> None:
        super()._after_sync()
        self._down_since = None  # a connection that read the log back: this relay works

    async def _connection(self) -> None:
        """One connection, ended early (as a broken one is) when the game is asked to move."""
        if self._pending is not None:
            raise aiomqtt.MqttError("moving to another relay")
        self._move.clear()
        connection = asyncio.ensure_future(super()._connection())
        keep(connection)  # its failure is taken, also when it ends after a cancellation
        mover = asyncio.ensure_future(self._move.wait())
        try:
            await asyncio.wait({connection, mover}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # cancelled (the window closes): the connection's task ends with it
            await stopped(connection)
            raise
        finally:
            mover.cancel()
        if connection.done():
            connection.result()  # its error (or its normal end), as any connection ends
            return
        self._end_connection(connection)
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await connection
        if self._stop.is_set() or self._done():
            return
        raise aiomqtt.MqttError(f"moving to relay {self._pending}")

    def _end_connection(self, connection: asyncio.Future[None]) -> None:
        """End the connection the way a broken one ends: every task of it fails on its next use of the
        client and the connection's own clean-up runs.  (Cancelling its task instead could hang: on
        Python 3.11 ``asyncio.wait_for`` may swallow a cancellation that arrives as its wait ends.)"""
        client = self._client
        if client is None:  # not connected yet: nothing is in flight that a cancellation could leave behind
            connection.cancel()
            return
        try:
            # aiomqtt offers no way to end a connection from outside its context: its paho client's
            # disconnect() ends it as a broken connection ends.
            client._client.disconnect()
        except Exception:  # a client that cannot say goodbye is cut off all the same
            connection.cancel()

    async def _sleep(self, seconds: float) -> None:
        """The backoff between attempts, cut short by a move (a move needs no backoff)."""
        if self._pending is not None:
            return
        stop = asyncio.ensure_future(self._stop.wait())
        move = asyncio.ensure_future(self._move.wait())
        try:
            await asyncio.wait({stop, move}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            move.cancel()

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            if self.handover is not None:
                await self.handover.close()


__all__ = ["FAILOVER_S", "FailoverTransport", "NextRelay", "RelayMoved"]
