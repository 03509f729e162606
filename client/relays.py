"""A relay address as the player typed it, and the transport a network seat plays through.

Below both :mod:`client.net` (hosting, joining, discovery) and :mod:`client.net_game` (a seat at
the table), so that the seat can move to another relay without importing the module that made it.
"""

from __future__ import annotations

from typing import Any

from relay import address as _address
from relay.errors import RelayError

from .i18n import tr


class NetError(Exception):
    """A network failure with a message id (``net.<code>``) for the player."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def message(self) -> str:
        return tr(f"net.{self.code}", **self.params)


#: The one relay address of the program and the headless peer (``mqtt://``, ``mqtts://``, ``ws://``,
#: ``wss://``, ``user[:password]@``); ``str()`` of it never shows the password.
RelayAddress = _address.RelayAddress

#: Relay options this user keeps (passwords from their 0600 file, TLS files), by address without
#: password; set by :func:`use_relay_settings`, plus the passwords typed since the program started.
_KNOWN: dict[str, dict[str, str]] = {}


def use_relay_settings(options: dict[str, dict[str, str]]) -> None:
    """Passwords and TLS files per relay (``str(address)`` → options) that :func:`parse_relay_address` fills in."""
    for key, values in options.items():
        _KNOWN.setdefault(key, {}).update({k: v for k, v in values.items() if v})


def parse_relay_address(text: str | RelayAddress) -> RelayAddress:
    """Any relay address form; NetError("bad-address") otherwise (the message never shows a password).

    A password typed once is remembered for the session, so the address can travel as a string
    without it; a saved password and the relay's TLS files are filled in from :func:`use_relay_settings`.
    """
    try:
        address = _address.parse_address(text)
    except RelayError:
        raise NetError("bad-address", address=_address.redact(str(text))) from None
    known = _KNOWN.setdefault(str(address), {})
    if address.password is not None:
        known["password"] = address.password
    fill = {
        k: known[k]
        for k in ("password", "ca_file", "cert_file", "key_file")
        if known.get(k) and not getattr(address, k)
    }
    if fill.get("password") is not None and address.username is None:
        fill.pop("password")
    return address.with_options(**fill) if fill else address


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
    from relay.failover import FailoverTransport

    handover = None
    if lan and key is not None:
        from relay.handover import Handover

        handover = Handover(session, key, interfaces=LAN_INTERFACES)
    known = [r for r in relays if r is not None]
    return FailoverTransport(
        known, session, peer, driver, handover=handover, resolve=parse_relay_address, presence_info=presence_info
    )
