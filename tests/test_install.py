"""The program as a player installs it: the wheel in a fresh environment, and the standalone bundle.

The wheel is built from this checkout (``python -m build``: the sdist, then the wheel from the
sdist, so the sdist is shown complete too) and installed with pip into a new virtual environment
in a temporary folder; every program of it then runs from a folder outside the checkout, with no
``PYTHONPATH``, so a file the program reads by a path relative to the checkout, or a file the
wheel does not carry, fails here.  The installed program plays the headless demo (every peer audits
the game fair), its relay and headless peers play a game over real sockets, its self-check finds
every part, and the lobby opens on a real X display.

The bundle (``dist/sealed-table/``, built by ``python -m scripts.bundle``, which ``.ci/run`` runs
before the suite so that the suite's time is the checks' alone) gets the same checks through its
own executable when ``SEALED_TABLE_BUNDLE`` names it; without it those cases are skipped.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.display import TITLE, shows_window

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engines", "protocol", "relay", "client")
BUNDLE_ENV = "SEALED_TABLE_BUNDLE"
#: Package files that the program never reads at run time (the translators' templates, the developers' notes).
NOT_READ = re.compile(r"\.pot$|README\.md$")


@dataclass(frozen=True)
class Installed:
    """One installed program: how to run each of its commands, and where it lives."""

    kind: str
    #: The desktop program (the demo with ``--headless``).
    program: list[str]
    relay: list[str]
    peer: list[str]
    verify: list[str]
    check: list[str]
    #: The folder the program is installed in (the environment, or the bundle's own).
    root: Path


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a player's shell: no checkout on the path, the player's folders in ``home``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "QT_QPA_PLATFORM")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"))
    env.update(XDG_CACHE_HOME=str(home / "cache"), SEALED_TABLE_SOUND="off")
    env.pop("SEALED_TABLE_CONFIG_DIR", None)
    return env


def _source_copy(folder: Path) -> Path:
    """The checkout's files (tracked, and new ones not ignored) copied to ``folder``: no build residue.

    A checkout that was installed editable holds ``*.egg-info`` with the list of files an earlier build
    took, and setuptools adds those to the next sdist; a wheel built from such a checkout could carry a
    file the package data no longer names.  The copy has none of that.
    """
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return folder


@contextlib.contextmanager
def _made_once(factory: pytest.TempPathFactory, name: str) -> Iterator[tuple[Path, bool]]:
    """A folder that every test process of this run shares, and whether it was already made; held locked.

    The wheel is built and installed once per run: with two workers (scripts/test.sh) the second waits
    for the first and takes what it made, so the cost is paid once however the cases are distributed.
    """
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = base / name
    with (base / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        folder.mkdir(exist_ok=True)
        yield folder, (folder / "made").exists()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with _made_once(tmp_path_factory, "wheel") as (out, made):
        if not made:
            source = _source_copy(out / "source")
            done = subprocess.run(
                [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
            (out / "made").touch()
    (found,) = out.glob("sealed_table-*.whl")
    assert list(out.glob("sealed_table-*.tar.gz")), "no sdist was built"
    return found


def _from_wheel(wheel: Path, factory: pytest.TempPathFactory) -> Installed:
    with _made_once(factory, "installed-wheel") as (folder, made):
        env = folder / "venv"
        python = env / "bin" / "python"
        if not made:
            venv.EnvBuilder(with_pip=True).create(env)
            done = subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                capture_output=True,
                text=True,
                check=False,
                cwd=folder,
            )
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
            (folder / "made").touch()
    bin_ = env / "bin"
    return Installed(
        "wheel",
        program=[str(bin_ / "sealed-table")],
        relay=[str(bin_ / "sealed-table-relay")],
        peer=[str(python), "-m", "client.headless"],
        verify=[str(python), "-m", "protocol", "verify"],
        check=[str(python), "-m", "client.tools.check"],
        root=env,
    )


def _bundle() -> Installed:
    named = os.environ.get(BUNDLE_ENV)
    if not named:
        pytest.skip(f"no bundle to check ({BUNDLE_ENV} names one; .ci/run builds it)")
    exe = Path(named).resolve()
    assert exe.is_file(), f"{BUNDLE_ENV}={named}, and there is no such program"
    return Installed(
        "bundle",
        program=[str(exe)],
        relay=[str(exe), "relay"],
        peer=[str(exe), "peer"],
        verify=[str(exe), "verify"],
        check=[str(exe), "check"],
        root=exe.parent,
    )


@pytest.fixture(scope="module", params=["wheel", "bundle"])
def installed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if request.param == "wheel":
        return _from_wheel(request.getfixturevalue("wheel"), tmp_path_factory)
    return _bundle()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The player's home for one test: the folder the program runs in, with its settings and games."""
    return tmp_path


def _run(home: Path, command: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=home, env=_clean_env(home), capture_output=True, text=True, timeout=timeout, check=False
    )


def _files(folder: Path) -> set[str]:
    tracked = subprocess.run(
        ["git", "ls-files", *PACKAGES], cwd=folder, capture_output=True, text=True, check=True
    ).stdout.split()
    return {name for name in tracked if not name.endswith(".py") and not NOT_READ.search(name)}


def test_the_wheel_carries_every_file_the_program_reads(wheel):
    needed = _files(ROOT)
    assert any(name.startswith("client/rules/") for name in needed)  # the rules pages are the package's own
    with zipfile.ZipFile(wheel) as archive:
        carried = set(archive.namelist())
        metadata = next(archive.read(n) for n in carried if n.endswith(".dist-info/METADATA")).decode()
    assert sorted(needed - carried) == []
    for field in ("Summary: ", "Classifier: Operating System :: Microsoft :: Windows", "Provides-Extra: sound"):
        assert field in metadata
    entry_points = zipfile.ZipFile(wheel).read(next(n for n in carried if n.endswith("entry_points.txt"))).decode()
    assert "sealed-table = client.__main__:main" in entry_points
    assert "sealed-table-relay = relay.__main__:main" in entry_points


def test_the_installed_program_finds_every_part_of_itself(installed, home):
    done = _run(home, installed.check)
    assert done.returncode == 0, done.stdout + done.stderr
    where = Path(done.stdout.splitlines()[0].removeprefix("Sealed Table from "))
    assert where.is_relative_to(installed.root), f"the program ran from {where}, not from {installed.root}"
    for part in ("games", "translations", "rules", "sound", "relay", "mosquitto", "folders"):
        assert f"ok     {part}: " in done.stdout
    assert "3 games × en, pl, ru" in done.stdout
    if installed.kind == "bundle":  # the bundle carries Qt Multimedia for the cues
        assert "Qt Multimedia loaded" in done.stdout


def test_the_installed_program_plays_the_headless_demo_fair(installed, home):
    done = _run(home, [*installed.program, "--headless", "--players", "3"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every peer audited the game as fair" in done.stdout
    saved = re.search(r"The signed game file is (\S+);", done.stdout)
    assert saved is not None, done.stdout
    audit = _run(home, [*installed.verify, saved.group(1)])
    assert audit.returncode == 0, audit.stdout + audit.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_installed_relay_and_peers_play_a_game(installed, home):
    port = _free_port()
    env = _clean_env(home)
    relay = subprocess.Popen(
        [*installed.relay, "--host", "127.0.0.1", "--port", str(port), "--no-announce"],
        cwd=home,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert relay.stderr is not None
        for line in relay.stderr:
            if f"listening on 127.0.0.1:{port}" in line:
                break
        else:
            pytest.fail(f"the relay ended: {relay.wait()}")
        threading.Thread(target=relay.stderr.read, daemon=True).start()  # what it logs on never fills the pipe
        address = f"127.0.0.1:{port}"
        common = ["--relay", address, "--seat-bot", "greedy"]
        create = ["--create", "system-launch", "--players", "2", "--accept-all", "--state-dir", "host"]
        host = subprocess.Popen(
            [*installed.peer, *common, *create],
            cwd=home,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert host.stdout is not None
        seen = []
        for line in host.stdout:
            seen.append(line)
            if line.startswith("invitation "):
                break
        invitation = seen[-1].split()[1] if seen and seen[-1].startswith("invitation ") else ""
        assert invitation, "".join(seen)
        joiner = _run(home, [*installed.peer, *common, "--join", invitation, "--state-dir", "joiner"])
        host_out = "".join(seen) + host.communicate(timeout=120)[0]
    finally:
        relay.send_signal(signal.SIGINT)
        relay.wait(timeout=30)
    assert joiner.returncode == 0 and host.returncode == 0, host_out + joiner.stdout + joiner.stderr
    assert "verdict: fair" in host_out and "verdict: fair" in joiner.stdout
    hashes = {line for line in (host_out + joiner.stdout).splitlines() if line.startswith("final state hash")}
    assert len(hashes) == 1


def test_the_installed_program_opens_the_lobby_on_a_display(installed, home, x_display):
    if installed.kind == "wheel":  # the X client libraries Qt's window plugin loads (as root, apt-get)
        python = Path(installed.peer[0])
        subprocess.run([str(python), str(ROOT / "scripts" / "qtdeps.py"), "--install"], check=False)
    env = _clean_env(home)
    env.update(DISPLAY=x_display)
    env.pop("WAYLAND_DISPLAY", None)
    started = time.monotonic()
    shown, output = shows_window(list(installed.program), home, env, x_display, 120)
    assert shown, f"no {TITLE} window from the {installed.kind} after {time.monotonic() - started:.0f} s:\n{output}"
