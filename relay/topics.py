"""The relay's topic tree, in one place, so every part agrees on it.

Everything lives under ``sealed/v2/``: the Mosquitto ACL and the embedded broker's topic
filter confine clients to that prefix, so a relay shared with other MQTT users stays tidy.
"""

from __future__ import annotations

import re

ROOT = "sealed/v2"
#: Room names usable in a topic (room codes of :mod:`relay.lobby.invitation` are a subset: 6 capital letters).
_ROOM = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_PEER = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class TopicError(ValueError):
    """A room code or peer name that cannot be used in a topic."""


def check_room(room: str) -> str:
    if not _ROOM.match(room):
        raise TopicError(f"room {room!r} must be 1-64 letters, digits, '-' or '_'")
    return room


def check_peer(peer: str) -> str:
    if not _PEER.match(peer):
        raise TopicError(f"peer id {peer!r} must be 1-64 letters, digits, '-' or '_'")
    return peer


def log(room: str, seq: int) -> str:
    return f"{ROOT}/room/{room}/log/{seq}"


def log_filter(room: str) -> str:
    """Every log topic of a room, on a relay that does not seal it.  Only for tools and tests: a peer
    never subscribes a wildcard, whose retained messages anyone can multiply (see
    :mod:`relay.transport.room`), and a sealed room cannot be read by it (:data:`WILDCARD_KINDS`)."""
    return f"{ROOT}/room/{room}/log/+"


#: The kinds of topic a peer reads with a wildcard (``room/{room}/{kind}/+``): the host reads every
#: join request, a finished room's seats every rematch answer.  Only these share a level on the wire
#: (:mod:`relay.seal`); every other topic of a sealed room stands alone, so the relay cannot even
#: tell which of them carry the log.
WILDCARD_KINDS = frozenset({"join", "rematch"})


#: The kinds of notice a seat writes about an entry (``protocol.session``: votes, leaves, acks, and its
#: two-seat claims, kept here beside the log: the claimed seat's own entry overwrites one on ``log/{seq}``).
NOTICE_KINDS = ("vote", "leave", "ack", "claim")


def notice(room: str, seat: int, seq: int, kind: str) -> str:
    """Seat ``seat``'s notice of ``kind`` about entry ``seq``: one writer, one retained message."""
    return f"{ROOT}/room/{room}/notice/{seat}/{seq}/{kind}"


def want(room: str, seat: int) -> str:
    """Seat ``seat`` asks the others here for an entry it cannot get from the relay (signed, not retained)."""
    return f"{ROOT}/room/{room}/want/{seat}"


def presence(room: str, seat: int) -> str:
    """Seat ``seat``'s retained presence (online, gone, left, done)."""
    return f"{ROOT}/room/{room}/presence/{seat}"


def join(room: str, peer: str) -> str:
    return f"{ROOT}/room/{room}/join/{peer}"


def join_filter(room: str) -> str:
    return f"{ROOT}/room/{room}/join/+"


def seats(room: str) -> str:
    return f"{ROOT}/room/{room}/seats"


def room_card(room: str) -> str:
    """The room's card signed by its host, for joiners (listed or not; the listing has a copy)."""
    return f"{ROOT}/room/{room}/card"


def rematch(room: str, part: str) -> str:
    """A finished room's rematch talk: ``part`` is a seat number (its signed answer) or ``room`` (the new room)."""
    return f"{ROOT}/room/{room}/rematch/{part}"


def rematch_filter(room: str) -> str:
    return f"{ROOT}/room/{room}/rematch/+"


def sync(room: str, peer: str) -> str:
    """A non-retained marker a client sends itself: once it comes back, the retained read-back is done."""
    return f"{ROOT}/room/{room}/sync/{peer}"


def lobby(room: str) -> str:
    return f"{ROOT}/lobby/{room}"


#: Where listed rooms' cards are: public by intent, never sealed (:mod:`relay.seal`).
LOBBY_ROOT = f"{ROOT}/lobby/"
LOBBY_FILTER = f"{LOBBY_ROOT}+"


def listing_marker(peer: str) -> str:
    """The marker a reader of the (public, unsealed) listing sends itself: beside the listing, below its ``+``."""
    return f"{LOBBY_ROOT}{peer}/marker"


def knock(door: str, peer: str) -> str:
    """A stranger's sealed request at a listed room's door (:mod:`relay.lobby.door`): public, like the listing."""
    return f"{LOBBY_ROOT}{door}/knock/{peer}"


def knock_filter(door: str) -> str:
    return f"{LOBBY_ROOT}{door}/knock/+"


def answer(door: str, peer: str) -> str:
    """The host's sealed answer to ``peer``'s knock."""
    return f"{LOBBY_ROOT}{door}/answer/{peer}"


def parse_log_seq(topic: str) -> int | None:
    """The sequence number of a log topic, or None when the topic is not a well-formed log topic."""
    last = topic.rsplit("/", 1)[-1]
    if not last.isdigit() or len(last) > 9 or (len(last) > 1 and last[0] == "0"):
        return None
    return int(last)


def last_segment(topic: str) -> str:
    return topic.rsplit("/", 1)[-1]
