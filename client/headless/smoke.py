"""The embedded relay and LAN discovery, tried on loopback: what an installed program's self-check runs.

A relay is started on a free port of ``127.0.0.1`` and announced with zeroconf on that address
only (no packet leaves the machine); a browse on the same address must find it by its name, and
an MQTT client must get through to it; the operators' Mosquitto files are read too.  This shows that
the broker, its plugins (amqtt loads them by name) and zeroconf's compiled modules are all in the
installed program, which a bundle can lack.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import aiomqtt

from relay import event_loop
from relay.broker.discovery import browse
from relay.broker.embedded import EmbeddedRelay, RelayConfig
from relay.broker.mosquitto_config import ACL, CONF, render
from relay.topics import ROOT

LOOPBACK = "127.0.0.1"


async def relay_and_discovery(seconds: float = 1.5) -> str:
    """Start, find and reach a relay on loopback; what was seen, or :class:`RuntimeError` saying what failed."""
    name = f"Self-check relay {secrets.token_hex(3)}"
    config = RelayConfig(host=LOOPBACK, port=0, name=name, zeroconf_interfaces=[LOOPBACK])
    async with EmbeddedRelay(config) as relay:
        found = [r for r in await browse(seconds, interfaces=[LOOPBACK]) if r.name == name]
        if not found:
            raise RuntimeError(f"the relay on {relay.address} was not found by LAN discovery")
        async with aiomqtt.Client(LOOPBACK, relay.port, identifier=f"check-{secrets.token_hex(4)}") as client:
            await client.publish(f"{ROOT}/check", b"ping")
        return f"relay on {relay.address}, found on the LAN as {found[0].name!r}"


def relay_check() -> str:
    """:func:`relay_and_discovery` on a loop of its own."""
    return event_loop.run(relay_and_discovery())


def mosquitto_files() -> str:
    """The operators' Mosquitto configuration and ACL are shipped and render (the tests' way of using them)."""
    for path in (CONF, ACL):
        if not path.read_text(encoding="utf-8").strip():
            raise RuntimeError(f"{path} is empty")
    if "listener" not in render(1883, Path("data")):
        raise RuntimeError(f"{CONF} renders without a listener")
    return f"{CONF.name} and {ACL.name} in {CONF.parent}"
