"""Check, within a few seconds, that an address is an MQTT broker — before a client trusts it.

aiomqtt's own errors for a wrong port, a TLS port, a web server or a missing login are slow
(a connect that waits for its timeout) or cryptic ("code 5").  A probe that sends one MQTT
3.1.1 CONNECT — over TCP, TLS, WebSocket or secure WebSocket, with the address's login —
and expects a CONNACK turns every failure into one sentence:

- the name does not resolve / nobody answers (refused, or no answer in time);
- the certificate is not trusted; the relay asks for a client certificate;
- the scheme does not fit the port: a TLS server answered plain bytes, a web server answered a
  CONNECT, a broker hung up on a WebSocket upgrade, a TLS handshake led to HTTP.  What was heard
  does not say which scheme would work, so the port is asked in the others (:mod:`relay.schemes`)
  and the hint names the one that answers; where none does, it says what answered instead;
- this is a web server, not an MQTT WebSocket endpoint;
- the relay needs a login / wrong password;
- something answers, but not as an MQTT broker.

The password goes into the CONNECT packet only, over the scheme its address says; no message here
ever shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl

from relay.address import DEFAULT_WS_PATH, RelayAddress, client_id, parse_address
from relay.errors import (
    CertificateNeeded,
    LoginNeeded,
    NameNotFound,
    NotARelay,
    NotAWebSocket,
    NotTrusted,
    RelayError,
    RelayTimedOut,
    RelayUnreachable,
    WrongLogin,
    WrongTransport,
)
from relay.schemes import SAID, address_in, answering_scheme
from relay.wire import DISCONNECT, connect_packet, is_connack, read_ws_payload, upgrade_request, ws_frame

DEFAULT_PORT = 1883
#: How long, at most, the port is asked in the other schemes once the address's own did not fit.
OTHER_SCHEMES_S = 3.0

#: TLS alerts by which a relay asks for a client certificate (TLS 1.3 says so; TLS 1.2 only fails the handshake).
CERTIFICATE_REQUIRED = "TLSV13_ALERT_CERTIFICATE_REQUIRED"
HANDSHAKE_FAILURE = "SSLV3_ALERT_HANDSHAKE_FAILURE"
#: TLS alerts by which a relay refuses the client certificate it was given.
CERTIFICATE_REFUSED = frozenset(
    {
        "TLSV1_ALERT_UNKNOWN_CA",
        "TLSV1_ALERT_ACCESS_DENIED",
        "SSLV3_ALERT_BAD_CERTIFICATE",
        "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
        "SSLV3_ALERT_CERTIFICATE_EXPIRED",
        "SSLV3_ALERT_CERTIFICATE_REVOKED",
        "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE",
    }
)

__all__ = ["DEFAULT_PORT", "connect_packet", "parse_address", "probe"]


class _Handshake:
    """What the TLS handshake showed: whether the relay asked for a client certificate.

    A relay that demands one closes the connection after the handshake; its alert that says why
    (TLS 1.3) can be lost when our CONNECT meets the closed socket and the reset discards it, and TLS
    1.2 only fails the handshake.  The certificate request itself is in the handshake: CPython's
    debugging hook for TLS messages (``SSLContext._msg_callback``) shows it; where it is missing,
    only the alert's reason tells.
    """

    #: TLS content type "handshake" and handshake message "CertificateRequest" (RFC 8446, RFC 5246).
    HANDSHAKE, CERTIFICATE_REQUEST = 22, 13

    def __init__(self, context: ssl.SSLContext | None) -> None:
        self.certificate_asked = False
        if context is not None and hasattr(context, "_msg_callback"):
            setattr(context, "_msg_callback", self._message)  # noqa: B010 (a hook typeshed does not declare)

    def _message(
        self, _conn: object, direction: str, _version: object, kind: object, message: object, _data: object
    ) -> None:
        if direction == "read" and kind == self.HANDSHAKE and message == self.CERTIFICATE_REQUEST:
            self.certificate_asked = True

    def refused(self, address: RelayAddress) -> CertificateNeeded | None:
        """The connection ended after a handshake in which the relay asked for a certificate: that is why."""
        if not self.certificate_asked:
            return None
        if address.cert_file:
            return CertificateNeeded(
                f"the relay {address} asks for a client certificate and did not accept {address.cert_file!r}"
            )
        return CertificateNeeded(f"the relay {address} asks for a client certificate, and none was given")


class _Misheard(Exception):
    """Something answered, but not in the address's scheme: the port is asked in the others.

    ``fallback`` is the sentence when none of them answers either (it says what answered instead).
    """

    def __init__(self, fallback: RelayError) -> None:
        super().__init__(str(fallback))
        self.fallback = fallback


async def probe(address: RelayAddress | str, timeout: float = 4.0) -> None:
    """Return if the relay answers an MQTT CONNECT with a CONNACK; raise a clear :class:`RelayError` if not."""
    address = parse_address(address)
    try:
        await _ask(address, timeout)
    except _Misheard as misheard:
        found = await answering_scheme(address, min(timeout, OTHER_SCHEMES_S))
        if found is None:
            raise misheard.fallback from None
        raise WrongTransport(_hint(address, found)) from None


def _hint(address: RelayAddress, found: str) -> str:
    """The sentence for an address whose port speaks MQTT in the scheme ``found``, not in its own."""
    where, port = str(address), address.port
    if address.tls and found in ("mqtt", "ws"):
        heard = f"{where} does not speak TLS on port {port}"
    elif not address.tls and found in ("mqtts", "wss"):
        heard = f"{where} speaks TLS on port {port}"
    else:
        heard = f"{where} does not answer as {SAID[address.scheme]} on port {port}"
    return f"{heard}; {SAID[found]} answers there: use {address_in(address, found)}"


async def _ask(address: RelayAddress, timeout: float) -> None:
    """One CONNECT in the address's own scheme, with its login; :class:`_Misheard` when another scheme may fit."""
    where = str(address)
    reader, writer, handshake = await _open(address, timeout)
    try:
        try:
            if address.websocket:
                await _websocket_upgrade(address, reader, writer, timeout, handshake)
            packet = connect_packet(client_id("probe"), address.username, address.password)
            writer.write(ws_frame(packet) if address.websocket else packet)
            await writer.drain()
            answer = read_ws_payload(reader) if address.websocket else reader.readexactly(4)
            head = await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            if address.websocket:  # a WebSocket was opened: the scheme fits, the server is no broker
                raise NotARelay(f"{where} opened a WebSocket but did not answer as an MQTT broker") from None
            raise _Misheard(NotARelay(f"{where} accepted a connection but did not answer as an MQTT broker")) from None
        except ssl.SSLError as exc:
            refused = _tls_refused(address, exc) or handshake.refused(address)
            if refused is not None:
                raise refused from None
            raise _Misheard(NotARelay(f"{where} broke off TLS at our CONNECT: it is not an MQTT broker")) from None
        except (asyncio.IncompleteReadError, ConnectionError):
            refused = handshake.refused(address)
            if refused is not None:
                raise refused from None
            if address.websocket:
                raise NotARelay(f"{where} closed the WebSocket at our CONNECT: it is not an MQTT broker") from None
            raise _Misheard(NotARelay(f"{where} closed the connection: it is not an MQTT broker")) from None
        _check_answer(address, head)
        writer.write(ws_frame(DISCONNECT) if address.websocket else DISCONNECT)
        with contextlib.suppress(OSError):
            await writer.drain()
    except OSError as exc:
        raise NotARelay(f"{where} broke the connection ({exc.strerror or exc}): it is not an MQTT broker") from None
    finally:
        writer.close()
        with contextlib.suppress(OSError, ssl.SSLError):
            await writer.wait_closed()


def _tls_refused(address: RelayAddress, exc: ssl.SSLError) -> CertificateNeeded | None:
    """The relay's TLS alert as a sentence when it is about our client certificate (none given, or refused)."""
    where = str(address)
    if address.cert_file and exc.reason in CERTIFICATE_REFUSED:
        return CertificateNeeded(
            f"the relay {where} asks for a client certificate and did not accept {address.cert_file!r} ({exc.reason})"
        )
    if exc.reason == CERTIFICATE_REQUIRED:
        return CertificateNeeded(f"the relay {where} asks for a client certificate, and none was given")
    if exc.reason == HANDSHAKE_FAILURE and not address.cert_file:
        return CertificateNeeded(
            f"the relay {where} refused the TLS handshake: it asks for a client certificate, and none was given"
        )
    return None


async def _open(address: RelayAddress, timeout: float) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, _Handshake]:
    where = str(address)
    context = address.ssl_context()
    handshake = _Handshake(context)
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                address.host, address.port, ssl=context, server_hostname=address.host if context else None
            ),
            timeout,
        )
        return reader, writer, handshake
    except TimeoutError:
        raise RelayTimedOut(
            f"relay {where}: nobody answers within {timeout:g} s (wrong address, or a firewall)"
        ) from None
    except socket.gaierror:
        raise NameNotFound(f"the name {address.host!r} does not resolve (check the spelling)") from None
    except ConnectionRefusedError:
        raise RelayUnreachable(
            f"relay {where}: nobody answers (it refused the connection: nothing listens on port {address.port})"
        ) from None
    except ssl.SSLCertVerificationError as exc:
        raise NotTrusted(
            f"the certificate of {where} is not trusted ({exc.verify_message or exc.reason}); "
            "give the relay's CA file if it uses its own"
        ) from None
    except ssl.SSLError as exc:
        refused = _tls_refused(address, exc) or handshake.refused(address)
        if refused is not None:
            raise refused from None
        raise _Misheard(_not_tls(address)) from None
    except (ConnectionError, asyncio.IncompleteReadError):
        if context is not None:
            raise _Misheard(_not_tls(address, ": it closed the connection during the handshake")) from None
        raise RelayUnreachable(f"cannot reach relay {where}: the connection was reset") from None
    except OSError as exc:
        raise RelayUnreachable(f"cannot reach relay {where}: {exc.strerror or exc}") from None


def _not_tls(address: RelayAddress, how: str = "") -> WrongTransport:
    plain = "ws://" if address.websocket else "mqtt://"
    return WrongTransport(
        f"{address} does not speak TLS on port {address.port}{how} (try {plain} or the relay's TLS port)"
    )


def _check_answer(address: RelayAddress, head: bytes) -> None:
    """The answer to our CONNECT: a CONNACK (its return code read), or what else answered."""
    where, port = str(address), address.port
    if not address.websocket and not address.tls and head[:1] == b"\x15":  # a TLS alert to plain bytes
        raise _Misheard(NotARelay(f"{where} speaks TLS on port {port}, but not MQTT (over TLS or secure WebSocket)"))
    if not address.websocket and head.startswith(b"HTTP"):  # a web server read our CONNECT as a request
        over = " over TLS" if address.tls else ""
        raise _Misheard(NotARelay(f"{where} is a web server (it answered HTTP{over}), not an MQTT broker"))
    if not is_connack(head):
        what = "is a WebSocket server, but not an MQTT broker" if address.websocket else "is not an MQTT broker"
        raise NotARelay(f"{where} {what} (it answered {head[:8]!r})")
    _check_connack(address, head)


def _check_connack(address: RelayAddress, head: bytes) -> None:
    where = str(address)
    code = head[3]
    if code == 0:
        return
    if code in (4, 5):
        if address.password is None:
            user = address.username or "user"
            raise LoginNeeded(
                f"the relay {where} needs a login (write the address as "
                f"{address.scheme}://{user}:password@{address.hostport}{address.path})",
                where,
            )
        raise WrongLogin(f"wrong password (or user name {address.username!r}) for the relay {where}", where)
    if code == 2:
        raise RelayError(f"relay {where} refused our client identifier (MQTT return code 2)")
    raise RelayError(f"relay {where} refused us (MQTT return code {code})")


async def _websocket_upgrade(
    address: RelayAddress,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    timeout: float,
    handshake: _Handshake,
) -> None:
    """Ask for the MQTT WebSocket; a web server's refusal is said as such, anything else may be another scheme."""
    where = str(address)
    path = address.path or DEFAULT_WS_PATH
    writer.write(upgrade_request(address))
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except ssl.SSLError as exc:
        refused = _tls_refused(address, exc) or handshake.refused(address)
        raise refused or _Misheard(NotARelay(f"{where} broke off TLS: it is not a WebSocket server")) from None
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError) as exc:
        data = exc.partial if isinstance(exc, asyncio.IncompleteReadError) else b""
        refused = None if data else handshake.refused(address)
        if refused is not None:
            raise refused from None
        if data.startswith(b"HTTP/"):
            raise NotAWebSocket(f"{where} is a web server, not an MQTT WebSocket endpoint") from None
        raise _Misheard(NotARelay(f"{where} closed the connection: it is not a WebSocket server")) from None
    except TimeoutError:
        raise _Misheard(NotARelay(f"{where} accepted a connection but did not answer as a WebSocket server")) from None
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    if not status_line.startswith("HTTP/"):
        raise _Misheard(NotARelay(f"{where} is not a WebSocket server (it answered {status_line[:40]!r})"))
    parts = status_line.split(" ", 2)
    status = parts[1] if len(parts) > 1 else "?"
    if status != "101":
        raise NotAWebSocket(f"{where} is a web server, not an MQTT WebSocket endpoint (HTTP {status} for {path})")
