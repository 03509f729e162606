"""A LAN game: this program's embedded relay, announced on the network, and the rooms found on others."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from client.net import transport
from client.net.address import DEFAULT_PORT, RelayAddress
from client.net.errors import NetError
from client.net.game import NetGame
from client.net.hosting import Hosting, StatusFn, host_room
from relay.broker.discovery import browse
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.lobby.door import ListedRoom as ListedRoom  # re-exported: the screens hold one for a LAN room
from relay.lobby.host import Admit
from relay.lobby.listing import list_rooms

#: The embedded relay this program runs for a LAN game it hosts (one at a time).
_HOSTED: EmbeddedRelay | None = None
#: Ports tried for a hosted relay: the MQTT port first, else any free port (discovery tells it).
LAN_PORTS: tuple[int, ...] = (DEFAULT_PORT, 0)


async def start_lan_relay(name: str, ports: tuple[int, ...] | None = None) -> RelayAddress:
    """Start (once) the embedded relay on this machine and announce it on the LAN (``ports``: tried in order)."""
    global _HOSTED
    if _HOSTED is None:
        failure = ""
        for port in ports or LAN_PORTS:
            interfaces = transport.LAN_INTERFACES
            config = RelayConfig(port=port, name=f"Sealed Table - {name}", zeroconf_interfaces=interfaces)
            relay = EmbeddedRelay(config)
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


def hosted_relay() -> EmbeddedRelay | None:
    """The embedded relay this program runs for a LAN game (None: it runs none)."""
    return _HOSTED


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
    *,
    think_ms: int = 0,
    bot_names: list[str] | None = None,
    listed: bool = True,
    timeout_ms: int | None = None,
    admit: Admit = False,
) -> NetGame:
    """Start the embedded relay, announce it on the LAN, and host a room on it (the options: :class:`Hosting`'s).

    ``on_hosting`` receives the :class:`Hosting` as soon as the room exists (the window's seat list).
    """
    address = await start_lan_relay(name)
    hosting = Hosting(
        address,
        game,
        players,
        name,
        identity_dir,
        think_ms=think_ms,
        bot_names=bot_names,
        listed=listed,
        timeout_ms=timeout_ms,
        shown_address=lan_relay_address(),
        admit=admit,
    )
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
    #: What the relay's listing shows of it (no code: joining knocks at its door, :mod:`relay.lobby.door`).
    listed: ListedRoom
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
    found: list[LanRoom] = []
    for relay in relays:
        try:
            cards = await list_rooms(str(relay.address), timeout=3.0)
        except Exception:  # one silent relay must not hide the others
            continue
        for card in cards:
            found.append(
                LanRoom(
                    relay,
                    card,
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
    """Relays advertised on the LAN (NetError("lan-failed") when the network cannot be searched)."""
    try:
        found = await browse(timeout, interfaces=transport.LAN_INTERFACES)
    except Exception as exc:  # zeroconf's own failures (sockets, names) are one sentence for the player
        raise NetError("lan-failed", reason=str(exc) or type(exc).__name__) from None
    return [LanRelay(item.name, RelayAddress(item.host, item.port or DEFAULT_PORT)) for item in found]
