"""The embedded relay: an amqtt MQTT 3.1.1 broker, started and stopped from asyncio.

Used by ``python -m relay``, by the desktop program's "host a LAN game", and by the tests.
The relay understands nothing about games: it stores retained messages and forwards
publications.  Its only policy is hygiene — topics confined to ``sealed/v2/``, a payload size
limit, a connection limit — because the protocol above it never trusts it anyway.

amqtt keeps retained messages in memory only: a restart of the embedded relay forgets the
rooms, and the peers' transports put every entry they hold back on reconnect (see
:mod:`relay.transport.room`).  Operators who want restarts to keep games run Mosquitto with
persistence (``relay/broker/mosquitto/``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

from relay import topics
from relay.broker.amqtt_api import (
    Action,
    ApplicationMessage,
    BaseContext,
    BasePlugin,
    BaseTopicPlugin,
    Broker,
    ProtocolHandler,
    Session,
)
from relay.broker.discovery import Advertisement, advertise, local_addresses

log = logging.getLogger("relay.broker.embedded")


class _NoStartupTraceback(logging.Filter):
    """amqtt logs a traceback when a port is busy; :meth:`EmbeddedRelay.start` raises a clear OSError instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "Broker startup failed"


logging.getLogger("amqtt.broker").addFilter(_NoStartupTraceback())

#: Protocol version announced in the zeroconf TXT record; a client refuses other majors.
RELAY_PROTOCOL = "1"
#: Largest payload a client may publish (a log entry is a few KiB; a shuffle pass of 44 cards ~3 KiB).
DEFAULT_MAX_PAYLOAD = 256 * 1024
#: How long a stop waits for its closed connections' tasks to end before it cancels them.
STOP_WAIT_S = 2.0


@dataclass
class RelayConfig:
    """What an embedded relay listens on and what it allows."""

    host: str = "0.0.0.0"
    port: int = 1883
    ws_port: int | None = None
    max_payload: int = DEFAULT_MAX_PAYLOAD
    max_connections: int = 2000
    #: Announce on the LAN with zeroconf (``_mqtt._tcp``).
    advertise: bool = True
    name: str = "Sealed Table relay"
    #: Interfaces zeroconf uses (None: all).  Tests pass ``["127.0.0.1"]``.
    zeroconf_interfaces: list[str] | None = None
    extra_txt: dict[str, str] = field(default_factory=dict)


class SealedTopicPlugin(BaseTopicPlugin):
    """Confines every client to the project's topic tree (``sealed/v2/#``), for publish and subscribe."""

    def __init__(self, context: BaseContext) -> None:
        super().__init__(context)

    async def topic_filtering(
        self, *, session: Session | None = None, topic: str | None = None, action: Action | None = None
    ) -> bool | None:
        allowed = topic is not None and (topic == topics.ROOT + "/#" or topic.startswith(topics.ROOT + "/"))
        if not allowed:
            log.info("refused %s on %r from %s", action, topic, session.client_id if session else "?")
        return allowed


class ConnectionLogPlugin(BasePlugin[BaseContext]):
    """One clear log line per client that comes or goes (the packet-level loggers are too noisy)."""

    async def on_broker_client_connected(self, *, client_id: str, client_session: Session | None = None) -> None:
        log.info("client connected: %s", client_id)

    async def on_broker_client_disconnected(self, *, client_id: str, client_session: Session | None = None) -> None:
        log.info("client disconnected: %s", client_id)


#: Who holds a subscription to a filter, and at which QoS.
Holders = list[tuple[Session, int]]


class _SnapshotDict(dict[str, Holders]):
    """A dict whose iteration works on a snapshot.

    amqtt 0.12 iterates its subscription table with ``await`` inside the loop
    (``_run_broadcast``, and the retained read-back for a resumed session); a
    client subscribing meanwhile changes the table's size and the broadcast
    dies with "dictionary changed size during iteration" (several peers joining a
    room at once do that).  Iterating over a copy makes both loops safe.
    """

    def __iter__(self) -> Iterator[str]:
        return iter(list(super().__iter__()))

    def items(self) -> list[tuple[str, Holders]]:  # type: ignore[override]  # a snapshot list, not a live view: the point
        return list(super().items())


class _LimitedBroker(Broker):
    """amqtt's broker with a payload size limit, a race-free subscription table and a clean stop.

    An oversized publication closes the client's connection, as Mosquitto's
    ``max_packet_size`` does, so a stranger cannot fill the relay's memory with one message.
    """

    max_payload = DEFAULT_MAX_PAYLOAD

    def __init__(self, config: dict[str, object]) -> None:
        super().__init__(config)
        self._subscriptions = _SnapshotDict(self._subscriptions)
        #: Every TCP connection's task (from accept to close) and its stream.
        self._streams: dict[asyncio.Task[object], asyncio.StreamWriter] = {}

    async def stream_connected(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener_name: str
    ) -> None:
        task = asyncio.current_task()
        assert task is not None  # asyncio's server runs each connection in a task of its own
        self._streams[task] = writer
        try:
            await super().stream_connected(reader, writer, listener_name)
        finally:
            self._streams.pop(task, None)

    async def close(self) -> None:
        """Shut down, leaving no connection, session or task of the relay behind.

        amqtt's shutdown ends the sessions it has first and stops listening last: a client that
        connects meanwhile (a peer reconnecting at once) would get a session nobody ends, its reader
        task pending for ever and its client waiting for a keepalive to notice that the relay is
        gone; a connection still in its handshake is no session yet and is not ended at all.  So
        listening stops first, and what is still open after amqtt's shutdown is closed here and
        waited for (each connection's task ends by itself once its stream is closed).
        """
        for server in self._servers.values():
            if server.instance is not None:
                server.instance.close()
        await self.shutdown()
        for writer in self._streams.values():
            writer.transport.abort()
        for client_id in list(self._sessions):
            await self._cleanup_session(client_id)
        streams = set(self._streams)
        if streams:
            _, stuck = await asyncio.wait(streams, timeout=STOP_WAIT_S)
            for task in stuck:
                task.cancel()
            await asyncio.gather(*stuck, return_exceptions=True)

    async def close_listeners(self) -> None:
        """Stop listening where a failed start had already begun to (a start fails as a whole)."""
        for server in self._servers.values():
            await server.close_instance()

    async def _handle_message_delivery(
        self,
        client_session: Session,
        handler: ProtocolHandler,
        wait_deliver: asyncio.Future[ApplicationMessage | None],
    ) -> bool:
        message = wait_deliver.result()
        if message is not None and message.data is not None and len(message.data) > self.max_payload:
            log.warning(
                "closing %s: payload of %d bytes on %r exceeds the limit of %d",
                client_session.client_id,
                len(message.data),
                message.topic,
                self.max_payload,
            )
            return False
        return await super()._handle_message_delivery(client_session, handler, wait_deliver)

    async def _publish_retained_messages_for_subscription(
        self, subscription: tuple[str, int], session: Session
    ) -> None:
        """Send ``session`` the retained messages of ``subscription`` — only if it subscribed to it.

        amqtt 0.12 calls this on every connect for *every* filter any client of the relay holds,
        so a new client got the retained messages of every room.  An exact filter (the transport's
        log windows) is one lookup instead of a walk over every retained message.
        """
        topic_filter, qos = subscription
        holders = self._subscriptions.get(topic_filter, ())
        if not any(s.client_id == session.client_id for s, _ in holders):
            return
        handler = self._get_handler(session)
        if handler is None:
            return
        if "#" in topic_filter or "+" in topic_filter:
            prefix = topic_filter.split("+", 1)[0].split("#", 1)[0]  # a cheap test first: the room's part
            matching = [
                m
                for t, m in list(self._retained_messages.items())
                if t.startswith(prefix) and self._matches(t, topic_filter)
            ]
        else:
            found = self._retained_messages.get(topic_filter)
            matching = [found] if found is not None else []
        for retained in matching:
            await handler.mqtt_publish(retained.topic, retained.data, min(qos, retained.qos or qos), retain=True)


def _broker_config(cfg: RelayConfig) -> dict[str, object]:
    listeners: dict[str, dict[str, object]] = {
        "default": {"type": "tcp", "bind": f"{cfg.host}:{cfg.port}", "max_connections": cfg.max_connections},
    }
    if cfg.ws_port is not None:
        listeners["ws"] = {"type": "ws", "bind": f"{cfg.host}:{cfg.ws_port}", "max_connections": cfg.max_connections}
    return {
        "listeners": listeners,
        # Sessions of clients that went away for good are dropped after a day.
        "session_expiry_interval": 24 * 3600,
        "plugins": {
            "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            "relay.broker.embedded.SealedTopicPlugin": {},
            "relay.broker.embedded.ConnectionLogPlugin": {},
        },
    }


class EmbeddedRelay:
    """An amqtt broker that can be started and stopped from a running asyncio loop.

    ``port=0`` picks a free port; :attr:`port` gives the real one after :meth:`start`.
    """

    def __init__(self, config: RelayConfig | None = None) -> None:
        self.config = config or RelayConfig()
        self._broker: _LimitedBroker | None = None
        self._advert: Advertisement | None = None
        self.port: int = self.config.port
        self.ws_port: int | None = self.config.ws_port

    @property
    def running(self) -> bool:
        return self._broker is not None

    @property
    def address(self) -> str:
        """Where this machine reaches the relay (loopback when it listens on every interface)."""
        host = "127.0.0.1" if self.config.host in ("0.0.0.0", "", "::") else self.config.host
        return f"{host}:{self.port}"

    @property
    def lan_address(self) -> str:
        """Where the others on the network reach it: the address the LAN announcement carries."""
        if self.config.host not in ("0.0.0.0", "", "::"):
            return self.address
        return f"{local_addresses(self.config.zeroconf_interfaces)[0]}:{self.port}"

    def retained_count(self) -> int:
        """How many retained messages the relay holds (for logs and tests)."""
        return len(self._broker.retained_messages) if self._broker else 0

    def retained(self, prefix: str) -> dict[str, bytes]:
        """The retained messages whose topic starts with ``prefix`` (the program that runs the relay
        reads its room's presence here when deciding whether the others are done with it)."""
        if self._broker is None:
            return {}
        held = list(self._broker.retained_messages.items())
        return {topic: bytes(m.data or b"") for topic, m in held if topic.startswith(prefix)}

    async def start(self) -> None:
        if self._broker is not None:
            raise RuntimeError("the relay is already running")
        broker = _LimitedBroker(_broker_config(self.config))
        broker.max_payload = self.config.max_payload
        try:
            await broker.start()
        except Exception as exc:  # amqtt wraps bind errors in BrokerError
            await broker.close_listeners()
            raise OSError(f"cannot start the relay on {self.config.host}:{self.config.port}: {exc}") from None
        self._broker = broker
        self.port = _bound_port(broker, "default") or self.config.port
        if self.config.ws_port is not None:
            self.ws_port = _bound_port(broker, "ws") or self.config.ws_port
        log.info(
            "Sealed Table relay listening on %s:%d%s (max payload %d bytes, max %d connections)",
            self.config.host,
            self.port,
            f", WebSocket on port {self.ws_port}" if self.ws_port is not None else "",
            self.config.max_payload,
            self.config.max_connections,
        )
        if self.config.advertise:
            txt = {"sealed-table": RELAY_PROTOCOL, "proto": "mqtt311", "topics": topics.ROOT}
            if self.ws_port is not None:
                txt["ws"] = str(self.ws_port)
            txt.update(self.config.extra_txt)
            try:
                self._advert = await advertise(
                    self.config.name, self.port, txt, interfaces=self.config.zeroconf_interfaces
                )
                log.info("announced on the LAN as %r (_mqtt._tcp)", self.config.name)
            except Exception as exc:  # no multicast is no reason to refuse to relay
                log.warning("LAN announcement failed (%s); the relay works, but must be typed in by address", exc)

    async def stop(self) -> None:
        if self._advert is not None:
            await self._advert.close()
            self._advert = None
        broker, self._broker = self._broker, None
        if broker is not None:
            await broker.close()
            log.info("relay stopped")

    async def __aenter__(self) -> EmbeddedRelay:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def _bound_port(broker: Broker, listener: str) -> int | None:
    server = broker._servers.get(listener)
    sockets = server.instance.sockets if server is not None and server.instance is not None else ()
    if not sockets:
        return None
    return int(sockets[0].getsockname()[1])


async def serve_forever(config: RelayConfig, stop: asyncio.Event) -> None:
    """Run a relay until ``stop`` is set (the CLI sets it on SIGINT/SIGTERM)."""
    relay = EmbeddedRelay(config)
    await relay.start()
    try:
        await stop.wait()
    finally:
        log.info(
            "stopping (holding %d retained messages, which an embedded relay does not keep)", relay.retained_count()
        )
        await relay.stop()
