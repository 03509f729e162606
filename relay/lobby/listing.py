"""A relay's listing: the open rooms whose hosts asked to be listed, each card checked against its key."""

from __future__ import annotations

import os

import aiomqtt

from relay import topics
from relay.address import RelayAddress
from relay.errors import RelayUnreachable
from relay.lobby.messages import LobbyCard, try_card
from relay.lobby.retained import checked_address, lobby_client, read_retained


async def list_rooms(relay: str | RelayAddress, timeout: float = 4.0) -> list[LobbyCard]:
    """The open listed rooms of a relay (oldest first); cards not signed by the key they name are skipped."""
    address = await checked_address(relay, timeout)
    peer = "list" + os.urandom(4).hex()
    try:
        async with lobby_client(address) as client:
            # QoS 0: Mosquitto queues at most max_queued_messages (1,000 shipped) QoS 1 messages for
            # a client, so a flood of retained garbage stored first would crowd out every card after it.
            got = await read_retained(client, [topics.LOBBY_FILTER], peer, timeout, qos=0)
    except aiomqtt.MqttError as exc:
        raise RelayUnreachable(f"relay {address}: {exc}") from None
    cards = []
    for topic, payload in got.items():
        if not topic.startswith(f"{topics.ROOT}/lobby/"):  # a relay may send other topics' retained messages too
            continue
        code = topics.last_segment(topic)
        card = try_card(payload, code) if payload else None
        if card is not None and card.open and card.listed:
            cards.append(card)
    return sorted(cards, key=lambda c: (c.created, c.code))
