"""A Mosquitto with the shipped configuration's TLS, WebSocket and login switched on, as an operator would.

The test makes its own CA and server certificate (with ``cryptography``), a second CA the
relay's certificate is not signed by, and a password file with ``mosquitto_passwd``; and a Mosquitto
whose TLS listeners ask every client for a certificate signed by the test's CA (one is made for it).
"""

from __future__ import annotations

import datetime
import ipaddress
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.relay.helpers import BrokerProcess, free_port

USER, PASSWORD = "alice", "s3cret-Pa55"


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _write_key(key: ec.EllipticCurvePrivateKey, path: Path) -> None:
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )


def make_ca(directory: Path, name: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(name))
        .issuer_name(_name(name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(key, hashes.SHA256())
    )
    path = directory / f"{name}.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return key, cert, path


def make_server_cert(
    directory: Path, ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate, name: str = "server"
) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1 signed by the CA (a server's, or a client's: ``name``)."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    cert_path, key_path = directory / f"{name}.pem", directory / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    _write_key(key, key_path)
    return cert_path, key_path


@dataclass
class SecureRelay:
    broker: BrokerProcess
    tls_port: int
    ws_port: int
    ca_file: Path
    wrong_ca_file: Path
    #: MQTT over secure WebSocket (``wss://…/mqtt``).
    wss_port: int = 0
    #: A client certificate (and its key) signed by the relay's CA, for a relay that asks for one.
    client_cert: Path | None = None
    client_key: Path | None = None

    @property
    def plain(self) -> str:
        return f"mqtt://{USER}:{PASSWORD}@127.0.0.1:{self.broker.port}"

    @property
    def tls(self) -> str:
        return f"mqtts://{USER}:{PASSWORD}@127.0.0.1:{self.tls_port}"

    @property
    def ws(self) -> str:
        return f"ws://{USER}:{PASSWORD}@127.0.0.1:{self.ws_port}/mqtt"


def secure_mosquitto(binary: str, tmp: Path) -> SecureRelay:
    from relay.broker.mosquitto_config import write

    _, _, _, ca_file, wrong_ca, certfile, keyfile = _certs(tmp)
    passwd = tmp / "passwd"
    passwd_tool = str(Path(binary).with_name("mosquitto_passwd"))
    if not Path(passwd_tool).exists():
        passwd_tool = "mosquitto_passwd"
    subprocess.run([passwd_tool, "-b", "-c", str(passwd), USER, PASSWORD], check=True, capture_output=True)
    passwd.chmod(0o644)
    port, tls_port, ws_port, wss_port = free_port(), free_port(), free_port(), free_port()
    conf = write(
        tmp / "mosquitto-secure.conf",
        port,
        tmp / "mosquitto-data",
        ws_port=ws_port,
        tls_port=tls_port,
        wss_port=wss_port,
        certfile=certfile,
        keyfile=keyfile,
        password_file=passwd,
    )
    broker = BrokerProcess([binary, "-c", str(conf)], port, tmp / "mosquitto.log", "mosquitto")
    return SecureRelay(broker, tls_port, ws_port, ca_file, wrong_ca, wss_port)


def _certs(tmp: Path) -> tuple[Path, ec.EllipticCurvePrivateKey, x509.Certificate, Path, Path, Path, Path]:
    """The test's CA, another CA nobody trusts, and a server certificate of the first, under ``tmp/certs``."""
    certs = tmp / "certs"
    certs.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert, ca_file = make_ca(certs, "test-ca")
    _, _, wrong_ca = make_ca(certs, "other-ca")
    certfile, keyfile = make_server_cert(certs, ca_key, ca_cert)
    return certs, ca_key, ca_cert, ca_file, wrong_ca, certfile, keyfile


def client_certificate_mosquitto(binary: str, tmp: Path) -> SecureRelay:
    """The shipped configuration with its TLS listeners asking every client for a certificate of the test's CA.

    Anonymous (no password file): only the certificate is asked for.  ``client_cert`` is one the relay accepts.
    """
    from relay.broker.mosquitto_config import render

    certs, ca_key, ca_cert, ca_file, wrong_ca, certfile, keyfile = _certs(tmp)
    client_cert, client_key = make_server_cert(certs, ca_key, ca_cert, "client")
    port, tls_port, ws_port, wss_port = free_port(), free_port(), free_port(), free_port()
    text = render(
        port,
        tmp / "mosquitto-data",
        ws_port=ws_port,
        tls_port=tls_port,
        wss_port=wss_port,
        certfile=certfile,
        keyfile=keyfile,
    )
    (tmp / "mosquitto-data").mkdir(parents=True, exist_ok=True)
    # After each TLS listener's key: the CA its clients' certificates must be signed by, and the demand.
    asked = f"keyfile {keyfile}\ncafile {ca_file}\nrequire_certificate true"
    conf = tmp / "mosquitto-client-cert.conf"
    conf.write_text(text.replace(f"keyfile {keyfile}", asked))
    broker = BrokerProcess([binary, "-c", str(conf)], port, tmp / "mosquitto.log", "mosquitto")
    return SecureRelay(broker, tls_port, ws_port, ca_file, wrong_ca, wss_port, client_cert, client_key)
