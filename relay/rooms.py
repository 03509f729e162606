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
from .errors import RelayError, RelayUnreachable, RoomFull, RoomNotFound
from .probe import parse_address, probe
from .transport import NODELAY

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
            card = cls(**{k: raw[k] for k in cls.__dataclass_fields__})
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

    def encode(self) -> bytes:
        return msgpack.packb({"peer": self.peer, "name": self.name, "card": self.card}, use_bin_type=True)

    @classmethod
    def decode(cls, data: bytes) -> JoinRequest | None:
        try:
            raw = msgpack.unpackb(data, raw=False)
            req = cls(str(raw["peer"]), str(raw["name"])[:40], bytes(raw["card"]))
            topics.check_peer(req.peer)
        except Exception:
            return None
        return req


def _client(host: str, port: int, peer: str) -> aiomqtt.Client:
    return aiomqtt.Client(
        host,
        port,
        identifier=f"st-lobby-{peer}-{os.urandom(3).hex()}",
        protocol=aiomqtt.ProtocolVersion.V311,
        clean_session=True,
        keepalive=10,
        timeout=10,
        socket_options=[NODELAY],
    )


async def _read_retained(client: aiomqtt.Client, filters: list[str], peer: str, timeout: float) -> dict[str, bytes]:
    """Subscribe and collect retained messages until our own marker comes back (or ``timeout``)."""
    marker_topic = topics.sync("lobby", peer)
    marker = os.urandom(8)
    for f in [*filters, marker_topic]:
        await client.subscribe(f, qos=1)
    await client.publish(marker_topic, marker, qos=1)
    got: dict[str, bytes] = {}

    async def collect() -> None:
        async for m in client.messages:
            payload = bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
            if m.topic.value == marker_topic:
                if payload == marker:
                    return
                continue
            got[m.topic.value] = payload

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(collect(), timeout)
    return got


async def _connect_checked(relay: str, timeout: float) -> tuple[str, int]:
    host, port = parse_address(relay)
    await probe(host, port, timeout)
    return host, port


async def list_rooms(relay: str, timeout: float = 4.0) -> list[LobbyCard]:
    """The open rooms of a relay (oldest first)."""
    host, port = await _connect_checked(relay, timeout)
    peer = "list-" + os.urandom(4).hex()
    try:
        async with _client(host, port, peer) as client:
            got = await _read_retained(client, [topics.LOBBY_FILTER], peer, timeout)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {relay}: {exc}") from None
    cards = [LobbyCard.decode(v) for v in got.values() if v]
    return sorted((c for c in cards if c is not None and c.open), key=lambda c: (c.created, c.code))


class RoomHost:
    """Open a room and gather seats: seat 0 is the host, the others in order of their requests.

    ``await host.gather()`` returns the seat cards (bytes, in seat order) once every seat is
    taken; the caller then creates the protocol session (which writes the genesis) and calls
    :meth:`started`.  The host keeps the lobby card current for listings.
    """

    def __init__(
        self,
        relay: str,
        game: str,
        players: int,
        peer: str,
        name: str,
        card: bytes,
        *,
        code: str | None = None,
        on_change: Callable[[LobbyCard], None] | None = None,
    ) -> None:
        self.relay = relay
        self.game = game
        self.players = players
        self.peer = topics.check_peer(peer)
        self.name = name
        self.code = code or new_code()
        self.on_change = on_change
        self.requests: dict[str, JoinRequest] = {peer: JoinRequest(peer, name, card)}
        self.seats: dict[str, int] = {peer: 0}
        self.created = int(time.time())

    def card(self, status: str = "open") -> LobbyCard:
        return LobbyCard(
            self.code, self.game, self.players, len(self.seats), self.name, self.relay, status, self.created
        )

    def _seats_payload(self) -> bytes:
        return msgpack.packb(self.seats, use_bin_type=True)

    async def gather(self, timeout: float | None = None) -> list[bytes]:
        host, port = await _connect_checked(self.relay, 4.0)
        try:
            async with _client(host, port, self.peer) as client:
                lobby, seats = topics.lobby(self.code), topics.seats(self.code)
                existing = await _read_retained(client, [lobby, seats], self.peer, 3.0)
                if existing.get(lobby):
                    self._resume(existing.get(seats, b""))
                await client.subscribe(topics.join_filter(self.code), qos=1)
                await self._publish_state(client)
                await asyncio.wait_for(self._collect(client), timeout)
        except aiomqtt.MqttError as exc:
            raise RelayUnreachable(f"lost the relay {self.relay} while gathering seats: {exc}") from None
        except TimeoutError:
            raise RelayError(f"room {self.code}: not every seat was taken in time") from None
        order = sorted(self.seats.items(), key=lambda kv: kv[1])
        return [self.requests[p].card for p, _ in order]

    def _resume(self, seats_payload: bytes) -> None:
        """The room exists: carry on only if it is ours (a restarted host), keeping every seat given."""
        seats = _decode_seats(seats_payload)
        if seats.get(self.peer) != 0:
            raise RelayError(f"room {self.code} already exists on this relay; pick another code")
        self.seats = dict(sorted(seats.items(), key=lambda kv: kv[1]))

    async def _publish_state(self, client: aiomqtt.Client, status: str = "open") -> None:
        await client.publish(topics.seats(self.code), self._seats_payload(), qos=1, retain=True)
        card = self.card(status)
        await client.publish(topics.lobby(self.code), card.encode(), qos=1, retain=True)
        if self.on_change:
            self.on_change(card)

    async def _collect(self, client: aiomqtt.Client) -> None:
        async for m in client.messages:
            if not m.topic.matches(topics.join_filter(self.code)):
                continue
            payload = bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b""
            req = JoinRequest.decode(payload) if payload else None
            if req is None or req.peer != topics.last_segment(m.topic.value) or req.peer == self.peer:
                continue
            if req.peer in self.seats:  # seated before a restart of the host: its card comes back retained
                self.requests.setdefault(req.peer, req)
            elif len(self.seats) >= self.players:
                continue  # full: the seats message (which does not name them) tells them so
            else:
                self.requests[req.peer] = req
                self.seats[req.peer] = len(self.seats)
                await self._publish_state(client, "open" if len(self.seats) < self.players else "started")
            if len(self.seats) >= self.players and all(p in self.requests for p in self.seats):
                return

    async def close(self) -> None:
        """The game is over: take the card off the lobby and clear the join topics."""
        host, port = parse_address(self.relay)
        with contextlib.suppress(aiomqtt.MqttError, OSError):
            async with _client(host, port, self.peer) as client:
                await client.publish(topics.lobby(self.code), b"", qos=1, retain=True)
                for peer in self.requests:
                    await client.publish(topics.join(self.code, peer), b"", qos=1, retain=True)


async def join_room(
    relay: str, code: str, peer: str, name: str, card: bytes, timeout: float = 60.0
) -> tuple[int, LobbyCard]:
    """Ask for a seat in room ``code``; returns (seat, lobby card) once the host confirms it.

    Raises :class:`RoomNotFound` (no such open room) or :class:`RoomFull` within seconds.
    """
    code = normalize_code(code)
    topics.check_peer(peer)
    host, port = await _connect_checked(relay, 4.0)
    try:
        async with _client(host, port, peer) as client:
            got = await _read_retained(client, [topics.lobby(code), topics.seats(code)], peer, 4.0)
            lobby = LobbyCard.decode(got.get(topics.lobby(code), b""))
            if lobby is None:
                raise RoomNotFound(f"there is no room {code} on relay {relay} (check the code, or the relay)")
            seats = _decode_seats(got.get(topics.seats(code), b""))
            if peer in seats:
                return seats[peer], lobby
            if not lobby.open or len(seats) >= lobby.seats_total:
                raise RoomFull(f"room {code} is full ({lobby.seats_taken} of {lobby.seats_total} seats taken)")
            await client.publish(topics.join(code, peer), JoinRequest(peer, name, card).encode(), qos=1, retain=True)
            return await asyncio.wait_for(_await_seat(client, code, peer, lobby), timeout)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"lost the relay {relay} while joining room {code}: {exc}") from None
    except TimeoutError:
        raise RelayError(f"room {code}: the host did not confirm a seat within {timeout:g} s") from None


async def _await_seat(client: aiomqtt.Client, code: str, peer: str, lobby: LobbyCard) -> tuple[int, LobbyCard]:
    async for m in client.messages:
        if m.topic.value == topics.lobby(code):
            new = LobbyCard.decode(bytes(m.payload)) if isinstance(m.payload, bytes | bytearray) else None
            lobby = new or lobby
        elif m.topic.value == topics.seats(code):
            seats = _decode_seats(bytes(m.payload) if isinstance(m.payload, bytes | bytearray) else b"")
            if peer in seats:
                return seats[peer], lobby
            if len(seats) >= lobby.seats_total:
                raise RoomFull(f"room {code} filled up before our request was seen")
    raise RelayError(f"room {code}: the relay closed the connection")


def _decode_seats(data: bytes) -> dict[str, int]:
    if not data:
        return {}
    try:
        raw: Any = msgpack.unpackb(data, raw=False)
        return {str(k): int(v) for k, v in raw.items()}
    except Exception:
        return {}
