"""Probing a relay before anything else: within seconds, "nobody listens there" told apart from "not a relay"."""

from __future__ import annotations

from client.net.address import RelayAddress
from client.net.errors import relay_failure
from relay import probe as _probe
from relay.errors import RelayError

PROBE_TIMEOUT = 4.0


async def probe_relay(address: RelayAddress, timeout: float = PROBE_TIMEOUT) -> None:
    """Check that an MQTT broker answers at ``address`` (any scheme, its login); NetError with the reason if not."""
    try:
        await _probe.probe(address, timeout)
    except RelayError as exc:
        raise relay_failure(exc, address) from None
