"""Rematch: after a network game, the same players in a fresh room on the same relay, in the same seats.

The players of the finished game answer, and the machine that holds seat 0 (it writes every
genesis, so it hosts again) opens the new room once everyone said yes.  The messages are signed
lobby messages (:mod:`relay.lobby.messages`: the same format and signing domain), retained in the
finished room's topic tree:

- ``room/{old}/rematch/{seat}`` — a seat's answer, signed by that seat's key in the finished
  game's genesis: ``{"kind": "rematch", "room", "host": seat 0's key, "game": the game's id,
  "v": grows with every answer, "seat", "accept": yes or no, "key": the signing key of the seat card
  it will bring to the new room}``.  A player may change their mind; the highest ``v`` counts, so an
  older answer put back by a stranger is seen as old.
- ``room/{old}/rematch/room`` — the new room, signed by seat 0's key: ``{"kind": "rematch-room",
  "room", "host", "game", "v", "code": the new room's code, "host_key": the key that signs the new
  room's card and seat list}`` (the joiners pin it, as an invitation's fingerprint would).

Everything is bound to one game (``game`` is its genesis digest) of one room, so nothing said about
an earlier game in a room of the same code counts.  Anyone may overwrite a retained topic: what is
not signed by the right seat's key is dropped (its reason noted), and :class:`RematchChannel`
publishes its own messages again when they are overwritten.  The host lets into the new room only
the seat cards whose keys the answers named, each in its old seat.

On a relay that keeps no retained messages (:mod:`relay.retain_mode`) nothing is stored for a seat
that comes to the rematch later: each channel says its own messages again every
:data:`LIVE_REPEAT_S` while it runs, and they reach the others live.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import aiomqtt

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.address import RelayAddress, parse_address
from relay.lobby.messages import Dropped, Opened, open_message, seal
from relay.mqtt import live_only, mqtt_client
from relay.retained_probe import learn_retained
from relay.seal import RoomSeal

ROOM_PART = "room"
#: Seconds between two attempts to reach the relay again.
RETRY_S = 1.0
#: Live only (a relay that keeps no retained messages): our messages said again this often.
LIVE_REPEAT_S = 2.0


@dataclass(frozen=True)
class Answer:
    """A seat's yes or no, and the key of the seat card it will bring (yes only)."""

    seat: int
    accept: bool
    key: bytes
    version: int


@dataclass(frozen=True)
class NewRoom:
    """The room seat 0's machine opened for the rematch."""

    code: str
    host_key: bytes
    version: int


def _version() -> int:
    return time.time_ns() // 1000


def _common(opened: Opened, game_id: bytes, creator: bytes) -> int:
    body = opened.body
    if body.get("host") != creator:
        raise Dropped("a rematch message about another game's seat 0")
    if body.get("game") != game_id:
        raise Dropped("a rematch message about another game")
    version = body.get("v")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise Dropped("a rematch message without its version")
    return version


def read_answer(data: bytes, room: str, game_id: bytes, seat: int, seat_keys: Sequence[bytes]) -> Answer:
    """The answer of ``seat`` (the topic's), signed by its key in the finished game; :class:`Dropped` otherwise."""
    opened = open_message(data, ("rematch",), room)
    version = _common(opened, game_id, seat_keys[0])
    if opened.body.get("seat") != seat:
        raise Dropped(f"an answer on rematch/{seat} for another seat")
    if not opened.signed_by(seat_keys[seat]):
        raise Dropped(f"an answer not signed by seat {seat + 1}'s key")
    accept, key = opened.body.get("accept"), opened.body.get("key")
    if not isinstance(accept, bool) or not isinstance(key, bytes) or len(key) != 32:
        raise Dropped("an answer of the wrong shape")
    return Answer(seat, accept, key, version)


def read_room(data: bytes, room: str, game_id: bytes, seat_keys: Sequence[bytes]) -> NewRoom:
    """The new room, signed by seat 0's key in the finished game; :class:`Dropped` otherwise."""
    opened = open_message(data, ("rematch-room",), room)
    version = _common(opened, game_id, seat_keys[0])
    if not opened.signed_by(seat_keys[0]):
        raise Dropped("a new room not signed by seat 1's key")
    code, host_key = opened.body.get("code"), opened.body.get("host_key")
    if not isinstance(code, str) or not isinstance(host_key, bytes) or len(host_key) != 32:
        raise Dropped("a new room of the wrong shape")
    try:
        topics.check_room(code)
    except topics.TopicError as exc:
        raise Dropped(str(exc)) from None
    return NewRoom(code, host_key, version)


def topic(room: str, part: str) -> str:
    return topics.rematch(room, part)


class RematchChannel:
    """The rematch talk of one finished game: every seat's answer, the new room, ours kept in place.

    ``await channel.run()`` holds one relay connection (reconnecting while the relay is away) until
    :meth:`stop`; :meth:`answer` and :meth:`announce` may be called before or while it runs, from the
    same event loop.  ``on_change()`` is called whenever what we know changed.
    """

    def __init__(
        self,
        relay: str | RelayAddress,
        room: str,
        game_id: bytes,
        seat_keys: Sequence[bytes],
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.address = parse_address(relay)
        self.room = topics.check_room(room)
        self.game_id = game_id
        self.seat_keys = list(seat_keys)
        self.on_change = on_change
        self.answers: dict[int, Answer] = {}
        self.new_room: NewRoom | None = None
        #: Why messages were dropped (the latest 100).
        self.notes: deque[str] = deque(maxlen=100)
        self._mine: dict[str, bytes] = {}  # topic -> our message that should be retained there
        self._sent: dict[str, bytes] = {}  # topic -> what this connection published there last
        self._published: dict[str, float] = {}  # topic -> when we last published there (monotonic)
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._finish_by: float | None = None
        #: Set once this channel listens and the relay has everything we asked it to keep.
        self.delivered = asyncio.Event()

    # -- what we say ------------------------------------------------------------------------
    def answer(self, key: SigningKey, seat: int, accept: bool, next_key: bytes) -> Answer:
        """Publish ``seat``'s answer, signed by its key (the finished game's); it counts here at once."""
        body = {
            "kind": "rematch",
            "room": self.room,
            "host": self.seat_keys[0],
            "game": self.game_id,
            "v": _version(),
            "seat": seat,
            "accept": accept,
            "key": next_key,
        }
        data = seal(key, body)
        self._say(topic(self.room, str(seat)), data)
        return self._take(topic(self.room, str(seat)), data) or self.answers[seat]

    def announce(self, key: SigningKey, code: str, host_key: bytes) -> None:
        """Publish the new room (seat 0's machine only: signed by seat 0's key)."""
        body = {
            "kind": "rematch-room",
            "room": self.room,
            "host": self.seat_keys[0],
            "game": self.game_id,
            "v": _version(),
            "code": code,
            "host_key": host_key,
        }
        data = seal(key, body)
        self._say(topic(self.room, ROOM_PART), data)
        self._take(topic(self.room, ROOM_PART), data)

    def _say(self, where: str, data: bytes) -> None:
        self._mine[where] = data
        self.delivered.clear()
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def finish(self, within: float = 5.0) -> None:
        """Stop once the relay has what we said (a last "no" must reach it), or after ``within`` seconds."""
        self._finish_by = time.monotonic() + within
        self._wake.set()

    def _finished(self) -> bool:
        if self._finish_by is not None and (self.delivered.is_set() or time.monotonic() > self._finish_by):
            self._stop.set()
        return self._stop.is_set()

    # -- what we hear -----------------------------------------------------------------------
    def _take(self, where: str, data: bytes) -> Answer | None:
        """One message on a rematch topic (dropped, its reason noted, unless signed right); a new answer or None."""
        part = topics.last_segment(where)
        try:
            if part == ROOM_PART:
                room = read_room(data, self.room, self.game_id, self.seat_keys)
                if self.new_room is None or room.version > self.new_room.version:
                    self.new_room = room
                    self._changed()
                return None
            if not part.isdigit() or int(part) >= len(self.seat_keys):
                raise Dropped(f"rematch/{part}: no such seat")
            got = read_answer(data, self.room, self.game_id, int(part), self.seat_keys)
        except Dropped as exc:
            if data:
                self.notes.append(f"rematch/{part}: dropped {exc}")
            return None
        known = self.answers.get(got.seat)
        if known is None or got.version > known.version:
            self.answers[got.seat] = got
            self._changed()
            return got
        return None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # -- the connection -----------------------------------------------------------------------
    async def run(self) -> None:
        while not self._finished():
            try:
                await self._connection()
            except (aiomqtt.MqttError, OSError) as exc:
                self.notes.append(f"relay: {exc}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), RETRY_S)

    async def _connection(self) -> None:
        await learn_retained(self.address)  # known, or asked once: a relay that keeps none is spoken to live
        sealed = RoomSeal.for_host_key(self.room, self.seat_keys[0])
        async with mqtt_client(self.address, "rematch", keepalive=10, timeout=10, seal=sealed) as client:
            self._sent = {}
            await client.subscribe(topics.rematch_filter(self.room), qos=1)
            reader = asyncio.ensure_future(self._read(client))
            try:
                while not self._stop.is_set():
                    later = self._live_repeat(client)  # seconds until a topic may be put back again
                    for where, data in list(self._mine.items()):
                        if self._sent.get(where) == data:
                            continue
                        wait = self._published.get(where, 0.0) + RETRY_S - time.monotonic()
                        if wait > 0:
                            later = wait if later is None else min(later, wait)
                            continue
                        self._sent[where] = data
                        self._published[where] = time.monotonic()
                        await client.publish(where, data, qos=1, retain=True)
                    if all(self._sent.get(w) == d for w, d in self._mine.items()):
                        self.delivered.set()
                    if self._finished():
                        break
                    if self._finish_by is not None:
                        later = max(0.0, min(later or RETRY_S, self._finish_by - time.monotonic()))
                    self._wake.clear()
                    waiter = asyncio.ensure_future(self._wake.wait())
                    try:
                        await asyncio.wait({reader, waiter}, timeout=later, return_when=asyncio.FIRST_COMPLETED)
                    finally:  # cancelled too (the window closes): no wait left behind
                        waiter.cancel()
                    if reader.done():
                        reader.result()
                        raise aiomqtt.MqttError("the relay closed the connection")
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                    await reader

    def _live_repeat(self, client: aiomqtt.Client) -> float | None:
        """Live only: what we said :data:`LIVE_REPEAT_S` ago or more is due again (no relay keeps it for a
        seat that listens only now); the seconds until the next is due.  None elsewhere: nothing is."""
        if not live_only(client) or not self._mine:
            return None
        now, due = time.monotonic(), []
        for where in self._mine:
            left = self._published.get(where, 0.0) + LIVE_REPEAT_S - now
            if left <= 0:
                self._sent.pop(where, None)
            due.append(left if left > 0 else LIVE_REPEAT_S)
        return min(due)

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            where = message.topic.value
            data = bytes(message.payload) if isinstance(message.payload, bytes | bytearray) else b""
            ours = self._mine.get(where)
            if ours is not None and data != ours:
                self._sent.pop(where, None)  # a stranger replaced ours: the writer puts it back
                self._wake.set()
            self._take(where, data)
