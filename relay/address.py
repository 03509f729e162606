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
import ssl
from dataclasses import dataclass, field, replace
from urllib.parse import SplitResult, quote, unquote, urlsplit

from relay.errors import RelayError

#: Default ports by scheme, and the schemes (and their aliases) we understand.
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
_ALIASES = {"tcp": "mqtt", "ssl": "mqtts", "tls": "mqtts"}
DEFAULT_WS_PATH = "/mqtt"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
#: A bracketed IPv6 address, and maybe a port after it.
_BRACKETED = re.compile(r"\[[^\[\]]*\](:.*)?")
#: What a URL reserves and a typed login may hold: written percent-encoded before the URL is split.
_LOGIN_RESERVED = str.maketrans({"#": "%23", "?": "%3F", "[": "%5B", "]": "%5D"})
#: MQTT 3.1.1 promises only identifiers of 1-23 letters and digits (hosted EMQX refuses longer ones).
MAX_CLIENT_ID = 23


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


def _reason(exc: OSError) -> str:
    """Why a file could not be used, in the words of the system or of OpenSSL."""
    reason = exc.reason if isinstance(exc, ssl.SSLError) else None
    return str(exc.strerror or reason or exc)


def redact(text: str) -> str:
    """``text`` with the password of any ``user:password@`` replaced by ``***`` (for error messages).

    The password is taken to run to the last ``@``, so one holding an ``@`` or a ``/`` is hidden whole.
    """
    return re.sub(r"(^|//)([^/@:\s]*):(?!//)\S*@", r"\1\2:***@", text.strip())


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
    """The address as a URL, read by :func:`urllib.parse.urlsplit` once it is written as one.

    What people type is not always a URL: no scheme (``host:port``), an IPv6 address without
    brackets or port, a password with ``#`` or ``?`` in it.  Those are put in URL form first; the
    login (up to the last ``@`` before the first ``/``) is taken as it stands, so a password is
    never mistaken for a host, a port or a path, nor shown in an error.
    """
    raw = text.strip()
    shown = redact(raw)
    if not raw:
        raise AddressError("no relay address given")
    scheme, rest = _scheme(raw, shown)
    authority, slash, after = rest.partition("/")
    login, at, hostport = authority.rpartition("@")
    if not hostport or any(c.isspace() for c in hostport):
        raise AddressError(f"relay address {shown!r} has no host name")
    if hostport.count(":") > 1 and not hostport.startswith("["):
        hostport = f"[{hostport}]"  # an IPv6 address without a port
    if hostport.startswith("[") and not _BRACKETED.fullmatch(hostport):
        raise AddressError(f"relay address {shown!r}: an IPv6 address is written [address]:port")
    try:
        parts = urlsplit(f"{scheme}://{login.translate(_LOGIN_RESERVED)}{at}{hostport}{slash}{after}")
    except ValueError:  # a bracketed host that is no IP address, or a name that changes under NFKC
        what = "an IPv6 address is written [address]:port" if hostport.startswith("[") else "no host name"
        raise AddressError(f"relay address {shown!r}: {what}") from None
    if not parts.hostname:
        raise AddressError(f"relay address {shown!r} has no host name")
    # The host as written (urlsplit lowers its case): a relay's saved login is found by ``str()``.
    host = hostport[1 : hostport.index("]")] if hostport.startswith("[") else hostport.partition(":")[0]
    username = unquote(parts.username) if parts.username is not None else None
    if at and not username:
        raise AddressError(f"relay address {shown!r} has an empty user name before '@'")
    password = unquote(parts.password) if parts.password is not None else None
    # ``user:pass/word@host``: a '/' ends the host part, so what looked like a port may be a password's start.
    login_cut = not at and "@" in after
    port = _port(hostport.rpartition("]")[2] if hostport.startswith("[") else hostport, scheme, shown, login_cut)
    return RelayAddress(host, port, scheme, _path(parts, shown), username, password)


def _scheme(raw: str, shown: str) -> tuple[str, str]:
    """The scheme (aliases resolved; ``mqtt`` when none is written) and what follows its ``://``."""
    match = _SCHEME.match(raw)
    if match is None:
        return "mqtt", raw
    written = match.group(1)
    scheme = _ALIASES.get(written.lower(), written.lower())
    if scheme not in DEFAULT_PORTS:
        raise AddressError(
            f"relay address {shown!r}: {written!r} is not a relay scheme (use mqtt://, mqtts://, ws:// or wss://)"
        )
    return scheme, raw[match.end() :]


def _port(hostport: str, scheme: str, shown: str, login_cut: bool = False) -> int:
    """The port after the host's ``:`` (the scheme's own when none is written).

    ``login_cut``: an ``@`` follows the first ``/``, so the text after ``:`` may be part of a
    password; the message then does not quote it.
    """
    port_text = hostport.partition(":")[2]
    if not port_text:
        return DEFAULT_PORTS[scheme]
    if not (port_text.isascii() and port_text.isdigit()) or not 0 < int(port_text) < 65536:
        if login_cut:
            raise AddressError(
                f"relay address {shown!r} has no port number after ':' (a '/' in a password is written %2F)"
            )
        raise AddressError(f"{port_text!r} is not a port number (1-65535) in relay address {shown!r}")
    return int(port_text)


def _path(parts: SplitResult, shown: str) -> str:
    """A WebSocket address's path (``/mqtt`` when it names none, its query kept); no other scheme has one."""
    if parts.fragment:
        raise AddressError(f"relay address {shown!r} has a '#' part, which no relay address has")
    if parts.scheme not in ("ws", "wss"):
        if parts.path not in ("", "/") or parts.query:
            raise AddressError(f"relay address {shown!r}: only ws:// and wss:// addresses have a path")
        return ""
    path = parts.path if parts.path not in ("", "/") else DEFAULT_WS_PATH
    return f"{path}?{parts.query}" if parts.query else path


def client_id(kind: str = "") -> str:
    """A fresh MQTT client identifier: at most 23 letters and digits, as every broker accepts.

    ``kind`` (letters and digits, cut to 6) tells an operator's log what connected: ``st`` + kind + random.
    """
    tag = "".join(c for c in kind if c.isascii() and c.isalnum())[:6]
    return f"st{tag}{secrets.token_hex(7)}"[:MAX_CLIENT_ID]
