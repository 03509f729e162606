"""The room seal, sans I/O (:mod:`relay.seal`): what opens, what does not, and what the relay sees of it.

The relay sees wire topics and sealed payloads only; these tests hold the seal to what its module
promises: a message opens only under its room's keys and only on the wire topic it was sealed for,
every sealed payload is one of the few bucket sizes (and nothing else is taken), an empty payload
stays the MQTT deletion it is, a ``parent/+`` filter still selects exactly that parent's topics, both
forms of an invitation's fingerprint seal alike, and every topic the project makes stays within a
public broker's topic depth.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from protocol.crypto.padding import pad
from protocol.envelope import MAX_ENTRY_BYTES
from relay import topics
from relay.broker.embedded import DEFAULT_MAX_PAYLOAD
from relay.fingerprint import READABLE_LETTERS, fingerprint, readable
from relay.seal import (
    BUCKETS,
    MAX_OVERHEAD,
    MAX_TOPIC_BYTES,
    NONCE_BYTES,
    TAG_BYTES,
    RoomSeal,
    SealError,
    sealed_size,
)

HOST = bytes(range(32))
FP = fingerprint(HOST)
CODE = "ACDEFG"
MOSQUITTO_CONF = Path(__file__).resolve().parents[2] / "relay" / "broker" / "mosquitto" / "sealed-table.conf"


def seal() -> RoomSeal:
    return RoomSeal(CODE, FP)


def every_topic(room: str = CODE) -> list[str]:
    """One of each topic :mod:`relay.topics` makes for a room, with long arguments where they may be long."""
    peer = "p" * 64
    made = [
        topics.log(room, 2**32),
        topics.want(room, 15),
        topics.presence(room, 15),
        topics.join(room, peer),
        topics.seats(room),
        topics.room_card(room),
        topics.rematch(room, "room"),
        topics.rematch(room, "15"),
        topics.sync(room, peer),
        topics.sync("lobby", peer),
        f"{topics.sync(room, peer)}/{2**31}",  # the transport's read-back marker of one step
    ]
    made += [topics.notice(room, 15, 2**32, kind) for kind in topics.NOTICE_KINDS]
    return made


def every_filter(room: str = CODE) -> list[str]:
    """The wildcards a sealed room is read by (:data:`relay.topics.WILDCARD_KINDS`)."""
    return [topics.join_filter(room), topics.rematch_filter(room)]


def matches(filter_: str, topic: str) -> bool:
    """MQTT topic matching (``+`` one level, ``#`` the rest), as a broker does it."""
    f, t = filter_.split("/"), topic.split("/")
    for i, level in enumerate(f):
        if level == "#":
            return True
        if i >= len(t) or (level != "+" and level != t[i]):
            return False
    return len(f) == len(t)


def test_a_sealed_message_opens_under_its_rooms_seal_on_its_wire_topic() -> None:
    sender, receiver = seal(), seal()  # two holders of the invitation: nothing shared but the code and key
    for topic in every_topic():
        payload = os.urandom(100)
        wire, sealed = sender.topic(topic), sender.seal(topic, payload)
        assert CODE not in wire and payload not in sealed and topic.encode() not in sealed
        assert wire.startswith(topics.ROOT + "/") and not wire.startswith(topics.LOBBY_ROOT)
        assert receiver.open(wire, sealed) == (topic, payload)
        assert receiver.topic(topic) == wire
    # Two seals of one message differ (a fresh nonce each): the relay cannot tell repeats apart.
    assert sender.seal(topics.log(CODE, 1), b"x") != sender.seal(topics.log(CODE, 1), b"x")


def test_another_room_or_another_hosts_fingerprint_opens_nothing() -> None:
    topic, payload = topics.log(CODE, 3), b"entry"
    ours = seal()
    wire, sealed = ours.topic(topic), ours.seal(topic, payload)
    others = [
        RoomSeal("ACDEFH", FP),  # another room code
        RoomSeal(CODE, fingerprint(bytes(32))),  # another host
        RoomSeal(CODE, FP[: READABLE_LETTERS - 1] + ("A" if FP[READABLE_LETTERS - 1] != "A" else "C")),  # one letter
    ]
    for other in others:
        assert other.topic(topic) != wire, "another room's wire topics are other topics"
        assert other.open(wire, sealed) is None
        assert other.open(other.topic(topic), sealed) is None  # not even on its own topic of that name


def test_a_message_moved_to_another_wire_topic_opens_nothing() -> None:
    s = seal()
    sealed = s.seal(topics.log(CODE, 4), b"entry 4")
    for elsewhere in (topics.log(CODE, 5), topics.notice(CODE, 0, 4, "vote"), topics.presence(CODE, 0)):
        assert s.open(s.topic(elsewhere), sealed) is None
    # Even a payload sealed (under the room's key) for one wire topic that names another does not open:
    # the plaintext's topic must seal to the wire topic it arrived on.
    name = topics.log(CODE, 5).encode()
    inner = len(name).to_bytes(2, "big") + name + b"forged"
    wire = s.topic(topics.log(CODE, 4))
    nonce = os.urandom(NONCE_BYTES)
    crafted = nonce + s._aead.encrypt(nonce, pad(inner, BUCKETS[0] - NONCE_BYTES - TAG_BYTES), wire.encode())
    assert s.open(wire, crafted) is None
    assert s.open(s.topic(topics.log(CODE, 5)), crafted) is None  # and the associated data binds it here


def test_a_flipped_bit_anywhere_opens_nothing() -> None:
    s = seal()
    topic = topics.log(CODE, 7)
    wire, sealed = s.topic(topic), s.seal(topic, b"entry 7")
    for at in (0, NONCE_BYTES - 1, NONCE_BYTES, len(sealed) // 2, len(sealed) - TAG_BYTES, len(sealed) - 1):
        for bit in (0, 7):
            flipped = bytearray(sealed)
            flipped[at] ^= 1 << bit
            assert s.open(wire, bytes(flipped)) is None, (at, bit)
    assert s.open(wire, sealed) == (topic, b"entry 7")


def test_every_sealed_payload_is_exactly_a_bucket_and_only_buckets_are_taken() -> None:
    s = seal()
    topic = topics.log(CODE, 9)
    name = len(topic.encode())
    lengths = {1, 100, MAX_ENTRY_BYTES, 3 * BUCKETS[-1]}
    for bucket in BUCKETS:
        room = bucket - name - (NONCE_BYTES + TAG_BYTES + 4 + 2)  # the most that fits in this bucket
        lengths |= {room - 1, room, room + 1}
    for length in sorted(n for n in lengths if n > 0):
        payload = os.urandom(length)
        sealed = s.seal(topic, payload)
        size = len(sealed)
        assert size == sealed_size(length, name), length
        assert size in BUCKETS or (size > BUCKETS[-1] and size % BUCKETS[-1] == 0), (length, size)
        assert size >= length + name + NONCE_BYTES + TAG_BYTES + 6
        smaller = [b for b in BUCKETS if b < size]
        assert not smaller or length + name + NONCE_BYTES + TAG_BYTES + 6 > smaller[-1], "the smallest that fits"
        assert s.open(s.topic(topic), sealed) == (topic, payload)
    # A message of the right key and topic, but of a size no sealer makes, is not taken.
    wire = s.topic(topic)
    inner = len(topic.encode()).to_bytes(2, "big") + topic.encode() + b"odd size"
    for size in (300, BUCKETS[0] + 16, BUCKETS[-1] + BUCKETS[0]):
        nonce = os.urandom(NONCE_BYTES)
        odd = nonce + s._aead.encrypt(nonce, pad(inner, size - NONCE_BYTES - TAG_BYTES), wire.encode())
        assert len(odd) == size and s.open(wire, odd) is None, size
    exact = os.urandom(NONCE_BYTES)
    ok = exact + s._aead.encrypt(exact, pad(inner, BUCKETS[1] - NONCE_BYTES - TAG_BYTES), wire.encode())
    assert s.open(wire, ok) == (topic, b"odd size"), "the same message at a bucket's size opens"
    # Short or truncated messages neither open nor raise.
    sealed = s.seal(topic, b"x")
    for cut in (b"", b"\x00", sealed[: NONCE_BYTES + TAG_BYTES - 1], sealed[:-1], sealed + b"\x00"):
        assert s.open(wire, cut) is None or cut == b""


def test_the_largest_sealed_message_fits_both_relays_limits() -> None:
    """A log entry of MAX_ENTRY_BYTES sealed under the longest topic, in a PUBLISH packet, fits the embedded
    relay's payload limit and Mosquitto's max_packet_size (the shipped configuration)."""
    largest = sealed_size(MAX_ENTRY_BYTES, MAX_TOPIC_BYTES)
    assert largest == BUCKETS[-1] and BUCKETS[-1] >= MAX_ENTRY_BYTES + MAX_OVERHEAD
    assert largest <= DEFAULT_MAX_PAYLOAD
    wire = len(seal().topic(topics.log(CODE, 2**32)))
    packet = 1 + 4 + 2 + wire + 2 + largest  # fixed header, remaining length, topic, packet id, payload
    found = re.search(r"^max_packet_size (\d+)$", MOSQUITTO_CONF.read_text(), re.M)
    assert found is not None and packet <= int(found.group(1))


def test_an_empty_payload_stays_the_deletion_it_is() -> None:
    s = seal()
    topic = topics.log(CODE, 11)
    assert s.seal(topic, b"") == b""  # MQTT deletes a retained message with an empty payload: it says nothing
    wire = s.topic(topic)
    assert s.open(wire, b"") == (topic, b""), "a topic this seal named: deleted"
    fresh = seal()
    assert fresh.open(wire, b"") is None, "a topic it never named (a wildcard's): nobody's deletion to hear"
    assert fresh.open(wire, s.seal(topic, b"entry")) == (topic, b"entry")
    assert fresh.open(wire, b"") == (topic, b""), "once a message named it, its deletion is heard"
    assert fresh.open(RoomSeal("ACDEFH", FP).topic(topic), b"") is None, "another room's deletion is not ours"


def test_a_parent_filter_selects_exactly_its_own_topics_on_the_wire() -> None:
    s = seal()
    made = every_topic() + [topics.log(CODE, n) for n in range(20)] + [topics.join(CODE, f"p{n}") for n in range(20)]
    made += [topics.log(CODE, 3) + "/deeper", topics.notice(CODE, 0, 1, "vote"), topics.log("ACDEFH", 3)]
    for logical_filter in every_filter():
        wire_filter = s.topic_filter(logical_filter)
        assert wire_filter.endswith("/+") and CODE not in wire_filter
        for topic in made:
            assert matches(wire_filter, s.topic(topic)) == matches(logical_filter, topic), (logical_filter, topic)
    assert s.topic_filter(topics.log(CODE, 3)) == s.topic(topics.log(CODE, 3)), "an exact topic is its own filter"
    for unsealable in (f"{topics.ROOT}/room/{CODE}/#", f"{topics.ROOT}/room/+/log/1", f"{topics.ROOT}/room/+/log/+"):
        with pytest.raises(SealError):
            s.topic_filter(unsealable)
    with pytest.raises(SealError):
        s.topic(topics.log_filter(CODE))
    with pytest.raises(SealError):  # the log, notices and presence are read by exact topics only
        s.topic_filter(topics.log_filter(CODE))
    # Outside the wildcard kinds no two topics share a level on the wire: the relay sees no kinds there.
    alone = [t for t in every_topic() if t.rsplit("/", 2)[-2] not in topics.WILDCARD_KINDS]
    alone += [topics.log(CODE, n) for n in range(20)]
    assert len({s.topic(t).split("/")[3] for t in alone}) == len(set(alone))
    with pytest.raises(SealError):
        s.topic(f"{topics.ROOT}/room/{CODE}/" + "x" * MAX_TOPIC_BYTES)


def test_the_listing_is_public_and_passes_unsealed() -> None:
    s = seal()
    card = topics.lobby(CODE)
    assert s.topic(card) == card and s.topic_filter(topics.LOBBY_FILTER) == topics.LOBBY_FILTER
    assert s.seal(card, b"signed card") == b"signed card" and s.open(card, b"signed card") == (card, b"signed card")
    # A sealed payload that names the listing is refused: nothing sealed is ever a listing.
    wire, name = s.topic(topics.log(CODE, 1)), card.encode()
    nonce = os.urandom(NONCE_BYTES)
    inner = len(name).to_bytes(2, "big") + name + b"x"
    crafted = nonce + s._aead.encrypt(nonce, pad(inner, BUCKETS[0] - NONCE_BYTES - TAG_BYTES), wire.encode())
    assert s.open(wire, crafted) is None


def test_the_full_and_the_readable_fingerprint_seal_alike() -> None:
    full, said = RoomSeal(CODE, FP), RoomSeal(CODE, readable(FP).lower().replace("-", " "))
    host = RoomSeal.for_host_key(CODE, HOST)
    for topic in every_topic():
        assert full.topic(topic) == said.topic(topic) == host.topic(topic)
        assert said.open(full.topic(topic), full.seal(topic, b"p")) == (topic, b"p")
    for logical_filter in every_filter():
        assert full.topic_filter(logical_filter) == said.topic_filter(logical_filter)
    with pytest.raises(SealError):
        RoomSeal(CODE, FP[: READABLE_LETTERS - 1])  # fewer letters than people read out: no seal


def test_every_topic_on_the_wire_is_at_most_seven_levels_deep() -> None:
    """Public brokers limit the depth of a topic (AWS IoT Core: 7 levels); every wire topic is well within it."""
    s = seal()
    for topic in [*every_topic(), topics.lobby(CODE)]:
        wire = s.topic(topic)
        assert len(wire.split("/")) <= 7, wire
        assert len(wire.encode()) <= 64, wire
    for logical_filter in [*every_filter(), topics.LOBBY_FILTER]:
        assert len(s.topic_filter(logical_filter).split("/")) <= 7
