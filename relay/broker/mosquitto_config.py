"""The shipped Mosquitto configuration, re-pointed at other ports and directories.

Tests and the load benchmark run the real ``mosquitto`` binary with *the same* configuration
operators get (``relay/broker/mosquitto/sealed-table.conf``), changed only where a test must differ:
the ports, the persistence directory, the ACL path, and the test's own certificates and logins.
"""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent / "mosquitto"
CONF = HERE / "sealed-table.conf"
ACL = HERE / "sealed-table.acl"


def render(  # noqa: C901 (tests/test_complexity.py)
    port: int,
    data_dir: Path,
    *,
    ws_port: int | None = None,
    tls_port: int | None = None,
    wss_port: int | None = None,
    certfile: Path | None = None,
    keyfile: Path | None = None,
    password_file: Path | None = None,
    bind: str = "127.0.0.1",
    acl: Path = ACL,
    autosave_interval: int | None = None,
) -> str:
    """The operator configuration re-pointed: listeners on ``bind`` and the ports given, storage in ``data_dir``.

    ``tls_port`` / ``wss_port`` switch on the commented-out TLS listeners (with ``certfile`` and
    ``keyfile``), exactly as an operator would; ``password_file`` switches logins on (and
    anonymous clients off).  Listeners without a port are left out.
    """
    ports = {"1883": port, "8083": ws_port, "8883": tls_port, "8084": wss_port}
    out: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        out.append("# running as root (tests): stay root instead of dropping to the mosquitto user")
        out.append("user root")
    keep = True  # inside a listener block that is kept
    for raw in CONF.read_text(encoding="utf-8").splitlines():
        line = raw
        if line.startswith("#") and line[1:2].isalpha():  # a commented-out setting: switched on below if asked
            setting = line[1:]
            word = setting.split(" ", 1)[0]
            listener_part = word in ("protocol", "certfile", "keyfile", "tls_version") and keep
            if word == "listener" or listener_part or (word == "password_file" and password_file is not None):
                line = setting
        word = line.split(" ", 1)[0]
        if word == "listener":
            wanted = ports.get(line.split()[1])
            keep = wanted is not None
            out.append(f"listener {wanted} {bind}" if keep else "# (listener left out)")
            continue
        if word in ("protocol", "certfile", "keyfile", "tls_version"):
            if not keep:
                continue
            if word == "certfile" and certfile is not None:
                line = f"certfile {certfile}"
            elif word == "keyfile" and keyfile is not None:
                line = f"keyfile {keyfile}"
            out.append(line)
            continue
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        if word == "acl_file":
            out.append(f"acl_file {acl}")
        elif word == "password_file":
            out.append(f"password_file {password_file}")
        elif word == "allow_anonymous" and password_file is not None:
            out.append("allow_anonymous false")
        elif word == "persistence_location":
            out.append(f"persistence_location {str(data_dir).rstrip('/')}/")
        elif word == "autosave_interval" and autosave_interval is not None:
            out.append(f"autosave_interval {autosave_interval}")
        elif word == "log_dest":
            out.append("log_dest stdout")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def write(path: Path, port: int, data_dir: Path, **kwargs: object) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(render(port, data_dir, **kwargs), encoding="utf-8")  # type: ignore[arg-type]  # render()'s options, passed on
    return path
