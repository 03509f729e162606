"""Joining a room: find it, pin its host, ask for a seat, and wait until the host's seat list gives one.

The lobby is retained MQTT messages on an untrusted relay that anyone may write to (the topics are
listed in :mod:`relay.lobby.host`), so a joiner believes only what the pinned host signed.  The
host's key is what a joiner pins: from an invitation (:mod:`relay.lobby.invitation`: the key's full
fingerprint from a link, or the readable one a person read out), or — with only a room code — from
the card itself, after showing the host's name and fingerprint to the player (:func:`peek_room`):
that is possible for a listed room only, whose card the relay's listing shows; every other room is
sealed under keys from its code and its host's fingerprint (:mod:`relay.seal`), and a room code
alone does not find it.
Once a card signed by a key of that fingerprint is read, the joiner holds to that key itself.
A joiner given the invitation's token proves it in its request (never sending the token), so the
host keeps it a place no stranger can take.  A joiner believes only a card and a seat list signed
by that key, asks only that host (its request names the host's key), and plays only a genesis by the
seat-0 key the host's seat list names (:attr:`Seated.creator`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, replace

import aiomqtt

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.address import RelayAddress
from relay.background import keep
from relay.errors import (
    NoSuchSeat,
    Refused,
    RelayError,
    RelayUnreachable,
    RoomClosed,
    RoomFull,
    RoomNotFound,
    RoomNotListed,
    SeatTaken,
)
from relay.lobby.door import Knock, ListedRoom, make_knock, open_answer
from relay.lobby.inbox import Inbox
from relay.lobby.invitation import (
    BadInvitation,
    fingerprint,
    matches,
    normalize_code,
    normalize_fingerprint,
    normalize_token,
    readable,
)
from relay.lobby.listing import list_rooms
from relay.lobby.messages import HELLO, Dropped, JoinRequest, LobbyCard, SeatList, withdrawal
from relay.lobby.retained import checked_address, lobby_client, payload_of, read_retained
from relay.lobby.seat_card import BadCard, check_card
from relay.mqtt import live_only
from relay.seal import RoomSeal

#: How long a joiner waits for a card signed by the pinned key when the relay holds another one.
PIN_WAIT = 6.0
#: How long a joiner that finds no card at all waits for one before it says there is no such room: a
#: guest started the moment the invitation came may read the relay a moment before the host's card is
#: stored (a relay may also store a retained message a moment after it acknowledged it).
CARD_WAIT = 5.0
#: How often a joiner with a room code only reads the listing again while it waits for the room.
LISTING_POLL_S = 0.5
#: A joiner the host's seat list does not name yet publishes its request again this often: a request
#: stored among a flood of retained garbage may never reach the host (Mosquitto drops what is beyond
#: its queue of a subscription's retained messages), a live one does.
JOIN_RETRY_S = 2.0
#: How long a joiner that leaves waits to see its withdrawal come back from the relay.
PASSED_ON_S = 2.0


@dataclass(frozen=True)
class Seated:
    """A joiner's place once the host confirmed it."""

    seat: int
    lobby: LobbyCard
    #: The signing key of seat 0, from the host's signed seat list: the only author of a genesis to accept.
    creator: bytes | None
    #: The host's key that signed the seat list (pinned, or taken from the card).
    host_key: bytes


def _pin(host_key: bytes | str | None) -> tuple[bytes | None, str | None]:
    """A pinned host: its key (32 bytes), or its fingerprint (full or readable text), or nothing."""
    if host_key is None or host_key == "":
        return None, None
    if isinstance(host_key, bytes):
        if len(host_key) != 32:
            raise RelayError("a host key is 32 bytes")
        return host_key, fingerprint(host_key)
    try:
        return None, normalize_fingerprint(host_key)
    except BadInvitation as exc:
        raise RelayError(str(exc)) from None


async def _room_seal(address: RelayAddress, code: str, fp: str | None, timeout: float) -> RoomSeal:
    """The room's seal (:mod:`relay.seal`): from the pinned fingerprint, or, with a room code only, from
    the relay's listing — an unlisted room cannot be found without its host's key, which is the point.

    With a code only, the listing's one open card of that code names the key (two hosts' cards under
    one code: the player must ask for the invitation).  A room not listed yet is waited for
    :data:`CARD_WAIT` seconds, as a card is: a guest may start before its host.
    """
    if fp is not None:
        return RoomSeal(code, fp)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CARD_WAIT
    while True:
        keys = {card.host_key for card in await list_rooms(address, timeout) if card.is_room(code)}
        if keys or loop.time() >= deadline:
            break
        await asyncio.sleep(min(LISTING_POLL_S, max(0.0, deadline - loop.time())))
    if len(keys) != 1:
        raise RoomNotListed(
            f"there is no room {code} listed on relay {address}: a room that is not listed is found with "
            "its host's key too (the invitation link, or the host key read out)"
            if not keys
            else f"more than one host lists a room {code} on relay {address}: ask for the invitation"
        )
    return RoomSeal.for_host_key(code, keys.pop())


def _token(token: str) -> str:
    """The invitation's token as a link carries it ("" for none); RelayError if it cannot be one."""
    try:
        return normalize_token(token) if token else ""
    except BadInvitation as exc:
        raise RelayError(str(exc)) from None


def _not_by(code: str, address: RelayAddress, fp: str | None) -> RoomNotFound:
    """The room at ``code`` is signed by another key than the pinned one (shown as a person reads it)."""
    return RoomNotFound(f"room {code} on relay {address} is not by the host whose key is {readable(fp or '')}")


async def peek_room(
    relay: str | RelayAddress, code: str, host_key: bytes | str | None = None, timeout: float = 4.0
) -> LobbyCard:
    """Room ``code``'s signed card (by ``host_key`` when given: a key or a fingerprint), without asking for a seat.

    A joiner with only a room code shows the host's name and fingerprint from this card before it joins.
    """
    code = normalize_code(code)
    key, fp = _pin(host_key)
    address = await checked_address(relay, timeout)
    peer = "peek" + os.urandom(4).hex()
    view = _View(code, key, None, lambda _text: None)
    seal = await _room_seal(address, code, fp, timeout)
    try:
        async with lobby_client(address, seal) as client:
            got = await read_retained(client, [topics.room_card(code)], peer, timeout)
            view.take(topics.room_card(code), got.get(topics.room_card(code), b""))
            if view.lobby is None and not view.any_card:
                await _card_awaited(client, view, peer)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {address}: {exc}") from None
    card = view.lobby
    if card is None:
        raise RoomNotFound(f"there is no room {code} on relay {address} (check the code, or the relay)")
    if fp is not None and not matches(card.host_key, fp):
        raise _not_by(code, address, fp)
    return card


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
        if self.host_key is None and self.fp is not None and not matches(card.host_key, self.fp):
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


async def _knocked(
    address: RelayAddress,
    listed: ListedRoom,
    key: SigningKey,
    peer: str,
    card: bytes,
    seat: int | None,
    nonce: bytes,
    timeout: float,
) -> str:
    """Knock at a listed room's door and wait for the host: the room's code once it lets us in.

    :class:`Refused` when it turns us away.  The knock stays retained, so a host that reconnects reads it.
    """
    knock = make_knock(listed, key, peer, card, seat, nonce)
    where = topics.answer(listed.door, peer)
    try:
        async with lobby_client(address) as client:  # the door is public: its messages are sealed by themselves
            await client.subscribe(where, qos=1)
            await client.publish(topics.knock(listed.door, peer), knock.payload, qos=1, retain=True)
            async with asyncio.timeout(timeout), Inbox(client) as inbox:
                while True:
                    m = await inbox.next(timeout)
                    code = _answered(knock, listed, peer, m)
                    if code is not None:
                        return code
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"lost the relay {address} while knocking: {exc}") from None
    except TimeoutError:
        raise RelayError(f"the host did not answer within {timeout:g} s") from None


def _answered(knock: Knock, listed: ListedRoom, peer: str, m: aiomqtt.Message | None) -> str | None:
    """The code a message on our answer topic lets us in with; None for anything else; Refused for a no."""
    if m is None or m.topic.value != topics.answer(listed.door, peer) or not payload_of(m):
        return None
    try:
        code = open_answer(knock, listed, peer, payload_of(m))
    except Dropped:
        return None
    if code is None:
        raise Refused(f"the host of the listed room of {listed.host} did not let us in")
    return normalize_code(code) if listed.is_room(code) else None


def _what_to_join(
    code: str | ListedRoom, host_key: bytes | str | None
) -> tuple[ListedRoom | None, str, bytes | str | None]:
    """(the listed room to knock at, or None; the room code, "" until a knock is answered; the host's key)."""
    if isinstance(code, ListedRoom):
        return code, "", code.host_key
    return None, normalize_code(code), host_key


async def join_room(
    relay: str | RelayAddress,
    code: str | ListedRoom,
    peer: str,
    name: str,
    card: bytes,
    timeout: float = 60.0,
    *,
    key: SigningKey,
    host_key: bytes | str | None = None,
    token: str = "",
    seat: int | None = None,
    until_started: bool = False,
    on_update: Callable[[LobbyCard, int | None], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    check: Callable[[LobbyCard], None] | None = None,
) -> Seated:
    """Ask the host of room ``code`` for a seat (``seat``: a particular one); :class:`Seated` once it gives one.

    ``key`` signs the request (it is the signing key in ``card``).  The name the others see is the
    card's, signed with it; ``name`` is not used.  ``host_key`` pins the host: its
    public key, or its fingerprint from an invitation; without it the key named by the room's card is
    taken (and reported in the result, so the caller can show it).  ``token`` is the invitation
    link's: the request proves it, and the host keeps invited requests apart from strangers'.  With
    ``until_started`` it returns only when the host starts the game, reporting every change of the
    room to ``on_update(card, our seat or None)`` meanwhile; ``on_note`` hears every message dropped and why.
    ``check(card)`` sees the host's card before a seat is asked for (a joiner whose bot cannot play the
    card's game stops there): what it raises ends the join, and nothing was sent.  A room whose card
    is not on the relay yet is waited for :data:`CARD_WAIT` seconds.  Raises
    :class:`RoomNotFound` (no such room by that host), :class:`RoomFull`, :class:`SeatTaken`,
    :class:`Refused` (the host said no) or :class:`RoomClosed` (the host cancelled) within seconds.
    If it fails or is cancelled after asking, the request is withdrawn (signed, so the seat is freed).
    """
    topics.check_peer(peer)
    if key.public_bytes() != _card_key(card):
        raise RelayError("the seat card does not hold this signing key")
    listed, named, host_key = _what_to_join(code, host_key)
    pin, fp = _pin(host_key)  # a bad invitation is told before anything is sent
    token = _token(token)
    address = await checked_address(relay, 4.0)
    nonce = os.urandom(16)
    # A stranger from the listing knocks: the host's answer brings the code, and the host seated us
    # from the knock (its nonce is this one), so a withdrawal frees the seat.
    code = await _knocked(address, listed, key, peer, card, seat, nonce, timeout) if listed else named
    asked = listed is not None
    view = _View(code, pin, fp, on_note or (lambda _text: None))
    seal = await _room_seal(address, code, fp, 4.0)
    try:
        async with lobby_client(address, seal) as client:
            try:
                await _find_room(client, view, address, peer)
                if check is not None:
                    check(view.current())
                lobby, seats = view.current(), view.seats
                assert view.host_key is not None
                mine = seats.seat_of(peer, card) if seats is not None else None
                if mine is not None and (not until_started or (seats is not None and seats.status == "started")):
                    return Seated(mine, lobby, seats.creator() if seats else None, view.host_key)
                message = b""
                if mine is None:
                    _precheck(code, lobby, seats, peer, seat)
                    message = JoinRequest.make(key, code, view.host_key, peer, card, seat, nonce, token).message
                    asked = True
                    await client.publish(topics.join(code, peer), message, qos=1, retain=True)
                async with asyncio.timeout(timeout):  # not wait_for, which may swallow a cancellation
                    return await _await_seat(client, view, peer, card, seat, until_started, on_update, message)
            except BaseException:
                if asked and view.host_key is not None:  # withdraw: the host frees the seat it may have given us
                    gone = withdrawal(key, code, view.host_key, peer, nonce)
                    # Shielded, so that a second cancellation does not stop it half-way; once this
                    # connection closes it fails, and that failure is retrieved (nobody awaits it).
                    withdrawing = keep(asyncio.ensure_future(_publish_passed_on(client, topics.join(code, peer), gone)))
                    with contextlib.suppress(Exception):
                        await asyncio.shield(withdrawing)
                raise
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"lost the relay {address} while joining room {code}: {exc}") from None
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
                if m.topic.value == topic and payload_of(m) == payload:
                    return


def _card_key(card: bytes) -> bytes:
    try:
        return check_card(card).sign
    except BadCard as exc:
        raise RelayError(f"our own seat card is bad: {exc}") from None


async def _find_room(client: aiomqtt.Client, view: _View, address: RelayAddress, peer: str) -> None:
    """Read the room's card and seat list into ``view``; RoomNotFound unless a card by the pinned host comes.

    No card at all is waited for (:data:`CARD_WAIT`); a stranger's card in its place, for the host to put
    its own back (:data:`PIN_WAIT`).
    """
    code = view.code
    got = await read_retained(client, [topics.room_card(code), topics.seats(code)], peer, 4.0)
    for topic in (topics.room_card(code), topics.seats(code)):
        view.take(topic, got.get(topic, b""))
    if view.lobby is None and not view.any_card:
        await _card_awaited(client, view, peer)
    if view.lobby is not None:
        return
    if not view.any_card:
        raise RoomNotFound(f"there is no room {code} on relay {address} (check the code, or the relay)")
    with contextlib.suppress(TimeoutError):  # a stranger's card: the host puts its own back
        async with asyncio.timeout(PIN_WAIT):
            await _until_card(client, view)
    if view.lobby is None:
        raise _not_by(code, address, view.fp)


async def _until_card(client: aiomqtt.Client, view: _View) -> None:
    async for m in client.messages:
        view.take(m.topic.value, payload_of(m))
        if view.lobby is not None:
            return


async def _card_awaited(client: aiomqtt.Client, view: _View, peer: str) -> None:
    """The relay held no card for the room: wait (at most :data:`CARD_WAIT`) for the host's to arrive.

    The subscription of the read is still there, so the card comes to us as the relay stores it;
    a stranger's card instead ends the wait too (the caller waits for the pinned host's then).  On a
    relay that keeps no retained messages we say hello first (:data:`HELLO` on our join topic):
    the host publishes its card and seat list again at once (:mod:`relay.lobby.host`).
    """
    if live_only(client):
        await client.publish(topics.join(view.code, peer), HELLO, qos=0)
    async with Inbox(client) as inbox:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CARD_WAIT
        while view.lobby is None and not view.any_card:
            m = await inbox.next(deadline - loop.time())
            if m is None:
                return
            view.take(m.topic.value, payload_of(m))


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
            if not view.take(m.topic.value, payload_of(m)):
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
