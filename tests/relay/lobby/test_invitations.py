"""Invitations (link and words, the host key fingerprint), unlisted rooms, the answer time, the host's decisions."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from relay.errors import Refused, RoomNotFound
from relay.lobby.host import RoomHost
from relay.lobby.invitation import (
    FINGERPRINT_LETTERS,
    BadInvitation,
    Invitation,
    fingerprint,
    grouped,
    normalize_fingerprint,
    parse_invitation,
)
from relay.lobby.join import join_room, peek_room
from relay.lobby.listing import list_rooms
from tests.relay.helpers import BrokerProcess
from tests.relay.lobby.people import Person


def test_fingerprints_are_short_stable_and_forgiving() -> None:
    key = Person("Host").key.public_bytes()
    fp = fingerprint(key)
    assert len(fp) == FINGERPRINT_LETTERS and fp == fingerprint(key) != fingerprint(Person("Other").key.public_bytes())
    spoken = grouped(fp)
    assert spoken.count("-") == 3 and normalize_fingerprint(spoken.lower().replace("-", " ")) == fp
    for wrong in ("", "ABC", fp[:-1] + "0", fp + "A"):
        with pytest.raises(BadInvitation):
            normalize_fingerprint(wrong)


@pytest.mark.parametrize(
    ("relay", "link"),
    [
        ("127.0.0.1:1883", "sealed://127.0.0.1:1883/ACDEFG#"),
        ("mqtt://relay.example.org:1884", "sealed://relay.example.org:1884/ACDEFG#"),
        ("mqtts://relay.example.org:8883", "sealed+mqtts://relay.example.org:8883/ACDEFG#"),
        ("wss://relay.example.org:443/mqtt", "sealed+wss://relay.example.org:443/mqtt/ACDEFG#"),
        ("[::1]:1883", "sealed://[::1]:1883/ACDEFG#"),
        ("mqtts://ann:s3cret@relay.example.org:8883", "sealed+mqtts://relay.example.org:8883/ACDEFG#"),
    ],
)
def test_invitation_links_round_trip_and_never_carry_a_login(relay: str, link: str) -> None:
    fp = fingerprint(b"\x07" * 32)
    invitation = Invitation(relay, "ACDEFG", fp)
    assert invitation.link() == link + fp and "s3cret" not in invitation.read_out()
    back = parse_invitation(invitation.link().replace("ACDEFG", "acd-efg"))
    assert back.code == "ACDEFG" and back.fingerprint == fp and "s3cret" not in back.relay
    assert parse_invitation(back.link()) == back
    assert f"room ACDEFG, host key {grouped(fp)}" in invitation.read_out()


@pytest.mark.parametrize("text", ["ACDEFG", "http://x/ACDEFG#A", "sealed://host:1883/ACDEFG", "sealed://ACDEFG#X"])
def test_what_is_not_an_invitation_says_so(text: str) -> None:
    with pytest.raises(BadInvitation):
        parse_invitation(text)


@pytest.mark.timeout(30)
def test_an_unlisted_room_is_joined_by_invitation_and_its_card_shows_the_answer_time(
    embedded_relay: BrokerProcess,
) -> None:
    address = embedded_relay.address
    h, ann = Person("Host"), Person("Ann")

    async def main() -> None:
        host = RoomHost(
            address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key, listed=False, timeout_ms=90_000
        )
        gathering = asyncio.create_task(host.gather(20))
        card = None
        for _ in range(1000):
            with contextlib.suppress(RoomNotFound):
                card = await peek_room(address, host.code, host.fingerprint)
                break
            await asyncio.sleep(0.05)
        assert card is not None and card.timeout_ms == 90_000 and card.host == "Host" and not card.listed
        assert card.fingerprint == host.fingerprint == host.invitation().fingerprint
        assert all(c.code != host.code for c in await list_rooms(address, 2)), "not in the relay's listing"
        with pytest.raises(RoomNotFound, match="not by the host"):
            await peek_room(address, host.code, fingerprint(Person("Other").key.public_bytes()))
        invitation = parse_invitation(host.invitation().link())
        seated = await join_room(invitation.relay, invitation.code, **ann.join_args(), host_key=invitation.fingerprint)
        assert seated.seat == 1 and seated.lobby.timeout_ms == 90_000
        assert await gathering == [h.card, ann.card]
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_the_host_refuses_or_removes_and_the_joiner_hears_it(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address
    h, ann, bob = Person("Host"), Person("Ann"), Person("Bob")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key, admit=False)
        gathering = asyncio.create_task(host.gather(20))
        for _ in range(1000):
            if host._client is not None:
                break
            await asyncio.sleep(0.02)
        updates: list[int | None] = []
        asking = asyncio.create_task(join_room(address, host.code, **ann.join_args(), host_key=host.fingerprint))
        seated = asyncio.create_task(
            join_room(
                address, host.code, **bob.join_args(), host_key=host.fingerprint, until_started=True,
                on_update=lambda _c, s: updates.append(s),
            )
        )  # fmt: skip
        for _ in range(1000):
            if {"ann", "bob"} <= set(host.waiting):
                break
            await asyncio.sleep(0.02)
        assert not asking.done() and not seated.done(), "both wait for the host"
        await host.refuse("ann")
        with pytest.raises(Refused):
            await asking
        assert await host.accept("bob") == 1
        for _ in range(1000):
            if 1 in updates:
                break
            await asyncio.sleep(0.02)
        await host.remove("bob")
        with pytest.raises(Refused):
            await seated
        assert host.seats == {"hostpeer": 0}
        gathering.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gathering
        await host.close()

    asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_card_by_another_key_is_not_the_invited_room(embedded_relay: BrokerProcess, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Only a stranger's signed card sits at the room's code: a joiner with the invitation refuses it."""
    import os

    import aiomqtt

    from relay import topics
    from relay.address import parse_address
    from relay.lobby import join
    from relay.lobby.messages import LobbyCard

    monkeypatch.setattr(join, "PIN_WAIT", 0.5)
    address = embedded_relay.address
    h, ann, mallory = Person("Host"), Person("Ann"), Person("Mallory")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 2, "hostpeer", "Host", h.card, key=h.key)
        fp = host.fingerprint
        code = host.code
        card = LobbyCard(code, "system-launch", 2, 1, "Host", address, host_key=mallory.key.public_bytes())
        parsed = parse_address(address)
        name, port = parsed.host, parsed.port
        async with aiomqtt.Client(name, port, identifier="stranger" + os.urandom(3).hex()) as client:
            await client.publish(topics.room_card(code), card.encode(mallory.key), qos=1, retain=True)
        with pytest.raises(RoomNotFound, match="not by the host whose key is"):
            await join_room(address, code, **ann.join_args(), host_key=fp)
        with pytest.raises(RoomNotFound, match="not by the host"):
            await peek_room(address, code, fp)
        assert (await peek_room(address, code)).fingerprint != fp, "without the invitation: the card's own key"

    asyncio.run(main())
