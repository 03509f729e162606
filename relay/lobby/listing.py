"""A relay's listing: the open rooms whose hosts asked to be listed, each card checked against its key.

A listed room's card there shows its door, not its code (:mod:`relay.lobby.door`).  Anyone may
store a retained card under ``lobby/{door}`` for any door, valid and self-signed or not,
as many as the relay lets them.  A listing keeps at most :data:`MAX_LISTED` cards and
:data:`MAX_LISTED_BYTES` while it reads (:func:`relay.lobby.retained.read_retained`): garbage and
cards of rooms that are not open take no place, and beyond the bound the newest rooms stay.  A flood
of valid cards can still push real rooms out of a listing; an invitation (the room code and the host's
key) never depends on it.
"""

from __future__ import annotations

import os
import time

import aiomqtt

from relay import topics
from relay.address import RelayAddress
from relay.errors import RelayUnreachable
from relay.lobby.door import ListedRoom, try_listing
from relay.lobby.retained import Bound, Rank, checked_address, lobby_client, read_retained

#: Rooms one listing keeps at most.  A person picks from a list, and 200 open rooms is more than
#: anyone reads through; the bound holds whatever strangers store on a public relay, so a flood of
#: self-signed cards takes these places and no more memory.
MAX_LISTED = 200
#: Bytes (topics and cards) one listing keeps at most.  An ordinary card is well under 1 KiB, so
#: 200 of them fit many times over; a card may carry up to 16 KiB (``MAX_MESSAGE``), and 200 padded
#: ones would take 3 MiB: padding costs its sender places in the listing, not our memory.
MAX_LISTED_BYTES = 1 << 20
#: A card whose creation time is further ahead of our clock than this is ranked as the oldest: no
#: room gets ahead of the others by claiming a time that has not come.
MAX_AHEAD_S = 3600


def _rank(now: int) -> Rank:
    """Open listed cards signed by the key they name, newest first (by creation time, then version)."""

    def rank(topic: str, payload: bytes) -> tuple[int, ...] | None:
        card = try_listing(payload, topics.last_segment(topic)) if payload else None
        if card is None or not card.open:
            return None
        created = card.created if card.created <= now + MAX_AHEAD_S else 0
        return (created, card.version)

    return rank


async def list_rooms(relay: str | RelayAddress, timeout: float = 4.0) -> list[ListedRoom]:
    """The open listed rooms of a relay (oldest first), the newest :data:`MAX_LISTED` at most.

    Cards not signed by the key they name are skipped.
    """
    address = await checked_address(relay, timeout)
    peer = "list" + os.urandom(4).hex()
    bound = Bound(MAX_LISTED, MAX_LISTED_BYTES)
    try:
        async with lobby_client(address) as client:
            # QoS 0: Mosquitto queues at most max_queued_messages (1,000 shipped) QoS 1 messages for
            # a client, so a flood of retained garbage stored first would crowd out every card after it.
            filters = [topics.LOBBY_FILTER]
            got = await read_retained(
                client, filters, peer, timeout, qos=0, bound=bound, rank=_rank(int(time.time())), public=True
            )
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {address}: {exc}") from None
    cards = [card for topic, payload in got.items() if (card := try_listing(payload, topics.last_segment(topic)))]
    return sorted(cards, key=lambda c: (c.created, c.door))
