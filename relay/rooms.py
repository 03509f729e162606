"""Rooms: a short code to read out over voice chat, a lobby card for listings, seats, start.

The lobby is plain retained MQTT messages; nothing here is trusted for the game itself.  The
seats a host confirms end up in the signed genesis entry (seat names and public keys), and
every peer checks that the genesis gives *its* seat *its* keys, so a lying relay or a stranger
posting a fake seat list can at worst stop a game from starting, never change who holds a seat.

Topics (see :mod:`relay.topics`):
- ``sealed/v1/lobby/{code}`` — retained :class:`LobbyCard` (msgpack); emptied when the game ends.
- ``sealed/v1/room/{code}/join/{peer}`` — retained join request: ``{peer, name, card}``.
- ``sealed/v1/room/{code}/seats`` — retained confirmation by the host: ``{peer: seat}``.

``card`` is opaque here (bytes): the protocol's seat card (name and public keys).

Seats.  Seat 0 writes the game's genesis, so it always belongs to the host's machine: the host
itself, or a seat the host plays *locally* (a bot with its own keys, :meth:`RoomHost.seat_local`).
The host may move to any free seat; a joiner may ask for a particular free seat (``seat=``) and is
refused with :class:`SeatTaken` when someone holds it; without a wish a joiner gets the lowest free
seat.  An emptied join request (a joiner who cancelled) frees that joiner's seat again.  The room
starts when every seat is held and — if the host plays any seat locally, or asked for
``auto_start=False`` — when the host calls :meth:`RoomHost.start`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import aiomqtt
import msgpack

from . import topics
from .address import RelayAddress, mqtt_client, parse_address
from .errors import NoSuchSeat, RelayError, RelayUnreachable, RoomClosed, RoomFull, RoomNotFound, SeatTaken
from .probe import probe
from .transport import QUIET_S

#: No 0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V: letters that survive being read out and typed back.
ALPHABET = "ACDEFGHJKMNPQRTWXY"
CODE_LENGTH = 6


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """What a player typed → a room code (case, spaces and dashes do not matter)."""
    code = "".join(c for c in text.upper() if c not in " -_")
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        raise RoomNotFound(f"{text!r} is not a room code (6 letters from {ALPHABET})")
    return code


@dataclass(frozen=True)
class LobbyCard:
    """What a relay's room list shows."""

    code: str
    game: str
    seats_total: int
    seats_taken: int
    host: str
    relay: str
    status: str = "open"  # open | started
    created: int = 0  # unix seconds, for operators' clean-up
    #: Who sits where (seat order; "" for a free seat), for joiners' seat lists.  Optional on the wire.
    names: tuple[str, ...] = ()

    @property
    def open(self) -> bool:
        return self.status == "open" and self.seats_taken < self.seats_total

    def encode(self) -> bytes:
        return msgpack.packb(asdict(self), use_bin_type=True)

    @classmethod
    def decode(cls, data: bytes) -> LobbyCard | None:
        """A card, or None for garbage (strangers can publish anything)."""
        try:
            raw = msgpack.unpackb(data, raw=False)
            fields = {k: raw[k] for k in cls.__dataclass_fields__ if k != "names"}
            names = raw.get("names") or ()
            card = cls(**fields, names=tuple(str(n)[:40] for n in names)[:16])
        except Exception:
            return None
        ints = (card.seats_total, card.seats_taken, card.created)
        if not all(isinstance(v, int) for v in ints) or not isinstance(card.game, str):
            return None
        return card


@dataclass(frozen=True)
class JoinRequest:
    peer: str
    name: str
    card: bytes
    #: The seat asked for (None: any free seat).
    seat: int | None = None

    def encode(self) -> bytes:
        body: dict[str, Any] = {"peer": self.peer, "name": self.name, "card": self.card}
        if self.seat is not None:
            body["seat"] = self.seat
        return msgpack.packb(body, use_bin_type=True)

    @classmethod
    def decode(cls, data: bytes) -> JoinRequest | None:
        try:
            raw = msgpack.unpackb(data, raw=False)
            seat = raw.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                return None
            req = cls(str(raw["peer"]), str(raw["name"])[:40], bytes(raw["card"]), seat)
            topics.check_peer(req.peer)
        except Exception:
            return None
        return req


def _client(address: RelayAddress, peer: str) -> aiomqtt.Client:
    return mqtt_client(address, "lobby", keepalive=10, timeout=10)  # client ids: 23 letters and digits at most


async def _read_retained(client: aiomqtt.Client, filters: list[str], peer: str, timeout: float) -> dict[str, bytes]:
    """Subscribe and collect retained messages until our own marker is back and the relay is quiet.

    The marker is retained and its filter is the last of one SUBSCRIBE, so Mosquitto and amqtt send
    it after the retained messages of the other filters; Aedes may send it first and the rest
    right after, so the read ends only once nothing more came for a moment.  ``timeout`` bounds it all.
    """
    marker_topic = topics.sync("lobby", peer)
    marker = os.urandom(8)
    await client.publish(marker_topic, marker, qos=1, retain=True)
    await client.subscribe([(f, 1) for f in [*filters, marker_topic]])
    got: dict[str, bytes] = {}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    marker_back = False
    messages = client.messages
    try:
        while True:
            left = deadline - loop.time()
            wait = min(QUIET_S, left) if marker_back else left
            if wait <= 0:
                break
            try:
                m = await asyncio.wait_for(messages.__anext__(), wait)
            except TimeoutError:
                break  # quiet after the marker (or no marker within the timeout)
            payload = bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
            if m.topic.value == marker_topic:
                marker_back = marker_back or payload == marker
                continue
            got[m.topic.value] = payload
    finally:
        with contextlib.suppress(aiomqtt.MqttError):
            await client.publish(marker_topic, b"", qos=1, retain=True)
    return got


async def _connect_checked(relay: str | RelayAddress, timeout: float) -> RelayAddress:
    address = parse_address(relay)
    await probe(address, timeout)
    return address


async def list_rooms(relay: str | RelayAddress, timeout: float = 4.0) -> list[LobbyCard]:
    """The open rooms of a relay (oldest first)."""
    address = await _connect_checked(relay, timeout)
    relay = str(address)  # what messages show: never the password
    peer = "list-" + os.urandom(4).hex()
    try:
        async with _client(address, peer) as client:
            got = await _read_retained(client, [topics.LOBBY_FILTER], peer, timeout)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {relay}: {exc}") from None
    cards = [LobbyCard.decode(v) for v in got.values() if v]
    return sorted((c for c in cards if c is not None and c.open), key=lambda c: (c.created, c.code))


class RoomHost:
    """Open a room and gather seats: the host where it chooses (seat 0 at first), joiners where they ask.

    ``await host.gather()`` returns the seat cards (bytes, in seat order) once the room can start;
    the caller then creates the protocol session (seat 0's writes the genesis).  While gathering,
    :meth:`take_seat`, :meth:`seat_local`, :meth:`free_local` and :meth:`start` change the room
    from the same event loop (a window's buttons); every change is published at once, and
    ``on_change`` hears it.  The host keeps the lobby card current for listings.
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
        code: str | None = None,
        on_change: Callable[[LobbyCard], None] | None = None,
        auto_start: bool = True,
    ) -> None:
        self.relay = parse_address(relay)  # str() of it (cards, messages) never shows the password
        self.game = game
        self.players = players
        self.peer = topics.check_peer(peer)
        self.name = name
        self.code = code or new_code()
        self.on_change = on_change
        #: Start as soon as every seat is held by a person (a locally played seat always waits for :meth:`start`).
        self.auto_start = auto_start
        self.requests: dict[str, JoinRequest] = {peer: JoinRequest(peer, name, card)}
        self.seats: dict[str, int] = {peer: 0}
        #: Peers whose seat this machine plays (bots): their join requests are ours.
        self.local: set[str] = set()
        self.created = int(time.time())
        self._client: aiomqtt.Client | None = None
        self._wake: asyncio.Event | None = None
        self._start_asked = False
        self._started = False

    # -- what the room looks like -----------------------------------------------------------
    def card(self, status: str = "open") -> LobbyCard:
        return LobbyCard(
            self.code,
            self.game,
            self.players,
            len(self.seats),
            self.name,
            str(self.relay),  # never the password: the card is public
            status,
            self.created,
            tuple(self.holder_name(s) for s in range(self.players)),
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

    def _seats_payload(self) -> bytes:
        return msgpack.packb(self.seats, use_bin_type=True)

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
        self.requests[peer] = JoinRequest(peer, name, card, seat)
        self.seats[peer] = seat
        self.local.add(peer)
        if self._client is not None:
            await self._client.publish(topics.join(self.code, peer), self.requests[peer].encode(), qos=1, retain=True)
        await self._changed()

    async def free_local(self, seat: int) -> None:
        """Take a locally played seat back (it becomes free for joiners)."""
        peer = self.holder(seat)
        if peer is None or peer not in self.local:
            return
        self._unseat(peer)
        if self._client is not None:
            await self._client.publish(topics.join(self.code, peer), b"", qos=1, retain=True)
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
        self.local.discard(peer)

    async def _changed(self) -> None:
        if self._client is not None:
            await self._publish_state(self._client)
        elif self.on_change:
            self.on_change(self.card())
        if self._wake is not None:
            self._wake.set()

    # -- gathering ----------------------------------------------------------------------------
    async def gather(self, timeout: float | None = None) -> list[bytes]:
        address = await _connect_checked(self.relay, 4.0)
        self._wake = asyncio.Event()
        try:
            async with _client(address, self.peer) as client:
                lobby, seats = topics.lobby(self.code), topics.seats(self.code)
                existing = await _read_retained(client, [lobby, seats], self.peer, 3.0)
                if existing.get(lobby):
                    self._resume(existing.get(seats, b""))
                await client.subscribe(topics.join_filter(self.code), qos=1)
                self._client = client
                for peer in sorted(self.local):
                    await client.publish(topics.join(self.code, peer), self.requests[peer].encode(), qos=1, retain=True)
                await self._publish_state(client)
                await asyncio.wait_for(self._until_ready(client), timeout)
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
                if task is not None and not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                        await task

    def _resume(self, seats_payload: bytes) -> None:
        """The room exists: carry on only if it is ours (a restarted host), keeping every seat given."""
        seats = _decode_seats(seats_payload)
        if self.peer not in seats:
            raise RelayError(f"room {self.code} already exists on this relay; pick another code")
        self.seats = dict(sorted(seats.items(), key=lambda kv: kv[1]))

    async def _publish_state(self, client: aiomqtt.Client, status: str = "open") -> None:
        await client.publish(topics.seats(self.code), self._seats_payload(), qos=1, retain=True)
        card = self.card(status)
        await client.publish(topics.lobby(self.code), card.encode(), qos=1, retain=True)
        if self.on_change:
            self.on_change(card)

    def _place(self, req: JoinRequest) -> int | None:
        """Where a new joiner sits: the seat asked for if free (never seat 0), else the lowest free one."""
        free = [s for s in self.free_seats() if s != 0]
        if req.seat is not None:
            return req.seat if req.seat in free else None
        return free[0] if free else None

    async def _collect(self, client: aiomqtt.Client) -> None:
        async for m in client.messages:
            if not m.topic.matches(topics.join_filter(self.code)):
                continue
            payload = bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
            sender = topics.last_segment(m.topic.value)
            if sender == self.peer or sender in self.local:
                continue
            if not payload:  # a joiner withdrew before the start: its seat is free again
                if sender in self.seats and not self._started:
                    self._unseat(sender)
                    await self._changed()
                continue
            req = JoinRequest.decode(payload)
            if req is None or req.peer != sender:
                continue
            if req.peer in self.seats:  # seated before a restart of the host: its card comes back retained
                self.requests.setdefault(req.peer, req)
                self._wake_up()
                continue
            seat = self._place(req)
            if seat is None:
                continue  # full, or the seat is taken: the seats message (which does not name them) tells them so
            self.requests[req.peer] = req
            self.seats[req.peer] = seat
            await self._changed()

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def close(self) -> None:
        """The game is over, or the host cancelled: take the card off the lobby and clear the room's topics."""
        address = parse_address(self.relay)
        with contextlib.suppress(aiomqtt.MqttError, OSError):
            async with _client(address, self.peer) as client:
                await client.publish(topics.lobby(self.code), b"", qos=1, retain=True)
                if not self._started:
                    await client.publish(topics.seats(self.code), b"", qos=1, retain=True)
                for peer in self.requests:
                    await client.publish(topics.join(self.code, peer), b"", qos=1, retain=True)


async def join_room(
    relay: str | RelayAddress,
    code: str,
    peer: str,
    name: str,
    card: bytes,
    timeout: float = 60.0,
    *,
    seat: int | None = None,
    until_started: bool = False,
    on_update: Callable[[LobbyCard, int | None], None] | None = None,
) -> tuple[int, LobbyCard]:
    """Ask for a seat (``seat``: a particular one) in room ``code``; (seat, lobby card) once the host confirms it.

    With ``until_started`` it returns only when the host starts the game, reporting every change of
    the room to ``on_update(card, our seat or None)`` meanwhile.  Raises :class:`RoomNotFound` (no such open room),
    :class:`RoomFull`, :class:`SeatTaken` or :class:`RoomClosed` (the host cancelled) within seconds.
    If it fails or is cancelled after asking, the request is withdrawn (the seat is free again).
    """
    code = normalize_code(code)
    topics.check_peer(peer)
    address = await _connect_checked(relay, 4.0)
    relay = str(address)  # what messages show: never the password
    asked = False
    try:
        async with _client(address, peer) as client:
            try:
                got = await _read_retained(client, [topics.lobby(code), topics.seats(code)], peer, 4.0)
                lobby = LobbyCard.decode(got.get(topics.lobby(code), b""))
                if lobby is None:
                    raise RoomNotFound(f"there is no room {code} on relay {relay} (check the code, or the relay)")
                seats = _decode_seats(got.get(topics.seats(code), b""))
                if peer in seats and (not until_started or lobby.status == "started"):
                    return seats[peer], lobby
                if peer not in seats:
                    if not lobby.open or len(seats) >= lobby.seats_total:
                        raise RoomFull(f"room {code} is full ({lobby.seats_taken} of {lobby.seats_total} seats taken)")
                    if seat is not None and not 0 <= seat < lobby.seats_total:
                        raise NoSuchSeat(f"room {code} has no seat {seat + 1}", lobby.seats_total)
                    if seat is not None and (seat == 0 or seat in seats.values()):
                        raise SeatTaken(f"seat {seat + 1} of room {code} is not free")
                    request = JoinRequest(peer, name, card, seat).encode()
                    asked = True
                    await client.publish(topics.join(code, peer), request, qos=1, retain=True)
                waiting = _await_seat(client, code, peer, lobby, seats, seat, until_started, on_update)
                return await asyncio.wait_for(waiting, timeout)
            except BaseException:
                if asked:  # withdraw: the host frees the seat it may have given us
                    with contextlib.suppress(Exception):
                        await asyncio.shield(client.publish(topics.join(code, peer), b"", qos=1, retain=True))
                raise
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"lost the relay {relay} while joining room {code}: {exc}") from None
    except TimeoutError:
        raise RelayError(f"room {code}: the host did not confirm a seat within {timeout:g} s") from None


async def _await_seat(
    client: aiomqtt.Client,
    code: str,
    peer: str,
    lobby: LobbyCard,
    seats: dict[str, int],
    wanted: int | None,
    until_started: bool,
    on_update: Callable[[LobbyCard, int | None], None] | None,
) -> tuple[int, LobbyCard]:
    if on_update:
        on_update(lobby, seats.get(peer))
    async for m in client.messages:
        payload = bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
        if m.topic.value == topics.lobby(code):
            if not payload:
                raise RoomClosed(f"the host closed room {code}")
            lobby = LobbyCard.decode(payload) or lobby
            if on_update:
                on_update(lobby, seats.get(peer))
        elif m.topic.value == topics.seats(code):
            seats = _decode_seats(payload)
            if peer not in seats:
                if wanted is not None and wanted in seats.values():
                    raise SeatTaken(f"seat {wanted + 1} of room {code} was taken by someone else")
                if len(seats) >= lobby.seats_total:
                    raise RoomFull(f"room {code} filled up before our request was seen")
                continue
        else:
            continue
        if peer in seats and (not until_started or lobby.status == "started"):
            return seats[peer], lobby
    raise RelayError(f"room {code}: the relay closed the connection")


def _decode_seats(data: bytes) -> dict[str, int]:
    if not data:
        return {}
    try:
        raw: Any = msgpack.unpackb(data, raw=False)
        return {str(k): int(v) for k, v in raw.items()}
    except Exception:
        return {}
