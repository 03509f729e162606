"""One way to write a relay address, for the desktop program, the headless peer and every relay module.

Friends meet on relays they do not run: a Mosquitto behind TLS and a login, a hosted broker, a
WebSocket endpoint behind a web server.  The address follows the MQTT URI conventions:

- ``host``, ``host:port``, ``[v6]:port``, ``mqtt://host[:port]`` — plain MQTT (port 1883);
- ``mqtts://host[:port]`` — MQTT over TLS (port 8883);
- ``ws://host[:port][/path]`` and ``wss://...`` — MQTT over WebSocket (ports 80 / 443, path ``/mqtt``);
- ``user[:password]@`` before the host, for relays that need a login.

TLS checks the relay's certificate against the system's trust store unless a CA file is given;
a client certificate and key are options too.  The password is a secret of its owner: it is in
no ``str()`` or ``repr()`` of an address, in no error message, and never in a lobby card.
"""

from __future__ import annotations

import re
import secrets
import socket
import ssl
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from relay.errors import RelayError

if TYPE_CHECKING:  # imported where a client is made: parsing an address needs no MQTT library
    import aiomqtt

#: Default ports by scheme, and the schemes (and their aliases) we understand.
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
_ALIASES = {"tcp": "mqtt", "ssl": "mqtts", "tls": "mqtts"}
DEFAULT_WS_PATH = "/mqtt"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
#: MQTT 3.1.1 promises only identifiers of 1-23 letters and digits (hosted EMQX refuses longer ones).
MAX_CLIENT_ID = 23
#: Without it, Nagle's algorithm holds our PUBACKs and entries behind the broker's delayed ACKs:
#: 40 ms per entry instead of well under one.
NODELAY = (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class AddressError(RelayError):
    """An address that cannot be read (the message shows it without its password)."""


@dataclass(frozen=True)
class RelayAddress:
    """A parsed relay address with its connection options; ``str()`` never shows the password."""

    host: str
    port: int = DEFAULT_PORTS["mqtt"]
    scheme: str = "mqtt"
    #: WebSocket path (``/mqtt`` unless the address says otherwise); empty for MQTT over TCP.
    path: str = ""
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    #: A CA certificate file to trust instead of the system's trust store (TLS only).
    ca_file: str | None = None
    #: A client certificate (and its key, if not in the same file), for relays that ask for one.
    cert_file: str | None = None
    key_file: str | None = None

    @property
    def tls(self) -> bool:
        return self.scheme in ("mqtts", "wss")

    @property
    def websocket(self) -> bool:
        return self.scheme in ("ws", "wss")

    @property
    def hostport(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def __str__(self) -> str:
        """The address to show, log or put in a lobby card: the user name stays, the password never."""
        if self.scheme == "mqtt" and self.username is None:
            return self.hostport
        user = f"{quote(self.username, safe='')}@" if self.username is not None else ""
        return f"{self.scheme}://{user}{self.hostport}{self.path if self.websocket else ''}"

    def with_options(self, **changes: object) -> RelayAddress:
        """The same address with other options (``password=``, ``ca_file=`` ...)."""
        return replace(self, **changes)  # type: ignore[arg-type]  # replace() refuses a name that is no field

    def ssl_context(self) -> ssl.SSLContext | None:
        """The TLS context for this address (None for plain connections); a clear error for unreadable files."""
        if not self.tls:
            return None
        try:
            context = ssl.create_default_context(cafile=self.ca_file or None)
        except (OSError, ssl.SSLError) as exc:
            raise AddressError(f"cannot use the CA file {self.ca_file!r}: {_reason(exc)}") from None
        if self.cert_file:
            try:
                context.load_cert_chain(self.cert_file, self.key_file or None)
            except (OSError, ssl.SSLError) as exc:
                raise AddressError(f"cannot use the client certificate {self.cert_file!r}: {_reason(exc)}") from None
        return context


def _reason(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc)


def redact(text: str) -> str:
    """``text`` with the password of any ``user:password@`` replaced by ``***`` (for error messages)."""
    return re.sub(r"(^|//)([^/@:\s]*):[^/@\s]*@", r"\1\2:***@", text.strip())


def parse_address(
    text: str | RelayAddress,
    *,
    ca_file: str | None = None,
    cert_file: str | None = None,
    key_file: str | None = None,
) -> RelayAddress:
    """Read a relay address (see the module); options given here fill what the text does not say.

    An address that is already parsed comes back as it is (with the options added): every relay
    function takes either form, so the password travels in the object and never through a string.
    """
    address = text if isinstance(text, RelayAddress) else _parse(text)
    options = {"ca_file": ca_file, "cert_file": cert_file, "key_file": key_file}
    extra = {k: v for k, v in options.items() if v and not getattr(address, k)}
    return address.with_options(**extra) if extra else address


def _parse(text: str) -> RelayAddress:
    raw = text.strip()
    shown = redact(raw)
    if not raw:
        raise AddressError("no relay address given")
    scheme = "mqtt"
    match = _SCHEME.match(raw)
    if match:
        scheme = match.group(1).lower()
        scheme = _ALIASES.get(scheme, scheme)
        if scheme not in DEFAULT_PORTS:
            raise AddressError(
                f"relay address {shown!r}: {match.group(1)!r} is not a relay scheme (use mqtt://, mqtts://, ws:// or wss://)"
            )
        raw = raw[match.end() :]
    authority, slash, path = raw.partition("/")
    path = slash + path
    username = password = None
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
        user, colon, secret = userinfo.partition(":")
        username = unquote(user)
        password = unquote(secret) if colon else None
        if not username:
            raise AddressError(f"relay address {shown!r} has an empty user name before '@'")
    host, port = _host_port(authority, scheme, shown)
    if scheme in ("ws", "wss"):
        path = path if path not in ("", "/") else DEFAULT_WS_PATH
    elif path not in ("", "/"):
        raise AddressError(f"relay address {shown!r}: only ws:// and wss:// addresses have a path")
    else:
        path = ""
    return RelayAddress(host, port, scheme, path, username, password)


def _host_port(authority: str, scheme: str, shown: str) -> tuple[str, int]:
    port_text = ""
    if authority.startswith("["):
        host, end, rest = authority[1:].partition("]")
        if not end or (rest and not rest.startswith(":")):
            raise AddressError(f"relay address {shown!r}: an IPv6 address is written [address]:port")
        port_text = rest[1:]
    elif authority.count(":") == 1:
        host, port_text = authority.split(":")
    else:
        host = authority  # a host name, or an IPv6 address without a port
    if not host or any(c.isspace() for c in host):
        raise AddressError(f"relay address {shown!r} has no host name")
    if not port_text:
        return host, DEFAULT_PORTS[scheme]
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise AddressError(f"{port_text!r} is not a port number (1-65535) in relay address {shown!r}")
    return host, int(port_text)


def client_id(kind: str = "") -> str:
    """A fresh MQTT client identifier: at most 23 letters and digits, as every broker accepts.

    ``kind`` (letters and digits, cut to 6) tells an operator's log what connected: ``st`` + kind + random.
    """
    tag = "".join(c for c in kind if c.isascii() and c.isalnum())[:6]
    return f"st{tag}{secrets.token_hex(7)}"[:MAX_CLIENT_ID]


def mqtt_client(address: RelayAddress, kind: str = "", **options: object) -> aiomqtt.Client:
    """An ``aiomqtt.Client`` for ``address``: the right transport, TLS context, login and client id.

    ``options`` go to aiomqtt (keepalive, will, timeout ...).  MQTT 3.1.1, clean session.
    """
    import aiomqtt

    kwargs: dict[str, object] = {
        "identifier": client_id(kind),
        "protocol": aiomqtt.ProtocolVersion.V311,
        "clean_session": True,
        "socket_options": [NODELAY],
        "username": address.username,
        "password": address.password,
        "tls_context": address.ssl_context(),
    }
    if address.websocket:
        kwargs["transport"] = "websockets"
        kwargs["websocket_path"] = address.path or DEFAULT_WS_PATH
    kwargs.update(options)
    return aiomqtt.Client(address.host, address.port, **kwargs)  # type: ignore[arg-type]  # each option of its own type
