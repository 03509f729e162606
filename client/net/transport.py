"""The transport a network seat plays through: its relay, then the fallbacks, and on a LAN the handover."""

from __future__ import annotations

from typing import Any

from client.net.address import parse_relay_address

#: The network interfaces zeroconf announces and browses on (None: all); tests pin the loopback.
LAN_INTERFACES: list[str] | None = None


def relay_transport(
    relays: list[Any],
    session: Any,
    peer: str,
    driver: Any,
    *,
    lan: bool = False,
    key: Any = None,
    presence_info: dict[str, Any] | None = None,
) -> Any:
    """The transport of a network seat: its relay, then the fallbacks; on a LAN, the handover too."""
    from relay.transport.failover import FailoverTransport

    handover = None
    if lan and key is not None:
        from relay.transport.handover import Handover

        handover = Handover(session, key, interfaces=LAN_INTERFACES)
    known = [r for r in relays if r is not None]
    return FailoverTransport(
        known, session, peer, driver, handover=handover, resolve=parse_relay_address, presence_info=presence_info
    )
