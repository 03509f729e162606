"""A public broker's emulation: a local Mosquitto with the broker's limits, behind a TLS proxy that keeps
its rate and client-id limits and counts what the program sends.

Public brokers cannot be reached from here.  Each row of :data:`relay.public.PUBLIC_BROKERS` becomes
a Mosquitto (the shipped configuration, re-pointed by :mod:`relay.broker.mosquitto_config`) with the
row's ``message_size_limit``, ``max_queued_messages`` and retained policy, and an asyncio proxy in
front of it that speaks TLS to the clients (the test's own CA) and reads the MQTT packets they send:
a CONNECT whose client id is longer than the row allows, or a client publishing faster than the
row's rate (more than ``max_publish_rate`` PUBLISH packets in one second), is disconnected, as a
broker that enforces those limits does.  The proxy keeps the figures the tests assert on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ssl
import threading
import time
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from relay.address import RelayAddress, parse_address
from relay.public import RETAIN_OFF, PublicBroker
from tests.relay.helpers import BrokerProcess, free_port
from tests.relay.secure_relay import make_ca, make_server_cert

T = TypeVar("T")


@dataclass
class Counts:
    """What clients sent through the proxy."""

    publishes: int = 0
    retained: int = 0
    largest_payload: int = 0
    largest_topic: str = ""
    #: The most PUBLISH packets one connection sent within one second.
    busiest_second: int = 0
    deepest_topic: int = 0
    client_ids: list[str] = field(default_factory=list)
    #: Why the proxy ended connections (a limit broken): empty for a program that keeps the limits.
    broken: list[str] = field(default_factory=list)


def _length(data: bytes, at: int) -> tuple[int, int]:
    """A UTF-8 string's length prefix at ``at``: (length, offset after the prefix)."""
    return int.from_bytes(data[at : at + 2], "big"), at + 2


class LimitProxy:
    """TLS in front, plain MQTT to the broker behind; ends a connection that breaks the row's limits."""

    def __init__(self, broker_port: int, row: PublicBroker, context: ssl.SSLContext) -> None:
        self.broker_port, self.row, self.context = broker_port, row, context
        self.counts = Counts()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> LimitProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.context)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):  # each connection ends on its own (a cancelled one is logged by asyncio)
            writer.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.broker_port)
        except OSError:
            writer.close()
            self._tasks.discard(task)
            return
        self._writers |= {writer, up_writer}
        back = asyncio.ensure_future(self._copy(up_reader, writer))
        forth = asyncio.ensure_future(self._from_client(reader, up_writer))
        try:
            # Either side hanging up ends the connection (a broker that disconnects a client, as Mosquitto
            # does one that publishes a retained message where they are off, must be seen by the client).
            await asyncio.wait({back, forth}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for side in (back, forth):
                side.cancel()
                with contextlib.suppress(BaseException):
                    await side
            for w in (writer, up_writer):
                w.close()
                self._writers.discard(w)
            self._tasks.discard(task)

    @staticmethod
    async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, ssl.SSLError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()

    async def _from_client(self, reader: asyncio.StreamReader, broker: asyncio.StreamWriter) -> None:
        """Read the client's packets one by one, keep the row's limits, and pass them on."""
        sent: collections.deque[float] = collections.deque()
        while True:
            head = await reader.readexactly(1)
            length, multiplier, raw = 0, 1, bytearray(head)
            while True:
                byte = (await reader.readexactly(1))[0]
                raw.append(byte)
                length += (byte & 0x7F) * multiplier
                multiplier *= 128
                if not byte & 0x80:
                    break
            body = await reader.readexactly(length)
            kind = head[0] >> 4
            if kind == 1 and not self._connect(body):
                return
            if kind == 3 and not self._publish(head[0], body, sent):
                return
            broker.write(bytes(raw) + body)
            await broker.drain()

    def _connect(self, body: bytes) -> bool:
        name_len, at = _length(body, 0)
        at += name_len + 4  # protocol name, level, flags, keepalive
        id_len, at = _length(body, at)
        client_id = body[at : at + id_len].decode("utf-8", "replace")
        self.counts.client_ids.append(client_id)
        if id_len > self.row.max_client_id:
            self.counts.broken.append(f"client id {client_id!r} longer than {self.row.max_client_id}")
            return False
        return True

    def _publish(self, flags: int, body: bytes, sent: collections.deque[float]) -> bool:
        counts = self.counts
        topic_len, at = _length(body, 0)
        topic = body[at : at + topic_len].decode("utf-8", "replace")
        at += topic_len + (2 if (flags >> 1) & 3 else 0)
        payload = len(body) - at
        counts.publishes += 1
        counts.retained += flags & 1
        if payload > counts.largest_payload:
            counts.largest_payload, counts.largest_topic = payload, topic
        counts.deepest_topic = max(counts.deepest_topic, topic.count("/") + 1)
        now = time.monotonic()
        sent.append(now)
        while now - sent[0] >= 1.0:
            sent.popleft()
        counts.busiest_second = max(counts.busiest_second, len(sent))
        if len(sent) > self.row.max_publish_rate:
            counts.broken.append(f"{len(sent)} publishes within a second (limit {self.row.max_publish_rate})")
            return False
        if payload > self.row.max_message_bytes:
            counts.broken.append(f"a {payload}-byte message on {topic} (limit {self.row.max_message_bytes})")
        return True


@dataclass
class Emulation:
    """A running emulation: the broker process, the proxy, and the address the program is given."""

    row: PublicBroker
    broker: BrokerProcess
    proxy: LimitProxy
    ca_file: Path
    loop: asyncio.AbstractEventLoop

    async def outage(self) -> None:
        """The broker goes away for good: every connection ends, none is taken any more."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self.proxy.close(), self.loop))
        await asyncio.to_thread(self.broker.stop)

    @property
    def address(self) -> RelayAddress:
        return parse_address(f"mqtts://127.0.0.1:{self.proxy.port}", ca_file=str(self.ca_file))

    @property
    def counts(self) -> Counts:
        return self.proxy.counts


def mosquitto_for(binary: str, row: PublicBroker, tmp: Path) -> BrokerProcess:
    """The shipped Mosquitto configuration with ``row``'s documented (or assumed) limits."""
    from relay.broker.mosquitto_config import render

    port = free_port()
    text = render(port, tmp / "mosquitto-data")
    limits = {
        "max_queued_messages": str(row.max_queued),
        "retain_available": "false" if row.retain == RETAIN_OFF else "true",
        "max_inflight_messages": "20",
    }
    lines = [ln for ln in text.splitlines() if ln.split(" ", 1)[0] not in limits]
    lines += [f"{k} {v}" for k, v in limits.items()] + [f"message_size_limit {row.max_message_bytes}"]
    (tmp / "mosquitto-data").mkdir(parents=True, exist_ok=True)
    conf = tmp / "mosquitto-emulation.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return BrokerProcess([binary, "-c", str(conf)], port, tmp / "mosquitto.log", "mosquitto")


@contextlib.asynccontextmanager
async def emulate(binary: str, row: PublicBroker, tmp: Path):  # type: ignore[no-untyped-def]  # an async context
    """Start ``row``'s emulation (Mosquitto and the proxy), yield it, stop both."""
    tmp.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert, ca_file = make_ca(tmp, "public-ca")
    certfile, keyfile = make_server_cert(tmp, ca_key, ca_cert)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certfile, keyfile)
    broker = mosquitto_for(binary, row, tmp)
    await asyncio.to_thread(broker.start)
    # The proxy counts on a loop of its own, as a broker does: a test's loop busy with the players (a
    # pause of it) must not bunch the packets the proxy reads and make a paced client look too fast.
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def on_its_loop(coro: Coroutine[Any, Any, T]) -> Awaitable[T]:
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    proxy = await on_its_loop(LimitProxy(broker.port, row, context).start())
    try:
        yield Emulation(row, broker, proxy, ca_file, loop)
    finally:
        await on_its_loop(proxy.close())
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(thread.join, 5)
        loop.close()
        await asyncio.to_thread(broker.stop)
