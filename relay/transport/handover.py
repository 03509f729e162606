"""LAN handover: when the relay in the host's program dies, a surviving seat starts one and announces the room.

On a LAN the room's relay lives inside the hosting program (:mod:`relay.broker.embedded`); when that program
dies, so does the relay.  Every seat holds the whole signed log, so any of them can carry the game:

- **Who starts a relay.**  The seats still in the game (the table's active seats), without those
  whose presence said they run the dead relay, in seat order: the first of them starts a relay at
  once, the second after :data:`STAGGER_S` seconds, the third after two of them, and so on — each
  one first looking for an announcement of the room and using that if there is one.  So normally
  exactly one seat starts a relay and the others join it.
- **How the others find it.**  The new relay is announced with zeroconf (``_mqtt._tcp``, as every
  LAN relay) with the room, the game (the genesis hash), the seat, and that seat's Ed25519
  signature over all of it *and the addresses and port announced*.  A peer believes only an
  announcement signed by a seat of its own game's genesis: a stranger on the LAN can announce
  anything, but not that.  (A stranger who copies a genuine announcement must copy its addresses
  too, which point at the genuine relay.)
- **Two at once.**  If two seats started relays anyway (each thought the other gone), every peer
  keeps watching the announcements and moves to the one of the lowest seat; the other withdraws
  its announcement and stops its relay a little later.
- **What a relay can do.**  Even a seat's own relay only carries signed entries bound to the
  genesis: it can withhold them, not change them.  A relay that does not answer is marked failed
  and the next announcement is tried; when none is left, the peer starts a relay itself.

A peer that does not know the genesis yet (a seat restarted before it ever read it) cannot check
a signature; it then takes the announcement of the lowest seat that names its room, and the
genesis it reads there is checked as always.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgpack
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from protocol.crypto.signing import SigningKey, verify
from relay import topics
from relay.address import RelayAddress
from relay.background import keep
from relay.broker.discovery import SERVICE_TYPE, TXT_KEY, Advertisement, advertise, local_addresses
from relay.errors import RelayError
from relay.probe import probe
from relay.transport.room import RoomTransport, SessionLike, TableLike

if TYPE_CHECKING:  # the relay is started only when it is needed, and amqtt imported only then
    from relay.broker.embedded import EmbeddedRelay
    from relay.transport.failover import FailoverTransport

log = logging.getLogger("relay.transport.handover")

#: Seconds between the seats' turns to start a relay (each looks for an announcement first).  It must
#: cover what separates the lower seat's start from the next seat's look: the seats notice the dead
#: relay up to about a second apart, and starting an embedded relay and announcing it (zeroconf probes
#: the name first) takes more than a second on a loaded 2-core machine, so half that margin is too little.
STAGGER_S = 6.0
#: At most this long a relay this program runs waits, at the end, for the others to finish with it.
LINGER_S = 5.0
#: A relay found without the genesis to check its announcement against must bring the genesis within this.
WITHHELD_S = 10.0
ANNOUNCE_TAG = b"sealed-table room relay v1\x00"
PROBE_S = 2.0
#: Every seat looks this long for an announcement before it may start a relay itself (zeroconf
#: answers within a second or so; a program that has just started has heard nothing yet).
BROWSE_S = 2.0


@dataclass(frozen=True)
class RoomRelay:
    """A relay announced on the LAN for one room, by one seat (not checked yet: see :func:`genuine`)."""

    name: str
    room: str
    game: bytes
    seat: int
    addresses: tuple[str, ...]
    port: int
    signature: bytes

    @property
    def address(self) -> RelayAddress:
        return RelayAddress(self.addresses[0], self.port)


def signed_bytes(room: str, game: bytes, seat: int, addresses: tuple[str, ...], port: int) -> bytes:
    """What a seat signs to announce its relay: the room, the game, the seat, where it is."""
    where = ",".join(sorted(addresses)) + f"|{port}"
    return ANNOUNCE_TAG + room.encode() + b"\x00" + game + seat.to_bytes(1, "big") + where.encode()


def room_txt(
    room: str, game: bytes, seat: int, addresses: tuple[str, ...], port: int, key: SigningKey
) -> dict[str, str]:
    """The TXT record of a seat's relay (with the keys every LAN relay announces)."""
    signature = key.sign(signed_bytes(room, game, seat, addresses, port))
    return {"room": room, "game": game.hex(), "seat": str(seat), "sig": signature.hex()}


def parse_announcement(name: str, props: dict[str, str], addresses: tuple[str, ...], port: int) -> RoomRelay | None:
    """An announcement of a room's relay, or None for any other service (a plain LAN relay, garbage)."""
    try:
        room, seat = props["room"], int(props["seat"])
        game, signature = bytes.fromhex(props["game"]), bytes.fromhex(props["sig"])
    except (KeyError, ValueError):
        return None
    if not addresses or not 0 < port < 65536 or not 0 <= seat < 64 or len(game) != 32 or len(signature) != 64:
        return None
    return RoomRelay(name, room, game, seat, tuple(addresses), port, signature)


def genuine(found: RoomRelay, room: str, table: TableLike | None) -> bool:
    """Is ``found`` signed by a seat still in this game (``table``: the genesis; None: not known yet)?"""
    if found.room != room:
        return False
    if table is None:
        return True  # nothing to check against yet; the genesis read there is checked as always
    if found.game != table.game_id or found.seat >= table.n or found.seat not in table.active():
        return False
    data = signed_bytes(found.room, found.game, found.seat, found.addresses, found.port)
    return verify(table.seats[found.seat].sign, data, found.signature)


class RoomWatch:
    """A zeroconf browser kept open for the whole game: every room announcement on the LAN, as it comes."""

    def __init__(self, interfaces: list[str] | None) -> None:
        self.interfaces = interfaces
        self.found: dict[str, RoomRelay] = {}
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: set[asyncio.Future[None]] = set()

    async def start(self) -> None:
        from relay.broker.discovery import _all_interfaces

        self._zc = AsyncZeroconf(interfaces=self.interfaces or _all_interfaces(), ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE, handlers=[self._changed])

    def _changed(self, zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self.found.pop(name, None)
            return
        keep(asyncio.ensure_future(self._resolve(name)), self._resolving)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        with contextlib.suppress(Exception):
            if not await info.async_request(self._zc.zeroconf, 1500):
                return
            props = {
                (k.decode(errors="replace") if isinstance(k, bytes) else str(k)): (
                    v.decode(errors="replace") if isinstance(v, bytes) else ""
                )
                for k, v in (info.properties or {}).items()
            }
            if TXT_KEY not in props:
                return
            found = parse_announcement(name, props, tuple(info.parsed_addresses(IPVersion.V4Only)), int(info.port or 0))
            if found is not None:
                self.found[name] = found

    async def close(self) -> None:
        for task in list(self._resolving):
            task.cancel()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await self._browser.async_cancel()
        if self._zc is not None:
            with contextlib.suppress(Exception):
                await self._zc.async_close()
        self._browser = self._zc = None


class Handover:
    """The LAN side of :class:`relay.transport.failover.FailoverTransport`: find the room's relay, or start one."""

    def __init__(
        self,
        session: SessionLike,
        key: SigningKey,
        *,
        interfaces: list[str] | None = None,
        stagger_s: float = STAGGER_S,
        linger_s: float = LINGER_S,
    ) -> None:
        self.session = session
        self.key = key
        self.interfaces = interfaces
        self.stagger_s = stagger_s
        self.linger_s = linger_s
        self.watch = RoomWatch(interfaces)
        #: The announced relay the game is on (None: the room's first relay, not announced per room).
        self.current: RoomRelay | None = None
        #: Relays tried and found dead (an announcement can outlive its relay by the record's TTL).
        self.failed: set[str] = set()
        self.relay: EmbeddedRelay | None = None  # the embedded relay this program started, if any
        self._advert: Advertisement | None = None
        #: Relays this program withdrew (another seat's won): stopped after the linger, or at close.
        self._retiring: dict[EmbeddedRelay, asyncio.TimerHandle] = {}
        self._stopping: set[asyncio.Future[None]] = set()
        self._transport: FailoverTransport | None = None
        self._settler: asyncio.Task[None] | None = None
        self._since = 0.0  # when the game went to ``current``

    @property
    def room(self) -> str:
        return str(self.session.room)

    async def start(self, transport: FailoverTransport) -> None:
        self._transport = transport
        if self._settler is None:
            await self.watch.start()
            self._settler = asyncio.ensure_future(self._settle())

    def candidates(self) -> list[RoomRelay]:
        """Genuine announcements of this room's relay that were not found dead, lowest seat first."""
        table = self.session.table
        found = self.watch.found.values()
        ok = [f for f in found if str(f.address) not in self.failed and genuine(f, self.room, table)]
        return sorted(ok, key=lambda f: (f.seat, f.addresses, f.port))

    def _rank(self, transport: FailoverTransport) -> int:
        """This seat's place among the seats that may start a relay (0: at once)."""
        table = self.session.table
        me = self.session.seat
        if table is None or me is None:
            return 8
        presence = transport.presence.values()
        ran_it = {p.info.get("seat") for p in presence if p.info.get("hosts_relay") and p.status == "online"}
        seats = [s for s in table.active() if s == me or s not in ran_it]
        return seats.index(me) if me in seats else len(seats)

    async def next_relay(self, transport: FailoverTransport) -> RelayAddress | None:
        """The relay to go to now that ``transport.address`` failed: an announced one, or our own."""
        self.failed.add(str(transport.address))
        if self.current is not None and str(self.current.address) == str(transport.address):
            self.current = None
        if self.relay is not None:  # we run one already (it cannot have died without us)
            return _own_address(self.relay)
        deadline = time.monotonic() + BROWSE_S + self._rank(transport) * self.stagger_s
        while True:
            for found in self.candidates():
                if await self._answers(found):
                    return self._go(found, transport)
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(0.25)
        return await self._start_relay(transport)

    async def _answers(self, found: RoomRelay) -> bool:
        try:
            await probe(found.address, PROBE_S)
        except RelayError:
            self.failed.add(str(found.address))
            return False
        return True

    def _go(self, found: RoomRelay, transport: FailoverTransport) -> RelayAddress:
        self.current = found
        self._since = time.monotonic()
        transport.presence_info.pop("hosts_relay", None)
        log.info("room %s: relay of seat %d at %s", self.room, found.seat, found.address)
        return found.address

    def describe(self) -> str:
        if self.current is None:
            return "no relay of the room found on the LAN yet"
        if self.relay is not None:
            return "the relay this seat started on the LAN"
        return f"seat {self.current.seat}'s relay, found on the LAN"

    async def _start_relay(self, transport: FailoverTransport) -> RelayAddress | None:
        """Start an embedded relay here and announce it for this room (signed by this seat)."""
        from relay.broker.embedded import EmbeddedRelay, RelayConfig

        table = self.session.table
        seat = self.session.seat
        if table is None or seat is None:
            return None  # without the genesis there is no game to announce: keep looking
        host = self.interfaces[0] if self.interfaces else "0.0.0.0"
        relay = EmbeddedRelay(RelayConfig(host=host, port=0, advertise=False))
        try:
            await relay.start()
        except OSError as exc:
            log.warning("room %s: cannot start a relay here (%s)", self.room, exc)
            return None
        addresses = tuple(local_addresses(self.interfaces))
        txt = {"sealed-table": "1", "proto": "mqtt311", "topics": topics.ROOT}
        txt.update(room_txt(self.room, table.game_id, seat, addresses, relay.port, self.key))
        try:
            self._advert = await advertise(
                f"Sealed Table room {self.room} seat {seat + 1}", relay.port, txt, interfaces=self.interfaces
            )
        except Exception as exc:  # no multicast: the relay still works for whoever is told its address
            log.warning("room %s: cannot announce the relay (%s)", self.room, exc)
        self.relay = relay
        self.current = RoomRelay("", self.room, table.game_id, seat, addresses, relay.port, b"")
        transport.presence_info["hosts_relay"] = True
        log.info("room %s: seat %d runs the room's relay now, on port %d", self.room, seat, relay.port)
        return _own_address(relay)

    async def _settle(self) -> None:
        """Keep to the relay of the lowest seat: if two started one, everybody ends on the same."""
        while True:
            await asyncio.sleep(1.0)
            transport, current = self._transport, self.current
            if transport is None or current is None:
                continue
            if self._withholds(current):
                others = [f for f in self.candidates() if str(f.address) != str(current.address)]
                self.failed.add(str(current.address))
                if others and await self._answers(others[0]):
                    log.info(
                        "room %s: no genesis from %s; trying seat %d's relay",
                        self.room,
                        current.address,
                        others[0].seat,
                    )
                    transport.move_to(self._go(others[0], transport))
                continue
            better = [f for f in self.candidates() if f.seat < current.seat]
            if not better or not await self._answers(better[0]):
                continue
            log.info(
                "room %s: seat %d's relay too; moving to the lower seat %d's", self.room, current.seat, better[0].seat
            )
            self._go(better[0], transport)
            transport.move_to(better[0].address)
            if self.relay is not None:
                await self._withdraw()

    def _withholds(self, current: RoomRelay) -> bool:
        """A relay taken without the genesis to check its announcement by, that has not brought the genesis
        after a while: maybe a stranger's, withholding the game; the next announcement is tried."""
        unchecked = self.session.table is None and self.relay is None
        return unchecked and time.monotonic() - self._since > WITHHELD_S

    async def _withdraw(self) -> None:
        """Stop announcing our relay; stop it once those who found it had time to move too."""
        advert, self._advert = self._advert, None
        relay, self.relay = self.relay, None  # withdrawn from now on, while the goodbyes go out
        if advert is not None:
            await advert.close()
        if relay is not None:
            loop = asyncio.get_running_loop()
            self._retiring[relay] = loop.call_later(self.linger_s, self._retire, relay)

    def _retire(self, relay: EmbeddedRelay) -> None:
        self._retiring.pop(relay, None)
        keep(asyncio.ensure_future(relay.stop()), self._stopping)

    async def close(self) -> None:
        """The game is over here: wait (a little) for the others to be done with our relay, then stop it."""
        if self._settler is not None:
            self._settler.cancel()
            self._settler = None
        if self.relay is not None and self._transport is not None:
            await others_done(self._transport, self.relay, self.linger_s)
        if self._advert is not None:
            await self._advert.close()
            self._advert = None
        if self.relay is not None:
            relay, self.relay = self.relay, None
            await relay.stop()
        for relay, timer in list(self._retiring.items()):  # the others left it long ago: the game is over
            timer.cancel()
            del self._retiring[relay]
            await relay.stop()
        if self._stopping:
            await asyncio.gather(*self._stopping, return_exceptions=True)
        await self.watch.close()


def _own_address(relay: EmbeddedRelay) -> RelayAddress:
    """Where this machine reaches the relay it runs."""
    host, _, port = relay.address.rpartition(":")
    return RelayAddress(host, int(port))


async def others_done(transport: RoomTransport, relay: EmbeddedRelay, timeout: float = LINGER_S) -> None:
    """Wait until every other peer's retained presence on ``relay`` (run by this program) says it is done,
    left or gone, at most ``timeout`` seconds.  Read on the relay itself: this peer's own connection is
    closed by now, so it hears no more presence."""
    room = transport.session.room
    seal = transport.seal
    parent = topics.presence(room, 0).rsplit("/", 1)[0] + "/"  # presence/{seat}: one topic a seat
    # Presence topics stand alone on the wire (no wildcard reads them): take the room's whole level
    # and keep what opens as a presence topic.
    prefix = seal.topic(topics.presence(room, 0)).rsplit("/", 2)[0] + "/"
    own = topics.presence(room, transport.session.seat) if transport.session.seat is not None else ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = []
        for wire, sealed in relay.retained(prefix).items():
            opened = seal.open(wire, sealed)
            if opened is None:
                continue
            topic, payload = opened
            if not topic.startswith(parent) or topic == own or not payload:
                continue
            try:
                info = msgpack.unpackb(payload, raw=False)
                statuses.append(str(info.get("status", "")) if isinstance(info, dict) else "")
            except Exception:
                statuses.append("")  # garbage in a presence topic holds nothing up for long: the timeout
        if all(status in ("done", "left", "gone") for status in statuses):
            return
        await asyncio.sleep(0.1)
