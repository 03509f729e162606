"""LAN discovery of relays with zeroconf (mDNS/DNS-SD), so a LAN party needs no typed addresses.

A relay announces ``_mqtt._tcp`` — the standard service type of MQTT brokers — with a TXT
record ``sealed-table=<protocol>``; browsing keeps only services carrying that key, so other
brokers on the network are not offered as game relays.  Tests bind zeroconf to ``127.0.0.1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable
from dataclasses import dataclass

from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from relay.background import keep, stopped

SERVICE_TYPE = "_mqtt._tcp.local."
TXT_KEY = "sealed-table"


@dataclass(frozen=True)
class RelayInfo:
    """A relay found on the LAN."""

    name: str
    host: str
    port: int
    protocol: str
    txt: dict[str, str]

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


class Advertisement:
    """A running announcement; :meth:`close` withdraws it (goodbye packets) and frees the sockets."""

    def __init__(self, zc: AsyncZeroconf, info: AsyncServiceInfo, announcing: Awaitable[object]) -> None:
        self._zc = zc
        self._info = info
        #: zeroconf's announcements of the service, sent over the first second (a task of its own).
        self._announcing = asyncio.ensure_future(announcing)

    @property
    def service_name(self) -> str:
        return self._info.name

    async def close(self) -> None:
        """Withdraw the service: the announcements stop, the goodbyes are sent, then the sockets close.

        zeroconf sends both as tasks of their own; one still running when the sockets close would
        fail, or run on in a loop that has moved on, so each is waited for here.
        """
        await stopped(self._announcing)
        if not self._announcing.cancelled():
            self._announcing.exception()  # the sockets' failure: the goodbyes below say the same
        with contextlib.suppress(Exception):
            await (await self._zc.async_unregister_service(self._info))
        await self._zc.async_close()


def local_addresses(interfaces: list[str] | None) -> list[str]:
    """This machine's IPv4 addresses others can reach (loopback only when there is no other)."""
    if interfaces:
        return [i for i in interfaces if _is_ipv4(i)]
    found: set[str] = set()
    with contextlib.suppress(OSError):
        for res in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(res[4][0]))
    # The address used for the default route (no packet is sent by a UDP connect).
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        found.add(s.getsockname()[0])
    return sorted(a for a in found if not a.startswith("127.")) or ["127.0.0.1"]


def _is_ipv4(text: str) -> bool:
    try:
        socket.inet_aton(text)
    except OSError:
        return False
    return text.count(".") == 3


def _instance_label(name: str) -> str:
    label = "".join(c if c.isalnum() or c in " -_" else "-" for c in name).strip() or "Sealed Table relay"
    return label[:60]


async def advertise(name: str, port: int, txt: dict[str, str], *, interfaces: list[str] | None = None) -> Advertisement:
    """Announce a relay on ``port``; ``interfaces`` limits the sockets zeroconf uses (e.g. loopback in tests)."""
    addresses = local_addresses(interfaces)
    zc = AsyncZeroconf(interfaces=interfaces or _all_interfaces(), ip_version=IPVersion.V4Only)
    label = _instance_label(name)
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"{label}.{SERVICE_TYPE}",
        addresses=[socket.inet_aton(a) for a in addresses],
        port=port,
        properties=dict(txt),
        server=f"sealed-relay-{port}.local.",
    )
    try:
        announcing = await zc.async_register_service(info, allow_name_change=True)
    except Exception:
        await zc.async_close()
        raise
    return Advertisement(zc, info, announcing)


def _all_interfaces() -> InterfaceChoice:
    return InterfaceChoice.All


async def browse(timeout: float = 2.0, *, interfaces: list[str] | None = None) -> list[RelayInfo]:
    """Relays announcing themselves on the LAN within ``timeout`` seconds, sorted by name."""
    zc = AsyncZeroconf(interfaces=interfaces or _all_interfaces(), ip_version=IPVersion.V4Only)
    names: set[str] = set()
    found: dict[str, RelayInfo] = {}
    resolving: set[asyncio.Future[None]] = set()

    async def resolve(name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(zc.zeroconf, 1500):
            return
        props = {
            (k.decode(errors="replace") if isinstance(k, bytes) else str(k)): (
                v.decode(errors="replace") if isinstance(v, bytes) else ""
            )
            for k, v in (info.properties or {}).items()
        }
        if TXT_KEY not in props or not info.port:
            return
        hosts = info.parsed_addresses(IPVersion.V4Only)
        if not hosts:
            return
        label = name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name
        found[name] = RelayInfo(label, hosts[0], int(info.port), props[TXT_KEY], props)

    def on_change(zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added and name not in names:
            names.add(name)
            keep(asyncio.ensure_future(resolve(name)), resolving)

    browser = AsyncServiceBrowser(zc.zeroconf, SERVICE_TYPE, handlers=[on_change])
    try:
        await asyncio.sleep(timeout)
        if resolving:
            await asyncio.wait(set(resolving), timeout=1.5)
    finally:
        await browser.async_cancel()
        for task in resolving:
            task.cancel()
        await zc.async_close()
    return sorted(found.values(), key=lambda r: (r.name, r.address))
