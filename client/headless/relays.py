"""The headless peer's relays: fallbacks, failover, the LAN relay of its own, handover, ``move`` commands.

Kept apart from :mod:`client.headless.peer` (which creates, joins and plays a seat) so that choosing
*where* the game runs is one module: the options below, the transport that moves between
relays (:class:`relay.transport.failover.FailoverTransport`), the embedded relay a ``--lan`` host runs in
its own process, and the LAN handover (:mod:`relay.transport.handover`) when that relay dies.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from client.headless.state_dir import StateDir
from protocol.session import PeerSession
from relay.address import RelayAddress
from relay.errors import RelayError
from relay.transport.failover import FAILOVER_S, FailoverTransport
from relay.transport.room import Driver

if TYPE_CHECKING:  # the embedded relay (amqtt) is loaded only by a --lan host
    from relay.broker.embedded import EmbeddedRelay


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--fallback-relay",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="as host: a relay the game moves to when its relay stays unreachable (repeat for more; "
        "they travel in the invitation and the genesis)",
    )
    p.add_argument(
        "--failover-after",
        type=float,
        default=FAILOVER_S,
        metavar="SECONDS",
        help=f"move to the next relay after its relay was unreachable this long (default {FAILOVER_S:.0f})",
    )
    p.add_argument(
        "--lan",
        action="store_true",
        help="LAN game: a host runs the relay in this process and announces it (zeroconf); when the relay "
        "dies, a surviving peer starts one and the others find it (no address typed)",
    )
    p.add_argument(
        "--lan-interface",
        action="append",
        default=None,
        metavar="IP",
        help="with --lan: the interfaces zeroconf uses (default: all; tests give 127.0.0.1)",
    )
    p.add_argument(
        "--commands",
        action="store_true",
        help="read commands on standard input: 'move ADDRESS' moves the game to that relay, 'move next' to "
        "the next of its relays",
    )


async def start_lan_relay(args: argparse.Namespace) -> EmbeddedRelay:
    """A ``--lan`` host's embedded relay, announced on the LAN; ``args.relay`` becomes its address."""
    from relay.broker.embedded import EmbeddedRelay, RelayConfig

    interfaces = args.lan_interface
    host = interfaces[0] if interfaces else "0.0.0.0"
    relay = EmbeddedRelay(RelayConfig(host=host, port=0, name="Sealed Table LAN relay", zeroconf_interfaces=interfaces))
    try:
        await relay.start()
    except OSError as exc:
        raise RelayError(str(exc)) from None
    args.relay = relay.lan_address
    return relay


def make_transport(
    args: argparse.Namespace, session: PeerSession, store: StateDir, driver: Driver, relay: RelayAddress
) -> FailoverTransport:
    """The transport that plays the seat: where the game last moved, the relay, then its fallbacks; a LAN
    handover with ``--lan``."""
    ring: list[str | RelayAddress] = [relay]
    moved_to = store.kept.moved_to
    if moved_to and moved_to != str(relay):
        ring.insert(0, moved_to)  # where this seat last played (the game moved there)
    for known in [*args.fallbacks, *store.kept.fallbacks]:
        if all(str(known) != str(r) for r in ring):
            ring.append(known)
    handover = None
    if args.lan:
        from relay.transport.handover import Handover

        handover = Handover(session, store.signing_key, interfaces=args.lan_interface)
    info: dict[str, object] = {"seat": session.seat, "name": args.name or ""}
    if args.hosts_relay:
        info["hosts_relay"] = True
    return FailoverTransport(
        ring,
        session,
        store.peer,
        driver,
        presence_info=info,
        failover_s=args.failover_after,
        handover=handover,
        claim_wait_s=args.claim_wait,
        journal=store.journal(),
    )


def read_commands(transport: FailoverTransport, say: Callable[[str], None]) -> None:
    """``--commands``: a daemon thread reads standard input; each line is applied on the loop's thread."""
    loop = asyncio.get_running_loop()

    def apply(line: str) -> None:
        words = line.split()
        if len(words) != 2 or words[0] != "move":
            say(f"unknown command {line.strip()!r} (move ADDRESS, move next)")
            return
        try:
            target = transport.move_next() if words[1] == "next" else transport.move_to(words[1])
        except RelayError as exc:
            say(f"cannot move: {exc}")
            return
        say(f"moving the game to relay {target}")

    def reader() -> None:
        for line in sys.stdin:
            if line.strip():
                loop.call_soon_threadsafe(apply, line)

    threading.Thread(target=reader, name="headless-commands", daemon=True).start()


async def stop_lan_relay(relay: EmbeddedRelay, transport: FailoverTransport) -> None:
    """Stop a ``--lan`` host's relay once the other seats are done with it (at most a few seconds)."""
    from relay.transport.handover import others_done

    await others_done(transport, relay)
    await relay.stop()


def check_fallbacks(args: argparse.Namespace) -> None:
    """Fallback relays as the relay layer writes them; a clear error (before any room is opened) for one that
    is not an address, or that a genesis cannot name (the host writes them all into it)."""
    from protocol.schema import relays_problem
    from relay.address import parse_address
    from relay.lobby.invitation import strip_login

    try:
        for fallback in args.fallbacks:
            parse_address(fallback)  # kept as given: a login typed here is this peer's own, for that relay
    except RelayError as exc:
        raise RelayError(f"fallback relay: {exc}") from None
    if args.create and args.fallbacks and args.relay:
        relays = tuple(dict.fromkeys(strip_login(str(r)).rstrip("/") for r in [args.relay, *args.fallbacks]))
        problem = relays_problem(relays)
        if problem is not None:
            raise RelayError(f"these relays cannot be named in the game: relays {problem}")
