"""Invitations (link and words, the host key fingerprint, the token), unlisted rooms, the answer time, the host's
decisions."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os

import pytest

from relay.errors import Refused, RelayError, RoomNotFound
from relay.lobby.door import ListedRoom, door_of
from relay.lobby.host import RoomHost
from relay.lobby.invitation import (
    ALPHABET,
    OLD_FINGERPRINT_LETTERS,
    READABLE_LETTERS,
    BadInvitation,
    Invitation,
    fingerprint,
    invitation_token,
    matches,
    normalize_fingerprint,
    parse_invitation,
    readable,
)
from relay.lobby.join import join_room, peek_room
from relay.lobby.listing import list_rooms
from relay.lobby.messages import JoinRequest, open_message, proves_invitation, seal
from tests.relay.helpers import BrokerProcess, insider_client
from tests.relay.lobby.people import Person

BITS_PER_LETTER = math.log2(len(ALPHABET))


def _spoken_key(words: str) -> str:
    """The host key as an invitation's words read out say it (``…, host key XXXX-…``)."""
    return words.split("host key ", 1)[1].split(",", 1)[0]


def test_fingerprints_carry_128_bits_for_programs_and_80_for_people() -> None:
    key = Person("Host").key.public_bytes()
    fp = fingerprint(key)
    assert set(fp) <= set(ALPHABET) and fp == fingerprint(key) != fingerprint(Person("Other").key.public_bytes())
    assert len(fp) * BITS_PER_LETTER >= 128, f"a program compares {len(fp) * BITS_PER_LETTER:.1f} bits"
    invitation = Invitation("relay.example.org:1883", "ACDEFG", fp)
    pinned = parse_invitation(invitation.link()).fingerprint
    assert pinned == fp and len(pinned) * BITS_PER_LETTER >= 128, "the link carries the full fingerprint"
    spoken = _spoken_key(invitation.read_out())
    letters = spoken.replace("-", "")
    assert set(letters) <= set(ALPHABET) and fp.startswith(letters)
    assert len(letters) * BITS_PER_LETTER >= 80, f"a person compares {len(letters) * BITS_PER_LETTER:.1f} bits"
    assert all(len(group) == 4 for group in spoken.split("-")), "in groups of four letters"


def test_fingerprints_are_forgiving_and_an_old_one_is_refused_by_name() -> None:
    key = Person("Host").key.public_bytes()
    fp = fingerprint(key)
    spoken = readable(fp)
    assert normalize_fingerprint(spoken.lower().replace("-", " ")) == fp[:READABLE_LETTERS]
    assert normalize_fingerprint(fp.lower()) == fp
    assert matches(key, fp) and matches(key, normalize_fingerprint(spoken))
    other = Person("Other").key.public_bytes()
    assert not matches(other, fp) and not matches(other, normalize_fingerprint(spoken))
    assert not matches(key, fp[:OLD_FINGERPRINT_LETTERS]), "16 letters never match"
    for wrong in ("", "ABC", fp[:-1] + "0", fp + "A", fp[: READABLE_LETTERS + 1]):
        with pytest.raises(BadInvitation, match="not a host key fingerprint"):
            normalize_fingerprint(wrong)
    old = "KMTX-RCAP-WHEJ-FDNQ"  # an invitation of the older version: 16 letters, about 67 bits
    with pytest.raises(BadInvitation, match=r"older version.*new invitation"):
        normalize_fingerprint(old)
    with pytest.raises(BadInvitation, match=r"older version.*new invitation"):
        parse_invitation(f"sealed://relay.example.org:1883/ACDEFG#{old.replace('-', '')}")
    with pytest.raises(BadInvitation, match="full fingerprint"):
        parse_invitation(f"sealed://relay.example.org:1883/ACDEFG#{fp[:READABLE_LETTERS]}")


def test_a_joiner_given_an_old_fingerprint_is_told_so_before_it_connects() -> None:
    """No relay is asked (the address is closed): the 16 letters are refused first, with the reason."""
    with pytest.raises(RelayError, match="older version"):
        asyncio.run(
            join_room("127.0.0.1:9", "ACDEFG", **Person("Ann").join_args(), host_key="KMTXRCAPWHEJFDNQ")  # type: ignore[arg-type]
        )


def test_the_token_rides_in_the_link_only_and_a_copied_proof_proves_nothing() -> None:
    host, friend, mallory = Person("Host"), Person("Friend"), Person("Mallory")
    token = invitation_token(host.key, "ACDEFG")
    assert token == invitation_token(host.key, "ACDEFG") != invitation_token(host.key, "ACDEFH")
    assert len(token) * BITS_PER_LETTER >= 128 and set(token) <= set(ALPHABET)
    invitation = Invitation("relay.example.org:1883", "ACDEFG", fingerprint(host.key.public_bytes()), token=token)
    assert parse_invitation(invitation.link()).token == token
    assert token not in invitation.read_out() and token not in repr(invitation)
    with pytest.raises(BadInvitation, match="token"):
        parse_invitation(invitation.link() + "A")
    hk = host.key.public_bytes()
    asked = JoinRequest.make(friend.key, "ACDEFG", hk, friend.peer, friend.card, None, os.urandom(16), token)
    assert token.encode() not in asked.message, "the token never goes on the wire"
    opened = open_message(asked.message, ("join",), "ACDEFG")
    assert JoinRequest.decode(opened, friend.peer, token).invited
    assert not JoinRequest.decode(opened, friend.peer, invitation_token(mallory.key, "ACDEFG")).invited
    # Mallory reads Friend's request on the relay and puts its proof into a request of her own.
    body = dict(opened.body, peer=mallory.peer, card=mallory.card)
    copied = open_message(seal(mallory.key, body), ("join",), "ACDEFG")
    assert not proves_invitation(copied, token) and not JoinRequest.decode(copied, mallory.peer, token).invited


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
    assert f"room ACDEFG, host key {readable(fp)}" in invitation.read_out()


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
        assert not any(c.is_room(host.code) for c in await list_rooms(address, 2)), "not in the relay's listing"
        # Another host's fingerprint seals another room: this one is not even found under it.
        with pytest.raises(RoomNotFound, match="there is no room"):
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
    """Only a stranger's signed card sits at the room's code: a joiner with the invitation refuses it.

    The stranger holds the room's key (it read the invitation), so its card opens in the room; it also
    lists the card, and stores it in the room its own key seals, for a joiner with the code only."""
    from relay import topics
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
        signed = card.encode(mallory.key)
        async with (
            insider_client(address, code, fp, "stranger") as client,
            insider_client(address, code, mallory.key.public_bytes(), "stranger") as own,
        ):
            await client.publish(topics.room_card(code), signed, qos=1, retain=True)
            await own.publish(topics.room_card(code), signed, qos=1, retain=True)
            door = door_of(code, mallory.key.public_bytes())  # the listing, public: its door for this code
            listing = ListedRoom(door, "system-launch", 2, 1, "Host", mallory.key.public_bytes(), bytes(32))
            await own.publish(topics.lobby(door), listing.encode(mallory.key), qos=1, retain=True)
        with pytest.raises(RoomNotFound, match="not by the host whose key is"):
            await join_room(address, code, **ann.join_args(), host_key=fp)
        with pytest.raises(RoomNotFound, match="not by the host"):
            await peek_room(address, code, fp)
        assert (await peek_room(address, code)).fingerprint != fp, "without the invitation: the card's own key"

    asyncio.run(main())
