"""Public relays in the lobby's internet section: offered by default, a room opened on the first that answers.

A player with no relay of their own plays over the internet on public MQTT brokers
(:mod:`relay.public`, its table and limits).  The internet section's relay box offers the relays
the player used (kept in their settings) and then the public relays as one line, ``first,
fallback, …``: opening a room there probes them in that order and opens the room on the first that
answers, with every other as a fallback (the invitation carries them), so one broker's outage moves
the game to the next (:mod:`relay.transport.failover`).

Only the internet section calls this module: a local game needs no relay, and a LAN game uses the
relay its host's program runs; neither contacts a public broker (``tests/client/net/test_public.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import aiomqtt

from client.net.address import RelayAddress, parse_relay_address
from client.net.errors import NetError, relay_failure
from client.net.probe import probe_relay
from relay.errors import RelayError
from relay.lobby.invitation import MAX_FALLBACKS
from relay.public import RETAIN_OFF, broker_of, public_relays
from relay.retained_probe import keeps_retained


def public_line() -> str:
    """The public relays as the relay box writes a relay and its fallbacks (at most what an invitation carries)."""
    return ", ".join(public_relays()[: 1 + MAX_FALLBACKS])


def offered_relays(remembered: Sequence[str]) -> list[str]:
    """The relay box's choices: the relays this player used (most recent first), then the public relays.

    With none used yet, the public line is the first choice, so "Open a room" works at once.
    """
    line = public_line()
    return [*remembered, line] if line and line not in remembered else list(remembered)


async def playable(relay: RelayAddress) -> None:
    """Check that a room can be opened on ``relay``: it answers, and it keeps retained messages.

    NetError with the reason otherwise: a relay that keeps no retained messages is learnt from the
    table (:mod:`relay.public`) or by noticing (:mod:`relay.retained_probe`), and named so.
    """
    known = broker_of(str(relay))
    if known is not None and known.retain == RETAIN_OFF:
        raise NetError("no-retain", address=str(relay))
    await probe_relay(relay)
    try:
        kept = await keeps_retained(relay)
    except (aiomqtt.MqttError, RelayError, OSError) as exc:
        raise relay_failure(exc, relay) from None
    if not kept:
        raise NetError("no-retain", address=str(relay))


async def first_answering(
    relays: Sequence[RelayAddress], probe: Callable[[RelayAddress], Awaitable[None]] = playable
) -> tuple[RelayAddress, tuple[str, ...]]:
    """The first of ``relays`` a room can be opened on (tried in order) and the others as its fallbacks.

    The fallbacks keep the list's order (those before the one that answered come last: they may be
    back by the time the game needs them).  NetError of the last relay tried when none answers.
    """
    if not relays:
        raise NetError("bad-address", address="")
    failure: NetError | None = None
    for index, relay in enumerate(relays):
        try:
            await probe(relay)
        except NetError as exc:
            failure = exc
            continue
        others = [*relays[index + 1 :], *relays[:index]]
        return relay, tuple(str(parse_relay_address(r)) for r in others)
    assert failure is not None
    raise failure
