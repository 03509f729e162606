"""Hosting a room: a short code and an invitation, a signed lobby, seats the host decides, start.

The lobby is retained MQTT messages on an untrusted relay that anyone may write to, so every
message is signed (see :mod:`relay.lobby.messages`) and checked where it arrives:

- ``sealed/v2/room/{code}/card`` — the room's card, signed by the host (game, seats, the host's
  name and key, the answer time); a listed room shows what it chose to list at ``sealed/v2/lobby/{door}``
  (:mod:`relay.lobby.door`: no code; strangers knock there) when the room is listed
  (:mod:`relay.lobby.listing` reads those).
- ``sealed/v2/room/{code}/join/{peer}`` — a joiner's request, signed by the key in its seat card,
  or its signed withdrawal (:mod:`relay.lobby.join` is the joiner's side).
- ``sealed/v2/room/{code}/seats`` — the host's signed seat list: who sits where (with their cards),
  who waits for the host, who was refused; ``open``, ``started`` or ``closed``.

The host re-publishes its card and seat list, and a seated joiner's request, whenever anything
else overwrites them.

On a relay that keeps no retained messages (:mod:`relay.retain_mode`) nothing of this is stored: the
host publishes its card and seat list again every :data:`LIVE_CARD_EVERY_S` while it gathers, and at
once when a joiner says hello (:data:`relay.lobby.messages.HELLO` on its ``join/{peer}`` topic),
so a joiner waiting for them live gets them within moments.

Seats.  The host decides who sits down: ``admit=False`` keeps every request waiting for
:meth:`RoomHost.accept` or :meth:`RoomHost.refuse` (and :meth:`RoomHost.remove` takes a seated
joiner out before the start); ``admit=True`` seats every valid request; a function decides per
request (:attr:`JoinRequest.invited` says whether it proved the invitation).  Seat 0 writes the
genesis, so it always belongs to the host's machine: the host itself, or a seat the host plays
locally (a bot, :meth:`RoomHost.seat_local`).  The host may move to any free seat; a joiner may ask
for a free seat (``seat=``) and is refused with :class:`relay.errors.SeatTaken` when someone holds
it; without a wish a joiner gets the lowest free seat.  The room starts when every seat is held and
— if the host plays any seat locally, or asked for ``auto_start=False`` — when the host calls
:meth:`RoomHost.start`.  A bad request (not a seat card, a key already seated, not signed, for
another room) is dropped and its reason reported to ``on_note``, never raised.

Invited and other requests wait apart.  Anyone who knows the room code (it is in the relay's
listing, or read over a shoulder) can send requests, and the host keeps only so many waiting; a
stranger's flood must not take the place of a friend's request.  A request that proves the
invitation's token (:func:`relay.lobby.invitation.invitation_proof`: only a holder of the link can
make one) waits among at most :data:`MAX_INVITED_WAITING` invited ones, and is checked before the
budget of new requests (:data:`JOIN_BURST`) that strangers share; every other request waits among
at most :data:`MAX_WAITING` of its own kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Literal, TypeVar

import aiomqtt

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.address import RelayAddress, parse_address
from relay.background import stopped
from relay.errors import RelayError, RelayUnreachable, RoomFull, SeatTaken
from relay.lobby.door import ListedRoom, door_of, knock_key, make_answer, open_knock
from relay.lobby.invitation import (
    CODE_LENGTH,
    LISTED_CODE_LENGTH,
    Invitation,
    fingerprint,
    invitation_token,
    new_code,
    normalize_code,
    readable,
    strip_login,
)
from relay.lobby.messages import (
    HELLO,
    Dropped,
    JoinRequest,
    LobbyCard,
    Opened,
    SeatList,
    open_message,
    proves_invitation,
    try_card,
)
from relay.lobby.retained import checked_address, lobby_client, payload_of, read_retained
from relay.lobby.seat_card import BadCard, check_card
from relay.mqtt import live_only
from relay.seal import RoomSeal
from relay.transport.room import RateLimit

#: Requests without the invitation kept waiting for the host's decision at most (a stranger's flood is
#: dropped beyond; its joiner asks again, :data:`relay.lobby.join.JOIN_RETRY_S`).
MAX_WAITING = 16
#: Requests that prove the invitation kept waiting at most, apart from the others: no stranger can
#: take one of these places (only a holder of the link makes such a request).
MAX_INVITED_WAITING = 16
#: Refusals named in the seat list at most (the latest; each refused joiner hears it at once).
MAX_REFUSED_LISTED = 32
#: Join requests of new joiners the host checks (seat card, signature) at once, then one per interval:
#: a stranger's flood of requests is dropped beyond it, and a real joiner asks again
#: (:data:`relay.lobby.join.JOIN_RETRY_S`).
JOIN_BURST = 32
JOIN_INTERVAL_S = 0.05
#: Messages the host handles between two turns of the event loop, at most.
BATCH = 16
#: How long the host waits, at most, to see its "started" seat list passed on by the relay.
STARTED_PASSED_ON_S = 10.0
#: Live only (a relay that keeps no retained messages): the host's card and seat list again this often
#: while it gathers, and at most HELLO_BURST answers to joiners' hellos at once, then one per interval.
LIVE_CARD_EVERY_S = 2.0
HELLO_BURST = 2
HELLO_INTERVAL_S = 0.5

#: ``admit``: True (seat every valid request), False (the host decides), or a function of the request
#: returning True (seat it), False (refuse it) or None (let the host decide).
Admit = bool | Callable[[JoinRequest], bool | None]

_T = TypeVar("_T")


async def _cancelled(task: asyncio.Future[_T]) -> None:
    """Cancel ``task`` and wait until it has ended, asking again while it goes on.

    Under Python 3.11 ``asyncio.wait_for`` (inside aiomqtt's QoS 1 publish) loses a cancellation
    that arrives as the publish is confirmed, and the room's reader publishes while it handles a
    message: cancelled once, it could read on for ever and the room would never start.
    """
    await stopped(task)
    if not task.cancelled() and isinstance(task.exception(), aiomqtt.MqttError | None):
        return
    if not task.cancelled():
        task.result()  # a bug of the reader: not hidden


def _cancellation_kept() -> None:
    """Raise the cancellation this task was asked for and did not hear.

    aiomqtt's QoS 1 publish waits with ``asyncio.wait_for``, which on Python 3.11 loses a
    cancellation that arrives as the publish is confirmed: a host cancelled while it publishes its
    seat list would go on waiting for joiners until its own timeout.  Before each wait it asks.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


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
        self.code = normalize_code(code) if code else new_code(LISTED_CODE_LENGTH if listed else CODE_LENGTH)
        if listed and len(self.code) != LISTED_CODE_LENGTH:
            raise RelayError(f"a listed room's code has {LISTED_CODE_LENGTH} letters: its listing must not be searched")
        #: The invitation's secret (from the key and the code: the same after a restart); never published.
        self.token = invitation_token(key, self.code)
        #: The room's keys on the relay (:mod:`relay.seal`): everything but the listing is sealed.
        self.seal = RoomSeal.for_host_key(self.code, self.host_key)
        #: A listed room's door in the public listing, and the key strangers' knocks are sealed to.
        self.door = door_of(self.code, self.host_key)
        self._door_key = knock_key(key, self.code)
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
        #: Set while every seat list we published has come back from the relay: passed on to its
        #: subscribers, not just acknowledged (a PUBACK says only that the relay has it).
        self._seats_passed_on = asyncio.Event()
        #: New joiners' requests checked at once, then a few a second (see :data:`JOIN_BURST`).
        self._join_budget = RateLimit(JOIN_BURST, JOIN_INTERVAL_S)
        self._hello_budget = RateLimit(HELLO_BURST, HELLO_INTERVAL_S)
        #: Joiners' hellos answered (a relay that keeps no retained messages).
        self.hellos = 0
        #: Join requests dropped unread because too many came at once.
        self.requests_deferred = 0

    # -- what the room looks like -----------------------------------------------------------
    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    def invitation(self) -> Invitation:
        """What the host reads out or pastes: relay, room code, key fingerprint (and, in the link, the token)."""
        return Invitation(str(self.relay), self.code, self.fingerprint, token=self.token)

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

    def listing(self, status: str = "open") -> ListedRoom:
        """What the relay's listing shows of a listed room: no code, no names of those seated."""
        return ListedRoom(
            self.door,
            self.game,
            self.players,
            len(self.seats),
            self.name,
            self.host_key,
            self._door_key.public_key().public_bytes_raw(),
            status,
            self.created,
            self.timeout_ms,
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
        await self._answer(req, let_in=True)
        return seat

    async def refuse(self, peer: str) -> None:
        """Turn the waiting ``peer`` away (it hears so)."""
        req = self.waiting.pop(peer, None)
        if req is None:
            return
        self.refused[peer] = None
        self._want.pop(topics.join(self.code, peer), None)
        await self._changed()
        await self._answer(req, let_in=False)

    async def _answer(self, req: JoinRequest, let_in: bool) -> None:
        """Tell a stranger who knocked (:mod:`relay.lobby.door`) that it is in (with the code) or turned away."""
        if not req.knock or self._client is None:
            return
        answer = make_answer(self._door_key, self.door, req, self.code if let_in else None)
        await self._client.publish(topics.answer(self.door, req.peer), answer, qos=1, retain=True)

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
        return [*own, topics.lobby(self.door)] if self.listed else own

    async def gather(self, timeout: float | None = None) -> list[bytes]:
        address = await checked_address(self.relay, 4.0)
        self._wake = asyncio.Event()
        try:
            async with lobby_client(address, self.seal) as client:
                existing = await read_retained(
                    client, self._watched(), self.peer, 3.0
                )  # an unlisted room names no listing
                self._resume(existing)
                # QoS 0: the relay sends a flood of retained requests as one burst, not one acknowledgement
                # at a time (amqtt 0.12 held every other message back behind them).  Nothing is lost for
                # good: requests and withdrawals are retained, read again on the next connection, and a
                # joiner asks again (JOIN_RETRY_S) or waits to see its withdrawal passed on (PASSED_ON_S).
                await client.subscribe(topics.join_filter(self.code), qos=0)
                if self.listed:
                    await client.subscribe(topics.knock_filter(self.door), qos=0)
                self._client = client
                await self._publish_state(client)
                async with asyncio.timeout(timeout):  # not wait_for: see relay/lobby/inbox.py
                    await self._until_started(client)
        except aiomqtt.MqttError as exc:
            raise RelayUnreachable(f"lost the relay {self.relay} while gathering seats: {exc}") from None
        except TimeoutError:
            raise RelayError(f"room {self.code}: not every seat was taken in time") from None
        finally:
            self._client = None
        order = sorted(self.seats.items(), key=lambda kv: kv[1])
        return [self.requests[p].card for p, _ in order]

    async def _until_started(self, client: aiomqtt.Client) -> None:
        """Read the room's messages until it is ready; then publish "started" and read on until the relay
        has passed that seat list on.

        The relay acknowledges a publication when it has it, and may pass it on later: the embedded relay
        (amqtt 0.12) drops what it has not passed on yet when its sender disconnects.  A host that closed
        this connection at the acknowledgement could leave a seated joiner waiting for a start that never
        came.  Our own copy coming back means it went out to the others too.
        """
        reader = asyncio.ensure_future(self._collect(client))
        beat = asyncio.ensure_future(self._live_beat(client)) if live_only(client) else None
        try:
            await self._until(reader, self.ready)
            self._started = True
            await self._publish_state(client, "started")
            with contextlib.suppress(TimeoutError):  # a relay that never sends it back has it all the same
                async with asyncio.timeout(STARTED_PASSED_ON_S):
                    await self._until(reader, self._seats_passed_on.is_set)
        finally:
            if beat is not None:
                await _cancelled(beat)
            await _cancelled(reader)

    async def _hello(self, client: aiomqtt.Client) -> None:
        """A joiner's hello on a relay that keeps nothing: it waits for our card and seat list, live
        (a flood of hellos gets :data:`HELLO_BURST` answers, then one per interval)."""
        if self._hello_budget.take("hello", time.monotonic()):
            self.hellos += 1
            await self._republish(client)

    async def _live_beat(self, client: aiomqtt.Client) -> None:
        """Live only: the card and seat list again every :data:`LIVE_CARD_EVERY_S` (no relay keeps them)."""
        while True:
            await asyncio.sleep(LIVE_CARD_EVERY_S)
            await self._republish(client)

    async def _republish(self, client: aiomqtt.Client) -> None:
        """Live only: our latest card (and listing copy) and seat list again, as they were signed."""
        own = [
            topics.room_card(self.code),
            *([topics.lobby(self.code)] if self.listed else []),
            topics.seats(self.code),
        ]
        for topic in own:  # the seat list last, as _publish_state sends them
            payload = self._want.get(topic)
            if payload is not None:
                await self._send(client, topic, payload)

    async def _until(self, reader: asyncio.Future[None], done: Callable[[], bool]) -> None:
        """Wait until ``done()`` holds, asking again at every change; the relay's error if ``reader`` ends first."""
        assert self._wake is not None
        waiter: asyncio.Task[Literal[True]] | None = None
        try:
            while not done():
                _cancellation_kept()
                self._wake.clear()
                waiter = asyncio.ensure_future(self._wake.wait())
                await asyncio.wait((reader, waiter), return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if reader.done():
                    reader.result()  # the relay's error, if any
                    raise aiomqtt.MqttError("the relay closed the connection")
        finally:
            if waiter is not None:
                await _cancelled(waiter)

    def _resume(self, existing: dict[str, bytes]) -> None:
        """The room exists: carry on only if it is ours (a restarted host), keeping every seat given."""
        payload = existing.get(topics.seats(self.code), b"")
        try:
            seats = SeatList.decode(payload, self.code, self.host_key) if payload else None
        except Dropped:
            seats = None
        cards = [try_card(existing.get(topics.room_card(self.code), b""), self.code)]
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
        if topic == topics.seats(self.code):
            self._seats_passed_on.clear()
        await client.publish(topic, payload, qos=1, retain=True)

    def _came_back(self, topic: str) -> None:
        """One of our publishes on ``topic`` came back: once every seat list has, the room is as we said."""
        if topic != topics.seats(self.code) or self._inflight.get(topic):
            return
        self._seats_passed_on.set()
        self.opened.set()
        if self._wake is not None:
            self._wake.set()

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
            await self._send(client, topics.lobby(self.door), self.listing(status).encode(self.key))
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
            self._came_back(topic)
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
            names[topics.lobby(self.door)] = "the listing card"
        count = 0
        async for m in client.messages:
            count += 1
            if count % BATCH == 0:
                await asyncio.sleep(0)  # a flood of join requests must not stop the loop
            topic = m.topic.value
            payload = payload_of(m)
            if topic in names:
                await self._guard(client, topic, payload, names[topic])
            elif payload == HELLO and live_only(client) and m.topic.matches(topics.join_filter(self.code)):
                await self._hello(client)
            elif m.topic.matches(topics.join_filter(self.code)):
                await self._on_join_topic(client, topic, payload)
            elif self.listed and m.topic.matches(topics.knock_filter(self.door)):
                await self._on_knock(topic, payload)

    async def _on_knock(self, topic: str, payload: bytes) -> None:
        """A stranger from the listing asks in: decided as any request, answered on its own topic."""
        sender = topics.last_segment(topic)
        if sender == self.peer or sender in self.local or self._started or not payload:
            return
        try:
            known = sender in self.requests or sender in self.waiting
            if not known and not self._join_budget.take("new", time.monotonic()):
                self.requests_deferred += 1
                return
            req = open_knock(self._door_key, self.door, self.host_key, payload, sender)
            before = sender in self.seats
            await self._asked(sender, req)
            if not before and sender in self.seats:
                await self._answer(req, let_in=True)
            elif sender in self.refused:
                await self._answer(req, let_in=False)
        except (Dropped, topics.TopicError) as exc:
            self._note(f"knock/{sender}: dropped {exc}")

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
            if opened.host != self.host_key:
                raise Dropped("a request for another host")
            known = sender in self.requests or sender in self.waiting
            # An invited request skips the strangers' budget: its proof costs one HMAC to check.
            invited = proves_invitation(opened, self.token)
            if not known and not invited and not self._join_budget.take("new", time.monotonic()):
                # Checking the card and the signature is what costs: a flood gets a few of those a second.
                self.requests_deferred += 1
                if self.requests_deferred % 100 == 1:
                    self._note(f"join/{sender}: too many requests at once; read when its joiner asks again")
                return
            if opened.body["kind"] == "withdraw":
                await self._withdrawn(sender, opened)
                return
            req = replace(JoinRequest.decode(opened, sender, self.token), message=payload)
            await self._asked(sender, req)
        except Dropped as exc:
            if payload or topic in self._want:
                self._note(f"join/{sender}: dropped {exc}")
            if topic in self._want:
                await self._guard(client, topic, payload, f"the request of {sender}")

    async def _withdrawn(self, sender: str, opened: Opened) -> None:
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
            self._note(f"join/{sender}: refused {req.name} (key {readable(fingerprint(card.sign))})")
            await self._changed()
            return
        if decision is True:
            seat = self._place(req)
            if seat is None:
                raise Dropped("no free seat for it")  # the seat list tells the joiner so
            self.requests[sender] = req
            self.seats[sender] = seat
        else:
            self._wait(sender, req)
        if req.message:
            self._want[topic] = req.message
        await self._changed()

    def _wait(self, sender: str, req: JoinRequest) -> None:
        """Keep ``req`` for the host's decision, among the invited requests or the others (each bounded)."""
        same_kind = sum(1 for w in self.waiting.values() if w.invited == req.invited)
        if req.invited and same_kind >= MAX_INVITED_WAITING:
            raise Dropped(f"already {MAX_INVITED_WAITING} invited requests wait for the host")
        if not req.invited and same_kind >= MAX_WAITING:
            raise Dropped(f"already {MAX_WAITING} requests without the invitation wait for the host")
        self.waiting[sender] = req

    async def close(self) -> None:
        """The game is over, or the host cancelled: take the card off the lobby and clear the room's topics."""
        address = parse_address(self.relay)
        with contextlib.suppress(aiomqtt.MqttError, OSError):
            async with lobby_client(address, self.seal) as client:
                if not self._started:
                    self._version = max(self._version + 1, time.time_ns() // 1_000_000)
                    closed = SeatList(self._version, "closed").encode(self.key, self.code)
                    await client.publish(topics.seats(self.code), closed, qos=1, retain=True)
                for topic in (*([topics.lobby(self.door)] if self.listed else []), topics.room_card(self.code)):
                    await client.publish(topic, b"", qos=1, retain=True)
                if not self._started:
                    await client.publish(topics.seats(self.code), b"", qos=1, retain=True)
                for peer in {*self.requests, *self.waiting, *self.refused}:
                    await client.publish(topics.join(self.code, peer), b"", qos=1, retain=True)
                    if self.listed:  # a stranger's knock and our answer at the door go with the room
                        for topic in (topics.knock(self.door, peer), topics.answer(self.door, peer)):
                            await client.publish(topic, b"", qos=1, retain=True)
