"""Does a relay keep retained messages?  What the program knows of it, in one place every client asks.

Most relays keep retained messages, and the program uses them: the relay's copy of a room's log,
notices, presence and lobby cards is how a late or restarted seat catches up while the others are
away.  Some brokers keep none (Mosquitto's ``retain_available false`` even *disconnects* a client
that publishes one, its last will included).  On such a relay the program runs "live only"
(issue 25, item 3c): :class:`relay.mqtt.RelayClient` publishes nothing with the retain flag (and
drops the publications that would only clear a retained copy), the transport's read-back markers
are sent after subscribing, and the seats serve each other what is missing
(:mod:`relay.transport.wants`; the lobby's host publishes its card and seat list again, live).

What is known comes from the broker table (:mod:`relay.public`: a row whose ``retain`` is ``off``)
or is learnt once per process by asking the relay (:func:`relay.retained_probe.learn_retained`,
called before a room or a lobby connection is opened on an address not known yet).
"""

from __future__ import annotations

from relay.address import RelayAddress
from relay.public import RETAIN_OFF, broker_of

#: What was learnt by asking, per relay (scheme, host, port): True when it kept a retained message.
_LEARNT: dict[tuple[str, str, int], bool] = {}


def _key(address: RelayAddress) -> tuple[str, str, int]:
    return (address.scheme, address.host.lower(), address.port)


def known(address: RelayAddress) -> bool | None:
    """True (keeps them), False (keeps none: live only) or None (not known yet: taken to keep them)."""
    learnt = _LEARNT.get(_key(address))
    if learnt is not None:
        return learnt
    row = broker_of(str(address))
    return None if row is None else row.retain != RETAIN_OFF


def retains(address: RelayAddress) -> bool:
    """Whether a client of ``address`` may publish with the retain flag (anything not known to refuse it may)."""
    return known(address) is not False


def learn(address: RelayAddress, kept: bool) -> None:
    """Record what the relay at ``address`` did with a retained message (:mod:`relay.retained_probe`)."""
    _LEARNT[_key(address)] = kept


def forget(address: RelayAddress | None = None) -> None:
    """Forget what was learnt (of ``address``, or of every relay): a relay restarted with another configuration."""
    if address is None:
        _LEARNT.clear()
    else:
        _LEARNT.pop(_key(address), None)
