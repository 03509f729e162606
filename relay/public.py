"""Public MQTT brokers friends can meet on, with the limits the program keeps on them: one table.

Friends who run no relay of their own meet on a public broker; the lobby's internet section offers
these by default (``client/net/public.py``): a room is opened on the first that answers, in this
order, and the others are its fallbacks (:mod:`relay.transport.failover`), so one broker's outage
moves the game to the next.  Nothing is sent to them unless the player chose the internet section.

Why it is safe: a public broker is anyone's broker.  It is trusted with nothing (every entry is
signed and chained; ``docs/relay-operators.md``); it can only refuse service, and the fallbacks
answer that.  What it *can* do is enforce limits, and the program stays inside the strictest of them:

- every message the program publishes fits :func:`smallest_message_limit` once sealed and padded
  (``tests/relay/test_public.py`` measures the largest real entries of each game);
- at most :data:`relay.pacing.MAX_PER_WINDOW` publishes per client in any
  :data:`relay.pacing.WINDOW_S` seconds (:mod:`relay.pacing`, in ``RelayClient.publish``);
- client ids of at most 23 characters (:func:`relay.address.client_id`), topics of at most 7 levels.

Each row says where its figures come from.  What a broker does not document is an *assumption*,
chosen conservatively and named in :attr:`PublicBroker.assumed`; ``docs/relay-operators.md`` holds
the same table (a test checks that they agree).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from relay.address import MAX_CLIENT_ID

#: Where retained messages stand on a broker: kept as MQTT says, ``capped`` (kept, but a broker may
#: drop them: a restart, a per-client quota), or ``off`` (a publish with the retain flag is refused,
#: e.g. Mosquitto's ``retain_available false`` disconnects its sender).
RETAIN_KEPT, RETAIN_CAPPED, RETAIN_OFF = "kept", "capped", "off"

#: The conservative figures taken where a broker documents none.
ASSUMED_MESSAGE_BYTES = 128 * 1024
ASSUMED_QUEUED = 100
ASSUMED_RATE = 50
ASSUMED_TOPIC_LEVELS = 7
ASSUMED_KEEPALIVE_S = 60

#: Tests and groups with a list of their own: ``SEALED_TABLE_PUBLIC_RELAYS="mqtts://a:8883,wss://b/mqtt"``
#: replaces the built-in addresses (the limits stay the strictest of the table's).
ENV_OVERRIDE = "SEALED_TABLE_PUBLIC_RELAYS"


@dataclass(frozen=True)
class PublicBroker:
    """One public broker: where it listens (TLS or secure WebSocket only) and the limits it sets."""

    name: str
    #: Relay addresses (``mqtts://host:port``, ``wss://host:port/path``), the preferred first.
    addresses: tuple[str, ...]
    #: Largest PUBLISH payload the broker passes on, in bytes.
    max_message_bytes: int
    #: QoS 1 messages the broker queues per client beyond those in flight.
    max_queued: int
    retain: str
    max_client_id: int
    max_topic_levels: int
    #: Publishes per second per client before the broker throttles or disconnects.
    max_publish_rate: int
    #: The longest keepalive (seconds) the broker lets a client ask for; the program asks 10 s.
    max_keepalive_s: int
    #: Where the figures and addresses come from.
    source: str
    #: The fields the source does not document: their values above are the assumptions of this module.
    assumed: frozenset[str]


_ALL_LIMITS = frozenset(
    {
        "max_message_bytes",
        "max_queued",
        "retain",
        "max_client_id",
        "max_topic_levels",
        "max_publish_rate",
        "max_keepalive_s",
    }
)


def _broker(name: str, addresses: tuple[str, ...], source: str, retain: str = RETAIN_CAPPED) -> PublicBroker:
    """A broker none of whose limits is documented where we could read: every limit the assumption."""
    return PublicBroker(
        name,
        addresses,
        ASSUMED_MESSAGE_BYTES,
        ASSUMED_QUEUED,
        retain,
        MAX_CLIENT_ID,
        ASSUMED_TOPIC_LEVELS,
        ASSUMED_RATE,
        ASSUMED_KEEPALIVE_S,
        source,
        _ALL_LIMITS,
    )


#: The built-in list, in the order rooms are opened on them.  The test brokers' operators promise no
#: service (mqtt.org's list says so for all but the paid ones): hence the fallbacks.  Retained messages
#: are "capped" on all of them: each keeps them, and none promises to keep them across a restart.
PUBLIC_BROKERS: tuple[PublicBroker, ...] = (
    _broker(
        "EMQX public broker",
        ("mqtts://broker.emqx.io:8883", "wss://broker.emqx.io:8084/mqtt"),
        "https://www.emqx.com/en/mqtt/public-mqtt5-broker",
    ),
    _broker(
        "HiveMQ public broker",
        ("mqtts://broker.hivemq.com:8883", "wss://broker.hivemq.com:8884/mqtt"),
        "https://www.hivemq.com/mqtt/public-mqtt-broker/",
    ),
    _broker(
        "Mosquitto test server",
        ("mqtts://test.mosquitto.org:8886", "wss://test.mosquitto.org:8081/mqtt"),
        "https://test.mosquitto.org/",
    ),
    _broker(
        "Eclipse Mosquitto sandbox",
        ("mqtts://mqtt.eclipseprojects.io:8883", "wss://mqtt.eclipseprojects.io:443/mqtt"),
        "https://mqtt.eclipseprojects.io/",
    ),
)


def smallest_message_limit(brokers: tuple[PublicBroker, ...] = PUBLIC_BROKERS) -> int:
    """The largest message every broker of the table passes on (what every publish must fit, sealed)."""
    return min(b.max_message_bytes for b in brokers)


def slowest_rate(brokers: tuple[PublicBroker, ...] = PUBLIC_BROKERS) -> int:
    return min(b.max_publish_rate for b in brokers)


def public_relays(brokers: tuple[PublicBroker, ...] = PUBLIC_BROKERS) -> tuple[str, ...]:
    """The addresses rooms are opened on, in order: each broker's preferred address, then the others.

    :data:`ENV_OVERRIDE` replaces them (the tests' local stand-ins; a group's own list).
    """
    override = os.environ.get(ENV_OVERRIDE, "")
    if override.strip():
        return tuple(a.strip() for a in override.split(",") if a.strip())
    first = [b.addresses[0] for b in brokers]
    rest = [a for b in brokers for a in b.addresses[1:]]
    return (*first, *rest)


def broker_of(address: str, brokers: tuple[PublicBroker, ...] = PUBLIC_BROKERS) -> PublicBroker | None:
    """The table's row for a relay address (None for a relay the table does not know)."""
    return next((b for b in brokers if address in b.addresses), None)


def markdown_table(brokers: tuple[PublicBroker, ...] = PUBLIC_BROKERS) -> str:
    """The table as ``docs/relay-operators.md`` shows it (an assumed figure is marked "assumed")."""

    def cell(broker: PublicBroker, name: str, shown: str) -> str:
        return f"{shown} (assumed)" if name in broker.assumed else shown

    rows = [
        "| broker | addresses | max message | queued | retained | client id | topic levels | publishes/s"
        " | keepalive | source |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for b in brokers:
        cells = [
            b.name,
            ", ".join(f"`{a}`" for a in b.addresses),
            cell(b, "max_message_bytes", f"{b.max_message_bytes // 1024} KiB"),
            cell(b, "max_queued", str(b.max_queued)),
            cell(b, "retain", b.retain),
            cell(b, "max_client_id", f"{b.max_client_id} chars"),
            cell(b, "max_topic_levels", str(b.max_topic_levels)),
            cell(b, "max_publish_rate", str(b.max_publish_rate)),
            cell(b, "max_keepalive_s", f"{b.max_keepalive_s} s"),
            b.source,
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"
