"""The transport a network seat plays through: its relay, then the fallbacks, and on a LAN the handover.

One function for every seat this program plays (the player's and its bots'), so that they all
reach the relays the same way: addresses filled in with the player's saved passwords and TLS
files (:func:`client.net.address.parse_relay_address`), and, for a LAN game, the search for the
room's relay when the host's program is gone (:mod:`relay.transport.handover`).
"""

from __future__ import annotations

from collections.abc import Sequence

from client.net.address import RelayAddress, parse_relay_address
from protocol.crypto.signing import SigningKey
from protocol.session import PeerSession
from relay.transport.failover import FailoverTransport
from relay.transport.room import Driver, Journal

#: The network interfaces zeroconf announces and browses on (None: all); tests pin the loopback.
LAN_INTERFACES: list[str] | None = None


def relay_transport(
    relays: Sequence[str | RelayAddress | None],
    session: PeerSession,
    peer: str,
    driver: Driver,
    *,
    lan: bool = False,
    key: SigningKey | None = None,
    presence_info: dict[str, object] | None = None,
    journal: Journal | None = None,
) -> FailoverTransport:
    """The transport of a network seat: its relays in order (None: skipped); on a LAN with ``key``, the handover;
    with ``journal``, the seat's own log on its disk (:mod:`client.store.seat_log`), read first and written first."""
    handover = None
    if lan and key is not None:
        from relay.transport.handover import Handover  # zeroconf: loaded for LAN games only

        handover = Handover(session, key, interfaces=LAN_INTERFACES)
    known = [r for r in relays if r is not None]
    return FailoverTransport(
        known,
        session,
        peer,
        driver,
        handover=handover,
        resolve=parse_relay_address,
        presence_info=presence_info,
        journal=journal,
    )
