"""``python -m relay`` / ``sealed-table-relay``: run an embedded Sealed Table relay.

For a LAN party or a small group.  A public relay for many rooms is better served by
Mosquitto with ``relay/broker/mosquitto/sealed-table.conf`` (persistence, ACL, TLS); see
``docs/relay-operators.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from relay import event_loop
from relay.broker.embedded import DEFAULT_MAX_PAYLOAD, RelayConfig, serve_forever


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="sealed-table-relay", description=__doc__)
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--port", type=int, default=1883, help="MQTT TCP port (default 1883; 0 picks a free one)")
    p.add_argument("--ws-port", type=int, default=None, help="also listen for MQTT over WebSocket on this port")
    p.add_argument("--max-payload", type=int, default=DEFAULT_MAX_PAYLOAD, help="largest message in bytes")
    p.add_argument("--max-connections", type=int, default=2000)
    p.add_argument("--name", default="Sealed Table relay", help="name shown to players finding it on the LAN")
    p.add_argument("--no-announce", action="store_true", help="do not announce the relay on the LAN (zeroconf)")
    p.add_argument(
        "--announce-on", action="append", default=None, metavar="IP", help="announce only on this interface address"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="log every broker detail (amqtt debug output)")
    return p.parse_args(argv)


def setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if not verbose:
        for noisy in ("amqtt", "transitions", "websockets", "zeroconf"):
            logging.getLogger(noisy).setLevel(logging.WARNING)


async def run(args: argparse.Namespace) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C arrives as KeyboardInterrupt instead
            loop.add_signal_handler(sig, stop.set)
    config = RelayConfig(
        host=args.host,
        port=args.port,
        ws_port=args.ws_port,
        max_payload=args.max_payload,
        max_connections=args.max_connections,
        advertise=not args.no_announce,
        name=args.name,
        zeroconf_interfaces=args.announce_on,
    )
    await serve_forever(config, stop)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    setup_logging(args.verbose)
    try:
        event_loop.run(run(args))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"sealed-table-relay: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
