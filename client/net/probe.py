"""Probing a relay before anything else: within seconds, "nobody listens there" told apart from "not a relay"."""

from __future__ import annotations

from client.net.address import RelayAddress
from client.net.errors import NetError
from relay import errors as _errors
from relay import probe as _probe
from relay.errors import RelayError

PROBE_TIMEOUT = 4.0


# -- probing a relay -----------------------------------------------------------
#: The relay layer's failures of a probe, as message ids (most particular first).
_PROBE_ERRORS = (
    ("NotTrusted", "not-trusted"),
    ("WrongLogin", "wrong-login"),
    ("LoginNeeded", "login-needed"),
    ("NotAWebSocket", "not-websocket"),
    ("WrongTransport", "wrong-transport"),
    ("NameNotFound", "no-such-name"),
)


async def probe_relay(address: RelayAddress, timeout: float = PROBE_TIMEOUT) -> None:
    """Check that an MQTT broker answers at ``address`` (any scheme, its login); NetError with the reason if not."""
    try:
        await _probe.probe(address, timeout)
    except RelayError as exc:
        for name, code in _PROBE_ERRORS:
            if isinstance(exc, getattr(_errors, name)):
                raise NetError(code, address=str(address), reason=str(exc)) from None
        if isinstance(exc, _errors.RelayUnreachable):
            code = "timeout" if "within" in str(exc) else "unreachable"
            raise NetError(code, address=str(address)) from None
        if isinstance(exc, _errors.NotARelay):
            raise NetError("not-a-relay", address=str(address)) from None
        raise NetError("relay-failed", address=str(address), reason=str(exc)) from None
