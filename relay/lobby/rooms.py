"""Rooms: a short code and an invitation, a signed lobby, seats the host decides, start.

The lobby is retained MQTT messages on an untrusted relay that anyone may write to, so every
message is signed (see :mod:`relay.lobby.messages`) and checked where it arrives:

- ``sealed/v1/room/{code}/card`` — the room's card, signed by the host (game, seats, the host's
  name and key, the answer time); copied to ``sealed/v1/lobby/{code}`` when the room is listed.
- ``sealed/v1/room/{code}/join/{peer}`` — a joiner's request, signed by the key in its seat card,
  or its signed withdrawal.
- ``sealed/v1/room/{code}/seats`` — the host's signed seat list: who sits where (with their cards),
  who waits for the host, who was refused; ``open``, ``started`` or ``closed``.

Trust.  The host's key is what a joiner pins: from an invitation (:mod:`relay.lobby.invitation`, the
key's fingerprint), or — with only a room code — from the card itself, after showing the host's
name and fingerprint to the player.  A joiner believes only a card and a seat list signed by that
key, asks only that host (its request names the host's key), and plays only a genesis by the seat-0
key the host's seat list names.  The host re-publishes its card and seat list, and a seated
joiner's request, whenever anything else overwrites them.

Seats.  The host decides who sits down: ``admit=False`` keeps every request waiting for
:meth:`RoomHost.accept` or :meth:`RoomHost.refuse` (and :meth:`RoomHost.remove` takes a seated
joiner out before the start); ``admit=True`` seats every valid request; a function decides per
request.  Seat 0 writes the genesis, so it always belongs to the host's machine: the host itself, or
a seat the host plays locally (a bot, :meth:`RoomHost.seat_local`).  The host may move to any free
seat; a joiner may ask for a free seat (``seat=``) and is refused with :class:`SeatTaken` when
someone holds it; without a wish a joiner gets the lowest free seat.  The room starts when every
seat is held and — if the host plays any seat locally, or asked for ``auto_start=False`` — when the
host calls :meth:`RoomHost.start`.  A bad request (not a seat card, a key already seated, not
signed, for another room) is dropped and its reason reported to ``on_note``, never raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import aiomqtt

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.address import RelayAddress, mqtt_client, parse_address
from relay.errors import (
    NoSuchSeat,
    Refused,
    RelayError,
    RelayUnreachable,
    RoomClosed,
    RoomFull,
    RoomNotFound,
    SeatTaken,
)
from relay.lobby.inbox import Inbox
from relay.lobby.invitation import ALPHABET, CODE_LENGTH, Invitation, fingerprint, new_code, normalize_code, strip_login
from relay.lobby.messages import Dropped, JoinRequest, LobbyCard, SeatList, open_message, try_card, withdrawal
from relay.lobby.seat_card import BadCard, check_card
from relay.probe import probe
from relay.transport.room import QUIET_S, RateLimit

__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "JoinRequest",
    "LobbyCard",
    "NoSuchSeat",
    "Refused",
    "RoomClosed",
    "RoomHost",
    "SeatTaken",
    "Seated",
    "join_room",
    "list_rooms",
    "new_code",
    "normalize_code",
    "peek_room",
]

#: Requests kept waiting for the host's decision at most (a stranger's flood is dropped beyond).
MAX_WAITING = 16
#: Refusals named in the seat list at most (the latest; each refused joiner hears it at once).
MAX_REFUSED_LISTED = 32
#: How long a joiner waits for a card signed by the pinned key when the relay holds another one.
PIN_WAIT = 6.0
#: Join requests of new joiners the host checks (seat card, signature) at once, then one per interval:
#: a stranger's flood of requests is dropped beyond it, and a real joiner asks again (JOIN_RETRY_S).
JOIN_BURST = 32
JOIN_INTERVAL_S = 0.05
#: A joiner the host's seat list does not name yet publishes its request again this often: a request
#: stored among a flood of retained garbage may never reach the host (Mosquitto drops what is beyond
#: its queue of a subscription's retained messages), a live one does.
JOIN_RETRY_S = 2.0
#: How long a joiner that leaves waits to see its withdrawal come back from the relay.
PASSED_ON_S = 2.0
#: Messages the host handles between two turns of the event loop, at most.
BATCH = 16


#: ``admit``: True (seat every valid request), False (the host decides), or a function of the request
#: returning True (seat it), False (refuse it) or None (let the host decide).
Admit = bool | Callable[[JoinRequest], bool | None]


@dataclass(frozen=True)
class Seated:
    """A joiner's place once the host confirmed it."""

    seat: int
    lobby: LobbyCard
    #: The signing key of seat 0, from the host's signed seat list: the only author of a genesis to accept.
    creator: bytes | None
    #: The host's key that signed the seat list (pinned, or taken from the card).
    host_key: bytes


def _client(address: RelayAddress, peer: str) -> aiomqtt.Client:
    return mqtt_client(address, "lobby", keepalive=10, timeout=10)  # client ids: 23 letters and digits at most


async def _read_retained(
    client: aiomqtt.Client, filters: list[str], peer: str, timeout: float, qos: int = 1
) -> dict[str, bytes]:
    """Subscribe and collect retained messages until our own marker is back and the relay is quiet.

    The marker is retained and its filter is the last of one SUBSCRIBE, so Mosquitto and amqtt send
    it after the retained messages of the other filters; Aedes may send it first and the rest
    right after, so the read ends only once nothing more came for a moment.  ``timeout`` bounds it all.
    ``qos`` is the subscription's for ``filters`` (the marker's is always 1).
    """
    marker_topic = topics.sync("lobby", peer)
    marker = os.urandom(8)
    await client.publish(marker_topic, marker, qos=1, retain=True)
    await client.subscribe([*((f, qos) for f in filters), (marker_topic, 1)])
    got: dict[str, bytes] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    marker_back = False
    inbox = Inbox(client)
    try:
        while True:
            left = deadline - loop.time()
            wait = min(QUIET_S, left) if marker_back else left
            if wait <= 0:
                break
            m = await inbox.next(wait)
            if m is None:
                break  # quiet after the marker (or no marker within the timeout)
            payload = _payload(m)
            if m.topic.value == marker_topic:
                marker_back = marker_back or payload == marker
                continue
            got[m.topic.value] = payload
    finally:
        inbox.close()
        with contextlib.suppress(aiomqtt.MqttError):
            await client.publish(marker_topic, b"", qos=1, retain=True)
    return got


async def _connect_checked(relay: str | RelayAddress, timeout: float) -> RelayAddress:
    address = parse_address(relay)
    await probe(address, timeout)
    return address


def _payload(m: aiomqtt.Message) -> bytes:
    return bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""


async def list_rooms(relay: str | RelayAddress, timeout: float = 4.0) -> list[LobbyCard]:
    """The open listed rooms of a relay (oldest first); cards not signed by the key they name are skipped."""
    address = await _connect_checked(relay, timeout)
    peer = "list" + os.urandom(4).hex()
    try:
        async with _client(address, peer) as client:
            # QoS 0: Mosquitto queues at most max_queued_messages (1,000 shipped) QoS 1 messages for
            # a client, so a flood of retained garbage stored first dropped every card after it.
            got = await _read_retained(client, [topics.LOBBY_FILTER], peer, timeout, qos=0)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {relay}: {exc}") from None
    cards = []
    for topic, payload in got.items():
        if not topic.startswith(f"{topics.ROOT}/lobby/"):  # (amqtt 0.12 sends other topics' retained messages too)
            continue
        code = topics.last_segment(topic)
        card = try_card(payload, code) if payload else None
        if card is not None and card.open and card.listed:
            cards.append(card)
    return sorted(cards, key=lambda c: (c.created, c.code))


def _pin(host_key: bytes | str | None) -> tuple[bytes | None, str | None]:
    """A pinned host: its key (32 bytes), or its fingerprint (text), or nothing."""
    if host_key is None or host_key == "":
        return None, None
    if isinstance(host_key, bytes):
        if len(host_key) != 32:
            raise RelayError("a host key is 32 bytes")
        return host_key, fingerprint(host_key)
    from relay.lobby.invitation import BadInvitation, normalize_fingerprint

    try:
        return None, normalize_fingerprint(host_key)
    except BadInvitation as exc:
        raise RelayError(str(exc)) from None


async def peek_room(
    relay: str | RelayAddress, code: str, host_key: bytes | str | None = None, timeout: float = 4.0
) -> LobbyCard:
    """Room ``code``'s signed card (by ``host_key`` when given: a key or a fingerprint), without asking for a seat.

    A joiner with only a room code shows the host's name and fingerprint from this card before it joins.
    """
    code = normalize_code(code)
    key, fp = _pin(host_key)
    address = await _connect_checked(relay, timeout)
    peer = "peek" + os.urandom(4).hex()
    try:
        async with _client(address, peer) as client:
            got = await _read_retained(client, [topics.room_card(code)], peer, timeout)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {relay}: {exc}") from None
    card = try_card(got.get(topics.room_card(code), b""), code, key)
    if card is None:
        raise RoomNotFound(f"there is no room {code} on relay {relay} (check the code, or the relay)")
    if fp is not None and card.fingerprint != fp:
        raise RoomNotFound(f"room {code} on relay {relay} is not by the host whose key is {fp}")
    return card


async def _cancelled(task: asyncio.Future[Any]) -> None:
    """Cancel ``task`` and wait until it has ended, asking again while it goes on.

    Under Python 3.11 ``asyncio.wait_for`` (inside aiomqtt's QoS 1 publish) loses a cancellation
    that arrives as the publish is confirmed, and the room's reader publishes while it handles a
    message: cancelled once, it could read on for ever and the room would never start.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    if not task.cancelled() and isinstance(task.exception(), aiomqtt.MqttError | None):
        return
    if not task.cancelled():
        task.result()  # a bug of the reader: not hidden


class RoomHost:
    """Open a room and gather seats: the host where it chooses (seat 0 at first), joiners where they ask.

    ``await host.gather()`` returns the seat cards (bytes, in seat order) once the room can start;
    the caller then creates the protocol session (seat 0's writes the genesis).  While gathering,
    :meth:`accept`, :meth:`refuse`, :meth:`remove`, :meth:`take_seat`, :meth:`seat_local`,
    :meth:`free_local` and :meth:`start` change the room from the same event loop (a window's
    buttons); every change is published at once (signed by ``key``), and ``on_change`` hears it.
    """

    def __init__(
        self,
        relay: str | RelayAddress,
        game: str,
        players: int,
        peer: str,
        name: str,
        card: bytes,
        *,
        key: SigningKey,
        code: str | None = None,
        on_change: Callable[[LobbyCard], None] | None = None,
        auto_start: bool = True,
        admit: Admit = True,
        listed: bool = True,
        timeout_ms: int = 0,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        try:
            check_card(card)
        except BadCard as exc:
            raise RelayError(f"the host's own seat card is bad: {exc}") from None
        self.relay = parse_address(relay)  # str() of it (cards, messages) never shows the password
        self.game = game
        self.players = players
        self.peer = topics.check_peer(peer)
        self.name = name
        self.key = key
        self.host_key = key.public_bytes()
        self.code = normalize_code(code) if code else new_code()
        self.on_change = on_change
        #: Start as soon as every seat is held by a person (a locally played seat always waits for :meth:`start`).
        self.auto_start = auto_start
        self.admit = admit
        self.listed = listed
        self.timeout_ms = timeout_ms
        self.on_note = on_note
        self.requests: dict[str, JoinRequest] = {peer: JoinRequest(peer, name, card)}
        self.seats: dict[str, int] = {peer: 0}
        #: Requests that wait for the host's decision (arrival order).
        self.waiting: dict[str, JoinRequest] = {}
        #: Refused peers, in the order refused (a dict used as an ordered set).
        self.refused: dict[str, None] = {}
        #: Peers whose seat this machine plays (bots).
        self.local: set[str] = set()
        #: Why messages were dropped, and what was put right (the latest 100).
        self.notes: deque[str] = deque(maxlen=100)
        #: How often something a stranger overwrote was published again.
        self.repairs = 0
        self.created = int(time.time())
        self._version = 0
        self._client: aiomqtt.Client | None = None
        self._wake: asyncio.Event | None = None
        self._start_asked = False
        self._started = False
        #: topic -> what should be retained there (ours, or a seated joiner's signed request)
        self._want: dict[str, bytes] = {}
        #: topic -> our publishes whose copy has not come back yet (in order)
        self._inflight: dict[str, deque[bytes]] = {}
        #: Set once the room's card and seat list are on the relay (a joiner can find the room from then on).
        self.opened = asyncio.Event()
        #: New joiners' requests checked at once, then a few a second (see :data:`JOIN_BURST`).
        self._join_budget = RateLimit(JOIN_BURST, JOIN_INTERVAL_S)
        #: Join requests dropped unread because too many came at once.
        self.requests_deferred = 0

    # -- what the room looks like -----------------------------------------------------------
    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    def invitation(self) -> Invitation:
        """What the host reads out or pastes: relay, room code, key fingerprint."""
        return Invitation(str(self.relay), self.code, self.fingerprint)

    def card(self, status: str = "open") -> LobbyCard:
        return LobbyCard(
            self.code,
            self.game,
            self.players,
            len(self.seats),
            self.name,
            strip_login(str(self.relay)),  # never the password: the card is public
            status,
            self.created,
            tuple(self.holder_name(s) for s in range(self.players)),
            self.host_key,
            self.timeout_ms,
            self.listed,
            self._version,
        )

    def holder(self, seat: int) -> str | None:
        """The peer holding ``seat``, or None."""
        return next((p for p, s in self.seats.items() if s == seat), None)

    def holder_name(self, seat: int) -> str:
        peer = self.holder(seat)
        req = self.requests.get(peer) if peer is not None else None
        return req.name if req is not None else ""

    @property
    def host_seat(self) -> int:
        return self.seats[self.peer]

    def free_seats(self) -> list[int]:
        taken = set(self.seats.values())
        return [s for s in range(self.players) if s not in taken]

    def full(self) -> bool:
        return len(self.seats) >= self.players and all(p in self.requests for p in self.seats)

    def ready(self) -> bool:
        """Every seat is held, and nobody needs to say "start" (or the host has said it)."""
        if not self.full():
            return False
        return self._start_asked or (self.auto_start and not self.local)

    def _note(self, text: str) -> None:
        self.notes.append(text)
        if self.on_note is not None:
            self.on_note(text)

    # -- the host's choices (from the window, on the same loop) -----------------------------------
    async def take_seat(self, seat: int) -> None:
        """The host moves to the free ``seat`` (seat 0, when left, is kept for a local seat)."""
        if seat not in self.free_seats():
            raise SeatTaken(f"seat {seat + 1} is not free")
        self.seats[self.peer] = seat
        await self._changed()

    async def seat_local(self, seat: int, peer: str, name: str, card: bytes) -> None:
        """Seat a player this machine runs (a bot with its own keys) at the free ``seat``."""
        topics.check_peer(peer)
        if seat not in self.free_seats():
            raise SeatTaken(f"seat {seat + 1} is not free")
        try:
            checked = check_card(card)
        except BadCard as exc:
            raise RelayError(f"a local seat's card is bad: {exc}") from None
        if self._key_in_use(checked.sign, checked.box):
            raise RelayError("that seat card's key already holds a seat")
        self.requests[peer] = JoinRequest(peer, name, card, seat)
        self.seats[peer] = seat
        self.local.add(peer)
        await self._changed()

    async def free_local(self, seat: int) -> None:
        """Take a locally played seat back (it becomes free for joiners)."""
        peer = self.holder(seat)
        if peer is None or peer not in self.local:
            return
        self._unseat(peer)
        await self._changed()

    async def set_timeout(self, timeout_ms: int) -> None:
        """The answer time the host chose while the room fills: the card shows it at once (the genesis fixes it)."""
        if self._started:
            raise RelayError("the game has started: its answer time is fixed")
        self.timeout_ms = int(timeout_ms)
        await self._changed()

    async def accept(self, peer: str) -> int:
        """Seat the waiting ``peer``: in the seat it asked for (:class:`SeatTaken` if that is taken now), else the
        lowest free seat."""
        req = self.waiting.get(peer)
        if req is None or self._started:
            raise RelayError(f"nobody called {peer} is waiting")
        seat = self._place(req)
        if seat is None:
            raise SeatTaken(f"no free seat for {req.name}") if req.seat is not None else RoomFull("every seat is taken")
        del self.waiting[peer]
        self.requests[peer] = req
        self.seats[peer] = seat
        await self._changed()
        return seat

    async def refuse(self, peer: str) -> None:
        """Turn the waiting ``peer`` away (it hears so)."""
        if self.waiting.pop(peer, None) is None:
            return
        self.refused[peer] = None
        self._want.pop(topics.join(self.code, peer), None)
        await self._changed()

    async def remove(self, peer: str) -> None:
        """Take a seated joiner out again before the start (it hears that it was refused)."""
        if peer == self.peer or peer in self.local or peer not in self.seats or self._started:
            return
        self._unseat(peer)
        self.refused[peer] = None
        await self._changed()

    def start(self) -> bool:
        """Start now (every seat must be held); False when a seat is still free."""
        if not self.full() or self.holder(0) not in ({self.peer} | self.local):
            return False
        self._start_asked = True
        if self._wake is not None:
            self._wake.set()
        return True

    def _unseat(self, peer: str) -> None:
        self.seats.pop(peer, None)
        self.requests.pop(peer, None)
        self.waiting.pop(peer, None)
        self.local.discard(peer)
        self._want.pop(topics.join(self.code, peer), None)

    async def _changed(self) -> None:
        if self._client is not None:
            await self._publish_state(self._client)
        elif self.on_change:
            self.on_change(self.card())
        if self._wake is not None:
            self._wake.set()

    def _key_in_use(self, sign: bytes, box: bytes) -> bool:
        for req in (*self.requests.values(), *self.waiting.values()):
            other = check_card(req.card)
            if other.sign == sign or other.box == box:
                return True
        return False

    # -- gathering ----------------------------------------------------------------------------
    def _watched(self) -> list[str]:
        own = [topics.room_card(self.code), topics.seats(self.code)]
        return [*own, topics.lobby(self.code)] if self.listed else own

    async def gather(self, timeout: float | None = None) -> list[bytes]:
        address = await _connect_checked(self.relay, 4.0)
        self._wake = asyncio.Event()
        try:
            async with _client(address, self.peer) as client:
                existing = await _read_retained(client, [*self._watched(), topics.lobby(self.code)], self.peer, 3.0)
                self._resume(existing)
                # QoS 0: the relay sends a flood of retained requests as one burst, not one acknowledgement
                # at a time (amqtt 0.12 held every other message back behind them).  Nothing is lost for
                # good: requests and withdrawals are retained, read again on the next connection, and a
                # joiner asks again (JOIN_RETRY_S) or waits to see its withdrawal passed on (PASSED_ON_S).
                await client.subscribe(topics.join_filter(self.code), qos=0)
                self._client = client
                await self._publish_state(client)
                self.opened.set()
                async with asyncio.timeout(timeout):  # not wait_for: see relay/lobby/inbox.py
                    await self._until_ready(client)
                self._started = True
                await self._publish_state(client, "started")
        except aiomqtt.MqttError as exc:
            raise RelayUnreachable(f"lost the relay {self.relay} while gathering seats: {exc}") from None
        except TimeoutError:
            raise RelayError(f"room {self.code}: not every seat was taken in time") from None
        finally:
            self._client = None
        order = sorted(self.seats.items(), key=lambda kv: kv[1])
        return [self.requests[p].card for p, _ in order]

    async def _until_ready(self, client: aiomqtt.Client) -> None:
        assert self._wake is not None
        reader = asyncio.ensure_future(self._collect(client))
        waiter: asyncio.Future[Any] | None = None
        try:
            while not self.ready():
                self._wake.clear()
                waiter = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait({reader, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if reader.done():
                    reader.result()  # the relay's error, if any
                    raise aiomqtt.MqttError("the relay closed the connection")
        finally:
            for task in (waiter, reader):
                if task is not None:
                    await _cancelled(task)

    def _resume(self, existing: dict[str, bytes]) -> None:
        """The room exists: carry on only if it is ours (a restarted host), keeping every seat given."""
        payload = existing.get(topics.seats(self.code), b"")
        try:
            seats = SeatList.decode(payload, self.code, self.host_key) if payload else None
        except Dropped:
            seats = None
        where = (topics.room_card(self.code), topics.lobby(self.code))
        cards = [try_card(existing.get(t, b""), self.code) for t in where]
        if seats is None or seats.status == "closed" or self.peer not in seats.seats:
            if any(c is not None and c.host_key != self.host_key for c in cards):
                raise RelayError(f"room {self.code} already exists on this relay; pick another code")
            return
        self._version = seats.version
        for peer, (seat, card) in seats.seats.items():
            with contextlib.suppress(BadCard):
                name = check_card(card).name
                self.requests.setdefault(peer, JoinRequest(peer, name, card, seat))
                self.seats[peer] = seat
        self.refused.update(dict.fromkeys(seats.refused))

    async def _send(self, client: aiomqtt.Client, topic: str, payload: bytes) -> None:
        """Publish retained, and remember it: what comes back on ``topic`` is then told apart from a stranger's."""
        self._want[topic] = payload
        self._inflight.setdefault(topic, deque()).append(payload)
        await client.publish(topic, payload, qos=1, retain=True)

    async def _publish_state(self, client: aiomqtt.Client, status: str = "open") -> None:
        self._version = max(self._version + 1, time.time_ns() // 1_000_000)
        seats = {p: (s, self.requests[p].card) for p, s in self.seats.items() if p in self.requests}
        # The latest refusals only: a stranger refused a thousand times must not make the list too long to read.
        refused = tuple(list(self.refused)[-MAX_REFUSED_LISTED:])
        listing = SeatList(self._version, status, seats, tuple(self.waiting), refused)
        card = self.card(status)
        if self.on_change:  # the window shows the change at once, not after three round trips
            self.on_change(card)
        encoded = card.encode(self.key)
        await self._send(client, topics.room_card(self.code), encoded)
        if self.listed:
            await self._send(client, topics.lobby(self.code), encoded)
        # The seat list last: a joiner that hears "started" from it has the card of the start already.
        await self._send(client, topics.seats(self.code), listing.encode(self.key, self.code))

    async def _guard(self, client: aiomqtt.Client, topic: str, payload: bytes, what: str) -> None:
        """``payload`` arrived on a topic whose retained copy we keep right: publish ours again if it is not ours.

        Our own publishes come back in order; a message that arrives while copies of ours are still on
        their way was stored before them (the relay keeps ours).  Anything else replaced ours.
        """
        inflight = self._inflight.setdefault(topic, deque())
        if inflight and inflight[0] == payload:
            inflight.popleft()
            return
        if inflight:
            return
        want = self._want.get(topic)
        if want is None or payload == want:
            return
        self.repairs += 1
        self._note(f"{what} was overwritten by someone else: published again")
        await self._send(client, topic, want)

    def _place(self, req: JoinRequest) -> int | None:
        """Where a new joiner sits: the seat asked for if free (never seat 0), else the lowest free one."""
        free = [s for s in self.free_seats() if s != 0]
        if req.seat is not None:
            return req.seat if req.seat in free else None
        return free[0] if free else None

    async def _collect(self, client: aiomqtt.Client) -> None:
        names = {topics.seats(self.code): "the seat list", topics.room_card(self.code): "the room card"}
        if self.listed:
            names[topics.lobby(self.code)] = "the lobby card"
        count = 0
        async for m in client.messages:
            count += 1
            if count % BATCH == 0:
                await asyncio.sleep(0)  # a flood of join requests must not stop the loop
            topic = m.topic.value
            payload = _payload(m)
            if topic in names:
                await self._guard(client, topic, payload, names[topic])
            elif m.topic.matches(topics.join_filter(self.code)):
                await self._on_join_topic(client, topic, payload)

    async def _on_join_topic(self, client: aiomqtt.Client, topic: str, payload: bytes) -> None:
        sender = topics.last_segment(topic)
        if sender == self.peer or sender in self.local or self._started:
            return
        inflight = self._inflight.get(topic)
        if inflight and inflight[0] == payload:  # our own copy of a joiner's request, put back, came back
            inflight.popleft()
            return
        try:
            opened = open_message(payload, ("join", "withdraw"), self.code)
            if opened.body["host"] != self.host_key:
                raise Dropped("a request for another host")
            known = sender in self.requests or sender in self.waiting
            if not known and not self._join_budget.take("new", time.monotonic()):
                # Checking the card and the signature is what costs: a flood gets a few of those a second.
                self.requests_deferred += 1
                if self.requests_deferred % 100 == 1:
                    self._note(f"join/{sender}: too many requests at once; read when its joiner asks again")
                return
            if opened.body["kind"] == "withdraw":
                await self._withdrawn(sender, opened)
                return
            req = replace(JoinRequest.decode(opened, sender), message=payload)
            await self._asked(sender, req)
        except Dropped as exc:
            if payload or topic in self._want:
                self._note(f"join/{sender}: dropped {exc}")
            if topic in self._want:
                await self._guard(client, topic, payload, f"the request of {sender}")

    async def _withdrawn(self, sender: str, opened: Any) -> None:
        known = self.requests.get(sender) or self.waiting.get(sender)
        if known is None:
            return
        if opened.body.get("peer") != sender or opened.body.get("nonce") != known.nonce:
            raise Dropped("a withdrawal of another request")
        if not opened.signed_by(known.sign_key):
            raise Dropped("a withdrawal not signed by the joiner's key")
        self._unseat(sender)
        await self._changed()

    async def _asked(self, sender: str, req: JoinRequest) -> None:
        topic = topics.join(self.code, sender)
        known = self.requests.get(sender) or self.waiting.get(sender)
        if known is not None:
            if known.message == req.message:
                return
            if known.sign_key != req.sign_key or known.card != req.card:
                raise Dropped(f"{sender} already asked with another seat card")
            store = self.requests if sender in self.requests else self.waiting
            store[sender] = replace(req, seat=known.seat if sender in self.seats else req.seat)
            self._want[topic] = req.message  # the same joiner asked again (after a restart): its seat stays
            return
        if sender in self.refused:
            raise Dropped(f"{sender} was refused earlier")
        card = check_card(req.card)
        if self._key_in_use(card.sign, card.box):
            raise Dropped("a seat card whose key already holds a seat or waits for one")
        decision = self.admit(req) if callable(self.admit) else (True if self.admit else None)
        if decision is False:
            self.refused[sender] = None
            self._note(f"join/{sender}: refused {req.name} (key {fingerprint(card.sign)})")
            await self._changed()
            return
        if decision is True:
            seat = self._place(req)
            if seat is None:
                raise Dropped("no free seat for it")  # the seat list tells the joiner so
            self.requests[sender] = req
            self.seats[sender] = seat
        else:
            if len(self.waiting) >= MAX_WAITING:
                raise Dropped(f"already {MAX_WAITING} requests wait for the host")
            self.waiting[sender] = req
        self._want[topic] = req.message
        await self._changed()

    async def close(self) -> None:
        """The game is over, or the host cancelled: take the card off the lobby and clear the room's topics."""
        address = parse_address(self.relay)
        with contextlib.suppress(aiomqtt.MqttError, OSError):
            async with _client(address, self.peer) as client:
                if not self._started:
                    self._version = max(self._version + 1, time.time_ns() // 1_000_000)
                    closed = SeatList(self._version, "closed").encode(self.key, self.code)
                    await client.publish(topics.seats(self.code), closed, qos=1, retain=True)
                for topic in (topics.lobby(self.code), topics.room_card(self.code)):
                    await client.publish(topic, b"", qos=1, retain=True)
                if not self._started:
                    await client.publish(topics.seats(self.code), b"", qos=1, retain=True)
                for peer in {*self.requests, *self.waiting, *self.refused}:
                    await client.publish(topics.join(self.code, peer), b"", qos=1, retain=True)


class _View:
    """What a joiner believes about a room: only what the pinned host signed, newest version first."""

    def __init__(self, code: str, pin: bytes | None, fp: str | None, note: Callable[[str], None]) -> None:
        self.code = code
        self.host_key = pin
        self.fp = fp
        self.note = note
        self.lobby: LobbyCard | None = None
        self.seats: SeatList | None = None
        self._seats_raw: bytes = b""
        self.any_card = False

    def current(self) -> LobbyCard:
        """The room card, with who sits where taken from the seat list (both signed by the host).

        The relay may deliver the card and the seat list of one change in either order; the names
        shown come from the same list as our seat, so they always agree.
        """
        assert self.lobby is not None
        if self.seats is None:
            return self.lobby
        names = [""] * self.lobby.seats_total
        for seat, card in self.seats.seats.values():
            if seat < len(names):
                with contextlib.suppress(BadCard):
                    names[seat] = check_card(card).name
        status = "started" if self.seats.status == "started" else self.lobby.status
        return replace(self.lobby, names=tuple(names), seats_taken=len(self.seats.seats), status=status)

    def take(self, topic: str, payload: bytes) -> bool:
        """Take one message of the room's card or seat topic; True if what we believe changed."""
        if topic == topics.room_card(self.code):
            return self._card(payload)
        if topic == topics.seats(self.code):
            self._seats_raw = payload
            return self._seat_list(payload)
        return False

    def _card(self, payload: bytes) -> bool:
        if not payload:
            if self.lobby is not None:
                self.note("an empty room card (not signed by the host): ignored")
            return False
        self.any_card = True
        try:
            card = LobbyCard.decode(payload, self.code, self.host_key)
        except Dropped as exc:
            self.note(f"room card dropped: {exc}")
            return False
        if self.host_key is None and self.fp is not None and card.fingerprint != self.fp:
            self.note("room card dropped: its key is not the invitation's")
            return False
        if self.lobby is not None and card.version < self.lobby.version:
            self.note("room card dropped: an older card than the one we have")
            return False
        first = self.host_key is None
        self.host_key, self.lobby = card.host_key, card
        if first and self._seats_raw:
            self._seat_list(self._seats_raw)
        return True

    def _seat_list(self, payload: bytes) -> bool:
        if self.host_key is None or not payload:
            return False
        try:
            seats = SeatList.decode(payload, self.code, self.host_key)
        except Dropped as exc:
            self.note(f"seat list dropped: {exc}")
            return False
        if self.seats is not None and seats.version <= self.seats.version:
            if seats.version < self.seats.version:
                self.note("seat list dropped: an older list than the one we have (replayed)")
            return False
        self.seats = seats
        return True


async def join_room(  # noqa: C901 (tests/test_complexity.py)
    relay: str | RelayAddress,
    code: str,
    peer: str,
    name: str,
    card: bytes,
    timeout: float = 60.0,
    *,
    key: SigningKey,
    host_key: bytes | str | None = None,
    seat: int | None = None,
    until_started: bool = False,
    on_update: Callable[[LobbyCard, int | None], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Seated:
    """Ask the host of room ``code`` for a seat (``seat``: a particular one); :class:`Seated` once it gives one.

    ``key`` signs the request (it is the signing key in ``card``; the name shown is the card's, ``name``
    is kept for callers of the older signature).  ``host_key`` pins the host: its
    public key, or its fingerprint from an invitation; without it the key named by the room's card is
    taken (and reported in the result, so the caller can show it).  With ``until_started`` it returns
    only when the host starts the game, reporting every change of the room to ``on_update(card, our
    seat or None)`` meanwhile; ``on_note`` hears every message dropped and why.  Raises
    :class:`RoomNotFound` (no such room by that host), :class:`RoomFull`, :class:`SeatTaken`,
    :class:`Refused` (the host said no) or :class:`RoomClosed` (the host cancelled) within seconds.
    If it fails or is cancelled after asking, the request is withdrawn (signed, so the seat is freed).
    """
    code = normalize_code(code)
    topics.check_peer(peer)
    pin, fp = _pin(host_key)
    if key.public_bytes() != _card_key(card):
        raise RelayError("the seat card does not hold this signing key")
    address = await _connect_checked(relay, 4.0)
    view = _View(code, pin, fp, on_note or (lambda _text: None))
    nonce = os.urandom(16)
    asked = False
    try:
        async with _client(address, peer) as client:
            try:
                got = await _read_retained(client, [topics.room_card(code), topics.seats(code)], peer, 4.0)
                for topic in (topics.room_card(code), topics.seats(code)):
                    view.take(topic, got.get(topic, b""))
                if view.lobby is None:
                    if not view.any_card:
                        raise RoomNotFound(f"there is no room {code} on relay {relay} (check the code, or the relay)")
                    with contextlib.suppress(TimeoutError):  # a stranger's card: the host puts its own back
                        async with asyncio.timeout(PIN_WAIT):
                            await _until_card(client, view)
                    if view.lobby is None:
                        raise RoomNotFound(f"room {code} on relay {relay} is not by the host whose key is {fp}")
                lobby, seats = view.current(), view.seats
                assert view.host_key is not None
                mine = seats.seat_of(peer, card) if seats is not None else None
                if mine is not None and (not until_started or (seats is not None and seats.status == "started")):
                    return Seated(mine, lobby, seats.creator() if seats else None, view.host_key)
                message = b""
                if mine is None:
                    _precheck(code, lobby, seats, peer, seat)
                    message = JoinRequest.make(key, code, view.host_key, peer, card, seat, nonce).message
                    asked = True
                    await client.publish(topics.join(code, peer), message, qos=1, retain=True)
                async with asyncio.timeout(timeout):  # not wait_for, which may swallow a cancellation
                    return await _await_seat(client, view, peer, card, seat, until_started, on_update, message)
            except BaseException:
                if asked and view.host_key is not None:  # withdraw: the host frees the seat it may have given us
                    gone = withdrawal(key, code, view.host_key, peer, nonce)
                    with contextlib.suppress(Exception):
                        await asyncio.shield(_publish_passed_on(client, topics.join(code, peer), gone))
                raise
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"lost the relay {relay} while joining room {code}: {exc}") from None
    except TimeoutError:
        raise RelayError(f"room {code}: the host did not confirm a seat within {timeout:g} s") from None


async def _publish_passed_on(client: aiomqtt.Client, topic: str, payload: bytes) -> None:
    """Publish retained, then wait (at most :data:`PASSED_ON_S`) until the relay sends it back to us.

    A PUBACK says the relay has the message, not that it passed it on: the embedded relay
    (amqtt 0.12) drops what it has not yet handed to its subscribers when the sender
    disconnects right after.  Our own copy coming back means it went out to the others too.
    """
    await client.subscribe(topic, qos=1)
    await client.publish(topic, payload, qos=1, retain=True)
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(PASSED_ON_S):
            async for m in client.messages:
                if m.topic.value == topic and _payload(m) == payload:
                    return


def _card_key(card: bytes) -> bytes:
    try:
        return check_card(card).sign
    except BadCard as exc:
        raise RelayError(f"our own seat card is bad: {exc}") from None


async def _until_card(client: aiomqtt.Client, view: _View) -> None:
    async for m in client.messages:
        view.take(m.topic.value, _payload(m))
        if view.lobby is not None:
            return


def _precheck(code: str, lobby: LobbyCard, seats: SeatList | None, peer: str, seat: int | None) -> None:
    """Refuse at once what the host's signed lists already say cannot be."""
    if seats is not None and seats.status == "closed":
        raise RoomClosed(f"the host closed room {code}")
    if seats is not None and peer in seats.refused:
        raise Refused(f"the host of room {code} did not let us in")
    taken = len(seats.seats) if seats is not None else lobby.seats_taken
    if not lobby.open or taken >= lobby.seats_total:
        raise RoomFull(f"room {code} is full ({taken} of {lobby.seats_total} seats taken)")
    if seat is not None and not 0 <= seat < lobby.seats_total:
        raise NoSuchSeat(f"room {code} has no seat {seat + 1}", lobby.seats_total)
    if seat is not None and (seat == 0 or (seats is not None and seat in seats.taken())):
        raise SeatTaken(f"seat {seat + 1} of room {code} is not free")


async def _await_seat(  # noqa: C901 (tests/test_complexity.py)
    client: aiomqtt.Client,
    view: _View,
    peer: str,
    card: bytes,
    wanted: int | None,
    until_started: bool,
    on_update: Callable[[LobbyCard, int | None], None] | None,
    request: bytes = b"",
) -> Seated:
    """Wait for the host's seat list to seat us; ``request`` (ours) is published again every
    :data:`JOIN_RETRY_S` while the list does not name us (it may never have reached the host)."""
    code = view.code
    assert view.lobby is not None and view.host_key is not None
    if on_update:
        on_update(view.current(), view.seats.seat_of(peer, card) if view.seats else None)
    async with Inbox(client) as inbox:
        loop = asyncio.get_running_loop()
        retry_at = loop.time() + JOIN_RETRY_S
        while True:
            try:
                m = await inbox.next(retry_at - loop.time())
            except StopAsyncIteration:
                break
            if m is None:
                seats = view.seats
                named = seats is not None and (peer in seats.seats or peer in seats.waiting or peer in seats.refused)
                if request and not named:
                    await client.publish(topics.join(code, peer), request, qos=1, retain=True)
                retry_at = loop.time() + JOIN_RETRY_S
                continue
            if not view.take(m.topic.value, _payload(m)):
                continue
            seats, lobby = view.seats, view.current()
            mine = seats.seat_of(peer, card) if seats is not None else None
            if on_update:
                on_update(lobby, mine)
            if seats is None:
                continue
            if seats.status == "closed":
                raise RoomClosed(f"the host closed room {code}")
            if peer in seats.refused:
                raise Refused(f"the host of room {code} did not let us in")
            if mine is not None:
                if not until_started or seats.status == "started":
                    return Seated(mine, lobby, seats.creator(), view.host_key)
                continue
            if seats.status == "started":
                raise RoomFull(f"room {code} started without us")
            if peer in seats.waiting:
                continue
            if wanted is not None and wanted in seats.taken():
                raise SeatTaken(f"seat {wanted + 1} of room {code} was taken by someone else")
            if len(seats.seats) >= lobby.seats_total:
                raise RoomFull(f"room {code} filled up before our request was seen")
        raise RelayError(f"room {code}: the relay closed the connection")
