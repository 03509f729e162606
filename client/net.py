"""The desktop program's one door to the network.

Everything the lobby does with relays goes through here, so the rest of the
client never imports ``relay/`` directly and every failure reaches the player
as a :class:`NetError` whose :meth:`~NetError.message` is a plain sentence in
their language (relay unreachable, not a relay, room unknown or full, peer
gone, relay layer missing).  All functions are coroutines for the asyncio
loop that qasync runs on Qt's event loop: the window never freezes while a
connection is tried.

Before anything else a relay address is *probed* with a minimal MQTT 3.1.1
CONNECT/CONNACK exchange on a plain socket: it needs nothing from ``relay/``,
answers within a few seconds, and tells "nobody listens there" apart from
"something listens there but it is not an MQTT relay".
"""

from __future__ import annotations

import asyncio
import importlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relay import address as _address
from relay import errors as _errors
from relay import probe as _probe
from relay.errors import RelayError

from . import relays
from .i18n import tr
from .relays import NetError, RelayAddress, parse_relay_address, relay_transport
from .saved_games import SavedBot, SavedSeat

DEFAULT_PORT = 1883
PROBE_TIMEOUT = 4.0
#: Room codes are read out over voice chat: letters and digits, case-insensitive.
ROOM_CODE = re.compile(r"^[A-Za-z0-9]{4,12}$")


def parse_room_code(text: str) -> str:
    code = text.strip().upper()
    if not ROOM_CODE.match(code):
        raise NetError("bad-room", code=text.strip())
    return code


# -- probing a relay -----------------------------------------------------------
#: The relay layer's failures of a probe, as message ids (most particular first).
_PROBE_ERRORS = (
    ("NotTrusted", "not-trusted"),
    ("WrongLogin", "wrong-login"),
    ("LoginNeeded", "login-needed"),
    ("NotAWebSocket", "not-websocket"),
    ("WrongTransport", "wrong-transport"),
    ("NameNotFound", "no-such-name"),
)


async def probe_relay(address: RelayAddress, timeout: float = PROBE_TIMEOUT) -> None:
    """Check that an MQTT broker answers at ``address`` (any scheme, its login); NetError with the reason if not."""
    try:
        await _probe.probe(address, timeout)
    except RelayError as exc:
        for name, code in _PROBE_ERRORS:
            if isinstance(exc, getattr(_errors, name)):
                raise NetError(code, address=str(address), reason=str(exc)) from None
        if isinstance(exc, _errors.RelayUnreachable):
            code = "timeout" if "within" in str(exc) else "unreachable"
            raise NetError(code, address=str(address)) from None
        if isinstance(exc, _errors.NotARelay):
            raise NetError("not-a-relay", address=str(address)) from None
        raise NetError("relay-failed", address=str(address), reason=str(exc)) from None


# -- the relay layer, when it is installed --------------------------------------
def relay_module(name: str) -> Any | None:
    """``relay.<name>`` if that part of the relay layer exists, else None."""
    try:
        return importlib.import_module(f"relay.{name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"relay.{name}", "relay"):
            return None
        raise


def _translate_relay_error(exc: BaseException, address: RelayAddress, code: str, seat: int | None = None) -> NetError:
    """Map the relay layer's exceptions onto our message ids (by class, then by their words)."""
    errors = relay_module("errors")
    rooms = relay_module("rooms")
    total = getattr(exc, "seats_total", 0)
    for name, err in (
        ("Refused", NetError("refused-by-host", code=code)),
        ("NoSuchSeat", NetError("no-such-seat", code=code, seat=(seat or 0) + 1, total=total)),
        ("SeatTaken", NetError("seat-taken", code=code, seat=(seat or 0) + 1)),
        ("RoomClosed", NetError("room-closed", code=code)),
    ):
        cls = getattr(rooms, name, None) if rooms else None
        if cls is not None and isinstance(exc, cls):
            return err
    kinds = {
        "RoomFull": NetError("room-full", code=code),
        "RoomNotFound": NetError("room-unknown", code=code),
        "RelayUnreachable": NetError("unreachable", address=str(address)),
        "NotARelay": NetError("not-a-relay", address=str(address)),
    }
    if errors is not None:
        for name, err in kinds.items():
            cls = getattr(errors, name, None)
            if cls is not None and isinstance(exc, cls):
                return err
    text = f"{type(exc).__name__} {exc}".lower()
    if "full" in text:
        return kinds["RoomFull"]
    if "unknown" in text or "not found" in text or "no such" in text or "does not exist" in text:
        return kinds["RoomNotFound"]
    if "gone" in text:
        return NetError("peer-gone")
    if isinstance(exc, TimeoutError) or "timeout" in text or "timed out" in text:
        return NetError("timeout", address=str(address))
    return NetError("relay-failed", address=str(address), reason=str(exc) or type(exc).__name__)


def describe_failure(exc: BaseException, relay: str | RelayAddress) -> str:
    """A sentence for any failure of a running network game (the transport's errors included)."""
    try:
        address = parse_relay_address(relay)
    except NetError:
        address = RelayAddress(_address.redact(str(relay)) or "?")
    return _translate_relay_error(exc, address, "").message()


# -- the running game's relays -------------------------------------------------------------
def split_relays(text: str) -> tuple[RelayAddress, tuple[str, ...]]:
    """The relay field as typed: ``relay[, fallback, …]`` → the relay and its fallbacks (NetError if one is bad)."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if not parts:
        raise NetError("bad-address", address="")
    return parse_relay_address(parts[0]), tuple(str(parse_relay_address(p)) for p in parts[1:])


# -- rooms and seats -----------------------------------------------------------------
StatusFn = Callable[[str], None]


def _seat_card(name: str, identity_dir: Path | None = None) -> tuple[Any, bytes, bytes]:
    """(signing key, per-game secret, seat card bytes) for a new seat of this user."""
    from engines.core import canonical_encode
    from protocol.session import PeerSession

    from .identity import signing_key

    key = signing_key(identity_dir)
    secret = os.urandom(32)
    card = canonical_encode(PeerSession.seat_card(name, key, secret).as_body())
    return key, secret, card


def _seat_info(card: bytes) -> Any:
    """A seat card the lobby gathered, as the genesis takes it (checked again: shape, sizes, valid points)."""
    from protocol.table import SeatInfo
    from relay.seatcard import BadCard, check_card

    try:
        checked = check_card(card)
    except BadCard as exc:
        raise NetError("relay-failed", address="", reason=str(exc)) from None
    info = SeatInfo(checked.name[:24], checked.sign, checked.box)
    problem = info.problem()  # the protocol's own check of the keys (protocol.table), the one every peer makes
    if problem is not None:
        raise NetError("relay-failed", address="", reason=f"a seat card is refused: {problem}")
    return info


@dataclass(frozen=True)
class Invite:
    """What a joiner typed or pasted: a relay address, a room code, and maybe the host's key fingerprint."""

    address: str
    code: str
    fingerprint: str = ""
    #: The invitation's fallback relays (where the game moves when its relay stays unreachable).
    fallbacks: tuple[str, ...] = ()


def parse_invite(room_text: str, address_text: str = "", fingerprint_text: str = "") -> Invite:
    """An invitation link (``sealed://HOST:PORT/ROOM#FINGERPRINT``), or a room code with the relay and key fields.

    NetError("bad-invitation") for a link or a fingerprint that cannot be one.
    """
    from relay.invitation import BadInvitation, is_link, normalize_fingerprint, parse_invitation

    text = room_text.strip()
    try:
        if is_link(text):
            invitation = parse_invitation(text)
            return Invite(invitation.relay, invitation.code, invitation.fingerprint, invitation.fallbacks)
        fp = normalize_fingerprint(fingerprint_text) if fingerprint_text.strip() else ""
    except BadInvitation as exc:
        raise NetError("bad-invitation", reason=str(exc)) from None
    return Invite(str(parse_relay_address(address_text)), parse_room_code(text), fp)


def key_fingerprint(public_key: bytes) -> str:
    """The fingerprint of a host's public key, as invitations carry it (what ``join_online`` pins)."""
    from relay.invitation import fingerprint

    return fingerprint(public_key)


def rematch_channel(relay: Any, room: str, game_id: bytes, seat_keys: list[bytes], on_change: Any = None) -> Any:
    """The signed rematch talk of a finished room (:class:`relay.rematch.RematchChannel`)."""
    from relay.rematch import RematchChannel

    return RematchChannel(relay, room, game_id, seat_keys, on_change)


def grouped_fingerprint(fp: str) -> str:
    from relay.invitation import grouped

    return grouped(fp)


async def peek_online(address_text: str, code: str, fingerprint: str = "") -> Any:
    """The room's signed card (host's name, key fingerprint, game, seats, answer time), before asking for a seat."""
    address = parse_relay_address(address_text)
    await probe_relay(address)
    rooms = relay_module("rooms")
    peek = getattr(rooms, "peek_room", None) if rooms else None
    if peek is None:
        raise NetError("join-missing", address=str(address))
    try:
        return await peek(str(address), code, fingerprint or None)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        raise _translate_relay_error(exc, address, code) from None


def _peer_id() -> str:
    return "p" + os.urandom(5).hex()


async def join_online(
    address_text: str | RelayAddress,
    room_text: str,
    name: str,
    status: StatusFn | None = None,
    identity_dir: Path | None = None,
    *,
    seat: int | None = None,
    on_update: Callable[[Any, int | None], None] | None = None,
    fingerprint: str = "",
    fallbacks: tuple[str, ...] = (),
) -> Any:
    """Join room ``room_text`` on the relay at ``address_text`` (``seat``: the seat asked for, 0-based).

    ``fingerprint`` pins the host (from the invitation, or from the card the player was shown): only a
    room card, seat list and genesis signed by that host's keys are believed.  Returns the NetGame once
    the host starts the game; ``on_update(lobby card, our seat)`` hears every change of the room while
    we wait (our seat is None while the host has not let us in).  Cancelling the coroutine withdraws
    the request (the seat is freed).
    """
    address = parse_relay_address(address_text)
    code = parse_room_code(room_text)
    await probe_relay(address)
    rooms = relay_module("rooms")
    join = getattr(rooms, "join_room", None) if rooms else None
    if join is None:
        raise NetError("join-missing", address=str(address))
    from protocol.session import PeerSession

    from .net_game import NetGame

    key, secret, card = _seat_card(name, identity_dir)
    peer = _peer_id()
    if status:
        status(tr("lobby.waiting_seat", code=code))
    try:
        seated = await join(
            address,
            code,
            peer,
            name,
            card,
            timeout=3600.0,
            key=key,
            host_key=fingerprint or None,
            seat=seat,
            until_started=True,
            on_update=on_update,
        )
    except NetError:
        raise
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the relay layer's own errors become sentences
        raise _translate_relay_error(exc, address, code, seat) from None
    if seated.creator is None:
        raise NetError("relay-failed", address=str(address), reason="the host's seat list names no seat 1")
    session = PeerSession.join(code, seated.seat, key, secret, creator=seated.creator)
    net_game = NetGame(session, address, peer)
    lobby = getattr(seated, "lobby", None)
    keep = SavedSeat(
        room=code,
        seat=seated.seat,
        game=str(getattr(lobby, "game", "")),
        relay=str(address),
        peer=peer,
        creator=bytes(seated.creator),
        sign=key.private_bytes(),
        secret=secret,
        timeout_ms=int(getattr(lobby, "timeout_ms", 0) or 0),
        names=[str(n) for n in getattr(lobby, "names", ())],
    )
    net_game.fallbacks, net_game.signing_key = tuple(fallbacks), key
    keep.fallbacks = [str(f) for f in fallbacks]
    keep_seat(net_game, keep, identity_dir)
    return net_game


def keep_seat(net_game: Any, seat: SavedSeat, config: Path | None) -> None:
    """Write ``seat`` to disk before its first entry goes out, so a crash or a close keeps it resumable.

    A disk that refuses it does not stop the game: ``net_game.save_error`` says why, for the window.
    """
    from . import saved_games

    seat.started = seat.last_activity = time.time()
    try:
        net_game.saved = saved_games.save(seat, config)
    except OSError as exc:
        net_game.save_error = exc.strerror or str(exc)


async def resume_online(seat: SavedSeat, name: str, think_ms: int = 0) -> Any:
    """:func:`resume_seat`, after starting this machine's LAN relay again when the room was on it.

    The others' transports keep calling the relay's address; a relay back on the same port is found
    by them, and every peer puts back the entries it holds (the embedded relay keeps nothing).
    """
    if seat.lan_port and _HOSTED is None:
        await start_lan_relay(name, ports=(seat.lan_port,))
    return resume_seat(seat, think_ms)


def resume_seat(seat: SavedSeat, think_ms: int = 0) -> Any:
    """A NetGame for a kept seat: the same keys, secret, peer id and pinned creator, on the same relay.

    The transport reads the room's retained log back before the player is asked anything (and puts
    back what the relay lost), so the seat carries on where it was.  The bots this machine played in
    the room come back with it, unless they still play in this program.
    """
    from protocol.crypto.signing import SigningKey
    from protocol.session import PeerSession
    from relay.transport import monotonic_ms

    from . import tasks
    from .net_game import NetGame

    address = parse_relay_address(seat.relay)

    def session_for(number: int, key: Any, secret: bytes) -> Any:
        session = PeerSession.join(seat.room, number, key, secret, creator=seat.creator)
        if seat.genesis:
            session.receive(seat.genesis, monotonic_ms())
        return session

    try:
        key = SigningKey.from_private_bytes(seat.sign)
        bot_keys = [(bot, SigningKey.from_private_bytes(bot.sign)) for bot in seat.bots]
        net_game = NetGame(session_for(seat.seat, key, seat.secret), address, seat.peer)
    except ValueError as exc:
        raise NetError("resume-failed", room=seat.room, reason=str(exc)) from None
    net_game.saved = seat
    net_game.fallbacks, net_game.signing_key = tuple(seat.fallbacks), key
    net_game.lan = bool(seat.lan_port)
    for kept, bot_key in bot_keys:
        running = RUNNING_BOTS.get(kept.peer)
        if running is not None and running.running:
            net_game.bots.append(running)
            continue
        bot = LocalBot(kept.kind, kept.name, bot_key, kept.secret, kept.peer)
        play = bot.play(session_for(kept.seat, bot_key, kept.secret), address, think_ms, tuple(seat.fallbacks))
        bot.task = tasks.spawn(play, lambda _: None, lambda _: None)
        net_game.bots.append(bot)
    return net_game


@dataclass(frozen=True)
class SeatRow:
    """One seat of a room as the window shows it."""

    seat: int
    name: str
    #: "you", "player" (a person who joined), "bot" (this machine plays it), "free",
    #: "bots-only" (seat 0 once the host left it: it writes the genesis, so only a bot of the host may take it)
    kind: str
    bot: str = ""
    #: The joiner's peer id (a "player" row: the host may take it out before the start).
    peer: str = ""


@dataclass(frozen=True)
class Request:
    """Someone asking the host for a seat: their name, their key's fingerprint, the seat they asked for."""

    peer: str
    name: str
    fingerprint: str
    seat: int | None


def bot_kinds(game: str) -> list[str]:
    """The bots a seat of ``game`` can be given: the kit's AI levels, else the engine's bots."""
    from engines.core import registry

    from .games import kit_for

    kit = kit_for(game)
    if kit is not None and kit.levels:
        return list(kit.levels)
    return sorted(registry.get(game).bots)


def bot_label(kind: str) -> str:
    """A bot kind in the player's language ("Greedy"), or its own name when the catalogue has none."""
    label = tr(f"level.{kind}")
    return kind if label == f"level.{kind}" else label


class LocalBot:
    """A bot seat this machine plays in a network game: its own keys, session and relay connection.

    The protocol still has one signer per seat, so the audit covers the bot like anyone else.
    A resumed game gives back the bot's kept ``key``, ``secret`` and ``peer`` (:func:`resume_seat`).
    """

    def __init__(
        self, kind: str, name: str, key: Any = None, secret: bytes | None = None, peer: str | None = None
    ) -> None:
        from engines.core import canonical_encode
        from protocol.crypto.signing import SigningKey
        from protocol.session import PeerSession

        self.kind = kind
        self.name = name
        self.key = key or SigningKey.generate()
        self.secret = secret or os.urandom(32)
        self.peer = peer or _peer_id()
        self.card = canonical_encode(PeerSession.seat_card(name, self.key, self.secret).as_body())
        self.session: Any = None
        self.transport: Any = None
        self.driver: Any = None
        #: The task playing the seat (done when the game has ended, or the bot was stopped).
        self.task: Any = None

    def play(
        self, session: Any, relay: str | RelayAddress, think_ms: int, fallbacks: tuple[str, ...] = (), lan: bool = False
    ) -> Any:
        """The coroutine that plays the seat to the end (a ``RoomTransport.run()``)."""
        from .headless import BotSeat

        RUNNING_BOTS[self.peer] = self
        self.session = session
        self.driver = BotSeat(session, self.kind, self.secret, quiet=True, think_ms=think_ms)
        info: dict[str, Any] = {"seat": session.seat, "name": self.name}
        if lan:
            info["hosts_relay"] = True  # it runs in the host's program: it dies with the relay
        self.transport = relay_transport(
            [relay, *fallbacks], session, self.peer, self.driver.handle, presence_info=info
        )
        self.driver.transport = self.transport
        return self.transport.run()

    def stop(self) -> None:
        if self.transport is not None:
            self.transport.stop()

    @property
    def running(self) -> bool:
        """Still playing (a task being cancelled, as when its window closed, is not)."""
        task = self.task
        return task is not None and not task.done() and not (hasattr(task, "cancelling") and task.cancelling())


#: The bots this program plays, by peer id: a game resumed in the same run finds its bots still playing.
RUNNING_BOTS: dict[str, LocalBot] = {}


class Hosting:
    """A room this window hosts, while it fills: who sits where, the host's seat, bots, start and cancel.

    ``await hosting.run()`` gathers the seats and returns the host's NetGame once the room starts (by
    itself when people fill every seat; with :meth:`start` when a seat is a bot).  The window calls
    :meth:`take_seat` and :meth:`set_bot` (coroutines) and :meth:`start` meanwhile, and
    :meth:`cancel` to close the room.  ``on_change()`` is called after every change.
    """

    def __init__(
        self,
        address: RelayAddress,
        game: str,
        players: int,
        name: str,
        identity_dir: Path | None = None,
        think_ms: int = 0,
        bot_names: list[str] | None = None,
        listed: bool = True,
        timeout_ms: int | None = None,
        shown_address: RelayAddress | None = None,
        admit: Any = False,
        fallbacks: tuple[str, ...] = (),
    ) -> None:
        """``admit``: as :class:`relay.rooms.RoomHost` takes it (False: every request waits for the host)."""
        from protocol.session import DEFAULT_TIMEOUT_MS

        rooms = relay_module("rooms")
        host_cls = getattr(rooms, "RoomHost", None) if rooms else None
        if host_cls is None:
            raise NetError("rooms-missing", address=str(address))
        self.address = address
        #: Relays the game moves to when ``address`` stays unreachable (in the invitation and the genesis).
        self.fallbacks = tuple(str(parse_relay_address(f)) for f in fallbacks)
        if self.fallbacks:  # the genesis names them all: refuse now what it could not carry, not after the room filled
            from protocol.schema import relays_problem
            from relay.invitation import strip_login

            named = tuple(dict.fromkeys(strip_login(str(r)).rstrip("/") for r in [address, *self.fallbacks]))
            problem = relays_problem(named)
            if problem is not None:
                raise NetError("bad-address", address=", ".join(named))
        #: A LAN room: the relay runs in this program (its seats hand it over when it dies).
        self.lan = False
        #: The address the others use (a LAN relay's network address; this machine talks to it on loopback).
        self.shown_address = shown_address or address
        self.game = game
        self.players = players
        self.think_ms = think_ms
        self.bot_names = bot_names or []
        self.key, self.secret, card = _seat_card(name, identity_dir)
        self.identity_dir = identity_dir
        #: The port of this program's LAN relay when the room is on it (a resume starts it there again).
        self.lan_port = 0
        self.peer = _peer_id()
        self.on_change: Callable[[], None] | None = None
        self.bots: dict[int, LocalBot] = {}
        #: How long a seat may take to answer (the genesis says it; the room card shows it to joiners).
        self.timeout_ms = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
        #: The game's options (house rules) the genesis fixes; the lobby offers none yet.
        self.options: dict[str, Any] = {}
        # The host decides who sits down: every request waits for accept() or refuse() (unless ``admit`` decides).
        self.room_host = host_cls(
            address,
            game,
            players,
            self.peer,
            name,
            card,
            key=self.key,
            on_change=self._changed,
            admit=admit,
            listed=listed,
            timeout_ms=self.timeout_ms,
        )
        self.lobby: Any = self.room_host.card()

    @property
    def code(self) -> str:
        return str(self.room_host.code)

    def _changed(self, lobby: Any) -> None:
        self.lobby = lobby
        if self.on_change is not None:
            self.on_change()

    def rows(self) -> list[SeatRow]:
        host = self.room_host
        out = []
        for seat in range(self.players):
            peer = host.holder(seat)
            if peer == host.peer:
                out.append(SeatRow(seat, host.name, "you"))
            elif seat in self.bots and peer == self.bots[seat].peer:
                out.append(SeatRow(seat, self.bots[seat].name, "bot", self.bots[seat].kind))
            elif peer is not None:
                out.append(SeatRow(seat, host.holder_name(seat), "player", peer=peer))
            else:
                out.append(SeatRow(seat, "", "bots-only" if seat == 0 else "free"))
        return out

    def requests(self) -> list[Request]:
        """Who asks for a seat and waits for the host's answer (arrival order)."""
        from relay.invitation import fingerprint

        return [
            Request(peer, req.name, fingerprint(req.sign_key), req.seat) for peer, req in self.room_host.waiting.items()
        ]

    def invitation(self) -> Any:
        """The room's :class:`relay.invitation.Invitation` (link, and words to read out), at the address friends use."""
        from dataclasses import replace

        return replace(self.room_host.invitation(), relay=str(self.shown_address), fallbacks=self.fallbacks)

    async def accept(self, peer: str) -> None:
        try:
            await self.room_host.accept(peer)
        except Exception as exc:
            raise _translate_relay_error(exc, self.address, self.code) from None

    async def refuse(self, peer: str) -> None:
        await self.room_host.refuse(peer)

    async def remove(self, peer: str) -> None:
        """Take a joiner out of its seat before the start (it is told it was not let in)."""
        await self.room_host.remove(peer)

    def can_start(self) -> bool:
        return bool(self.room_host.full())

    async def set_timeout(self, timeout_ms: int) -> None:
        """The host's answer time (30 s .. 7 days), shown at once in the room's card; the genesis fixes it."""
        from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS

        if not MIN_TIMEOUT_MS <= timeout_ms <= MAX_TIMEOUT_MS:
            raise NetError("bad-answer-time")
        self.timeout_ms = timeout_ms
        await self.room_host.set_timeout(timeout_ms)

    def start(self) -> bool:
        return bool(self.room_host.start())

    async def take_seat(self, seat: int) -> None:
        try:
            await self.room_host.take_seat(seat)
        except Exception as exc:
            raise _translate_relay_error(exc, self.address, self.code, seat) from None

    async def set_bot(self, seat: int, kind: str | None) -> None:
        """Make ``seat`` a bot of ``kind`` (None: free it again for a person)."""
        # The bot is known before its seat changes and forgotten after: every change the room
        # reports on the way (and the panel shows at once) names the seat's holder rightly,
        # never as a person.
        if seat in self.bots:
            try:
                await self.room_host.free_local(seat)
            finally:  # the seat is free even if telling the relay failed
                del self.bots[seat]
        if not kind:
            return
        names = self.bot_names or [f"Bot {seat + 1}"]
        bot = LocalBot(kind, names[seat % len(names)])
        self.bots[seat] = bot
        try:
            await self.room_host.seat_local(seat, bot.peer, bot.name, bot.card)
        except Exception as exc:
            del self.bots[seat]
            raise _translate_relay_error(exc, self.address, self.code, seat) from None

    async def cancel(self) -> None:
        """Close the room: its card leaves the listing and waiting joiners hear that it closed."""
        await self.room_host.close()

    async def run(self) -> Any:
        """Gather the seats; then write the genesis (seat 0: the host or its bot) and start the bots."""
        from protocol.session import PeerSession
        from relay.transport import monotonic_ms

        from . import tasks
        from .net_game import NetGame

        try:
            cards = await self.room_host.gather(timeout=3600.0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise _translate_relay_error(exc, self.address, self.code) from None
        seats = [_seat_info(c) for c in cards]
        code, relay = self.code, self.address
        mine = self.room_host.host_seat
        sessions: dict[int, Any] = {}
        try:
            if mine == 0:
                creator_key, creator_secret = self.key, self.secret
            else:
                creator_key, creator_secret = self.bots[0].key, self.bots[0].secret
            relays = self.invitation().relays if self.fallbacks else ()
            sessions[0] = PeerSession.create(
                code,
                self.game,
                self.options,
                seats,
                creator_key,
                creator_secret,
                self.timeout_ms,
                now_ms=monotonic_ms(),
                relays=relays,
            )
        except ValueError as exc:
            raise NetError("relay-failed", address=str(relay), reason=str(exc)) from None
        creator = creator_key.public_bytes()
        for seat, bot in self.bots.items():
            if seat != 0:
                sessions[seat] = PeerSession.join(code, seat, bot.key, bot.secret, creator=creator)
        if mine != 0:
            sessions[mine] = PeerSession.join(code, mine, self.key, self.secret, creator=creator)
        net_game = NetGame(sessions[mine], relay, self.peer)
        net_game.room_host = self.room_host
        keep = SavedSeat(
            room=code,
            seat=mine,
            game=self.game,
            relay=str(relay),
            peer=self.peer,
            creator=creator,
            sign=self.key.private_bytes(),
            secret=self.secret,
            genesis=bytes(sessions[0].table.log[0].data),
            bots=[
                SavedBot(seat, bot.kind, bot.name, bot.peer, bot.key.private_bytes(), bot.secret)
                for seat, bot in sorted(self.bots.items())
            ],
            timeout_ms=self.timeout_ms,
            names=[s.name for s in seats],
            lan_port=self.lan_port,
            fallbacks=list(self.fallbacks),
        )
        keep_seat(net_game, keep, self.identity_dir)  # before the genesis or any entry goes out
        net_game.fallbacks, net_game.lan, net_game.signing_key = self.fallbacks, self.lan, self.key
        for seat, bot in sorted(self.bots.items()):
            playing = bot.play(sessions[seat], relay, self.think_ms, self.fallbacks, self.lan)
            bot.task = tasks.spawn(playing, lambda _: None, lambda _: None)
            net_game.bots.append(bot)
        return net_game


async def host_room(
    address: RelayAddress,
    game: str,
    players: int,
    name: str,
    status: StatusFn | None = None,
    identity_dir: Path | None = None,
    hosting: Hosting | None = None,
) -> Any:
    """Open a room on the relay at ``address``, wait for every seat, write the genesis; the NetGame.

    Pass a :class:`Hosting` to let the window pick seats and bots while the room fills.
    """
    hosting = hosting or Hosting(address, game, players, name, identity_dir)

    def changed() -> None:
        lobby = hosting.lobby
        if status:
            status(tr("lobby.hosting", code=lobby.code, address=str(address), taken=lobby.seats_taken, total=players))
        if extra is not None:
            extra()

    extra = hosting.on_change
    hosting.on_change = changed
    return await hosting.run()


#: The embedded relay this program runs for a LAN game it hosts (one at a time).
_HOSTED: Any = None
#: Interfaces for LAN announcements and browsing (None: all; tests use ["127.0.0.1"]).
#: Ports tried for a hosted relay: the MQTT port first, else any free port (discovery tells it).
LAN_PORTS: tuple[int, ...] = (DEFAULT_PORT, 0)


async def start_lan_relay(name: str, ports: tuple[int, ...] | None = None) -> RelayAddress:
    """Start (once) the embedded relay on this machine and announce it on the LAN (``ports``: tried in order)."""
    global _HOSTED
    broker = relay_module("broker")
    if broker is None or not hasattr(broker, "EmbeddedRelay"):
        raise NetError("relay-missing")
    if _HOSTED is None:
        failure = ""
        for port in ports or LAN_PORTS:
            interfaces = relays.LAN_INTERFACES
            config = broker.RelayConfig(port=port, name=f"Sealed Table - {name}", zeroconf_interfaces=interfaces)
            relay = broker.EmbeddedRelay(config)
            try:
                await relay.start()
            except OSError as exc:
                failure = str(exc)
                continue
            _HOSTED = relay
            break
        else:
            raise NetError("host-failed", reason=failure)
    host, _, port_text = _HOSTED.address.rpartition(":")
    return RelayAddress(host, int(port_text))


def lan_relay_address() -> RelayAddress | None:
    """Where friends on the network reach the relay this program hosts (None: it hosts none)."""
    if _HOSTED is None:
        return None
    host, _, port_text = _HOSTED.lan_address.rpartition(":")
    return RelayAddress(host, int(port_text))


async def stop_lan_relay() -> None:
    """Stop the relay this program hosts, if any (the window is closing)."""
    global _HOSTED
    relay, _HOSTED = _HOSTED, None
    if relay is not None:
        await relay.stop()


async def host_lan(
    name: str,
    game: str,
    players: int,
    status: StatusFn | None = None,
    identity_dir: Path | None = None,
    on_hosting: Callable[[Hosting], None] | None = None,
    **hosting_args: Any,
) -> Any:
    """Start the embedded relay, announce it on the LAN, and host a room on it.

    ``on_hosting`` receives the :class:`Hosting` as soon as the room exists (the window's seat list).
    """
    address = await start_lan_relay(name)
    shown = lan_relay_address()
    hosting = Hosting(address, game, players, name, identity_dir, shown_address=shown, **hosting_args)
    hosting.lan_port = address.port
    hosting.lan = True
    if on_hosting is not None:
        on_hosting(hosting)
    return await host_room(address, game, players, name, status, identity_dir, hosting)


@dataclass(frozen=True)
class LanRelay:
    name: str
    address: RelayAddress


@dataclass(frozen=True)
class LanRoom:
    """An open room found on a LAN relay."""

    relay: LanRelay
    code: str
    game: str
    host: str
    seats_taken: int
    seats_total: int
    #: The host's key fingerprint (shown in the list, and pinned when the room is joined from it).
    fingerprint: str = ""
    timeout_ms: int = 0


async def discover_rooms(timeout: float = 2.0) -> tuple[list[LanRelay], list[LanRoom]]:
    """Relays on the LAN and the open rooms each of them lists."""
    relays = await discover_lan(timeout)
    rooms = relay_module("rooms")
    list_rooms = getattr(rooms, "list_rooms", None) if rooms else None
    found: list[LanRoom] = []
    for relay in relays:
        if list_rooms is None:
            break
        try:
            cards = await list_rooms(str(relay.address), timeout=3.0)
        except Exception:  # one silent relay must not hide the others
            continue
        for card in cards:
            found.append(
                LanRoom(
                    relay,
                    card.code,
                    card.game,
                    card.host,
                    card.seats_taken,
                    card.seats_total,
                    card.fingerprint,
                    card.timeout_ms,
                )
            )
    return relays, found


async def discover_lan(timeout: float = 2.0) -> list[LanRelay]:
    """Relays advertised on the LAN; NetError("lan-missing") if discovery is not available."""
    discovery = relay_module("discovery")
    browse = getattr(discovery, "browse", None) if discovery else None
    if browse is None:
        raise NetError("lan-missing")
    try:
        found = await browse(timeout, interfaces=relays.LAN_INTERFACES)
    except Exception as exc:
        raise NetError("lan-failed", reason=str(exc) or type(exc).__name__) from None
    out = []
    for item in found or ():
        host = getattr(item, "host", None) or (item.get("host") if isinstance(item, dict) else None)
        port = getattr(item, "port", None) or (item.get("port") if isinstance(item, dict) else DEFAULT_PORT)
        name = getattr(item, "name", None) or (item.get("name") if isinstance(item, dict) else host)
        if host:
            out.append(LanRelay(str(name), RelayAddress(str(host), int(port or DEFAULT_PORT))))
    return out
