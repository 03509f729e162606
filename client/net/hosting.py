"""Hosting a room: who sits where while it fills, the host's seat, bots for empty seats, start and cancel."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from client.i18n import tr
from client.net import tasks
from client.net.address import RelayAddress, parse_relay_address
from client.net.bots import LocalBot
from client.net.errors import NetError, relay_failure
from client.net.game import NetGame
from client.net.seat_card import new_peer_id, new_seat, seat_info
from client.store.kept_seats import SavedBot, SavedSeat
from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, relays_problem
from protocol.session import DEFAULT_TIMEOUT_MS, PeerSession
from relay.lobby.host import Admit, RoomHost
from relay.lobby.invitation import Invitation, fingerprint, strip_login
from relay.lobby.messages import LobbyCard
from relay.transport.room import monotonic_ms

# -- rooms and seats -----------------------------------------------------------------
StatusFn = Callable[[str], None]


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
    #: The request proved the room's invitation link (a stranger who knows only the code cannot).
    invited: bool = False


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
        listed: bool = False,
        timeout_ms: int | None = None,
        shown_address: RelayAddress | None = None,
        admit: Admit = False,
        fallbacks: tuple[str, ...] = (),
    ) -> None:
        """``admit``: as :class:`relay.lobby.host.RoomHost` takes it (False: every request waits for the host)."""
        self.address = address
        #: Relays the game moves to when ``address`` stays unreachable (in the invitation and the genesis).
        self.fallbacks = tuple(str(parse_relay_address(f)) for f in fallbacks)
        if self.fallbacks:  # the genesis names them all: refuse now what it could not carry, not after the room filled
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
        self.key, self.secret, card = new_seat(name, identity_dir)
        self.identity_dir = identity_dir
        #: The port of this program's LAN relay when the room is on it (a resume starts it there again).
        self.lan_port = 0
        self.peer = new_peer_id()
        self.on_change: Callable[[], None] | None = None
        self.bots: dict[int, LocalBot] = {}
        #: How long a seat may take to answer (the genesis says it; the room card shows it to joiners).
        self.timeout_ms = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
        #: The game's options (house rules) the genesis fixes; the lobby offers none yet.
        self.options: dict[str, object] = {}
        # The host decides who sits down: every request waits for accept() or refuse() (unless ``admit`` decides).
        self.room_host = RoomHost(
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
        self.lobby: LobbyCard = self.room_host.card()

    @property
    def code(self) -> str:
        return str(self.room_host.code)

    def _changed(self, lobby: LobbyCard) -> None:
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
        return [
            Request(peer, req.name, fingerprint(req.sign_key), req.seat, req.invited)
            for peer, req in self.room_host.waiting.items()
        ]

    def invitation(self) -> Invitation:
        """The room's invitation (link, words to read out), at the address the friends reach the relay by."""
        return replace(self.room_host.invitation(), relay=str(self.shown_address), fallbacks=self.fallbacks)

    async def accept(self, peer: str) -> None:
        try:
            await self.room_host.accept(peer)
        except Exception as exc:
            raise relay_failure(exc, self.address, self.code) from None

    async def refuse(self, peer: str) -> None:
        await self.room_host.refuse(peer)

    async def remove(self, peer: str) -> None:
        """Take a joiner out of its seat before the start (it is told it was not let in)."""
        await self.room_host.remove(peer)

    def can_start(self) -> bool:
        return bool(self.room_host.full())

    async def set_timeout(self, timeout_ms: int) -> None:
        """The host's answer time (30 s .. 7 days), shown at once in the room's card; the genesis fixes it."""
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
            raise relay_failure(exc, self.address, self.code, seat) from None

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
            raise relay_failure(exc, self.address, self.code, seat) from None

    async def cancel(self) -> None:
        """Close the room: its card leaves the listing and waiting joiners hear that it closed."""
        await self.room_host.close()

    async def run(self) -> NetGame:
        """Gather the seats; then write the genesis (seat 0: the host or its bot) and start the bots."""
        try:
            cards = await self.room_host.gather(timeout=3600.0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise relay_failure(exc, self.address, self.code) from None
        seats = [seat_info(c) for c in cards]
        code, relay = self.code, self.address
        mine = self.room_host.host_seat
        sessions: dict[int, PeerSession] = {}
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
        genesis_table = sessions[0].table
        assert genesis_table is not None  # create() wrote the genesis
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
            genesis=bytes(genesis_table.log[0].data),
            bots=[
                SavedBot(seat, bot.kind, bot.name, bot.peer, bot.key.private_bytes(), bot.secret)
                for seat, bot in sorted(self.bots.items())
            ],
            timeout_ms=self.timeout_ms,
            names=[s.name for s in seats],
            lan_port=self.lan_port,
            fallbacks=list(self.fallbacks),
        )
        net_game.keep(keep, self.identity_dir)  # before the genesis or any entry goes out
        net_game.fallbacks, net_game.lan, net_game.signing_key = self.fallbacks, self.lan, self.key
        for seat, bot in sorted(self.bots.items()):
            playing = bot.play(sessions[seat], relay, self.think_ms, self.fallbacks, self.lan, net_game.journal)
            bot.task = tasks.spawn(playing, tasks.ignore, tasks.ignore)
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
) -> NetGame:
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
