"""Garbage join requests are dropped with a reason where they arrive: a headless host plays on, no traceback.

Also: the seat-card checks themselves (shape, sizes, valid points), a key never seated twice, and
signed withdrawals (an empty message or a stranger's "withdrawal" frees no seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path

import msgpack
import pytest

from protocol.crypto.signing import SigningKey
from relay import topics
from relay.lobby.host import RoomHost
from relay.lobby.invitation import parse_invitation
from relay.lobby.join import join_room
from relay.lobby.messages import JoinRequest, seal, withdrawal
from relay.lobby.seat_card import BadCard, check_card
from relay.mqtt import RelayClient
from tests.relay.helpers import BrokerProcess, Peer, insider_client, wait_for_line
from tests.relay.lobby.people import Person

#: Small-order Ed25519 points (the identity, and a point of order 4 / 8) and low-order X25519 u-coordinates.
SMALL_ED25519 = [
    bytes([1]) + bytes(31),
    bytes(32),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
]
LOW_X25519 = [
    bytes(32),
    bytes([1]) + bytes(31),
    bytes.fromhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
]


def card(name: str = "Eve", sign: bytes | None = None, box: bytes | None = None) -> bytes:
    person = Person(name)
    body = msgpack.unpackb(person.card)
    body["sign"] = body["sign"] if sign is None else sign
    body["box"] = body["box"] if box is None else box
    return msgpack.packb(body)


def test_seat_cards_are_checked_for_shape_sizes_and_points() -> None:
    good = Person("Ann").card
    assert check_card(good).name == "Ann"
    bad = {
        "not msgpack": b"\xc1\xc1",
        "not a map": msgpack.packb([1, 2]),
        "exactly name, sign and box": msgpack.packb({**msgpack.unpackb(good), "extra": 1}),
        "name must be": card(name=""),
        "signing key is not 32 bytes": card(sign=b"\x01" * 31),
        "agreement key is not 32 bytes": card(box=b"\x01" * 33),
        "long": b"\x00" * 600,
    }
    for reason, raw in bad.items():
        with pytest.raises(BadCard, match=reason):
            check_card(raw)
    for key in SMALL_ED25519:
        with pytest.raises(BadCard, match="not a valid Ed25519 point"):
            check_card(card(sign=key))
    for key in LOW_X25519:
        with pytest.raises(BadCard, match="low order"):
            check_card(card(box=key))
    with pytest.raises(BadCard):
        check_card("text")  # type: ignore[arg-type]


def _stranger(address: str, code: str, host: bytes | str) -> RelayClient:
    """Someone who holds the room's key (a guest who read the invitation): its garbage opens for the host."""
    return insider_client(address, code, host, "garbage")


def garbage(code: str, host_key: bytes, victim: Person) -> dict[str, bytes]:
    """peer id -> what a stranger publishes as its join request."""
    mallory = Person("Mallory")

    def signed(key: SigningKey, peer: str, raw_card: bytes) -> bytes:
        body = {"kind": "join", "room": code, "host": host_key, "peer": peer, "card": raw_card}
        return seal(key, {**body, "nonce": os.urandom(16), "seat": None})

    return {
        "g1": b"\xff\x00 not msgpack at all",
        "g2": msgpack.packb({"peer": "g2", "name": "Old style", "card": b"not a seat card"}),
        "g3": signed(mallory.key, "g3", victim.card),  # a copy of another joiner's card, signed by someone else
        "g4": signed(mallory.key, "g4", card(sign=SMALL_ED25519[0])),
        "g5": signed(mallory.key, "g5", card(sign=mallory.key.public_bytes(), box=LOW_X25519[2])),
        "g6": msgpack.packb({"body": b"\x93\x01\x02\x03", "sig": b"x" * 64}),
        "g7": signed(mallory.key, "g7", b"\x80"),
    }


@pytest.mark.timeout(90)
def test_garbage_join_requests_do_not_crash_a_headless_host(mosquitto_relay: BrokerProcess, tmp_path: Path) -> None:
    """On Mosquitto with the shipped ACL (the in-process lobby tests cover the embedded relay too)."""
    address = mosquitto_relay.address
    common = ["--relay", address, "--seat-bot", "random"]
    host = Peer(0, [*common, "--create", "system-launch", "--players", "2", "--accept-all", "--state-dir",
                    str(tmp_path / "h")], tmp_path / "h", tmp_path / "h.out").start()  # fmt: skip
    joiner = Peer(1, [], tmp_path / "j", tmp_path / "j.out")
    try:
        code = wait_for_line(host.out, r"^room ([A-Z]{6})$").group(1)
        link = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        from relay.lobby.messages import LobbyCard

        async def stage() -> None:
            async with _stranger(address, code, parse_invitation(link).fingerprint) as client:
                await client.subscribe(topics.room_card(code), qos=1)
                async for m in client.messages:
                    if m.topic.value == topics.room_card(code) and m.payload:
                        host_key = LobbyCard.decode(bytes(m.payload), code).host_key
                        break
                for peer, payload in garbage(code, host_key, Person("Victim")).items():
                    await client.publish(topics.join(code, peer), payload, qos=1, retain=True)

        asyncio.run(stage())
        for peer in ("g1", "g2", "g3", "g4", "g5", "g6", "g7"):
            wait_for_line(host.out, rf"lobby: join/{peer}: dropped ")
        joiner.args = [*common, "--join", link, "--state-dir", str(tmp_path / "j")]
        joiner.start()
        assert [host.wait(60), joiner.wait(60)] == [0, 0], host.text() + joiner.text()
    finally:
        host.kill()
        joiner.kill()
    out = host.text()
    assert "Traceback" not in out + joiner.text()
    assert "not a signed lobby message" in out and "not signed by the key in its seat card" in out
    assert "not a valid Ed25519 point" in out and "low order" in out and "verdict: fair" in out
    assert "verdict: fair" in joiner.text() and "from the room's card" not in joiner.text(), "the host was pinned"


@pytest.mark.timeout(30)
def test_a_key_is_never_seated_twice_and_only_a_signed_withdrawal_frees_a_seat(embedded_relay: BrokerProcess) -> None:
    address = embedded_relay.address
    h, ann, mallory = Person("Host"), Person("Ann"), Person("Mallory")

    async def main() -> None:
        host = RoomHost(address, "system-launch", 3, "hostpeer", "Host", h.card, key=h.key)
        gathering = asyncio.create_task(host.gather(20))
        for _ in range(1000):
            if host._client is not None:
                break
            await asyncio.sleep(0.02)
        assert (await join_room(address, host.code, **ann.join_args(), host_key=host.fingerprint)).seat == 1
        # Ann's own key again under another peer id (a second window, or a copied state dir): dropped.
        twice = JoinRequest.make(ann.key, host.code, host.host_key, "ann2", ann.card, None, os.urandom(16))
        nonce = host.requests["ann"].nonce
        async with _stranger(address, host.code, host.host_key) as client:
            await client.publish(topics.join(host.code, "ann2"), twice.message, qos=1, retain=True)
            fake = withdrawal(mallory.key, host.code, host.host_key, "ann", nonce)  # signed, but not by Ann
            await client.publish(topics.join(host.code, "ann"), fake, qos=1, retain=True)
            for _ in range(1000):
                if sum("dropped" in n for n in host.notes) >= 2:
                    break
                await asyncio.sleep(0.02)
        assert any("already holds a seat" in n for n in host.notes), list(host.notes)
        assert any("withdrawal not signed by the joiner's key" in n for n in host.notes), list(host.notes)
        assert host.seats == {"hostpeer": 0, "ann": 1}
        # Ann withdraws herself (signed): the seat is free again.
        async with _stranger(address, host.code, host.host_key) as client:
            own = withdrawal(ann.key, host.code, host.host_key, "ann", nonce)
            await client.publish(topics.join(host.code, "ann"), own, qos=1, retain=True)
        for _ in range(1000):
            if "ann" not in host.seats:
                break
            await asyncio.sleep(0.02)
        assert host.seats == {"hostpeer": 0}
        gathering.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gathering
        await host.close()

    asyncio.run(main())


def test_a_headless_host_must_say_who_it_seats(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.relay.helpers import ROOT, env

    args = ["--relay", "127.0.0.1:1", "--create", "system-launch", "--players", "2", "--state-dir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "client.headless", *args],
        capture_output=True,
        text=True,
        timeout=30,
        env=env(),
        cwd=ROOT,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "give --accept-all, or --accept FINGERPRINT" in done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "client.headless", "--join", "sealed://h:1/ACDEFG#NOPE", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=30, env=env(), cwd=ROOT,
    )  # fmt: skip
    assert bad.returncode == 2 and "not a host key fingerprint" in bad.stderr and "Traceback" not in bad.stderr


def test_a_headless_host_given_fingerprints_seats_only_those() -> None:
    from client.headless.peer import admission, parse_args
    from relay.lobby.invitation import fingerprint, readable

    ann, eve = Person("Ann"), Person("Eve")
    args = parse_args(
        ["--create", "system-launch", "--state-dir", "x", "--accept", readable(fingerprint(ann.key.public_bytes()))]
    )
    said: list[str] = []
    decide = admission(args, said.append)
    host = Person("Host").key.public_bytes()
    request = {
        p.name: JoinRequest.make(p.key, "ACDEFG", host, p.peer, p.card, None, os.urandom(16)) for p in (ann, eve)
    }
    assert decide(request["Ann"]) is True and decide(request["Eve"]) is False
    assert "accepted" in said[0] and "refused" in said[1]
    assert admission(parse_args(["--create", "system-launch", "--state-dir", "x", "--accept-all"]), said.append) is True
