"""The lobby cannot know its joiners in advance, so the host reads ``join/+``: a flood of retained garbage
and of validly signed strangers' requests there must not hide a real joiner, nor stop the host's loop.
The host checks a bounded number of new requests at a time; a joiner the seat list does not name yet
asks again, live (Mosquitto drops what is beyond its queue of a subscription's retained messages).
A friend with the invitation link proves it in the request, and strangers who hold the room's key
but not the link's token (they heard the invitation read out, or found a listed room) cannot take
its place: they fill a waiting list of their own.  Strangers who know only the room code do not
reach the host at all (the room is sealed by its host's fingerprint too, :mod:`relay.seal`).
The floods are sealed with the room's key, so they open for the host: the strongest flood there is."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

import aiomqtt
import pytest

from relay import topics
from relay.errors import RelayError
from relay.lobby.host import MAX_WAITING, RoomHost
from relay.lobby.invitation import fingerprint, parse_invitation
from relay.lobby.join import join_room
from relay.lobby.listing import list_rooms
from relay.lobby.messages import JoinRequest
from tests.relay.helpers import BrokerProcess, insider_client
from tests.relay.lobby.people import Person


async def flood(address: str, code: str, host_key: bytes, garbage: int, signed: int) -> None:
    """Retained garbage on invented join topics, then strangers' requests that are signed and valid."""
    async with insider_client(address, code, host_key, "stranger") as c:
        for i in range(garbage):
            await c.publish(topics.join(code, f"x{i}"), b"garbage-" + os.urandom(16), qos=1, retain=True)
        for i in range(signed):
            p = Person(f"S{i}", peer=f"s{i}")
            req = JoinRequest.make(p.key, code, host_key, p.peer, p.card, None, os.urandom(16))
            await c.publish(topics.join(code, p.peer), req.message, qos=1, retain=True)


@pytest.mark.timeout(120)
def test_a_real_joiner_gets_through_a_flood_of_join_requests(any_relay: BrokerProcess) -> None:
    address = any_relay.address

    async def main() -> None:
        h, guest = Person("Host", peer="hostpeer"), Person("Guest", peer="guest")
        decided: list[str] = []

        def admit(req: JoinRequest) -> bool | None:
            decided.append(req.peer)
            return True if req.peer == guest.peer else None  # strangers wait for a decision nobody makes

        notes: list[str] = []
        options = {"key": h.key, "admit": admit, "listed": False, "on_note": notes.append}
        host = RoomHost(address, "system-launch", 2, h.peer, h.name, h.card, **options)  # type: ignore[arg-type]
        with pytest.raises(RelayError):  # the host's first connection ends (nobody joined in time) ...
            await host.gather(2.0)
        # ... and meanwhile the guest asks, among 1,500 retained garbage requests stored before its own.
        await flood(address, host.code, h.key.public_bytes(), 1500, 0)
        joining = asyncio.ensure_future(join_room(address, host.code, **guest.join_args(), host_key=host.fingerprint))
        await asyncio.sleep(0.5)
        await flood(address, host.code, h.key.public_bytes(), 0, 60)  # and strangers' valid requests after it

        turns, most, last = 0, 0, 0
        watching = True

        async def sentinel() -> None:
            """How many requests the host handled between two turns of the loop, at most."""
            nonlocal turns, most, last
            while watching:
                await asyncio.sleep(0)
                turns += 1
                seen = len(notes) + len(decided)
                most, last = max(most, seen - last), seen

        watch = asyncio.ensure_future(sentinel())
        again = asyncio.ensure_future(host.gather(60))  # the host is back: it reads join/+ again
        try:
            seated = await asyncio.wait_for(joining, 45)
            assert seated.seat == 1
            cards = await asyncio.wait_for(again, 20)
            assert cards == [h.card, guest.card]
            assert len(host.waiting) <= 16  # strangers beyond the waiting list are dropped
            assert turns > 0 and most <= 64, (turns, most)
        finally:
            watching = False
            for task in (watch, again, joining):
                task.cancel()
            await asyncio.gather(watch, again, joining, return_exceptions=True)

    asyncio.run(main())


@pytest.mark.timeout(120)
def test_a_room_listed_after_a_flood_of_retained_garbage_is_still_in_the_listing(any_relay: BrokerProcess) -> None:
    # Mosquitto keeps at most 1,000 QoS 1 messages queued for a client (the shipped configuration):
    # a listing read at QoS 1 lost every card stored after 1,500 garbage ones.  Read at QoS 0, the
    # retained cards go out as one stream, and the room is there.
    address = any_relay.address

    async def main() -> None:
        host, port = address.rsplit(":", 1)
        async with aiomqtt.Client(host, int(port), identifier="stranger" + os.urandom(4).hex()) as c:
            for i in range(1500):
                await c.publish(topics.lobby(f"G{i:05d}"), b"garbage-" + os.urandom(16), qos=1, retain=True)
        h = Person("Host", peer="hostpeer")
        room = RoomHost(address, "system-launch", 2, h.peer, h.name, h.card, key=h.key)
        gathering = asyncio.ensure_future(room.gather(60))
        try:
            await asyncio.wait_for(room.opened.wait(), 20)
            listed = await list_rooms(address, 10)
            assert [card.is_room(room.code) for card in listed] == [True], listed
        finally:
            gathering.cancel()
            await asyncio.gather(gathering, return_exceptions=True)

    asyncio.run(main())


async def until(predicate: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    try:
        async with asyncio.timeout(seconds):
            while not predicate():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"not within {seconds:g} s: {what}") from None


@pytest.mark.timeout(120)
def test_strangers_who_fill_the_waiting_list_do_not_keep_an_invited_friend_out(any_relay: BrokerProcess) -> None:
    address = any_relay.address

    async def main() -> None:
        h, friend = Person("Host", peer="hostpeer"), Person("Friend", peer="friend")
        host = RoomHost(address, "system-launch", 2, h.peer, h.name, h.card, key=h.key, admit=False, listed=False)
        gathering = asyncio.ensure_future(host.gather(90))
        hk = h.key.public_bytes()
        asking = [Person(f"S{i}", peer=f"s{i}") for i in range(MAX_WAITING + 40)]
        # Signed and valid requests: all the strangers lack is the invitation.
        requests = [JoinRequest.make(p.key, host.code, hk, p.peer, p.card, None, os.urandom(16)) for p in asking]
        seated = asyncio.Event()
        # Who knows only the room code seals under a fingerprint it guessed: none of that reaches the host.
        guessed = "".join(reversed(fingerprint(hk)))
        outsiders = [Person(f"O{i}", peer=f"o{i}") for i in range(8)]
        outside = [JoinRequest.make(p.key, host.code, hk, p.peer, p.card, None, os.urandom(16)) for p in outsiders]

        async def strangers() -> None:
            """A stranger who holds the room's key (not the token) fills the waiting list, and goes on asking
            while the friend asks; one who knows only the code asks too."""
            async with (
                insider_client(address, host.code, hk, "stranger") as c,
                insider_client(address, host.code, guessed, "outsider") as o,
            ):
                while not seated.is_set():
                    for req in requests:
                        await c.publish(topics.join(host.code, req.peer), req.message, qos=1, retain=True)
                    for req in outside:
                        await o.publish(topics.join(host.code, req.peer), req.message, qos=1, retain=True)

        joining = None
        flooding = asyncio.ensure_future(strangers())
        try:
            await until(lambda: len(host.waiting) >= MAX_WAITING, "the strangers fill the waiting list")
            invitation = parse_invitation(host.invitation().link())
            joining = asyncio.ensure_future(
                join_room(
                    invitation.relay, invitation.code, **friend.join_args(),  # type: ignore[arg-type]
                    host_key=invitation.fingerprint, token=invitation.token,
                )
            )  # fmt: skip
            await until(lambda: friend.peer in host.waiting, "the friend's request reaches the host")
            assert host.waiting[friend.peer].invited
            assert sum(not r.invited for r in host.waiting.values()) <= MAX_WAITING, "the strangers' list stays bounded"
            assert await host.accept(friend.peer) == 1
            assert (await asyncio.wait_for(joining, 20)).seat == 1
            seated.set()
            assert await asyncio.wait_for(gathering, 20) == [h.card, friend.card]
            retained = host.requests[friend.peer].message
            heard = {*host.waiting, *host.requests, *(n.split(":")[0] for n in host.notes)}
            assert not any(p.peer in heard or f"join/{p.peer}" in heard for p in outsiders), "outsiders are noise"
            assert retained and invitation.token.encode() not in retained, "the token never goes on the wire"
        finally:
            seated.set()
            tasks = [t for t in (flooding, gathering, joining) if t is not None]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await host.close()

    asyncio.run(main())
