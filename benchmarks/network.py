"""Network figures: action-to-every-peer latency against bare MQTT, a peer's CPU per entry, and load.

    python3 benchmarks/network.py                        # short run (< 90 s): latency, CPU, load 10 games
    python3 benchmarks/network.py --games 25 50 100      # the long load run
    python3 benchmarks/network.py --latency-games 5 --in-process --broker 127.0.0.1:1883

Everything runs against a real ``mosquitto`` started here with the shipped configuration
(``relay/broker/mosquitto/sealed-table.conf``), unless ``--broker`` is given.

1. Latency, like real use: every peer is its own OS process (as players are on their own
   machines), running PeerSession + RoomTransport over the broker, in 4-seat and 2-seat games
   (``--seats``).  Times come from ``time.monotonic_ns``, one clock for every process on
   Linux.  A player's action is timed from the moment its bot hands the decision to
   ``session.submit`` (signing and publishing included) to the moment each *other* peer has
   applied it (checked the signature, the hash chain, the rules and any card shown).  "Every
   peer" is the last of them.  The bare MQTT baseline is measured the same way, between the
   games: one publisher process and as many receiver processes, retained QoS 1 messages of
   the mean entry size on exact log topics, from just before ``publish`` to each receiver
   having the message; twice: with the project's own client (``relay.mqtt.mqtt_client``, the
   ratios' base) and with a raw-socket MQTT 3.1.1 client written here (how near the wire is).
   For each action the stages are printed too (the author's submit, to the outbox, to the
   client's ``publish``, the wire to the first and the last receiver's client, the slowest
   receiver's client to its transport's reader, the slowest check), for all actions and for
   the slowest 5%, and how often the last receiver read the entry only after another had
   applied it (the receivers taking turns on the cores).
   ``--think-ms`` adds games whose bots pause before answering; ``--in-process`` adds a
   variant with all four peers in one process (so the three receivers verify one after another).
2. CPU: what one peer spends per received entry and per own action, measured without any
   network (four sessions passing bytes in memory), ``time.process_time`` per call.
3. Rebuild: a restarted seat reads a long game (``--rebuild`` entries of a 6-seat System Launch
   with random bots, played in memory and stored retained) back from the broker and applies it; the time
   from ``run()`` until the transport says Connected (read back, may act), median of five.
4. Load: N concurrent 4-player games (4N peers, each with its own MQTT connection) spread
   over worker processes; entries per second, latency p50/p99, and desyncs (a game whose
   peers disagree on the final state hash or whose audit is not fair) — which must be 0.

On this 2-core machine the peer processes and the broker share two CPUs: when an action
arrives, the three receivers of a 4-seat game each need a core for about a third of a
millisecond, so the last one waits for a core another peer holds.  The latency includes that
CPU contention (the stages show it: the last receiver's client lags the first while the check
itself does not grow), and the load figures measure the machine, not the design (peers of a real game run
on different computers; the broker only forwards bytes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiomqtt  # noqa: E402

from engines.core import registry  # noqa: E402
from protocol.crypto.signing import SigningKey  # noqa: E402
from protocol.envelope import parse  # noqa: E402
from protocol.events import YourTurn  # noqa: E402
from protocol.session import PeerSession  # noqa: E402
from relay import topics  # noqa: E402
from relay.transport.room import RoomTransport, held_entry, monotonic_ms  # noqa: E402

N = 4
GAME = "system-launch"
BOT = "greedy"
MS = 1e6  # nanoseconds per millisecond


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``; NaN for none."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


# -- one game's seats, identical in every process -------------------------------------------


def seat_material(seed: bytes, n: int = N) -> tuple[list[SigningKey], list[bytes], list[Any]]:
    """Keys, per-game secrets and seat cards of a 4-seat game, derived from ``seed`` alone."""
    keys = [SigningKey.generate(seed[:28] + bytes([s]) * 4) for s in range(n)]
    secrets = [bytes([s + 1]) * 16 + seed[:16] for s in range(n)]
    cards = [PeerSession.seat_card(f"bot{s}", keys[s], secrets[s]) for s in range(n)]
    return keys, secrets, cards


class Timings:
    """monotonic_ns marks of one peer, per seq.

    The author's: action submitted, signed (``submit`` returned), queued to send, handed to the MQTT
    client (``publish`` called); a receiver's: arrived (the MQTT client parsed it off the socket),
    received (the transport's reader has it), applied (every check passed, the replica changed).
    """

    def __init__(self) -> None:
        self.submitted: dict[int, int] = {}
        self.signed: dict[int, int] = {}
        self.queued: dict[int, int] = {}
        self.sent: dict[int, int] = {}
        self.arrived: dict[int, int] = {}
        self.received: dict[int, int] = {}
        self.applied: dict[int, int] = {}

    def hook_client(self) -> None:
        """Note when this process's MQTT client is handed a log entry and when one comes off the socket.

        The benchmark's own instrument (each peer is alone in its process): aiomqtt's ``publish`` and
        ``_on_message`` are wrapped for log topics; nothing else of the client changes.
        """
        publish, on_message = aiomqtt.Client.publish, aiomqtt.Client._on_message
        marks = self

        async def timed_publish(client: aiomqtt.Client, topic: str, *args: Any, **kw: Any) -> None:
            seq = topics.parse_log_seq(topic) if "/log/" in topic else None
            if seq is not None:
                marks.sent.setdefault(seq, time.monotonic_ns())
            await publish(client, topic, *args, **kw)

        def timed_on_message(client: aiomqtt.Client, paho: Any, userdata: Any, message: Any) -> None:
            topic = message.topic
            seq = topics.parse_log_seq(topic) if "/log/" in topic else None
            if seq is not None:
                marks.arrived.setdefault(seq, time.monotonic_ns())
            on_message(client, paho, userdata, message)

        aiomqtt.Client.publish = timed_publish  # type: ignore[method-assign]
        aiomqtt.Client._on_message = timed_on_message  # type: ignore[method-assign]

    def as_dict(self) -> dict[str, dict[int, int]]:
        return {k: dict(v) for k, v in vars(self).items()}


class TimedSession(PeerSession):
    """A PeerSession that notes the moment its replica has applied each entry.

    The table calls ``entry_applied`` right after an entry passed every check and changed
    the replica: that is "applied".  Whatever the session then writes by itself in the
    same call (its own auto-entries) and the bot's next decision are not counted to it.
    """

    marks: Timings | None = None  # set right after creation (the creator applies its first entries before)

    def entry_applied(self, table: Any, env: Any) -> None:
        if self.marks is not None:
            self.marks.applied.setdefault(env.seq, time.monotonic_ns())
        super().entry_applied(table, env)


def make_session(
    room: str, seed: bytes, seat: int, marks: Timings | None = None, n: int = N, now_ms: int = 0
) -> tuple[PeerSession, bytes]:
    """Seat ``seat`` of an ``n``-seat game; ``now_ms`` on the clock its driver will tick with."""
    keys, secrets, cards = seat_material(seed, n)
    if seat == 0:
        session = TimedSession.create(room, GAME, {}, cards, keys[0], secrets[0], 600_000, now_ms=now_ms)
    else:
        session = TimedSession.join(room, seat, keys[seat], secrets[seat], keys[0].public_bytes())
    assert isinstance(session, TimedSession)
    session.marks = marks or Timings()
    return session, secrets[seat]


class BotDriver:
    """The seat's bot: on YourTurn, choose and submit (the submit moment is the latency's start).

    ``think_s`` > 0 answers that long after the turn came, as a person would (and as the bare
    baseline's publisher paces its messages); 0 answers inside the callback that announced
    the turn, so the next seat's decision shares the CPU with peers still checking the last
    action.
    """

    def __init__(self, session: PeerSession, seat: int, secret: bytes, marks: Timings, think_s: float = 0.0) -> None:
        self.session, self.seat, self.secret, self.marks, self.think_s = session, seat, secret, marks, think_s
        self.transport: RoomTransport | None = None
        self.spec = registry.get(GAME)

    def __call__(self, events: list[Any]) -> None:
        todo = list(events)
        while todo:
            e = todo.pop(0)
            if isinstance(e, YourTurn) and not self.session.finished:
                if self.think_s and self.transport is not None:
                    asyncio.get_running_loop().call_later(self.think_s, self._decide_later, e)
                else:
                    todo += self._decide(e)

    def _decide(self, e: YourTurn) -> list[Any]:
        session = self.session
        legal = session.legal_actions()
        if not legal or session.finished:
            return []
        action = self.spec.bots[BOT](self.seat, self.secret + e.seq.to_bytes(8, "big")).choose(
            session.state, session.knowledge, legal
        )
        self.marks.submitted.setdefault(e.seq, time.monotonic_ns())
        events = session.submit(action, settle=False)  # the transport settles it once sent
        self.marks.signed.setdefault(e.seq, time.monotonic_ns())
        return events

    def _decide_later(self, e: YourTurn) -> None:
        self(self._decide(e))
        if self.transport is not None:
            self.transport.flush()


class TimedTransport(RoomTransport):
    """A transport that notes when each entry was queued for publishing, received and applied."""

    def __init__(self, *args: Any, marks: Timings, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._marks = marks

    def _collect(self) -> None:
        before = len(self._outbox)
        super()._collect()
        now = time.monotonic_ns()
        for topic, _ in self._outbox[before:]:
            seq = topics.parse_log_seq(topic) if "/log/" in topic else None
            if seq is not None:
                self._marks.queued.setdefault(seq, now)

    def _on_log(self, topic: str, payload: bytes) -> None:
        seq = topics.parse_log_seq(topic)
        if seq is not None:
            self._marks.received.setdefault(seq, time.monotonic_ns())
        super()._on_log(topic, payload)


def outcome(session: PeerSession) -> dict[str, Any]:
    table = session.table
    assert table is not None
    return {
        "hash": session.state.hash() if session.state is not None else b"",
        "fair": session.verdict is not None and session.verdict.fair,
        "types": [env.type for env in table.log],
        "entry_bytes": statistics.mean(len(held_entry(session, i) or b"") for i in range(table.head + 1)),
    }


# -- latency: one process per peer ------------------------------------------------------------


def peer_process(broker: str, room: str, seed: bytes, seat: int, think_s: float = 0.0, n: int = N) -> dict[str, Any]:
    """One seat of an ``n``-seat game, alone in its process, to the end of the game; its marks and outcome."""
    marks = Timings()
    marks.hook_client()
    session, secret = make_session(room, seed, seat, marks, n, monotonic_ms())
    driver = BotDriver(session, seat, secret, marks, think_s)
    transport = TimedTransport(broker, session, f"{room}-{seat}", driver, marks=marks)
    driver.transport = transport
    cpu0 = time.process_time()
    asyncio.run(transport.run())
    return {"seat": seat, "cpu_s": time.process_time() - cpu0, **marks.as_dict(), **outcome(session)}


class Stages(NamedTuple):
    """Where one action's time went (ns); sorted by the first field, the whole latency."""

    every: int  # submitted -> the last other peer applied it
    sign: int  # submitted -> signed (session.submit returned: rules, sealing, signature)
    to_outbox: int  # signed -> queued to send (the driver's return, the transport's collect)
    to_client: int  # queued -> the MQTT client's publish called (the writer task's turn)
    first_wire: int  # publish called -> the first receiver's client parsed it off the socket
    last_wire: int  # publish called -> the last receiver's client had it
    to_reader: int  # the slowest receiver's client had it -> its transport's reader got it
    check: int  # the slowest receiver's reader got it -> applied
    before: str  # the type of the entry before it
    #: The last receiver's client read it only after another receiver had applied it: the receivers took turns.
    in_turn: bool


def game_latencies(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Action latencies (ns) of one game from its peers' marks; desync if hashes differ or unfair."""
    types = results[0]["types"]
    every, each, wire_every = [], [], []
    stages: list[Stages] = []
    for author in results:
        for seq, t0 in author["submitted"].items():
            if seq >= len(types) or types[seq] != "action":
                continue
            others = [r for r in results if r["seat"] != author["seat"]]
            applied = [r["applied"].get(seq) for r in others]
            if any(t is None for t in applied):
                continue
            each += [t - t0 for t in applied]  # type: ignore[operator]
            every.append(max(applied) - t0)  # type: ignore[type-var,operator]
            queued = author["queued"].get(seq)
            if queued is not None:
                wire_every.append(max(applied) - queued)  # type: ignore[type-var,operator]
            marks = [author[k].get(seq) for k in ("signed", "queued", "sent")]
            arrived = [r["arrived"].get(seq) for r in others]
            received = [r["received"].get(seq) for r in others]
            if all(t is not None for t in [*marks, *arrived, *received]):
                signed, queued, sent = marks
                stages.append(
                    Stages(
                        max(applied) - t0,  # type: ignore[type-var,operator]
                        signed - t0,  # type: ignore[operator]
                        queued - signed,  # type: ignore[operator]
                        sent - queued,  # type: ignore[operator]
                        min(arrived) - sent,  # type: ignore[type-var,operator]
                        max(arrived) - sent,  # type: ignore[type-var,operator]
                        max(b - a for a, b in zip(arrived, received, strict=True)),  # type: ignore[operator]
                        max(b - a for a, b in zip(received, applied, strict=True)),  # type: ignore[operator]
                        types[seq - 1] if seq else "",
                        len(others) > 1 and max(arrived) > min(applied),  # type: ignore[type-var,operator]
                    )
                )
    return {
        "stages": stages,
        "every": every,
        "each": each,
        "queued_every": wire_every,
        "desync": len({r["hash"] for r in results}) != 1 or not all(r["fair"] for r in results),
        "entries": len(types),
        "entry_bytes": results[0]["entry_bytes"],
        "cpu_per_entry_us": statistics.mean(r["cpu_s"] for r in results) / len(types) * 1e6,
    }


def latency_processes(broker: str, games: int, think_s: float = 0.0, n: int = N) -> dict[str, Any]:
    """``games`` timed games, one after another; between games the bare baseline is timed too.

    Interleaving keeps the two figures of a ratio from different minutes of a shared machine.
    """
    total: dict[str, Any] = {"every": [], "each": [], "queued_every": [], "desyncs": 0, "sizes": [], "cpu": []}
    for kind in BARE:
        total[kind] = {"each": [], "every": []}
    total["stages"] = []
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(n) as pool:
        for g in range(games):
            room, seed = f"LAT{os.urandom(2).hex()}{g}", os.urandom(32)
            r = game_latencies(pool.starmap(peer_process, [(broker, room, seed, s, think_s, n) for s in range(n)]))
            for kind in BARE:
                bare = bare_processes(broker, int(r["entry_bytes"]), count=60, receivers=n - 1, kind=kind)
                total[kind]["each"] += bare["each"]
                total[kind]["every"] += bare["every"]
            for k in ("every", "each", "queued_every", "stages"):
                total[k] += r[k]
            total["desyncs"] += r["desync"]
            total["sizes"].append(r["entry_bytes"])
            total["cpu"].append(r["cpu_per_entry_us"])
    return total


# -- latency: all peers in one process (labelled, for comparison) -------------------------------


async def play_game(broker: str, room: str, seed: bytes) -> dict[str, Any]:
    """One 4-player game with all four peers in this process; marks per peer and the outcome."""
    results = []
    transports = []
    sessions = []
    all_marks = []
    for s in range(N):
        marks = Timings()
        session, secret = make_session(room, seed, s, marks, N, monotonic_ms())
        sessions.append(session)
        all_marks.append(marks)
        transports.append(
            TimedTransport(broker, session, f"{room}-{s}", BotDriver(session, s, secret, marks), marks=marks)
        )
    started = time.perf_counter()
    await asyncio.gather(*(t.run() for t in transports))
    seconds = time.perf_counter() - started
    for s in range(N):
        results.append({"seat": s, "cpu_s": 0.0, **all_marks[s].as_dict(), **outcome(sessions[s])})
    r = game_latencies(results)
    r["seconds"] = seconds
    return r


# -- bare MQTT, measured the same way ------------------------------------------------------------
#
# Two baselines, each a publisher process and one receiver process per other seat, retained QoS 1
# messages of the mean entry size on exact log topics (as the transport subscribes them):
#
# - "client": the very client the transport uses (relay.mqtt.mqtt_client: aiomqtt over paho on
#   asyncio, TCP_NODELAY), reading ``client.messages`` as the transport's reader does.  The
#   latency target is a ratio to this one: what the protocol adds over the same MQTT stack.
# - "raw": a minimal MQTT 3.1.1 client written here over a blocking TCP socket (CONNECT,
#   SUBSCRIBE, PUBLISH, PUBACK), no event loop and no library: how close to the wire loopback is,
#   and so what the client stack itself costs.


def _client_for(broker: str, kind: str) -> Any:
    from relay.address import parse_address
    from relay.mqtt import mqtt_client

    return mqtt_client(parse_address(broker), kind, keepalive=60, timeout=10)


def bare_receiver(broker: str, topic: str, count: int, ready: Any, out: Any) -> None:
    """Subscribe to ``topic{0..count-1}`` with the project's client; note when each message arrives."""

    async def main() -> dict[int, int]:
        got: dict[int, int] = {}
        async with _client_for(broker, "bare-sub") as client:
            await client.subscribe([(f"{topic}{i}", 1) for i in range(count)])
            ready.release()
            async with asyncio.timeout(60):
                async for m in client.messages:
                    got.setdefault(int(m.topic.value.rsplit("/", 1)[1]), time.monotonic_ns())
                    if len(got) >= count:
                        break
        return got

    out.put(asyncio.run(main()))


def bare_publisher(broker: str, topic: str, count: int, size: int, gap_s: float, out: Any) -> None:
    """Publish ``count`` retained QoS 1 messages of ``size`` bytes, one every ``gap_s``; send their times."""

    async def main() -> dict[int, int]:
        sent: dict[int, int] = {}
        payload = os.urandom(size)
        async with _client_for(broker, "bare-pub") as client:
            for i in range(count):
                sent[i] = time.monotonic_ns()
                await client.publish(f"{topic}{i}", payload, qos=1, retain=True)
                await asyncio.sleep(gap_s)
        return sent

    out.put(("pub", asyncio.run(main())))


class RawMqtt:
    """A minimal MQTT 3.1.1 client over a blocking TCP socket: just what the raw baseline needs."""

    def __init__(self, broker: str, identifier: str) -> None:
        from relay.wire import connect_packet, is_connack

        host, port = broker.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.sock.sendall(connect_packet(identifier))  # keepalive 10 s: a baseline takes well under that
        kind, body = self.packet()
        if not is_connack(bytes([kind, len(body)]) + body) or body[1] != 0:
            raise RuntimeError(f"raw MQTT: no CONNACK ({kind:#x} {body!r})")

    def _fill(self, n: int) -> None:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("raw MQTT: the broker closed the connection")
            self.buf += chunk

    def packet(self) -> tuple[int, bytes]:
        """The next packet: (first byte, body)."""
        self._fill(2)
        length, mult, at = 0, 1, 1
        while True:
            self._fill(at + 1)
            digit = self.buf[at]
            length += (digit & 0x7F) * mult
            mult *= 128
            at += 1
            if not digit & 0x80:
                break
        self._fill(at + length)
        kind, body, self.buf = self.buf[0], self.buf[at : at + length], self.buf[at + length :]
        return kind, body

    @staticmethod
    def _frame(first: int, body: bytes) -> bytes:
        from relay.wire import _varint

        return bytes([first]) + _varint(len(body)) + body

    def subscribe(self, topics_: list[str], mid: int = 1) -> None:
        body = struct.pack("!H", mid) + b"".join(struct.pack("!H", len(t)) + t.encode() + b"\x01" for t in topics_)
        self.sock.sendall(self._frame(0x82, body))
        while self.packet()[0] != 0x90:  # SUBACK
            pass

    def publish(self, topic: str, payload: bytes, mid: int) -> None:
        """A retained QoS 1 PUBLISH (its PUBACK is read by :meth:`packet` later)."""
        t = topic.encode()
        self.sock.sendall(self._frame(0x33, struct.pack("!H", len(t)) + t + struct.pack("!H", mid) + payload))

    def received(self) -> tuple[str, bytes] | None:
        """The next PUBLISH (acknowledged if QoS 1), or None for any other packet."""
        kind, body = self.packet()
        if kind >> 4 != 3:
            return None
        (n,) = struct.unpack("!H", body[:2])
        topic, rest = body[2 : 2 + n].decode(), body[2 + n :]
        if (kind >> 1) & 3:
            self.sock.sendall(b"\x40\x02" + rest[:2])  # PUBACK
            rest = rest[2:]
        return topic, rest

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(b"\xe0\x00")
        self.sock.close()


def raw_receiver(broker: str, topic: str, count: int, ready: Any, out: Any) -> None:
    """As :func:`bare_receiver`, with :class:`RawMqtt`: a blocking socket and nothing else."""
    got: dict[int, int] = {}
    client = RawMqtt(broker, f"raw-sub-{os.getpid()}-{os.urandom(2).hex()}")
    client.subscribe([f"{topic}{i}" for i in range(count)])
    ready.release()
    while len(got) < count:
        m = client.received()
        if m is not None:
            got.setdefault(int(m[0].rsplit("/", 1)[1]), time.monotonic_ns())
    client.close()
    out.put(got)


def raw_publisher(broker: str, topic: str, count: int, size: int, gap_s: float, out: Any) -> None:
    """As :func:`bare_publisher`, with :class:`RawMqtt` (each PUBACK read before the next message)."""
    sent: dict[int, int] = {}
    payload = os.urandom(size)
    client = RawMqtt(broker, f"raw-pub-{os.getpid()}-{os.urandom(2).hex()}")
    for i in range(count):
        sent[i] = time.monotonic_ns()
        client.publish(f"{topic}{i}", payload, i + 1)
        while client.packet()[0] != 0x40:  # PUBACK
            pass
        time.sleep(gap_s)
    client.close()
    out.put(("pub", sent))


BARE = {"client": (bare_receiver, bare_publisher), "raw": (raw_receiver, raw_publisher)}


def bare_processes(
    broker: str, size: int, count: int = 200, gap_s: float = 0.005, receivers: int = N - 1, kind: str = "client"
) -> dict[str, list[int]]:
    """A publisher and ``receivers`` receivers, each its own process; latency (ns) to each and to the last."""
    ctx = multiprocessing.get_context("spawn")
    topic = f"{topics.ROOT}/room/BARE{os.urandom(3).hex()}/log/"
    receiver, publisher_of = BARE[kind]
    ready, out = ctx.Semaphore(0), ctx.Queue()
    listeners = [ctx.Process(target=receiver, args=(broker, topic, count, ready, out)) for _ in range(receivers)]
    for p in listeners:
        p.start()
    for _ in listeners:
        if not ready.acquire(timeout=30):
            raise RuntimeError("a bare MQTT receiver did not subscribe")
    publisher = ctx.Process(target=publisher_of, args=(broker, topic, count, size, gap_s, out))
    publisher.start()
    got = [out.get(timeout=120) for _ in range(receivers + 1)]
    for p in [*listeners, publisher]:
        p.join(timeout=10)
    sent = next(g[1] for g in got if isinstance(g, tuple))
    recv = [g for g in got if not isinstance(g, tuple)]
    each = [r[i] - sent[i] for r in recv for i in sent if i in r]
    every = [max(r[i] for r in recv) - sent[i] for i in sent if all(i in r for r in recv)]
    return {"each": each, "every": every}


async def bare_in_process(broker: str, size: int, rounds: int = 200) -> list[int]:
    """The in-process baseline: publisher and three subscribers in this one process; ns until the third has it."""
    host, port = broker.split(":")
    topic = f"{topics.ROOT}/room/BARE{os.urandom(3).hex()}/log/"
    got: dict[int, list[int]] = {}
    subs = [aiomqtt.Client(host, int(port), identifier=f"bare-sub{i}-{topic[-12:]}") for i in range(3)]
    pub = aiomqtt.Client(host, int(port), identifier=f"bare-pub-{topic[-12:]}")
    for c in [*subs, pub]:
        await c.__aenter__()
    for c in subs:
        await c.subscribe(topic + "+", qos=1)
    arrived = asyncio.Event()

    async def listen(c: aiomqtt.Client) -> None:
        async for m in c.messages:
            got.setdefault(int(m.topic.value.rsplit("/", 1)[1]), []).append(time.monotonic_ns())
            arrived.set()

    tasks = [asyncio.create_task(listen(c)) for c in subs]
    sent: dict[int, int] = {}
    payload = os.urandom(int(size))
    for i in range(rounds):
        sent[i] = time.monotonic_ns()
        await pub.publish(topic + str(i), payload, qos=1, retain=True)
        while len(got.get(i, [])) < 3:
            arrived.clear()
            await arrived.wait()
    for t in tasks:
        t.cancel()
    for c in [*subs, pub]:
        await c.__aexit__(None, None, None)
    return [max(got[i]) - sent[i] for i in range(rounds)]


# -- CPU per entry, no network ---------------------------------------------------------------------


def _bot_turns(s: int, events: list[Any], sessions: list[PeerSession], secrets: list[bytes], cost: dict) -> None:
    """Seat ``s``'s bot answers every YourTurn in ``events``; the submit's CPU is noted."""
    spec = registry.get(GAME)
    todo = list(events)
    while todo:
        e = todo.pop(0)
        if isinstance(e, YourTurn) and not sessions[s].finished:
            legal = sessions[s].legal_actions()
            if legal:
                bot = spec.bots[BOT](s, secrets[s] + e.seq.to_bytes(8, "big"))
                action = bot.choose(sessions[s].state, sessions[s].knowledge, legal)
                t0 = time.process_time()
                more = sessions[s].submit(action, settle=False)
                t1 = time.process_time()
                more += sessions[s].settle()
                cost.setdefault("own action: sign, to outbox", []).append(t1 - t0)
                cost.setdefault("own action: settle after", []).append(time.process_time() - t1)
                todo += more


def cpu_per_entry(games: int = 3) -> dict[str, list[float]]:
    """Seconds of CPU (process_time) per ``receive`` by entry type, and per own ``submit``.

    Four sessions pass bytes in memory in publication order (a perfect network), so the
    figures are the protocol's own cost: parse, signature, schema, rules, state hash,
    events, plus whatever auto-entries the received entry makes this seat write.
    """
    cost: dict[str, list[float]] = {}
    for g in range(games):
        made = [make_session("CPU", bytes([g + 1]) * 32, s) for s in range(N)]
        sessions = [m[0] for m in made]
        secrets = [m[1] for m in made]
        wire: list[tuple[int, bytes]] = []
        for s in range(N):
            _bot_turns(s, sessions[s].take_events(), sessions, secrets, cost)
            wire += [(s, o.data) for o in sessions[s].take_outgoing()]
        while wire:
            source, data = wire.pop(0)
            kind = parse(data).type
            for s in range(N):
                if s != source:
                    t0 = time.process_time()
                    events = sessions[s].receive(data, 0)
                    cost.setdefault(f"receive {kind}", []).append(time.process_time() - t0)
                    _bot_turns(s, events, sessions, secrets, cost)
                    wire += [(s, o.data) for o in sessions[s].take_outgoing()]
        if len({x.state.hash() for x in sessions}) != 1 or not all(x.verdict and x.verdict.fair for x in sessions):
            raise RuntimeError("the in-memory CPU run desynchronised")
    return cost


# -- rebuild: a restarted seat reads a long game back -----------------------------------------------
REBUILD_GAME, REBUILD_SEATS, REBUILD_BOT = "system-launch", 6, "random"


def long_log(want: int) -> tuple[bytes, list[bytes]]:
    """The first ``want`` entries (or all, if fewer) of the longest of a few games played in memory; (seed, entries).

    Random bots at a 6-seat System Launch table make long games (about 450 entries in ten seconds).
    """
    global GAME, BOT
    saved, GAME, BOT = (GAME, BOT), REBUILD_GAME, REBUILD_BOT
    try:
        best: tuple[bytes, list[bytes]] = (b"", [])
        for g in range(8):
            seed = bytes([g + 9]) * 32
            made = [make_session("REBUILD", seed, s, n=REBUILD_SEATS) for s in range(REBUILD_SEATS)]
            sessions, secrets = [m[0] for m in made], [m[1] for m in made]
            wire: list[tuple[int, bytes]] = []
            cost: dict[str, list[float]] = {}
            for s in range(REBUILD_SEATS):
                _bot_turns(s, sessions[s].take_events(), sessions, secrets, cost)
                wire += [(s, o.data) for o in sessions[s].take_outgoing()]
            while wire:
                source, data = wire.pop(0)
                for s in range(REBUILD_SEATS):
                    if s != source:
                        _bot_turns(s, sessions[s].receive(data, 0), sessions, secrets, cost)
                        wire += [(s, o.data) for o in sessions[s].take_outgoing()]
            table = sessions[0].table
            assert table is not None
            log = [bytes(e.data) for e in table.log][:want]
            if len(log) > len(best[1]):
                best = (seed, log)
            if len(log) >= want:
                break
        return best
    finally:
        GAME, BOT = saved


async def rebuild_seconds(broker: str, seed: bytes, log: list[bytes], rounds: int = 5) -> list[float]:
    """Seconds for a restarted seat's transport to read ``log`` back and apply it (until Connected)."""
    from relay.transport.room import Connected

    room = "REBUILD"  # the room the entries were written for (a fresh broker per run)
    host, port = broker.rsplit(":", 1)
    async with aiomqtt.Client(host, int(port), identifier="rebuildpub" + os.urandom(3).hex()) as c:
        for seq, data in enumerate(log):
            await c.publish(topics.log(room, seq), data, qos=1, retain=True)
    keys, secrets, _ = seat_material(seed, REBUILD_SEATS)
    out = []
    for r in range(rounds):
        session = PeerSession.join(room, 1, keys[1], secrets[1], keys[0].public_bytes())
        done = asyncio.Event()

        def driver(events: list[Any], done: asyncio.Event = done) -> None:
            if any(isinstance(e, Connected) for e in events):
                done.set()

        transport = RoomTransport(broker, session, f"rebuild{r}", driver)
        started = time.perf_counter()
        task = asyncio.ensure_future(transport.run())
        await asyncio.wait_for(done.wait(), 120)
        out.append(time.perf_counter() - started)
        head = session.table.head if session.table is not None else -1
        assert head >= len(log) - 1, f"the rebuild read {head + 1} of {len(log)} entries"
        transport.stop()
        await task
    return out


def report_rebuild(broker: str, want: int) -> None:
    seed, log = long_log(want)
    seconds = asyncio.run(rebuild_seconds(broker, seed, log))
    print(
        f"REBUILD a {len(log)}-entry {REBUILD_GAME} game ({REBUILD_SEATS} seats): a restarted seat's read-back until "
        f"it may act: median {1000 * statistics.median(seconds):.0f} ms "
        f"({', '.join(f'{1000 * x:.0f}' for x in seconds)} ms)"
    )


# -- load ------------------------------------------------------------------------------------------


def start_mosquitto(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    from relay.broker.mosquitto_config import write

    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = write(tmp / "mosquitto.conf", port, tmp / "data")
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, f"127.0.0.1:{port}"
        time.sleep(0.05)
    raise RuntimeError("mosquitto did not start")


def _worker(args: tuple[str, list[str]]) -> list[dict[str, Any]]:
    broker, rooms = args

    async def main() -> list[dict[str, Any]]:
        return await asyncio.gather(*(play_game(broker, r, r.encode().ljust(32, b"x")) for r in rooms))

    return asyncio.run(main())


def load_run(broker: str, games: int, workers: int) -> dict[str, Any]:
    tag = os.urandom(2).hex()
    rooms = [f"LOAD{tag}{g}" for g in range(games)]
    chunks = [(broker, rooms[w::workers]) for w in range(workers) if rooms[w::workers]]
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(len(chunks)) as pool:
        results = [r for chunk in pool.map(_worker, chunks) for r in chunk]
    seconds = time.perf_counter() - started
    lat = [x for r in results for x in r["every"]]
    entries = sum(r["entries"] for r in results)
    return {
        "games": games,
        "entries": entries,
        "seconds": seconds,
        "entries_per_s": entries / seconds,
        "p50_ms": pct(lat, 50) / MS,
        "p99_ms": pct(lat, 99) / MS,
        "desyncs": sum(r["desync"] for r in results),
    }


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), to show what the broker itself costs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


# -- printing --------------------------------------------------------------------------------------


def line(label: str, values: list[int], base: list[int] | None = None) -> str:
    p50, p99 = pct(values, 50) / MS, pct(values, 99) / MS
    text = f"  {label:44s} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms"
    if base:
        text += f"  ratio p50 {p50 / (pct(base, 50) / MS):5.2f}x  p99 {p99 / (pct(base, 99) / MS):5.2f}x"
    return text


def report_latency(broker: str, games: int, in_process: bool, think_ms: int, seats: list[int]) -> None:
    runs = [(n, 0, "bots answer at once") for n in seats]
    if think_ms:
        runs += [(n, think_ms, f"bots answer after {think_ms} ms, paced like the bare publisher") for n in seats]
    for n, think, label in runs:
        lat = latency_processes(broker, games, think / 1000, n)
        size = int(statistics.mean(lat["sizes"]))
        bare, raw = lat["client"], lat["raw"]
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(
            f"LATENCY, {n} seats, one OS process per peer ({n} peers + the broker on {os.cpu_count()} cores;"
            f" load average after it {load}); {label}\n"
            f"  ({games} games, {len(lat['every'])} player actions, mean entry {size} B;"
            " both bare baselines are timed between the games)"
        )
        print(line(f"bare, project client: publish -> each of {n - 1}", bare["each"]))
        print(line("bare, project client: publish -> every (last)", bare["every"]))
        print(line(f"bare, raw socket: publish -> each of {n - 1}", raw["each"]))
        print(line("bare, raw socket: publish -> every (last)", raw["every"]))
        print(line("action submitted -> each other peer applied", lat["each"], bare["each"]))
        print(line("action submitted -> every peer applied", lat["every"], bare["every"]))
        print(line("  the same, to the raw-socket baseline", lat["every"], raw["every"]))
        print(line("action queued to send -> every peer applied", lat["queued_every"], bare["every"]))
        print(
            f"  (ratios to the project-client baseline unless said; target <= 1.5x at p50, <= 2x at p99;"
            f" desyncs {lat['desyncs']}; a peer's whole-game CPU / entries ="
            f" {statistics.mean(lat['cpu']):.0f} us, connecting and the end-of-game audit included.)"
        )
        print(stage_lines(lat["stages"]))
    print(
        "  Every peer checks every entry: with more peers than cores, a peer often waits for a core, and"
        " CPU contention is part of every figure above (on players' own machines it is not)."
    )
    if in_process:
        old = [asyncio.run(play_game(broker, f"LIP{os.urandom(2).hex()}{g}", os.urandom(32))) for g in range(games)]
        base = asyncio.run(bare_in_process(broker, 470))
        every = [x for r in old for x in r["every"]]
        each = [x for r in old for x in r["each"]]
        print("LATENCY, all four peers in ONE process (the 3 receivers verify one after another on one core)")
        print(line("bare MQTT publish -> every receiver (last)", base))
        print(line("action submitted -> each other peer applied", each, base))
        print(line("action submitted -> every peer applied", every, base))


def stage_lines(stages: list[Stages]) -> str:
    """Where an action's time goes, for all actions and for the slowest 5%: medians of each stage."""
    if not stages:
        return "  (no stages)"
    ordered = sorted(stages)
    slow = ordered[-max(1, len(ordered) // 20) :]
    out = [
        "  where the time goes (medians, ms): sign | to outbox | to client.publish | wire to first receiver's"
        " client | to last one's | client -> reader (slowest) | check (slowest)"
    ]
    for label, rows in (("all actions", ordered), (f"slowest {len(slow)}", slow)):
        med = [statistics.median(r[i] for r in rows) / MS for i in range(1, 8)]
        after = statistics.mode(r.before for r in rows)
        out.append(
            f"    {label:12s} " + " | ".join(f"{m:5.2f}" for m in med) + f"   (entry before, most often: {after})"
        )
    if len(ordered) and any(r.in_turn for r in ordered):
        turns = sum(r.in_turn for r in ordered)
        out.append(
            f"    in {turns} of {len(ordered)} actions ({100 * turns / len(ordered):.0f}%) the last receiver's client"
            " read the entry only after another receiver had applied it: the receivers took turns on the cores"
        )
    return "\n".join(out)


def report_cpu(games: int) -> None:
    cost = cpu_per_entry(games)
    print(f"PEER CPU per call, no network ({games} games in memory; process_time; includes auto-entries written)")
    for kind, values in sorted(cost.items()):
        print(
            f"  {kind:30s} n={len(values):5d}  median {statistics.median(values) * 1e6:7.0f} us"
            f"  mean {statistics.mean(values) * 1e6:7.0f} us"
        )
    if "own action: sign, to outbox" in cost and "receive action" in cost:
        fixed = statistics.median(cost["own action: sign, to outbox"]) + statistics.median(cost["receive action"])
        print(
            f"  CPU on an action's critical path (author's signing + one receiver's check): {fixed * 1e3:.2f} ms;"
            " estimate, not measured:\n  on a network whose bare publish->receive takes R ms, an action reaches a"
            f" peer in about R + {fixed * 1e3:.2f} ms (ratio {1 + fixed * 1e3 / 5:.2f}x at R = 5 ms,"
            f" {1 + fixed * 1e3 / 20:.2f}x at R = 20 ms)"
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", default=None, help="HOST:PORT of a running broker (default: start mosquitto)")
    p.add_argument("--games", type=int, nargs="*", default=[10], help="concurrent games per load run (long: 25 50 100)")
    p.add_argument("--workers", type=int, default=2, help="processes sharing the load")
    p.add_argument("--latency-games", type=int, default=6, help="games timed with one process per peer")
    p.add_argument("--seats", type=int, nargs="+", default=[4, 2], help="seats of the timed games (one process each)")
    p.add_argument(
        "--think-ms",
        type=int,
        default=0,
        help="also time games whose bots pause this long before answering (the bare publisher pauses 5 ms)",
    )
    p.add_argument("--cpu-games", type=int, default=2, help="games for the per-entry CPU figures (0: skip)")
    p.add_argument("--in-process", action="store_true", help="also time the all-peers-in-one-process variant")
    p.add_argument("--rebuild", type=int, default=400, help="entries of the game a restarted seat reads back (0: skip)")
    args = p.parse_args()
    from relay.mqtt import quiet_publish_backlog

    quiet_publish_backlog()  # a restarted seat putting a log back keeps many entries in flight, by design
    tmp = Path(tempfile.mkdtemp(prefix="sealed-bench-"))
    proc = None
    broker = args.broker
    if broker is None:
        proc, broker = start_mosquitto(tmp)
    try:
        print(f"broker: {broker} (mosquitto, shipped config)" if proc else f"broker: {broker}")
        if args.latency_games:
            report_latency(broker, args.latency_games, args.in_process, args.think_ms, args.seats)
        if args.cpu_games:
            report_cpu(args.cpu_games)
        if args.rebuild:
            report_rebuild(broker, args.rebuild)
        for games in args.games:
            before = cpu_seconds(proc.pid) if proc else None
            r = load_run(broker, games, args.workers)
            after = cpu_seconds(proc.pid) if proc else None
            broker_cpu = (
                f"; broker CPU {after - before:.1f} s ({100 * (after - before) / r['seconds']:.0f}% of one core)"
                if before is not None and after is not None
                else ""
            )
            print(
                f"LOAD {games:4d} games ({4 * games} peers): {r['entries']} entries in {r['seconds']:.1f} s = "
                f"{r['entries_per_s']:.0f} entries/s; action->every peer p50 {r['p50_ms']:.1f} ms "
                f"p99 {r['p99_ms']:.1f} ms; desyncs {r['desyncs']}{broker_cpu}"
            )
        if args.games:
            print(
                f"(load: {os.cpu_count()} cores shared by the broker and every peer;"
                " the CPU, not the design, is the limit)"
            )
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
