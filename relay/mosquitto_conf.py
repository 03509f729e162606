"""The shipped Mosquitto configuration, re-pointed at other ports and directories.

Tests and the load benchmark run the real ``mosquitto`` binary with *the same* configuration
operators get (``relay/mosquitto/sealed-table.conf``), changed only where a test must differ:
the ports, the persistence directory, the ACL path, and TLS left out.
"""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent / "mosquitto"
CONF = HERE / "sealed-table.conf"
ACL = HERE / "sealed-table.acl"


def render(
    port: int,
    data_dir: Path,
    *,
    ws_port: int | None = None,
    bind: str = "127.0.0.1",
    acl: Path = ACL,
    autosave_interval: int | None = None,
) -> str:
    """The operator configuration with its listeners on ``bind:port`` (and ``ws_port``) and storage in ``data_dir``."""
    out: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        out.append("# running as root (tests): stay root instead of dropping to the mosquitto user")
        out.append("user root")
    for line in CONF.read_text().splitlines():
        word = line.split(" ", 1)[0]
        if word == "listener":
            default = line.split()[1]
            if default == "1883":
                out.append(f"listener {port} {bind}")
            elif default == "8083" and ws_port is not None:
                out.append(f"listener {ws_port} {bind}")
            else:
                out.append("# (listener left out)")
                out.append("#skip-protocol")
            continue
        if word == "protocol" and out and out[-1] == "#skip-protocol":
            out[-1] = "# (protocol of the left-out listener)"
            continue
        if word == "acl_file":
            out.append(f"acl_file {acl}")
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
    path.write_text(render(port, data_dir, **kwargs))  # type: ignore[arg-type]
    return path
