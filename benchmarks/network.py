"""Network figures: action-to-every-peer latency against bare MQTT, and many games on one Mosquitto.

    python3 benchmarks/network.py                 # latency + load with 10 and 25 games
    python3 benchmarks/network.py --games 25 50 100 --workers 2
    python3 benchmarks/network.py --broker 127.0.0.1:1883   # an already running broker

Everything runs against a real ``mosquitto`` started here with the shipped configuration
(``relay/mosquitto/sealed-table.conf``), unless ``--broker`` is given.

1. Latency.  Four peers (PeerSession + RoomTransport) play System Launch in one process; for
   every log entry, the time from its author producing it to the *last* other peer having
   applied it (checked signature, hash chain, rules).  Beside it, the bare MQTT figure on the
   same broker, measured the same way in the same process: one client publishes a retained
   QoS 1 message of the same size, three clients receive it; time until the third has it.
2. Load.  N concurrent 4-player games (4N peers, each with its own MQTT connection) spread
   over worker processes; entries per second, latency p50/p99, and desyncs (a game whose peers
   disagree on the final state hash or whose audit is not fair) — which must be 0.

On this 2-core machine every peer's cryptography shares two CPUs with the broker and the
other games: the load figures measure the machine, not the design (peers of a real game run
on four different computers, the broker only forwards bytes).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiomqtt  # noqa: E402

from engines.core import registry  # noqa: E402
from protocol.crypto.signing import SigningKey  # noqa: E402
from protocol.events import YourTurn  # noqa: E402
from protocol.session import PeerSession  # noqa: E402
from relay import topics  # noqa: E402
from relay.transport import RoomTransport, held_entry  # noqa: E402


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class TimedTransport(RoomTransport):
    """A transport that notes when each entry was produced and when this peer applied it."""

    produced: dict[str, float]

    def __init__(
        self, *args: Any, produced: dict[int, float], applied: dict[int, float], received: dict[int, float], **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self._produced = produced
        self._applied = applied
        self._received = received

    def _collect(self) -> None:
        now = time.perf_counter()
        before = len(self._outbox)
        super()._collect()
        for topic, _ in self._outbox[before:]:
            seq = topics.parse_log_seq(topic)
            if "/log/" in topic and seq is not None:
                self._produced.setdefault(seq, now)
        self._note()

    def _on_log(self, topic: str, payload: bytes) -> None:
        seq = topics.parse_log_seq(topic)
        if seq is not None:
            self._received.setdefault(seq, time.perf_counter())
        super()._on_log(topic, payload)
        self._note()

    def _note(self) -> None:
        table = getattr(self.session, "table", None)
        if table is None:
            return
        now = time.perf_counter()
        for seq in range(len(self._applied), table.head + 1):
            self._applied.setdefault(seq, now)


async def play_game(broker: str, room: str, seed: bytes, bot: str = "greedy") -> dict[str, Any]:
    """One 4-player System Launch game over the broker; per-entry latencies and the outcome."""
    n = 4
    keys = [SigningKey.generate(seed[:28] + bytes([s]) * 4) for s in range(n)]
    secrets = [bytes([s + 1]) * 16 + seed[:16] for s in range(n)]
    cards = [PeerSession.seat_card(f"bot{s}", keys[s], secrets[s]) for s in range(n)]
    now = int(time.monotonic() * 1000)
    sessions = [PeerSession.create(room, "system-launch", {}, cards, keys[0], secrets[0], 600_000, now_ms=now)]
    sessions += [PeerSession.join(room, s, keys[s], secrets[s], keys[0].public_bytes()) for s in range(1, n)]
    spec = registry.get("system-launch")
    produced: dict[int, float] = {}
    applied: list[dict[int, float]] = [{} for _ in range(n)]
    received: list[dict[int, float]] = [{} for _ in range(n)]

    def driver(s: int):  # type: ignore[no-untyped-def]
        session = sessions[s]

        def handle(events: list[Any]) -> None:
            todo = list(events)
            while todo:
                e = todo.pop(0)
                if isinstance(e, YourTurn) and not session.finished:
                    legal = session.legal_actions()
                    if legal:
                        b = spec.bots[bot](s, secrets[s] + e.seq.to_bytes(8, "big"))
                        todo += session.submit(b.choose(session.state, session.knowledge, legal))

        return handle

    transports = [
        TimedTransport(
            broker, sessions[s], f"{room}-{s}", driver(s), produced=produced, applied=applied[s], received=received[s]
        )
        for s in range(n)
    ]
    started = time.perf_counter()
    await asyncio.gather(*(t.run() for t in transports))
    seconds = time.perf_counter() - started
    lat, decisions, each, wire = [], [], [], []
    table = sessions[0].table
    for seq, t0 in produced.items():
        times = [applied[s].get(seq) for s in range(n)]
        if all(t is not None for t in times):
            lat.append(max(times) - t0)  # type: ignore[type-var,operator]
            if table is not None and seq <= table.head and table.log[seq].type == "action":
                decisions.append(max(times) - t0)  # type: ignore[type-var,operator]
                each += [t - t0 for t in times if t is not None and t > t0]
                got = [received[s].get(seq) for s in range(n) if received[s].get(seq, 0) > t0]
                if got:
                    wire.append(min(got) - t0)  # type: ignore[type-var,operator]
    hashes = {s.state.hash() for s in sessions if s.state is not None}
    fair = all(s.verdict is not None and s.verdict.fair for s in sessions)
    size = statistics.mean(len(held_entry(sessions[0], i) or b"") for i in range(sessions[0].table.head + 1))
    return {
        "entries": sessions[0].table.head + 1,
        "latencies": lat,
        "decisions": decisions,
        "each": each,
        "wire": wire,
        "desync": len(hashes) != 1 or not fair,
        "seconds": seconds,
        "entry_bytes": size,
    }


async def bare_mqtt(broker: str, size: int, rounds: int = 200) -> list[float]:
    """Publish retained QoS 1 → three subscribers; seconds until the third has each message."""
    host, port = broker.split(":")
    room = "BARE" + os.urandom(3).hex()
    topic = f"sealed/v1/room/{room}/log/"
    got: dict[int, list[float]] = {}
    subs = [aiomqtt.Client(host, int(port), identifier=f"bare-sub{i}-{room}") for i in range(3)]
    pub = aiomqtt.Client(host, int(port), identifier=f"bare-pub-{room}")
    for c in [*subs, pub]:
        await c.__aenter__()
    for c in subs:
        await c.subscribe(topic + "+", qos=1)

    async def listen(c: aiomqtt.Client) -> None:
        async for m in c.messages:
            got.setdefault(int(m.topic.value.rsplit("/", 1)[1]), []).append(time.perf_counter())

    tasks = [asyncio.create_task(listen(c)) for c in subs]
    sent: dict[int, float] = {}
    payload = os.urandom(int(size))
    for i in range(rounds):
        sent[i] = time.perf_counter()
        await pub.publish(topic + str(i), payload, qos=1, retain=True)
        while len(got.get(i, [])) < 3:
            await asyncio.sleep(0)
    for t in tasks:
        t.cancel()
    for c in [*subs, pub]:
        await c.__aexit__(None, None, None)
    return [max(got[i]) - sent[i] for i in range(rounds)]


def start_mosquitto(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    from relay.mosquitto_conf import write

    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = write(tmp / "mosquitto.conf", port, tmp / "data")
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with __import__("socket").socket() as s:
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
    lat = [x for r in results for x in r["latencies"]]
    entries = sum(r["entries"] for r in results)
    return {
        "games": games,
        "entries": entries,
        "seconds": seconds,
        "entries_per_s": entries / seconds,
        "p50_ms": pct(lat, 50) * 1000,
        "p99_ms": pct(lat, 99) * 1000,
        "desyncs": sum(r["desync"] for r in results),
    }


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), to show what the broker itself costs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--broker", default=None, help="HOST:PORT of a running broker (default: start mosquitto)")
    p.add_argument("--games", type=int, nargs="*", default=[10, 25], help="concurrent games per load run")
    p.add_argument("--workers", type=int, default=2, help="processes sharing the load")
    p.add_argument("--latency-games", type=int, default=2)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="sealed-bench-"))
    proc = None
    broker = args.broker
    if broker is None:
        proc, broker = start_mosquitto(tmp)
    try:
        lat: list[float] = []
        decisions: list[float] = []
        each: list[float] = []
        wire: list[float] = []
        sizes = []
        for g in range(args.latency_games):
            r = asyncio.run(play_game(broker, f"LAT{os.urandom(2).hex()}{g}", os.urandom(32)))
            lat += r["latencies"]
            decisions += r["decisions"]
            each += r["each"]
            wire += r["wire"]
            sizes.append(r["entry_bytes"])
        bare = asyncio.run(bare_mqtt(broker, statistics.mean(sizes)))
        b50, b99 = pct(bare, 50) * 1000, pct(bare, 99) * 1000
        print(f"broker: {broker} (mosquitto, shipped config)" if proc else f"broker: {broker}")
        print(f"entry size: mean {statistics.mean(sizes):.0f} bytes; {len(lat)} entries timed")
        print(f"bare MQTT publish -> 3 receivers:         p50 {b50:6.2f} ms  p99 {b99:6.2f} ms")
        for label, values in (
            ("player action -> every peer applied", decisions),
            ("player action -> one peer applied", each),
            ("any entry -> every peer applied", lat),
            ("player action -> first transport got it", wire),
        ):
            p50, p99 = pct(values, 50) * 1000, pct(values, 99) * 1000
            print(
                f"{label:40s} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  ratio p50 {p50 / b50:5.2f}x p99 {p99 / b99:5.2f}x"
            )
        print("(target <= 2x; 'every peer' = the 3 receiving sessions verify one after another in this one")
        print(" process, on 2 cores; 'one peer' is what a player on their own computer waits)")
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
                f"load {games:4d} games ({4 * games} peers): {r['entries']} entries in {r['seconds']:.1f} s = "
                f"{r['entries_per_s']:.0f} entries/s; latency p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms; "
                f"desyncs {r['desyncs']}{broker_cpu}"
            )
        print(f"(machine: {os.cpu_count()} cores shared by broker and all peers; CPU, not the design, is the limit)")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
