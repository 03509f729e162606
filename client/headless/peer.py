"""``python -m client.headless``: a peer without a window — a bot in a seat, over a real relay.

    python -m client.headless --relay HOST:PORT --create system-launch --players 4 \\
        --accept-all --seat-bot greedy --state-dir DIR
    python -m client.headless --join sealed://HOST:PORT/ROOM#FINGERPRINT.TOKEN --state-dir DIR

It creates or joins a room, takes a seat with a bot, plays to the end, prints the result and the
audit verdict, and saves the game file.  The bot is the game's own unless ``--seat-bot`` names one,
and it is checked against the game before anything is sent: by a host at once, by a joiner as soon as
the room's card names the game, before it asks for a seat.  A host prints its room and invitation
(``invitation sealed://…``) once its relay answered and its room card is on the relay, so a guest
started at once finds the room; it decides who sits down: ``--accept-all``, or ``--accept FINGERPRINT``
for each guest (a peer prints its own key's readable fingerprint as ``my key …``).  A joiner given
the invitation link (or ``--host-key``) plays only a room and a genesis signed by that host, and its
request proves the link's token, so the host keeps it a place no stranger's request takes; with a
bare room code it trusts the key the room's card names, and prints it.  An invitation carries no
login: a relay that asks for one gets it from ``--user`` and ``--password-file`` (or
``USER[:PASSWORD]@`` in ``--relay``).

Everything the seat needs to carry on — its signing key, its per-game secret (every other secret
of the seat is derived from it), its peer id, the room, the seat and the genesis author it pinned —
is written to ``--state-dir`` before the first message goes out, in the files the desktop program
keeps a seat in (:mod:`client.headless.state_dir`), so a peer that is killed and started again with
the same arguments resumes its seat from the relay's retained log.

Where the game runs (:mod:`client.headless.relays`): a host names fallback relays with
``--fallback-relay`` (they travel in the invitation and the genesis) and the game moves to the next
one when its relay stays unreachable for ``--failover-after`` seconds; ``--lan`` runs the room's relay
in the host's own process and hands it over to a surviving seat when that process dies;
``--commands`` reads ``move ADDRESS`` / ``move next`` on standard input.

Exit status: 0 the game ended and the audit says fair; 1 it ended otherwise (a cheat was
named, or the game was abandoned); 2 a relay, room or ``--state-dir`` problem (the message says which).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from client.headless import relays
from client.headless.hints import sentence
from client.headless.state_dir import StateDir, StateDirError
from client.net.bot_seat import BotSeat
from client.registry import GAMES
from client.store.kept_seats import SavedSeat
from engines.core import registry
from engines.core.registry import UnknownName
from protocol.events import Rejected
from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS
from protocol.session import PeerSession
from protocol.table import SeatInfo
from protocol.verify import dump
from relay import event_loop
from relay.address import RelayAddress, parse_address
from relay.background import stopped
from relay.errors import RelayError
from relay.lobby.host import Admit, RoomHost
from relay.lobby.invitation import (
    BadInvitation,
    fingerprint,
    is_link,
    matches,
    normalize_code,
    normalize_fingerprint,
    parse_invitation,
    readable,
)
from relay.lobby.join import join_room
from relay.lobby.messages import JoinRequest, LobbyCard
from relay.mqtt import quiet_publish_backlog
from relay.transport.failover import FailoverTransport, RelayMoved
from relay.transport.room import Restored, monotonic_ms

if TYPE_CHECKING:  # the embedded relay (amqtt) is loaded only by a --lan host
    from relay.broker.embedded import EmbeddedRelay

log = logging.getLogger("client.headless.peer")

#: Where a line for people goes (standard error, unless ``--quiet``).
Say = Callable[[str], None]


def seat_info(card: bytes) -> SeatInfo:
    raw = msgpack.unpackb(card, raw=False)
    return SeatInfo(str(raw["name"])[:40], bytes(raw["sign"]), bytes(raw["box"]))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m client.headless", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--relay",
        default=None,
        help="the relay (a --join invitation link names it): HOST[:PORT], mqtt://, mqtts://HOST (TLS, port 8883), "
        "ws:// or wss://HOST[:PORT][/PATH]; USER[:PASSWORD]@ before the host for a relay that needs a login",
    )
    p.add_argument("--ca-file", default=None, help="TLS: trust this CA certificate file (default: the system's)")
    p.add_argument("--cert", default=None, help="TLS: a client certificate file (PEM), for relays that ask for one")
    p.add_argument("--key", default=None, help="TLS: the client certificate's key file (if not in --cert)")
    p.add_argument("--user", default=None, help="the relay login's user name (an invitation link carries no login)")
    p.add_argument(
        "--password-file", type=Path, default=None, help="read the relay password from this file (not the command line)"
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--create", metavar="GAME", help=f"open a room for GAME ({', '.join(GAMES)})")
    mode.add_argument("--join", metavar="INVITATION", help="join a room: an invitation link, or a room code")
    p.add_argument(
        "--host-key", default=None, help="with --join CODE: the host key to trust (its 20 letters read out, or 32)"
    )
    p.add_argument("--accept-all", action="store_true", help="as host: seat everyone who asks (a valid request)")
    p.add_argument("--accept", action="append", default=[], metavar="FINGERPRINT", help="as host: seat this guest")
    p.add_argument(
        "--listed",
        action="store_true",
        help="as host: show the room in the relay's listing (anyone there, the relay too, can then read it)",
    )
    p.add_argument("--unlisted", action="store_true", help="as host: keep the room off the listing (the default)")
    p.add_argument("--players", type=int, default=4, help="seats in a created room")
    p.add_argument(
        "--seat-bot",
        default=None,
        help="the bot that plays this seat (default: the game's own; every game has random, and its own levels)",
    )
    p.add_argument("--state-dir", required=True, type=Path, help="where this seat's keys and state are kept")
    p.add_argument("--name", default=None, help="seat name shown to the others")
    p.add_argument("--room", default=None, help="with --create: use this code instead of a random one")
    p.add_argument(
        "--timeout-ms",
        type=int,
        default=120_000,
        help="silence after which a seat is voted gone (30 s .. 7 days; a value outside is a test/demo"
        " override that this seat, host or joiner, accepts in the genesis only when given it here)",
    )
    p.add_argument("--save", type=Path, default=None, help="game file (default: STATE_DIR/game.sealed)")
    p.add_argument("--gather-timeout", type=float, default=600.0, help="seconds to wait for the seats to fill")
    p.add_argument("--think-ms", type=int, default=0, help="pause before each decision (demos, fault tests)")
    p.add_argument(
        "--claim-wait",
        type=float,
        default=120.0,
        help="seconds a win claimed after disconnection (two seats) waits for the claimed seat's own entry, "
        "which voids it and play goes on, before this peer stops",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --create: a game option, e.g. max_rounds=80 (a round limit for a bots-only table)",
    )
    relays.add_arguments(p)
    p.add_argument("-q", "--quiet", action="store_true")
    return p.parse_args(argv)


def _dev_timeout(args: argparse.Namespace) -> int | None:
    """``--timeout-ms`` outside the range a host may choose: the explicit override this seat accepts (tests, demos)."""
    return None if MIN_TIMEOUT_MS <= args.timeout_ms <= MAX_TIMEOUT_MS else args.timeout_ms


def choose_bot(args: argparse.Namespace, game: str) -> None:
    """``--seat-bot`` for ``game``: the game's own bot when none is named; UnknownBot (its bots listed) if it lacks it.

    Called as soon as the game is known, before a seat is asked for or taken: a seat whose bot cannot
    play would leave the others waiting for a decision that never comes.
    """
    spec = registry.get(game)
    args.seat_bot = args.seat_bot or spec.default_bot
    registry.bot(spec, args.seat_bot)


def check_create(args: argparse.Namespace) -> None:
    """A room to open: its game, its number of players and the seat's bot, checked before the relay is asked."""
    spec = registry.get(args.create)
    if not spec.min_players <= args.players <= spec.max_players:
        raise RelayError(f"{spec.title} is {registry.players_text(spec)}, not {args.players}")
    choose_bot(args, args.create)


async def open_session(args: argparse.Namespace, store: StateDir, say: Say) -> tuple[PeerSession, RoomHost | None]:
    """Resume the kept seat, or create/join a room and take a seat (kept before anything is sent)."""
    if store.seated:
        choose_bot(args, store.kept.game)
        return _resume(args, store, say), None
    # A joiner learns the game from the room's card, after its own card (with the name) is made.
    name = args.name or (f"{args.seat_bot} bot" if args.seat_bot else "bot")
    if args.create:
        return await _host(args, store, name, say)
    if args.join:
        return await _join(args, store, name, say), None
    raise RelayError("give --create GAME or --join INVITATION (or a --state-dir with a seat to resume)")


def _resume(args: argparse.Namespace, store: StateDir, say: Say) -> PeerSession:
    """The kept seat again: the same keys, the creator it pinned, and the genesis once it had it."""
    kept = store.kept
    say(f"resuming seat {kept.seat} in room {kept.room}")
    session = PeerSession.join(
        kept.room,
        kept.seat,
        store.signing_key,
        store.secret,
        creator=kept.creator or None,
        dev_timeout_ms=_dev_timeout(args),
    )
    if kept.genesis:
        session.receive(kept.genesis, monotonic_ms())
    return session


async def _host(args: argparse.Namespace, store: StateDir, name: str, say: Say) -> tuple[PeerSession, RoomHost]:
    """Open a room, gather its seats, write the genesis (seat 0)."""
    kept = store.kept
    # A host restarted before its room filled up carries on with the same room code.
    code = normalize_code(args.room) if args.room else (kept.room or None)
    host = RoomHost(
        args.relay,
        args.create,
        args.players,
        store.peer,
        name,
        store.card(name),
        key=store.signing_key,
        code=code,
        admit=admission(args, say),
        listed=args.listed and not args.unlisted,
        timeout_ms=args.timeout_ms,
        on_note=lambda text: say(f"lobby: {text}"),
    )
    invitation = dataclasses.replace(host.invitation(), fallbacks=tuple(args.fallbacks))
    kept.room, kept.game, kept.fallbacks = host.code, args.create, list(invitation.relays[1:])
    store.keep()
    gathering = asyncio.ensure_future(host.gather(args.gather_timeout))
    try:
        await _opened(host, gathering)
        # Only now: the relay answered and holds the room's card, so a guest started at once finds the room.
        print(f"room {host.code}", flush=True)
        print(f"invitation {invitation.link()}", flush=True)
        say(f"read out: {invitation.read_out()}")
        cards = await gathering
    finally:
        await stopped(gathering)
    seats = [seat_info(c) for c in cards]
    options = registry.parse_options(args.option)
    session = PeerSession.create(
        host.code,
        args.create,
        options,
        seats,
        store.signing_key,
        store.secret,
        args.timeout_ms,
        now_ms=monotonic_ms(),
        dev_timeout_ms=_dev_timeout(args),
        # The room's relays travel in the genesis too (a LAN relay's address is not worth keeping).
        relays=invitation.relays if args.fallbacks else (),
    )
    kept.seat, kept.creator, kept.started = 0, store.signing_key.public_bytes(), time.time()
    kept.genesis = bytes(session.table.log[0].data) if session.table else b""
    _note_table(kept, session)
    store.keep()
    return session, host


async def _opened(host: RoomHost, gathering: asyncio.Future[list[bytes]]) -> None:
    """Wait until the room's card and seat list came back from the relay, or the gathering ended (its error raised)."""
    opened = asyncio.ensure_future(host.opened.wait())
    either: set[asyncio.Future[Any]] = {opened, gathering}
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        await stopped(opened)
    if gathering.done() and not host.opened.is_set():
        gathering.result()


async def _join(args: argparse.Namespace, store: StateDir, name: str, say: Say) -> PeerSession:
    """Ask the room's host for a seat and wait for it (pinning the host's key when the invitation names it)."""
    code, pin = args.room_code, args.host_key
    seated = await join_room(
        args.relay,
        code,
        store.peer,
        name,
        store.card(name),
        timeout=args.gather_timeout,
        key=store.signing_key,
        host_key=pin,
        token=args.invite_token,
        on_note=lambda text: say(f"lobby: {text}"),
        check=lambda card: _check_card(args, card),
    )
    lobby = seated.lobby
    if pin is None:
        say(f"host {lobby.host}, key {readable(lobby.fingerprint)} (from the room's card: no invitation given)")
    if seated.creator is None:
        raise RelayError(f"room {code}: the host's seat list names no seat 1")
    kept = store.kept
    kept.room, kept.seat, kept.game, kept.creator = code, seated.seat, lobby.game, seated.creator
    kept.fallbacks, kept.timeout_ms, kept.started = list(args.fallbacks), lobby.timeout_ms, time.time()
    store.keep()
    answer = f"answer time {lobby.timeout_ms // 1000} s"
    say(f"seat {seated.seat} in room {code} ({lobby.game}, {lobby.seats_total} seats, {answer})")
    return PeerSession.join(
        code,
        seated.seat,
        store.signing_key,
        store.secret,
        creator=seated.creator,
        dev_timeout_ms=_dev_timeout(args),
    )


def _check_card(args: argparse.Namespace, card: LobbyCard) -> None:
    """The room's card names the game: the seat's bot must play it, or no seat is asked for."""
    choose_bot(args, card.game)


def _note_table(kept: SavedSeat, session: PeerSession) -> None:
    """What the genesis fixed that a list of games shows: the players' names and the answer time."""
    if session.table is not None:
        kept.names = [seat.name for seat in session.table.seats]
        kept.timeout_ms = session.table.timeout_ms


def admission(args: argparse.Namespace, say: Say) -> Admit:
    """Who a headless host seats: everyone (``--accept-all``) or the guests whose key it was given."""
    if args.accept_all:
        return True
    if not args.accept:
        raise RelayError("a host decides who sits down: give --accept-all, or --accept FINGERPRINT for each guest")
    try:
        wanted = {normalize_fingerprint(fp) for fp in args.accept}
    except BadInvitation as exc:
        raise RelayError(str(exc)) from None

    def decide(req: JoinRequest) -> bool:
        ok = any(matches(req.sign_key, fp) for fp in wanted)
        say(f"lobby: {req.name} (key {readable(fingerprint(req.sign_key))}) {'accepted' if ok else 'refused'}")
        return ok

    return decide


def resolve_join(args: argparse.Namespace) -> None:
    """``--join`` as a link or a code, ``--relay`` and ``--host-key``: one relay, one room code, one pin."""
    args.room_code = None
    args.invite_token = ""
    args.fallbacks = list(args.fallback_relay)
    if args.join:
        if is_link(args.join):
            try:
                invitation = parse_invitation(args.join)
            except BadInvitation as exc:
                raise RelayError(str(exc)) from None
            args.relay = args.relay or invitation.relay
            args.fallbacks = [*invitation.fallbacks, *(f for f in args.fallbacks if f not in invitation.fallbacks)]
            args.room_code = invitation.code
            args.host_key = invitation.fingerprint
            args.invite_token = invitation.token
        else:
            args.room_code = normalize_code(args.join)
        if args.host_key is not None:
            try:
                args.host_key = normalize_fingerprint(args.host_key)
            except BadInvitation as exc:
                raise RelayError(str(exc)) from None
    if not args.relay and not (args.lan and args.create):
        raise RelayError("give --relay HOST:PORT (or --join with an invitation link that names the relay)")
    relays.check_fallbacks(args)


def relay_address(args: argparse.Namespace) -> RelayAddress:
    """The relay of the command line with its TLS options and password (which is never printed)."""
    address = parse_address(
        args.relay,
        ca_file=args.ca_file,
        cert_file=args.cert,
        key_file=args.key,
    )
    if args.user:
        if address.username is not None and address.username != args.user:
            raise RelayError(f"two user names for the relay: {address.username!r} in --relay, {args.user!r} in --user")
        address = address.with_options(username=args.user)
    password_file = args.password_file
    if password_file is not None:
        if not address.username:
            raise RelayError(
                "--password-file needs a user name: give --user NAME (or USER@ before the relay's host in --relay)"
            )
        try:
            password = password_file.read_text(encoding="utf-8").splitlines()[0]
        except (OSError, IndexError, UnicodeDecodeError):
            raise RelayError(f"cannot read a password from {password_file}") from None
        address = address.with_options(password=password)
    return address


async def play(args: argparse.Namespace) -> int:
    """Take the seat (resumed, hosted or joined), play it to the end, print the result; the exit status."""
    store = StateDir(args.state_dir)
    if args.create and not store.seated:
        check_create(args)  # before anything is asked of the relay, or kept
    lan_relay = await _where_to_play(args, store)

    def say(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    say(f"my key {readable(fingerprint(store.signing_key.public_bytes()))}")

    session, host = await open_session(args, store, say)
    seat = BotSeat(session, args.seat_bot, store.secret, args.quiet, args.think_ms)

    drive = _driver(store, session, seat)
    transport = relays.make_transport(args, session, store, drive, args.relay)
    seat.transport = transport
    if args.commands:
        relays.read_commands(transport, say)
    print(f"seat {session.seat} room {session.room}", flush=True)
    try:
        await transport.run()
    finally:
        if lan_relay is not None:
            await relays.stop_lan_relay(lan_relay, transport)
    label = _report(args, session, seat, transport)
    store.kept.finished, store.kept.verdict = True, label
    store.keep()
    if host is not None:
        await host.close()
    verdict = session.verdict
    return 0 if verdict is not None and verdict.fair else 1


def _driver(store: StateDir, session: PeerSession, seat: BotSeat) -> Callable[[Sequence[object]], None]:
    """What the transport hands the events to: the bot, then the kept seat when a fact a resume needs came."""

    def drive(events: Sequence[object]) -> None:
        seat.handle(events)
        kept, changed = store.kept, False
        for event in events:
            if isinstance(event, RelayMoved):
                kept.moved_to, changed = event.new, True  # a resumed seat looks first where it last played
        if session.table is not None and not kept.genesis:
            kept.genesis, changed = bytes(session.table.log[0].data), True  # a resumed seat checks the LAN by it
            _note_table(kept, session)
        if changed:
            store.keep()

    return drive


async def _where_to_play(args: argparse.Namespace, store: StateDir) -> EmbeddedRelay | None:
    """The relay of the command line (or the kept seat's), checked; a ``--lan`` host's own relay, started.

    Kept before anything is sent: the relay, and the port of the LAN relay this program runs (a
    restarted LAN host runs none: its relay died with it, and the game is on a peer's relay now).
    """
    kept = store.kept
    args.relay = args.relay or (kept.relay if store.seated else None)
    resolve_join(args)
    lan_relay = None
    if args.lan and args.create and not store.seated:
        lan_relay = await relays.start_lan_relay(args)  # this program runs the room's relay
    args.hosts_relay = lan_relay is not None
    args.relay = relay_address(args)
    kept.relay, kept.lan_port = str(args.relay), lan_relay.port if lan_relay is not None else 0
    store.keep()
    return lan_relay


def _report(args: argparse.Namespace, session: PeerSession, seat: BotSeat, transport: FailoverTransport) -> str:
    """Print how the game ended, the audit's verdict, and where the game file is; the verdict's label."""
    verdict = session.verdict
    state = session.state
    result = state.result() if state is not None else None
    if result is not None:
        who = "a draw" if result.draw else f"seat {result.winners[0]} wins"
        print(f"result: {who} ({result.reason})", flush=True)
    elif seat.abandoned:
        print(f"result: abandoned ({seat.abandoned})", flush=True)
    else:
        print("result: the game did not reach its end", flush=True)
    label = "fair" if verdict is not None and verdict.fair else (verdict.label if verdict else "none")
    print(f"verdict: {label}" + (f" — {verdict.reason}" if verdict and not verdict.fair else ""), flush=True)
    if state is not None:
        print(f"final state hash {state.hash().hex()}", flush=True)
    if session.table is not None:
        path = args.save or (args.state_dir / "game.sealed")
        path.write_bytes(dump(session.room, [bytes(e.data) for e in session.table.log]))
        print(f"saved {path} ({session.table.head + 1} entries)", flush=True)
    print(
        f"restored {sum(isinstance(r, Restored) for r in transport.reports)} relay copies; "
        f"rejected {sum(isinstance(r, Rejected) for r in transport.reports)} messages",
        flush=True,
    )
    return label


def setup_logging() -> None:
    """Warnings and worse to standard error, without the MQTT client's notes about its backlog."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    quiet_publish_backlog()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    setup_logging()
    try:
        return event_loop.run(play(args))
    except (RelayError, UnknownName) as exc:
        print(f"error: {sentence(exc)}", file=sys.stderr, flush=True)
        return 2
    except StateDirError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            print("interrupted; run again with the same --state-dir to resume the seat", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
