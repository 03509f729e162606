"""Real brokers, real peer processes and a cuttable TCP proxy, for the relay tests and the benchmark."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from relay.address import parse_address
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.mqtt import RelayClient, mqtt_client
from relay.pacing import Pacer
from relay.seal import RoomSeal
from relay.transport.room import Backoff, RoomTransport
from tests.relay.transport.stub_session import STUB_HOST_KEY, StubSession, YourTurn

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    e["PYTHONUNBUFFERED"] = "1"
    return e


class BrokerProcess:
    """A broker in its own process (embedded relay or mosquitto) that can be stopped and started again."""

    def __init__(self, argv: list[str], port: int, log: Path, kind: str) -> None:
        self.argv = argv
        self.port = port
        self.log = log
        self.kind = kind
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> BrokerProcess:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.argv, stdout=out, stderr=subprocess.STDOUT, env=env(), cwd=ROOT)
        wait_port(self.port)
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def embedded(tmp: Path) -> BrokerProcess:
    port = free_port()
    argv = [sys.executable, "-m", "relay", "--host", "127.0.0.1", "--port", str(port), "--no-announce"]
    return BrokerProcess(argv, port, tmp / "relay.log", "embedded")


def mosquitto(binary: str, tmp: Path, autosave_interval: int | None = None) -> BrokerProcess:
    from relay.broker.mosquitto_config import write

    port = free_port()
    conf = write(tmp / "mosquitto.conf", port, tmp / "mosquitto-data", autosave_interval=autosave_interval)
    return BrokerProcess([binary, "-c", str(conf)], port, tmp / "mosquitto.log", "mosquitto")


@dataclass
class Peer:
    """A ``python -m client.headless`` process."""

    index: int
    args: list[str]
    state_dir: Path
    out: Path
    proc: subprocess.Popen[bytes] | None = None
    runs: int = 0

    def start(self) -> Peer:
        self.runs += 1
        with open(self.out, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "client.headless", *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env(),
                cwd=ROOT,
            )
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout)

    def text(self) -> str:
        return self.out.read_text(errors="replace") if self.out.exists() else ""

    def field(self, name: str) -> str | None:
        found = re.findall(rf"^{name}:? (.*)$", self.text(), re.M)
        return found[-1] if found else None

    def entries(self) -> int:
        """How many log entries this peer has saved (its seat.json does not say; use the save line)."""
        m = re.findall(r"saved .* \((\d+) entries\)", self.text())
        return int(m[-1]) if m else 0


@dataclass
class Table:
    peers: list[Peer] = field(default_factory=list)
    code: str = ""

    def wait(self, timeout: float = 90.0) -> list[int]:
        deadline = time.monotonic() + timeout
        codes = []
        for p in self.peers:
            codes.append(p.wait(max(0.1, deadline - time.monotonic())))
        return codes

    def kill_all(self) -> None:
        for p in self.peers:
            p.kill()


def wait_for_line(path: Path, pattern: str, timeout: float = 20.0) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            m = re.search(pattern, path.read_text(errors="replace"), re.M)
            if m:
                return m
        time.sleep(0.05)
    raise TimeoutError(
        f"{pattern!r} not seen in {path} after {timeout} s:\n{path.read_text() if path.exists() else ''}"
    )


def start_table(
    relay: str,
    tmp: Path,
    players: int = 4,
    bot: str | None = "greedy",
    extra: list[str] | None = None,
    relay_for: dict[int, str] | None = None,
    extra_for: dict[int, list[str]] | None = None,
    game: str = "system-launch",
    by_code: bool = False,
) -> Table:
    """A host that creates a room of ``game`` (seating everyone) and ``players - 1`` peers that join by
    invitation, or ``by_code`` by the room code alone (a listed room); ``bot`` None: the game's own."""
    extra = extra or []
    bots = ["--seat-bot", bot] if bot else []
    table = Table()
    host = Peer(
        0,
        [
            "--relay",
            relay,
            "--create",
            game,
            "--players",
            str(players),
            *bots,
            "--accept-all",
            "--state-dir",
            str(tmp / "peer0"),
            *extra,
            *(extra_for or {}).get(0, []),
        ],
        tmp / "peer0",
        tmp / "peer0.out",
    ).start()
    table.peers.append(host)
    table.code = wait_for_line(host.out, r"^room ([A-Z]{6}|[A-Z]{24})$").group(1)
    invitation = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
    joining = table.code if by_code else invitation
    for i in range(1, players):
        where = (relay_for or {}).get(i, relay)
        args = ["--relay", where, "--join", joining, *bots, "--state-dir", str(tmp / f"peer{i}"), *extra]
        args += (extra_for or {}).get(i, [])
        table.peers.append(Peer(i, args, tmp / f"peer{i}", tmp / f"peer{i}.out").start())
    return table


class TcpProxy:
    """127.0.0.1:port → target, in a thread; :meth:`cut` drops every connection and refuses new ones."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.port = free_port()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._listener.settimeout(0.1)
        self._up = threading.Event()
        self._up.set()
        self._stop = threading.Event()
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def cut(self) -> None:
        self._up.clear()
        with self._lock:
            for s in self._socks:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._socks.clear()

    def restore(self) -> None:
        self._up.set()

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._listener.close()
        self._thread.join(2)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            if not self._up.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._socks += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        """``a`` is the client, ``b`` the broker; what the client sends passes :meth:`_from_client` first."""
        pending = bytearray()
        try:
            while self._up.is_set():
                ready, _, _ = select.select([a, b], [], [], 0.1)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    if s is b:
                        a.sendall(data)
                    elif not self._from_client(data, pending, b):
                        return
        except (OSError, ValueError):
            return
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.close()

    def _from_client(self, data: bytes, pending: bytearray, broker: socket.socket) -> bool:
        """Pass ``data`` from the client on to the broker; False ends the connection (a subclass may rewrite it)."""
        broker.sendall(data)
        return True


def finished_fair(table, codes: list[int]) -> str:
    """All peers exit 0, print a fair verdict and one final state hash; return that hash."""
    outputs = "\n\n".join(p.text() for p in table.peers)
    assert codes == [0] * len(codes), outputs
    verdicts = {p.field("verdict") for p in table.peers}
    assert verdicts == {"fair"}, outputs
    hashes = {p.field("final state hash") for p in table.peers}
    assert len(hashes) == 1 and None not in hashes, outputs
    return hashes.pop()


def make_peer(address: str, session: StubSession, name: str, delay: float = 0.0) -> RoomTransport:
    """A transport whose driver writes the seat's entries (after ``delay`` seconds, to stretch a game)."""
    transport: RoomTransport

    def drive(events: list[object]) -> None:
        for e in events:
            if isinstance(e, YourTurn):
                if delay:
                    asyncio.get_running_loop().call_later(delay, write, e.seq)
                else:
                    write(e.seq)

    def write(seq: int) -> None:
        drive(session.submit(seq))
        transport.flush()

    transport = RoomTransport(address, session, name, drive, tick_ms=50, backoff=Backoff(0.05, 0.5))
    return transport


async def relay(port: int = 0) -> EmbeddedRelay:
    r = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=port, advertise=False))
    await r.start()
    return r


def room_seal(code: str, host: bytes | str = STUB_HOST_KEY) -> RoomSeal:
    """The seal of room ``code``: ``host`` is the host's public key or its fingerprint (full or readable)."""
    return RoomSeal.for_host_key(code, host) if isinstance(host, bytes) else RoomSeal(code, host)


def insider_client(address: str, code: str, host: bytes | str = STUB_HOST_KEY, kind: str = "x") -> RelayClient:
    """A client that holds room ``code``'s key: the strongest adversary there is (a seat of the room,
    or anyone for a listed room).  It publishes and reads the room's logical topics, sealed like a
    player's, so what it writes reaches the transport and the lobby, which must withstand it.  It
    keeps no pace: an adversary's client ignores the publish rate ours keeps."""
    client = mqtt_client(parse_address(address), kind, seal=room_seal(code, host))
    client.pacer = unpaced()
    return client


def raw_client(address: str, kind: str = "raw") -> RelayClient:
    """A client without any room's key: it sees and writes the wire as it is (a stranger, or the relay)."""
    client = mqtt_client(parse_address(address), kind)
    client.pacer = unpaced()
    return client


def unpaced() -> Pacer:
    """The pace of an adversary's client: none (its own: a pacer holds a lock of its event loop)."""
    return Pacer(limit=1 << 40, window=1.0)
