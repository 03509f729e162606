"""The MQTT transport: aiomqtt on asyncio, driving one sans-I/O protocol session over a relay.

What it guarantees, and how:

- **Nothing is lost.**  Every entry the session writes is published retained, QoS 1, at
  ``sealed/v2/room/{room}/log/{seq}`` and stays in the outbox until the broker acknowledged it;
  a broken connection leaves it there for the next one.  The broker's retained log *is* the
  game: on every (re)connect the transport subscribes and reads the whole log back.
- **Read-back is finished before play goes on.**  After subscribing, the transport sends a
  non-retained marker to itself; when it comes back, every retained message queued before it
  has arrived.  Only then are the session's events handed to the driver (a bot or a person),
  so a restarted peer never decides again on a turn it already wrote.
- **Self-healing.**  The relay is untrusted and so is everybody else on it: anyone may
  overwrite a retained log topic.  When a message on ``log/{seq}`` differs from the entry the
  session holds for ``seq``, the transport publishes the valid entry again (and after a
  reconnect it restores every entry the relay lost or changed, e.g. after a restart of a relay
  without persistence).  The garbage goes to the session, which rejects it with a reason —
  reported, never applied.  (The room is sealed, :mod:`relay.seal`: garbage that opens comes
  from someone holding the room's key; bytes written over one of our topics by someone who only
  sees the wire do not open, reach the session as nothing, and the topic reads as emptied, so it
  is put back all the same: :attr:`RoomTransport.noise` counts them.)
- **Its own copy first.**  With a ``journal`` (the seat's own log on its disk,
  ``client/store/seat_log.py``), every entry and notice the session writes is kept there, synced,
  before it is queued for the relay, and every entry applied is kept too.  ``run`` feeds the
  journal to the session before it reads the relay, so a seat whose relay lost what it was given
  (or holds nothing at all) carries on from its own copy, never signs a position twice, and puts
  back on the relay everything it holds.
- **Presence** of a seat is retained at ``presence/{seat}`` with a last will saying "gone".
- **No wildcard in the room.**  Every topic read is exact, one writer each: the log window, each
  seat's notices around the head, each other seat's presence and ``want`` topic.  A stranger's
  retained garbage elsewhere in the room reaches nobody.
- **Asking the others.**  A seat whose log does not move asks the others for the next entry with a
  request signed by its key and bound to the room and game (:mod:`relay.transport.wants`); they answer only
  such a request, rate-limited, with the entry itself, which the asker checks like any entry.
- **Live only.**  On a relay that keeps no retained messages (:mod:`relay.retain_mode`) the relay
  has nothing to read back: the markers are sent after subscribing (they come back live), and the
  read-back is the other seats' answers instead.  A (re)connecting seat asks them for a run of
  entries from its head (before the genesis too), and again while whole runs come; the read-back
  ends when the others have nothing more (no answer within :data:`LIVE_ANSWER_S`, or the answers
  pause for :data:`LIVE_IDLE_S`), so a restarted seat still sees the log before it acts.  While
  playing it asks again whenever a run came or the log stalls; the others publish the runs again
  (rate-limited, paced), and presence is said again every :data:`PRESENCE_EVERY_S` (the "gone"
  will still comes live).
- Duplicates and reordering are the session's job (it buffers and drops exact duplicates).
- **An outage chooses nobody's forfeit.**  The session's clock for timeouts runs only while the
  relay is reachable and the log is read back: the session is told ``connection_lost`` when a
  connection breaks and ``connected`` once the read-back after the next one is complete, which
  starts a full timeout of grace.
- Reconnection with exponential backoff; the first connection is checked with :func:`relay.probe.probe`
  so a wrong address, a non-MQTT server or an unreachable relay is a clear error within seconds.

MQTT 3.1.1 only, so any broker will do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypedDict

import aiomqtt
import msgpack

from protocol.envelope import peek
from protocol.events import Applied, CheatDetected, Equivocation, Rejected, Started
from relay import retain_mode, topics
from relay.address import RelayAddress, parse_address
from relay.background import keep, stopped
from relay.errors import KeepFailed, RelayError, RelayUnreachable
from relay.mqtt import RelayClient, mqtt_client
from relay.probe import probe
from relay.retained_probe import learn_retained
from relay.seal import RoomSeal
from relay.transport import wants

if TYPE_CHECKING:
    from protocol.session import PeerSession

log = logging.getLogger("relay.transport.room")


class OutboundLike(Protocol):
    """An entry or notice to publish (``protocol.events.Outbound`` fits); read-only, as that one is frozen."""

    @property
    def seq(self) -> int: ...
    @property
    def data(self) -> bytes: ...
    @property
    def topic(self) -> str: ...  # relative to the room: "log/{seq}" or "notice/..."


class LoggedEntry(Protocol):
    """An applied log entry (``protocol.envelope.Envelope`` fits): the bytes as signed."""

    @property
    def data(self) -> bytes: ...


class Journal(Protocol):
    """The seat's own copy of the log on its disk (``client.store.seat_log.SeatLog`` fits).

    ``records`` are (topic relative to the room, bytes) in the order kept; ``keep`` appends one
    (once), on the disk before it returns when ``sync``, and raises OSError when it cannot.
    """

    @property
    def records(self) -> Sequence[tuple[str, bytes]]: ...
    def keep(self, topic: str, data: bytes, *, sync: bool) -> None: ...


class SeatKey(Protocol):
    """A seat of the genesis (``protocol.seats.SeatInfo`` fits): its signing key checks its requests."""

    @property
    def sign(self) -> bytes: ...


class TableLike(Protocol):
    """What the transport reads of a session's table (``protocol.table.Table`` fits), once the genesis is in."""

    @property
    def head(self) -> int: ...
    @property
    def n(self) -> int: ...  # how many seats the game has
    @property
    def log(self) -> Sequence[LoggedEntry]: ...
    @property
    def seats(self) -> Sequence[SeatKey]: ...
    @property
    def game_id(self) -> bytes: ...
    @property
    def relays(self) -> Sequence[str]: ...  # the relays the genesis names (relay/transport/failover.py)

    def active(self) -> Sequence[int]: ...  # the seats still in the game


class SessionLike(Protocol):
    """What the transport needs from a protocol session (``protocol.session.PeerSession`` fits).

    Events are the session's own (``protocol.events``): the transport hands them to the driver as
    they are, and keeps the reports among them (:data:`REPORTED`).
    """

    @property
    def room(self) -> str: ...
    @property
    def creator(self) -> bytes | None: ...  # the pinned host key, which seals the room on the relay
    @property
    def seat(self) -> int | None: ...  # None for an observer
    @property
    def table(self) -> TableLike | None: ...  # None until the genesis is read

    #: Set by the transport: the session queues what it writes by itself, applied at settle().
    publish_first: bool

    def receive(self, data: bytes, now_ms: int) -> Sequence[object]: ...

    def tick(self, now_ms: int) -> Sequence[object]: ...

    def take_outgoing(self) -> Sequence[OutboundLike]: ...

    def take_notices(self) -> Sequence[OutboundLike]: ...

    def settle(self) -> Sequence[object]: ...

    def open_step(self) -> bool: ...

    def connection_lost(self, now_ms: int) -> Sequence[object]: ...

    def connected(self, now_ms: int, grace_ms: int = 0) -> Sequence[object]: ...

    def sign_request(self, raw: bytes) -> bytes | None: ...  # None: an observer, which asks nobody

    @property
    def unsettled(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def done(self) -> bool: ...  # finished, and no claim of this seat still open


#: The session's events the transport keeps in :attr:`RoomTransport.reports` (and logs).
REPORTED = (Rejected, CheatDetected, Equivocation)


def held_entry(session: SessionLike, seq: int) -> bytes | None:
    """The valid entry the session holds for ``seq`` (its applied log), or None."""
    table = session.table
    if table is None or seq > table.head or seq < 0:
        return None
    return bytes(table.log[seq].data)


@dataclass(frozen=True)
class Restored:
    """The relay's copy of ``topic`` was missing or wrong; the transport published the valid entry again."""

    topic: str
    reason: str


@dataclass(frozen=True)
class Presence:
    """A peer's retained presence: ``online``, ``gone`` (last will) or ``left``."""

    peer: str  # the peer id the message claims (presence is not signed: a hint for people, never a proof)
    status: str
    info: dict[str, object]  # as the peer wrote it: nothing in it is checked
    seat: int = -1


@dataclass(frozen=True)
class Connected:
    """(Re)connected and the retained log is read back; ``count`` = connections so far."""

    count: int


@dataclass(frozen=True)
class Disconnected:
    reason: str


def monotonic_ms() -> int:
    return int(time.monotonic() * 1000)


class Backoff:
    """Exponential backoff with jitter: 0.25 s, 0.5 s, 1 s ... up to ``cap`` seconds."""

    def __init__(self, base: float = 0.25, cap: float = 5.0) -> None:
        self.base = base
        self.cap = cap

    def delay(self, attempt: int) -> float:
        d = min(self.cap, self.base * float(1 << min(attempt, 16)))
        return d * (0.5 + random.random() / 2)


class TransportOptions(TypedDict, total=False):
    """The keyword options of :class:`RoomTransport` (for transports built on it)."""

    presence_info: dict[str, object] | None
    keepalive: int
    tick_ms: int
    probe_timeout: float
    backoff: Backoff | None
    clock: Callable[[], int]
    linger_s: float
    claim_wait_s: float | None
    journal: Journal | None


#: A driver gets the session's events (and the transport's own) and may call ``session.submit``.
Driver = Callable[[list[object]], None]

#: Restores of one topic in a row, then one per interval (never a cap for the life of the transport).
RESTORE_BURST = 5
RESTORE_INTERVAL_S = 1.0
#: Log topics subscribed per read-back step and ahead of the head while playing (each exact:
#: at most one retained message each, so no flood of garbage can crowd out the entries).
WINDOW = 64
#: The read-back ends only after this long without a log message (brokers that send their marker
#: early send the rest right after it), and waits for that at most QUIET_MAX_S.
QUIET_S = 0.1
QUIET_MAX_S = 2.0
#: Seconds without a new entry before the transport fetches the next ones again and asks the peers.
REFETCH_S = 3.0
REFETCH_MAX_S = 30.0
#: Live only (a relay that keeps no retained messages): the stall before asking the others again, its
#: longest, the entries asked for at once (a window), and how often presence is said again.
LIVE_REFETCH_S = 1.0
LIVE_REFETCH_MAX_S = 4.0
LIVE_RUN = wants.MAX_RUN
PRESENCE_EVERY_S = 5.0
#: Live only, the read-back: how long the first answer to a request may take, the longest pause within
#: the answers (a paced answerer pauses up to one pacing window, relay/pacing.py), and the whole.
LIVE_ANSWER_S = 1.5
LIVE_IDLE_S = 1.5
LIVE_READ_MAX_S = 30.0
#: Signed requests of one seat answered in a row, then one per interval (a seat asks every few seconds).
WANT_BURST = 4
WANT_INTERVAL_S = 1.0
#: Topics per SUBSCRIBE packet at most (notices are seats x kinds x entries).
SUBSCRIBE_CHUNK = 256
#: Notices are read for the entries from NOTICE_BACK before the head to NOTICE_AHEAD after it: votes and
#: acks are about the next entry, a leave notice about the entry due when its seat left.  (An older
#: leave notice is not read back: its seat is voted gone on its timeout instead.)
NOTICE_BACK = 8
NOTICE_AHEAD = 16
#: A seat's claims are read back further, from the entry after its last one in the log, up to CLAIM_BACK
#: entries before the head: a claim of a seat that wrote nothing since may contest the other seat's claim
#: (protocol/claims.py); one followed by an entry of its own no longer can.
CLAIM_BACK = 64


class RateLimit:
    """A token bucket per key: ``burst`` at once, then one every ``interval`` seconds."""

    def __init__(self, burst: int, interval: float) -> None:
        self.burst = burst
        self.interval = interval
        self._state: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def _tokens(self, key: str, now: float) -> float:
        tokens, when = self._state.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - when) / self.interval)

    def ready(self, key: str, now: float) -> bool:
        return self._tokens(key, now) >= 1.0

    def take(self, key: str, now: float) -> bool:
        tokens = self._tokens(key, now)
        if tokens < 1.0:
            self._state[key] = (tokens, now)
            return False
        self._state[key] = (tokens - 1.0, now)
        return True


def _log_order(item: tuple[str, bytes]) -> tuple[int, int, str]:
    """Log entries first, by sequence number; then notices (a stable sort keeps arrival order per topic)."""
    seq = topics.parse_log_seq(item[0]) if "/log/" in item[0] else None
    return (0 if seq is not None else 1, seq or 0, item[0])


def rest_is_sync(topic: str, prefix: str) -> bool:
    return topic.startswith(prefix + "sync/")


def _seat_of(rest: str) -> int | None:
    """The seat of ``presence/{seat}`` or ``want/{seat}`` (relative to the room), or None."""
    last = rest.split("/", 1)[-1]
    return int(last) if last.isdigit() and len(last) <= 2 and (last == "0" or last[0] != "0") else None


#: Seconds without a message from the relay before the session's idle work (opening dealt cards) goes on.
IDLE_AFTER_S = 0.005
#: Entries published and not yet confirmed, at most (paho's own window is 20).
MAX_IN_FLIGHT = 16
#: Seconds to wait for the read-back marker before carrying on anyway.
SYNC_TIMEOUT_S = 10.0


def _room_seal(session: SessionLike) -> RoomSeal:
    if session.creator is None:
        raise RelayError("a room on a relay is sealed with its host's key: the session must pin its creator")
    return RoomSeal.for_host_key(session.room, session.creator)


class RoomTransport:
    """Keeps one session in step with a room on a relay, across disconnects, until the game ends."""

    def __init__(
        self,
        relay: str | RelayAddress,
        session: SessionLike,
        peer_id: str,
        driver: Driver | None = None,
        *,
        presence_info: dict[str, object] | None = None,
        keepalive: int = 10,
        tick_ms: int = 250,
        probe_timeout: float = 4.0,
        backoff: Backoff | None = None,
        clock: Callable[[], int] = monotonic_ms,
        linger_s: float = 0.5,
        claim_wait_s: float | None = None,
        journal: Journal | None = None,
        seal: RoomSeal | None = None,
    ) -> None:
        #: Where and how to connect (TLS, WebSocket, login); ``str()`` of it never shows the password.
        self.address = parse_address(relay)
        self.host, self.port = self.address.host, self.address.port
        self.session = session
        # Every entry the session writes by itself waits until it is sent, then is applied
        # (see _confirmed): the other peers get it before its author applies it and moves on.
        session.publish_first = True
        self.room = topics.check_room(session.room)
        self.peer_id = topics.check_peer(peer_id)
        #: The room's keys on the relay: from the pinned host key unless given (:mod:`relay.seal`).
        self.seal = seal or _room_seal(session)
        self.driver = driver or (lambda events: None)
        self.presence_info = dict(presence_info or {})
        self.keepalive = keepalive
        self.tick_ms = tick_ms
        self.probe_timeout = probe_timeout
        self.backoff = backoff or Backoff()
        self.clock = clock
        self.linger_s = linger_s
        #: How long a claimant keeps listening for its claim to be voided (None: until stopped).
        self.claim_wait_s = claim_wait_s
        #: The seat's own log on its disk (None: the relay's copy is the only one).
        self.journal = journal
        self._keep_failed: OSError | None = None
        self._listening_since: float | None = None
        self.connections = 0
        #: The latest presence of each other seat (read from ``presence/{seat}``, one exact topic each).
        self.presence: dict[int, Presence] = {}
        self._heard: set[int] = set()  # the seats whose presence came on this connection
        #: Signed ``want`` requests refused (not signed by the seat, replayed, too many...) and the latest reasons.
        self.wants_dropped = 0
        self.want_notes: deque[str] = deque(maxlen=50)
        self._want_n = 0  # the number of this seat's latest request (each one is greater)
        self._asked_to = -1  # live only: the last entry of the run asked for last
        self._want_last: dict[int, int] = {}  # seat -> the number of its latest request answered
        self._want_budget = RateLimit(WANT_BURST, WANT_INTERVAL_S)
        self._want_log = RateLimit(5, 10.0)  # log lines about refused requests (a flood must not flood the log)
        self._watching = False  # the other seats' presence and want topics are subscribed on this connection
        #: What was reported (the session's :data:`REPORTED` events, and :class:`Restored`), for logs and tests.
        self.reports: list[Rejected | CheatDetected | Equivocation | Restored] = []
        self._outbox: list[tuple[str, bytes]] = []
        self._mine: dict[str, bytes] = {}  # notices this peer wrote: topic -> bytes
        self._seen: dict[str, bytes] = {}  # the relay's current copy of each log/notice topic
        self._restore_budget = RateLimit(RESTORE_BURST, RESTORE_INTERVAL_S)
        self._deferred: dict[str, tuple[bytes, str]] = {}  # restores the rate limit holds back
        self._window_end = -1  # log/0 .. log/{_window_end} are subscribed on this connection
        self._notice_end = -1  # and the notices of entries up to here
        self._marker_back: asyncio.Event | None = None
        self._marker_topic = ""
        self._cleanups: set[asyncio.Future[None]] = set()
        self._last_message = 0.0  # when the read-back last brought a log or notice message
        self._ahead = asyncio.Event()  # an entry came: maybe subscribe the next window
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._synced = False
        self._held_events: list[object] = []
        self._client: aiomqtt.Client | None = None
        self._noise = 0  # messages of the closed connections that did not open under the room's seal
        self._marker = b""
        self._sent: dict[str, bytes] = {}  # published on the current connection
        #: Read-back not yet handed to the session, every copy in arrival order (a valid entry put back
        #: while a stranger overwrites the topic must not be lost behind the garbage that came after it).
        self._backlog: list[tuple[str, bytes]] = []
        self._idle_pending = False
        self._last_input = 0.0  # when the reader last got a message (time.monotonic)
        self._unsettled_copy: tuple[str, bytes] | None = None  # the last entry queued unapplied
        #: The publications in flight on this connection, oldest first (None: no writer running).
        self._flying: list[asyncio.Task[None]] | None = None

    @property
    def noise(self) -> int:
        """Messages that came on this room's connections and did not open under its seal (another room's,
        a stranger's without the key): their bytes are never handed to the session (:mod:`relay.seal`)."""
        client = self._client
        return self._noise + (client.unopened if isinstance(client, RelayClient) else 0)

    # -- driving -------------------------------------------------------------------
    def flush(self) -> None:
        """Call after ``session.submit`` outside the driver callback: publish what it wrote."""
        self._collect()
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def _emit(self, events: Sequence[object]) -> None:
        self._idle_later()
        if not events:
            self._collect()
            return
        for e in events:
            if isinstance(e, REPORTED):
                self.reports.append(e)
                log.info("%s: %s", self.peer_id, e)
            elif isinstance(e, Applied):
                self._keep_applied(e.seq)
            elif isinstance(e, Started):
                self._keep_applied(0)  # the genesis (from the lobby, or written here) is applied without an Applied
        if not self._synced:
            self._held_events.extend(events)
        else:
            self.driver(list(events))
        self._collect()

    def _idle_later(self) -> None:
        """Give the session a slice of its own idle work (opening its dealt cards) once the room has
        been quiet for :data:`IDLE_AFTER_S`: one small step at a time, so an entry that arrives in
        the meantime is read between two steps, not after all of them.

        Not at the next loop turn: an entry takes several loop turns from the socket to the reader
        (the MQTT client's read, its queue, its iterator), and a card opened at each of them
        (0.1 ms or more each) made the next entry wait for them; measured in benchmarks/network.py
        as "client -> reader".  Nothing waits on these openings: whatever reads the seat's
        knowledge (its own decision, a display) opens what is still closed first.
        """
        if self._idle_pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # driven from outside the loop: the session opens them on demand
            return
        self._idle_pending = True
        loop.call_later(IDLE_AFTER_S, self._idle_step)

    def _idle_step(self) -> None:
        self._idle_pending = False
        wait = IDLE_AFTER_S - (time.monotonic() - self._last_input)
        if wait > 0:  # something came meanwhile: the room is not quiet yet
            self._idle_pending = True
            asyncio.get_running_loop().call_later(wait, self._idle_step)
        elif self.session.open_step():
            self._idle_pending = True
            asyncio.get_running_loop().call_soon(self._idle_step)  # the next step, after what is here now

    def _collect(self) -> None:
        for out in list(self.session.take_outgoing()) + list(self.session.take_notices()):
            topic = f"{topics.ROOT}/room/{self.session.room}/{out.topic}"
            data = bytes(out.data)
            if not self._keep(out.topic, data, sync=True):
                continue  # what is not on this seat's disk never goes out
            if not out.topic.startswith("log/"):
                self._mine[topic] = data
            elif self.session.unsettled:
                self._unsettled_copy = (topic, data)
            self._outbox.append((topic, data))
        if self._outbox or self.session.finished:
            self._take_off()
            self._wake.set()

    # -- the seat's own copy ---------------------------------------------------------------
    def _keep(self, topic: str, data: bytes, *, sync: bool) -> bool:
        """Keep ``data`` in the journal; False (and the transport stops) if the disk refused it."""
        if self.journal is None:
            return True
        if self._keep_failed is not None:
            return False
        try:
            self.journal.keep(topic, data, sync=sync)
        except OSError as exc:
            self._keep_failed = exc
            log.error("%s: cannot keep %s on the disk (%s); stopping before it goes out", self.peer_id, topic, exc)
            self.stop()
            return False
        return True

    def _keep_applied(self, seq: int) -> None:
        """An entry became part of the game here: keep it (flushed; on the disk with the next one of ours)."""
        held = held_entry(self.session, seq)
        if held is not None:
            self._keep(f"log/{seq}", held, sync=False)

    def _take_back(self) -> None:
        """Before the relay is read: the journal's entries and notices go to the session.

        Its events wait for the read-back like the relay's; its notices of this seat are put back
        on the relay like any written in this run; its entries are put back by :meth:`_after_sync`.
        """
        if self.journal is None:
            return
        self._keep_applied(0)  # a genesis the session was given before this transport
        prefix, me = f"{topics.ROOT}/room/{self.room}/", self.session.seat
        for topic, data in list(self.journal.records):
            if topic.startswith("notice/"):
                head = peek(data)
                if head is not None and head.seat == me:
                    self._mine[prefix + topic] = data
            self._emit(self.session.receive(data, self.clock()))

    def _session_done(self) -> bool:
        """The session is over and needs the room no more (``done``: no claim of its seat still open).

        A claimant keeps listening for the claimed seat's voiding entry (the two-seat rule), for
        at most ``claim_wait_s`` (``None``: until stopped, as the desktop does while its table shows).
        """
        if not self.session.finished:
            self._listening_since = None
            return False
        done = self.session.done
        if done or self.claim_wait_s is None:
            return done
        now = time.monotonic()
        if self._listening_since is None:
            self._listening_since = now
        return now - self._listening_since >= self.claim_wait_s

    # -- running -------------------------------------------------------------------
    async def run(self) -> None:
        """Connect (clear error if the relay is wrong), play until the session is finished, then leave."""
        self._take_back()
        await self._first_relay()
        self._emit(self.session.tick(self.clock()))
        attempt = 0
        while not self._stop.is_set():
            await self._choose_relay()
            try:
                await self._connection()
                attempt = 0
            except aiomqtt.MqttError as exc:
                self._synced = False
                if self._stop.is_set():
                    break
                delay = self.backoff.delay(attempt)
                attempt += 1
                log.info("%s: connection to %s lost (%s); retry in %.2f s", self.peer_id, self.address, exc, delay)
                self._emit(self.session.connection_lost(self.clock()))
                self.driver([Disconnected(str(exc))])
                await self._sleep(delay)
            if self._done():
                break
        if self._keep_failed is not None:
            why = self._keep_failed.strerror or str(self._keep_failed)
            raise KeepFailed(f"cannot keep this seat's entries on its disk ({why}); nothing more was sent")

    async def _first_relay(self) -> None:
        """Check the relay before the first connection (a clear error if it is wrong); see ``failover.py``."""
        await probe(self.address, self.probe_timeout)

    async def _choose_relay(self) -> None:
        """Before each connection: a subclass may move ``self.address`` (relay/transport/failover.py); here it stays."""

    def _done(self) -> bool:
        return self._session_done() and not self._outbox

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), seconds)

    def _presence_payload(self, status: str) -> bytes:
        return msgpack.packb({"peer": self.peer_id, "status": status, **self.presence_info}, use_bin_type=True)

    async def _learn_retained(self) -> None:
        """Before connecting: whether this relay keeps retained messages, known or asked once (relay/retain_mode.py)."""
        if retain_mode.known(self.address) is None:
            await learn_retained(self.address, self.probe_timeout)

    def _live_only(self) -> bool:
        """The relay keeps no retained messages: what the others need of ours comes from us, live."""
        return not retain_mode.retains(self.address)

    async def _presence_beat(self, client: aiomqtt.Client, seat: int) -> None:
        """Live only: say "online" again every :data:`PRESENCE_EVERY_S` (no relay keeps it for a seat that
        connects later); never after the session is done, when "done" or "left" is said instead."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY_S)
            if not (self._done() or self._stop.is_set()):
                payload = self._presence_payload("online")
                await client.publish(topics.presence(self.session.room, seat), payload, qos=1, retain=True)

    async def _connection(self) -> None:
        await self._learn_retained()
        room = self.session.room
        seat = self._seat()
        will = None
        if seat is not None:
            will = aiomqtt.Will(topics.presence(room, seat), self._presence_payload("gone"), qos=1, retain=True)
        client = mqtt_client(self.address, "p", keepalive=self.keepalive, will=will, timeout=5, seal=self.seal)
        self._synced = False
        self._watching = False
        self._heard.clear()  # what the last connection said of the others is no news on this one
        self._seen.clear()
        self._backlog.clear()
        self._sent = {}
        self._window_end = -1
        self._notice_end = -1
        async with client:
            self._client = client
            self.connections += 1
            if seat is not None:
                await client.publish(topics.presence(room, seat), self._presence_payload("online"), qos=1, retain=True)
            # Each one's failure is taken when it ends (the first is raised below, the rest follow from it).
            works = [self._reader(client), self._writer(client), self._ticker(), self._fetcher(client)]
            if seat is not None and self._live_only():
                works.append(self._presence_beat(client, seat))
            tasks = [keep(asyncio.ensure_future(work)) for work in works]
            try:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for t in done:
                    failure = t.exception()
                    if failure is not None:
                        raise failure
                if self._done() or self._stop.is_set():
                    with contextlib.suppress(aiomqtt.MqttError):
                        await asyncio.sleep(self.linger_s)
                        status = "done" if self.session.finished else "left"
                        if seat is not None:
                            payload = self._presence_payload(status)
                            await client.publish(topics.presence(room, seat), payload, qos=1, retain=True)
            finally:
                await stopped(*tasks)  # every one of them, or the connection never closes
                self._client = None
                self._noise += client.unopened

    # -- reading the log in bounded pieces ------------------------------------------------
    def _head(self) -> int:
        table = self.session.table
        return table.head if table is not None else -1

    def _window_filters(self, first: int, last: int) -> list[tuple[str, int]]:
        """Exact log topics ``first..last``: each brings at most one retained message, however full the room is."""
        room = self.session.room
        return [(topics.log(room, seq), 1) for seq in range(first, last + 1)]

    def _seat(self) -> int | None:
        return self.session.seat

    def _seats(self) -> int:
        """How many seats the game has (0 while the genesis is not known)."""
        table = self.session.table
        return table.n if table is not None else 0

    def _notice_filters(self) -> list[tuple[str, int]]:
        """The exact notice topics around the head not subscribed yet: each seat's vote, leave and ack
        (one writer per topic, so at most one retained message each, never a stranger's flood)."""
        room, n, head = self.session.room, self._seats(), self._head()
        if n == 0 or head < 0:
            return []
        first, last = max(self._notice_end + 1, head + 1 - NOTICE_BACK, 0), head + NOTICE_AHEAD
        claims = self._claim_filters(first) if self._notice_end < 0 else []
        self._notice_end = max(self._notice_end, last)
        return claims + [
            (topics.notice(room, seat, seq, kind), 1)
            for seq in range(first, last + 1)
            for seat in range(n)
            for kind in topics.NOTICE_KINDS
        ]

    def _claim_filters(self, first: int) -> list[tuple[str, int]]:
        """Each seat's claim notices before ``first``, from the entry after its last one (at most CLAIM_BACK back).

        Read once per connection, with the first notices: the windows ahead of the head read the later ones.
        """
        table = self.session.table
        if table is None:
            return []
        head, room = table.head, self.session.room
        oldest = max(head + 1 - CLAIM_BACK, 0)
        since: dict[int, int] = {}  # seat -> the seq after its last entry (a claim before it contests nothing)
        for seq in range(head, oldest - 1, -1):
            writer = peek(bytes(table.log[seq].data))
            if writer is not None:
                since.setdefault(writer.seat, seq + 1)
        return [
            (topics.notice(room, seat, seq, "claim"), 1)
            for seat in range(table.n)
            for seq in range(since.get(seat, oldest), first)
        ]

    async def _subscribe(self, client: aiomqtt.Client, filters: list[tuple[str, int]]) -> None:
        """Subscribe ``filters`` in packets of at most :data:`SUBSCRIBE_CHUNK` topics."""
        for at in range(0, len(filters), SUBSCRIBE_CHUNK):
            await client.subscribe(filters[at : at + SUBSCRIBE_CHUNK])

    async def _watch_seats(self, client: aiomqtt.Client) -> None:
        """Once the seats are known: each other seat's presence and ``want`` topic, exactly (never ``+``)."""
        n, me = self._seats(), self._seat()
        if self._watching or n == 0:
            return
        self._watching = True
        room = self.session.room
        others = [s for s in range(n) if s != me]
        await self._subscribe(client, [(topics.presence(room, s), 1) for s in others])
        await self._subscribe(client, [(topics.want(room, s), 0) for s in others])

    async def _read_step(
        self, client: aiomqtt.Client, last: int, step: int, notices: list[tuple[str, int]] | None = None
    ) -> bool:
        """Subscribe the log up to ``last`` (or ``notices``) and a retained marker after it; True once the
        marker is back.

        The marker is *retained* on a topic of its own for this step (not subscribed before, so
        it cannot come back live), and its filter is the last of the same SUBSCRIBE: every broker
        we know sends it after the retained entries of the filters before it (Aedes sends a
        non-retained marker before them).
        """
        await self._watch_seats(client)  # as soon as the genesis says who sits: their presence comes back here too
        self._marker_topic = f"{topics.sync(self.session.room, self.peer_id)}/{step}"
        self._marker = os.urandom(8)
        self._marker_back = asyncio.Event()
        filters = [*self._window_filters(self._window_end + 1, last), *(notices or ()), (self._marker_topic, 1)]
        self._window_end = max(self._window_end, last)
        if self._live_only():
            # No relay keeps it: the marker goes once its subscription is in place, and comes back live.
            await self._subscribe(client, filters)
            await client.publish(self._marker_topic, self._marker, qos=1)
        else:
            await client.publish(self._marker_topic, self._marker, qos=1, retain=True)
            await self._subscribe(client, filters)  # in order: the marker's packet is the last
        try:
            await asyncio.wait_for(self._marker_back.wait(), SYNC_TIMEOUT_S)
        except TimeoutError:
            return False
        finally:
            keep(asyncio.ensure_future(self._clear_marker(client, self._marker_topic)), self._cleanups)
        return True

    async def _clear_marker(self, client: aiomqtt.Client, topic: str) -> None:
        """Leave no marker behind (in the background: the read-back does not wait for it)."""
        with contextlib.suppress(aiomqtt.MqttError):
            await client.unsubscribe(topic)
            await client.publish(topic, b"", qos=1, retain=True)

    async def _fetcher(self, client: aiomqtt.Client) -> None:
        """Read the log back window by window, then keep the windows ahead of the head and fetch what stalls."""
        step, room = 0, self.session.room
        while True:
            step += 1
            if not await self._read_step(client, max(self._head(), self._window_end) + WINDOW, step):
                log.warning("%s: read-back marker did not come back; carrying on without it", self.peer_id)
                break
            # While the last entry of the window is on the relay, the log goes on: ask for the next
            # window at once and hand this one to the session meanwhile.
            failed = False
            while topics.log(room, self._window_end) in self._seen:
                step += 1
                following = asyncio.ensure_future(self._read_step(client, self._window_end + WINDOW, step))
                await self._apply_backlog()
                if not await following:
                    failed = True
                    break
            if failed:
                log.warning("%s: read-back marker did not come back; carrying on without it", self.peer_id)
                break
            await self._apply_backlog()
            head = self._head()
            if self._window_end >= head + WINDOW:
                # The log seems to end here.  Some brokers (Aedes) may send the marker before the
                # retained entries of the same SUBSCRIBE: decide only once the room has been quiet.
                await self._quiet()
                await self._apply_backlog()
                if self._window_end >= self._head() + WINDOW:
                    break  # a whole window past the head is read, and empty: the log ends here
        step = await self._read_notices(client, step)
        self._after_sync()
        await self._watch_seats(client)
        await self._follow(client, step)

    async def _read_notices(self, client: aiomqtt.Client, step: int) -> int:
        """The log is read back: the notices about the entries around the head too, before play goes on
        (live only, the others' answers first: the relay kept nothing).  The last step's number."""
        if self._live_only():
            await self._live_read_back(client)
        notices = self._notice_filters()
        if notices:
            step += 1
            if await self._read_step(client, self._window_end, step, notices):
                await self._apply_backlog()
        return step

    async def _live_read_back(self, client: aiomqtt.Client) -> None:
        """Live only: ask the others for runs of entries from our head until they have nothing more for us.

        Their answers arrive while we are not synced, so they wait in the backlog like a relay's
        read-back and are applied in order; nothing is handed to the driver before the end.
        """
        deadline = time.monotonic() + LIVE_READ_MAX_S
        while time.monotonic() < deadline:
            before = self._head()
            asked_at = time.monotonic()
            if not await self._ask_run(client):
                return  # an observer asks nobody
            await self._answers(asked_at, before + LIVE_RUN)
            await self._apply_backlog()
            if self._head() < self._asked_to:
                return  # a run came short (or none came): the others hold nothing beyond it

    async def _answers(self, asked_at: float, last: int) -> None:
        """Wait for the answers to a request: until entry ``last`` is in, or none came within
        :data:`LIVE_ANSWER_S`, or they paused for :data:`LIVE_IDLE_S`."""
        room = self.session.room
        while topics.log(room, last) not in self._seen:
            now = time.monotonic()
            heard = self._last_message > asked_at
            waited = now - (self._last_message if heard else asked_at)
            limit = LIVE_IDLE_S if heard else LIVE_ANSWER_S
            if waited >= limit:
                return
            await asyncio.sleep(min(0.05, limit - waited))

    async def _follow(self, client: aiomqtt.Client, step: int) -> None:
        """While playing: subscribe the next window before the head gets there; ask again when nothing comes.

        Asking again is a read step of its own: the next entries' topics subscribed anew (a broker
        that dropped a delivery sends their retained copies now) and a marker after them.  A
        connection that does not even bring the marker back passes nothing on to us any more
        (its broker holds back what it owes this client, or the client stopped taking it): it is
        ended as a broken one is, and the next connection reads the log back afresh.
        """
        first_wait, longest = (LIVE_REFETCH_S, LIVE_REFETCH_MAX_S) if self._live_only() else (REFETCH_S, REFETCH_MAX_S)
        stalled_since, last_head, wait = time.monotonic(), self._head(), first_wait
        while not self._done():
            self._ahead.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ahead.wait(), RESTORE_INTERVAL_S / 2)
            self._retry_restores()
            await self._watch_seats(client)  # (a genesis read only now)
            head = self._head()
            filters: list[tuple[str, int]] = []
            if head + WINDOW // 2 > self._window_end:
                filters += self._window_filters(self._window_end + 1, self._window_end + WINDOW)
                self._window_end += WINDOW
            if head >= 0 and head + NOTICE_AHEAD // 2 > self._notice_end:
                filters += self._notice_filters()
            if filters:
                await self._subscribe(client, filters)
            if head != last_head:
                stalled_since, last_head, wait = time.monotonic(), head, first_wait
                if self._live_only() and head >= self._asked_to >= 0:
                    await self._ask_run(client)  # the run asked for is in: ask for the next one at once
            elif time.monotonic() - stalled_since > wait and not self._session_done():
                # Nothing new for a while: fetch the next entries' retained copies again and ask the
                # other peers for them.
                step += 1
                await self._ask_again(client, head, step)
                stalled_since, wait = time.monotonic(), min(wait * 2, longest)

    async def _ask_again(self, client: aiomqtt.Client, head: int, step: int) -> None:
        """The log stalled: fetch the next entries' retained copies again (behind a marker: a connection
        that does not even bring it back is ended) and ask the others for them (live only: a run)."""
        if not await self._read_step(client, self._window_end, step, self._window_filters(head + 1, head + 4)):
            raise aiomqtt.MqttError(f"the relay passed nothing on for {SYNC_TIMEOUT_S:g} s")
        if self._live_only():
            await self._ask_run(client)
            return
        request = self._want_request(head + 1)
        if request is not None:
            await client.publish(topics.want(self.session.room, request[0]), request[1], qos=0)

    async def _ask_run(self, client: aiomqtt.Client) -> bool:
        """Live only: ask the others for the :data:`LIVE_RUN` entries after our head (from the genesis on
        when we have none); they publish the ones they hold again, live.  False: we ask nobody (an observer)."""
        first = self._head() + 1
        request = self._want_request(first, LIVE_RUN)
        if request is None:
            return False
        last = first + LIVE_RUN - 1
        if last > self._window_end:  # the answers come on these topics: subscribed before asking
            await self._subscribe(client, self._window_filters(self._window_end + 1, last))
            self._window_end = last
        self._asked_to = last
        await client.publish(topics.want(self.session.room, request[0]), request[1], qos=0)
        return True

    def _want_request(self, seq: int, count: int = 1) -> tuple[int, bytes] | None:
        """(our seat, our signed request for entries ``seq`` .. ``seq + count - 1``), or None for an observer.

        Before the genesis only live only (it names no game then: relay/transport/wants.py).
        """
        table, seat = self.session.table, self._seat()
        if seat is None or (table is None and not (seq == 0 and self._live_only())):
            return None
        game = bytes(table.game_id) if table is not None else b""
        self._want_n = max(self._want_n + 1, time.time_ns() // 1_000_000)  # grows across restarts too
        raw = wants.body(self.session.room, game, seat, seq, self._want_n, count)
        sig = self.session.sign_request(raw)
        return (seat, wants.encode(raw, sig)) if sig is not None else None

    async def _quiet(self) -> None:
        """Wait until no log or notice message came for :data:`QUIET_S` (at most :data:`QUIET_MAX_S`)."""
        deadline = time.monotonic() + QUIET_MAX_S
        while time.monotonic() < deadline:
            idle = time.monotonic() - self._last_message
            if idle >= QUIET_S:
                return
            await asyncio.sleep(QUIET_S - idle)

    async def _apply_backlog(self) -> None:
        """Hand the read-back to the session in log order, a few entries per loop turn."""
        backlog, self._backlog = self._backlog, []
        for i, (topic, payload) in enumerate(sorted(backlog, key=_log_order)):
            if "/log/" in topic:
                self._on_log(topic, payload)
            else:
                self._on_notice(topic, payload)
            if i % 8 == 7:
                await asyncio.sleep(0)  # keep the loop (keepalive, the window) responsive

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self.tick_ms / 1000)
            if self._synced:  # never judge "overdue" on a log that is still being read back
                self._emit(self.session.tick(self.clock()))

    async def _writer(self, client: aiomqtt.Client) -> None:
        """Publish the outbox in order, without waiting for one PUBACK before sending the next.

        An entry leaves as soon as it is queued, even while earlier ones are still
        unconfirmed (a peer's action must not wait a broker round trip behind its own
        notice).  An entry leaves the outbox only once the broker confirmed it, so what
        a lost connection left unconfirmed is published again on the next one.  It ends
        the connection once the session is done, but never before the read-back is
        complete: a game read back to its end is finished before its notices are read,
        and a claim kept there may contest the claim that ended it (protocol/claims.py).
        """
        flying = self._flying = []
        try:
            while True:
                self._take_off()
                if flying and flying[0].done():
                    self._confirmed(flying.pop(0))
                    continue  # a window slot is free, and settling may have queued more
                if not flying and (self._stop.is_set() or (self._synced and self._done())):
                    return  # a finished session's read-back is complete first: its notices may change the verdict
                self._wake.clear()
                waiter = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait([waiter, *flying[:1]], return_when=asyncio.FIRST_COMPLETED)
                finally:
                    waiter.cancel()
        finally:
            self._flying = None
            for task in flying:
                if task.done() and not task.cancelled():
                    task.exception()  # the connection's error is already being reported; retrieve it
                else:
                    task.cancel()

    def _take_off(self) -> None:
        """Start publishing what the outbox holds beyond the entries in flight (up to :data:`MAX_IN_FLIGHT`).

        Called by the writer and straight from :meth:`_collect`: an entry the session just wrote starts
        on its way in the same loop turn, ahead of whatever else is ready, instead of after the writer
        task is woken (three loop turns: the wake event, the wait, the task).  Only the writer takes
        the confirmations, in order (:meth:`_confirmed`).
        """
        client, flying = self._client, self._flying
        if client is None or flying is None:
            return  # no connection (or its writer ended): the outbox waits for the next one
        while self._synced and len(flying) < min(len(self._outbox), MAX_IN_FLIGHT):
            topic, data = self._outbox[len(flying)]
            flying.append(asyncio.ensure_future(client.publish(topic, data, qos=1, retain=True)))

    def _confirmed(self, publish: asyncio.Task[None]) -> None:
        """The broker confirmed the oldest entry in flight: it leaves the outbox."""
        publish.result()  # an MqttError ends this connection; the outbox keeps the entry
        topic, data = self._outbox.pop(0)
        self._sent[topic] = data
        if self.session.unsettled:
            # The session queued its own entry without applying it (publish first): it is with
            # the other peers now, so this replica may apply its own copy.
            self._emit(self.session.settle())

    async def _reader(self, client: aiomqtt.Client) -> None:  # noqa: C901 (tests/test_complexity.py)
        room = self.session.room
        prefix = f"{topics.ROOT}/room/{room}/"
        count = 0
        async for message in client.messages:
            self._last_input = time.monotonic()  # idle work waits for a quiet room (_idle_later)
            count += 1
            if count % 16 == 0:
                await asyncio.sleep(0)  # a flood of messages must not stop the loop
            topic = message.topic.value
            if not topic.startswith(prefix):
                continue  # another room's traffic (a relay that sends it anyway): none of ours
            payload = bytes(message.payload) if isinstance(message.payload, bytes | bytearray) else b""
            if rest_is_sync(topic, prefix):
                if topic == self._marker_topic and payload == self._marker and self._marker_back is not None:
                    self._marker_back.set()
                continue
            rest = topic[len(prefix) :]
            if rest.startswith("presence/"):
                self._on_presence(rest, payload)
            elif rest.startswith("want/"):
                self._on_want(rest, payload)
            elif not self._synced and rest.startswith(("log/", "notice/")):
                self._last_message = time.monotonic()
                self._seen[topic] = payload
                self._backlog.append((topic, payload))  # read-back: handed over in order once complete
            elif rest.startswith("log/"):
                self._on_log(topic, payload)
                self._wake_follower()
            elif rest.startswith("notice/"):
                self._on_notice(topic, payload)

    def _wake_follower(self) -> None:
        if self._follower_due():
            self._ahead.set()

    def _follower_due(self) -> bool:
        """Whether an entry just read gives :meth:`_follow` work at once: the next log window or the
        notices ahead to subscribe, the seats' topics (a genesis read only now), or the end of the game.

        Only then is it woken: waking it for every entry cost each peer a task and a timer per entry
        on the path of the next one (benchmarks/network.py).  What it does besides (deferred restores,
        the stall watch) runs on its own timeout, every RESTORE_INTERVAL_S / 2, as before.  The
        conditions are the ones :meth:`_follow` acts on.
        """
        head = self._head()
        return (
            not self._watching
            or self.session.finished
            or head + WINDOW // 2 > self._window_end
            or (head >= 0 and head + NOTICE_AHEAD // 2 > self._notice_end)
        )

    def _on_want(self, rest: str, payload: bytes) -> None:
        """Another seat cannot get an entry from the relay: put our copy back, if the request is really
        that seat's (signed, for this room and game, newer than its last one, within its rate)."""
        table = self.session.table
        seat = _seat_of(rest)
        if not self._synced or table is None or not table.seats or seat is None or not payload:
            return  # (a table without seat keys answers nobody)
        try:
            keys = [bytes(info.sign) for info in table.seats]
            want = wants.check(payload, self.session.room, bytes(table.game_id), seat, keys)
        except wants.BadWant as exc:
            self._want_dropped(rest, str(exc))
            return
        if want.n <= self._want_last.get(seat, -1):
            self._want_dropped(rest, f"an old request of seat {seat} again (replayed)")
            return
        if not self._want_budget.take(str(seat), time.monotonic()):
            self._want_dropped(rest, f"seat {seat} asks too often")
            return
        self._want_last[seat] = want.n
        for seq in range(want.seq, min(want.seq + want.count, table.head + 1)):  # the run we hold of it
            held = held_entry(self.session, seq)
            if held is not None:
                self._restore(topics.log(self.session.room, seq), held, f"asked for by seat {seat}")

    def _want_dropped(self, rest: str, reason: str) -> None:
        self.wants_dropped += 1
        self.want_notes.append(f"{rest}: {reason}")
        if self._want_log.take("log", time.monotonic()):
            log.info("%s: request on %s dropped: %s", self.peer_id, rest, reason)

    def _on_presence(self, rest: str, payload: bytes) -> None:
        seat = _seat_of(rest)
        if seat is None:
            return
        try:
            info = msgpack.unpackb(payload, raw=False) if payload else {"status": "cleared"}
            status = str(info.get("status", "?")) if isinstance(info, dict) else "?"
        except Exception:
            info, status = {}, "garbage"
        info = info if isinstance(info, dict) else {}
        peer = info.get("peer")
        p = Presence(peer if isinstance(peer, str) else "", status, info, seat)
        if self.presence.get(seat) != p or seat not in self._heard:
            self.presence[seat] = p
            self._heard.add(seat)
            if self._synced:
                self.driver([p])

    def _on_log(self, topic: str, payload: bytes) -> None:
        self._seen[topic] = payload
        seq = topics.parse_log_seq(topic)
        if seq is None:
            self.reports.append(Restored(topic, "ignored: not a log topic"))
            return
        held = held_entry(self.session, seq)
        if held is not None and held == payload:
            return  # the very entry already applied (our own, echoed back): nothing to check again
        if payload and self._unsettled_copy == (topic, payload):
            # Our own entry, queued and not applied yet, is back from the relay: apply it now,
            # from what the session holds, instead of parsing and checking our own signature.
            self._unsettled_copy = None
            self._emit(self.session.settle())
            return
        if payload:
            head = peek(payload)
            if head is not None and head.seq != seq:
                # An entry copied onto another position's topic: the read-back fetches positions by
                # their topics, so it is nobody's entry there (and the session never sees it).
                self.reports.append(Restored(topic, f"ignored: entry {head.seq} on the topic of entry {seq}"))
            else:
                self._emit(self.session.receive(payload, self.clock()))
        held = held_entry(self.session, seq)
        if held is not None and held != payload:
            self._restore(topic, held, "empty" if not payload else "overwritten")

    def _on_notice(self, topic: str, payload: bytes) -> None:
        self._seen[topic] = payload
        if payload:
            self._emit(self.session.receive(payload, self.clock()))
        mine = self._mine.get(topic)
        if mine is not None and mine != payload:
            self._restore(topic, mine, "empty" if not payload else "overwritten")

    def _restore(self, topic: str, data: bytes, why: str) -> None:
        """Publish the valid entry again, at most :data:`RESTORE_BURST` times in a row per topic and then
        one every :data:`RESTORE_INTERVAL_S` seconds: a stranger who keeps a topic corrupted gets it
        restored for as long as they keep at it, and two peers holding different entries (the
        session has the proof: equivocation) do not flood the relay."""
        if not self._restore_budget.take(topic, time.monotonic()):
            self._deferred[topic] = (data, why)
            return
        self._deferred.pop(topic, None)
        if any(t == topic and d == data for t, d in self._outbox):
            return  # already on its way
        report = Restored(topic, why)
        self.reports.append(report)
        log.info("%s: relay copy of %s was %s; publishing the valid entry again", self.peer_id, topic, why)
        self._outbox.append((topic, data))
        self._wake.set()
        if self._synced:
            self.driver([report])

    def _restore_range(self, head: int) -> range:
        """The entries put back on the relay after a read-back that lacks them: all we hold; live only
        just our head (nothing is kept to restore: the others heard the rest live, or ask for it)."""
        return range(head, head + 1) if self._live_only() and head >= 0 else range(head + 1)

    def _retry_restores(self) -> None:
        """Restores held back by the rate limit, once their topic may be restored again (if still wrong)."""
        for topic, (data, why) in list(self._deferred.items()):
            if self._seen.get(topic) == data:
                self._deferred.pop(topic, None)
            elif self._restore_budget.ready(topic, time.monotonic()):
                self._restore(topic, data, why)

    def _after_sync(self) -> None:
        """The retained read-back is complete (applied in order): restore what the relay lost, then act.

        The session sees the whole read-back before it may write anything, so a restarted peer
        knows every entry it wrote before it was killed and never writes one of them differently.
        """
        backlog, self._backlog = self._backlog, []
        for topic, payload in sorted(backlog, key=_log_order):  # what came after the last marker (rare)
            if "/log/" in topic:
                self._on_log(topic, payload)
            else:
                self._on_notice(topic, payload)
        # The wait for every seat starts again, from now, plus the longest reconnection pause:
        # the others may still be sleeping out theirs.
        self._held_events += self.session.connected(self.clock(), grace_ms=int(self.backoff.cap * 1000))
        self._synced = True
        table = self.session.table
        room = self.session.room
        queued = {topic for topic, _ in self._outbox} | set(self._sent)
        if table is not None:
            for seq in self._restore_range(table.head):
                topic = topics.log(room, seq)
                held = bytes(table.log[seq].data)
                if topic not in queued and self._seen.get(topic) != held:
                    self._restore(topic, held, "missing" if topic not in self._seen else "overwritten")
        for topic, data in self._mine.items() if not self._live_only() else ():
            if topic not in queued and self._seen.get(topic) != data:
                self._restore(topic, data, "missing")
        held_events, self._held_events = self._held_events, []
        # The seats' presence read back with the log (retained, before the marker) is told now too: only
        # what came on this connection (the last one's is kept for the handover, never told as news).
        heard = [self.presence[seat] for seat in sorted(self._heard)]
        self.driver([Connected(self.connections), *held_events, *heard])
        self._collect()
        self._wake.set()


async def check_relay(relay: str | RelayAddress, timeout: float = 4.0) -> None:
    """Raise a clear :class:`RelayError` unless ``relay`` (any address form) is a reachable MQTT broker."""
    await probe(relay, timeout)


if TYPE_CHECKING:

    def _peer_session_fits(session: PeerSession) -> SessionLike:
        """The protocol's session is what the transport drives (mypy checks it here, once)."""
        return session


__all__ = [
    "Backoff",
    "Connected",
    "Disconnected",
    "Presence",
    "RelayError",
    "RelayUnreachable",
    "Restored",
    "RoomTransport",
    "SessionLike",
    "check_relay",
    "held_entry",
]
