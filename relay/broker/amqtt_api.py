"""The part of amqtt the embedded relay builds on, with its types (amqtt ships no type information).

Only :mod:`relay.broker.embedded` imports amqtt, and only these names.  At run time they are
amqtt's own; for the type checker they are declared here with just the members the embedded
relay uses, as amqtt 0.12 defines them, so the rest of the relay layer is checked against types
rather than ``Any``.  A change of amqtt that breaks one of them shows in tests/relay/broker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio
    import socket
    from collections.abc import Sequence
    from enum import StrEnum
    from typing import Generic, Protocol, TypeVar

    class Session:
        """A client's session on the broker."""

        client_id: str

    class ApplicationMessage:
        """A message a client published, on its way through the broker."""

        topic: str
        data: bytes | bytearray | None
        qos: int | None

    class RetainedApplicationMessage(ApplicationMessage):
        """A message the broker keeps for its topic."""

        data: bytes | bytearray

    class ProtocolHandler:
        """The broker's end of one client connection."""

        async def mqtt_publish(self, topic: str, data: bytes | bytearray, qos: int | None, retain: bool) -> object: ...

    class Listening(Protocol):
        """A listener's server: asyncio's for TCP, websockets' for WebSocket."""

        @property
        def sockets(self) -> Sequence[socket.socket]: ...

        def close(self) -> None: ...

    class Server:
        """One listener (``instance`` is None for an external one)."""

        instance: Listening | None

        async def close_instance(self) -> None: ...

    class BaseContext:
        """What a plugin is handed by the broker."""

    class Action(StrEnum):
        """What a client asks to do with a topic."""

        SUBSCRIBE = "subscribe"
        PUBLISH = "publish"
        RECEIVE = "receive"

    _C = TypeVar("_C", bound=BaseContext)

    class BasePlugin(Generic[_C]):
        """A broker plugin: amqtt calls its ``on_broker_*`` methods by name."""

        def __init__(self, context: _C) -> None: ...

    class BaseTopicPlugin(BasePlugin[BaseContext]):
        """A plugin that decides which topics a client may use."""

        async def topic_filtering(
            self, *, session: Session | None = None, topic: str | None = None, action: Action | None = None
        ) -> bool | None: ...

    class Broker:
        """amqtt's MQTT 3.1.1 broker, with the internals the embedded relay overrides or reads."""

        _servers: dict[str, Server]
        _sessions: dict[str, tuple[Session, ProtocolHandler]]
        _subscriptions: dict[str, list[tuple[Session, int]]]
        _retained_messages: dict[str, RetainedApplicationMessage]

        def __init__(self, config: dict[str, object] | None = None) -> None: ...

        @property
        def retained_messages(self) -> dict[str, RetainedApplicationMessage]: ...

        async def start(self) -> None: ...

        async def shutdown(self) -> None: ...

        async def stream_connected(
            self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener_name: str
        ) -> None: ...

        async def _cleanup_session(self, client_id: str) -> None: ...

        async def _handle_message_delivery(
            self,
            client_session: Session,
            handler: ProtocolHandler,
            wait_deliver: asyncio.Future[ApplicationMessage | None],
        ) -> bool: ...

        async def _publish_retained_messages_for_subscription(
            self, subscription: tuple[str, int], session: Session
        ) -> None: ...

        def _get_handler(self, session: Session) -> ProtocolHandler | None: ...

        def _matches(self, topic: str, a_filter: str) -> bool: ...

else:
    from amqtt.broker import Broker, RetainedApplicationMessage, Server
    from amqtt.contexts import Action, BaseContext
    from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler as ProtocolHandler
    from amqtt.plugins.base import BasePlugin, BaseTopicPlugin
    from amqtt.session import ApplicationMessage, Session

__all__ = [
    "Action",
    "ApplicationMessage",
    "BaseContext",
    "BasePlugin",
    "BaseTopicPlugin",
    "Broker",
    "ProtocolHandler",
    "RetainedApplicationMessage",
    "Server",
    "Session",
]
