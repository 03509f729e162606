"""Desktop program figures: start-up to the lobby, and resident memory during a game.

``python3 benchmarks/client.py [--runs N] [--games N] [--animations on|off]`` — each
run is a fresh process (offscreen Qt), so start-up includes the interpreter, the
imports and the first paint of the lobby.  Targets: lobby in
under 2 s, under 300 MB resident during a game, with animations on (the default:
client/ui/motion.py's tweens run while the game is played; ``SEALED_TABLE_MOTION`` from
the caller's environment is ignored).  Prints figures and their ratio to the
targets; keep runs few on a shared machine.

The standalone bundle (``dist/sealed-table/``, ``python -m scripts.bundle``; ``--bundle PATH`` names
another): its size on disk and as a ``.tar.gz`` download, and its start-up beside the virtual
environment's ``sealed-table``, both measured the same way from outside: the program is started on a
private X display (Xvfb) and the clock stops when its lobby window is mapped (``xwininfo``, looked at
every 20 ms), so the figure holds the interpreter's or the bundle's own unpacking, the imports and
the first paint, and nothing is added to the program to measure it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TARGET_S = 2.0
RSS_TARGET_MB = 300.0

CHILD = r"""
import json, os, sys, tempfile, time
import psutil
proc = psutil.Process()
born = proc.create_time()
os.environ["SEALED_TABLE_CONFIG_DIR"] = tempfile.mkdtemp()
from client.app import make_application
app = make_application([])
from client.screens.window.main import MainWindow
from client.store.settings import Settings
animations = sys.argv[2] == "on"
window = MainWindow(settings=Settings(name="Bench", bot_delay_ms=0, animations=animations, sound=False))
window.resize(1280, 820)
window.show()
app.processEvents()
window.lobby.grab()  # the lobby has been painted
lobby_s = time.time() - born
rss_lobby = proc.memory_info().rss
peak = rss_lobby
games = int(sys.argv[1])
actions = 0
for g in range(games):
    screen = window.start_local("system-launch", 6, seed=f"bench/{g}".encode())
    game = window.game
    turn = 0
    while game.over() is None:
        app.processEvents()
        if game.human_to_move():
            legal = game.legal()
            screen.choose(legal[turn % len(legal)])
            turn += 1
        peak = max(peak, proc.memory_info().rss)
    actions += len(game.history)
    window.show_report()
    window.replay_current()
    app.processEvents()
    peak = max(peak, proc.memory_info().rss)
mb = 2**20
from client.ui import motion
assert motion.clock().enabled() == animations
out = {"lobby_s": lobby_s, "rss_lobby_mb": rss_lobby / mb, "rss_peak_mb": peak / mb, "actions": actions}
print(json.dumps(out))
"""


def run_once(games: int, animations: str = "on") -> dict[str, float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    env.pop("SEALED_TABLE_MOTION", None)  # the settings decide (the test suite's "off" must not leak in)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(games), animations],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _bundle_size(folder: Path) -> tuple[float, float]:
    """MB on disk, and MB as the ``.tar.gz`` a friend downloads."""
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "sealed-table.tar.gz"
        with tarfile.open(archive, "w:gz") as out:
            out.add(folder, arcname=folder.name)
        packed = archive.stat().st_size
    return size / 1e6, packed / 1e6


def _xvfb() -> tuple[subprocess.Popen[bytes], str] | None:
    """A private Xvfb server and its display (the tests' own), or None where Xvfb or xwininfo is missing."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None or shutil.which("xwininfo") is None:
        return None
    sys.path.insert(0, str(ROOT))
    from tests.display import start_xvfb

    return start_xvfb(xvfb)


def window_start(command: list[str], display: str, seconds: float = 60.0) -> float:
    """Seconds from starting ``command`` to its "Sealed Table" window being mapped on ``display``."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "PYTHONPATH")}
        env.update(DISPLAY=display, SEALED_TABLE_CONFIG_DIR=home, SEALED_TABLE_SOUND="off")
        started = time.monotonic()
        program = subprocess.Popen(
            command, cwd=home, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            while time.monotonic() - started < seconds and program.poll() is None:
                tree = subprocess.run(
                    ["xwininfo", "-root", "-tree", "-display", display], capture_output=True, text=True, check=False
                ).stdout
                if '"Sealed Table"' in tree:
                    return time.monotonic() - started
                time.sleep(0.02)
            raise RuntimeError(f"{command[0]} showed no lobby window")
        finally:
            if program.poll() is None:
                os.killpg(program.pid, signal.SIGTERM)
            program.wait(timeout=30)


def bundle_figures(bundle: Path, runs: int) -> dict[str, float]:
    """The bundle's size, and its start-up to the lobby window beside the virtual environment's."""
    size, packed = _bundle_size(bundle.parent)
    print(f"bundle {bundle.parent}: {size:.0f} MB on disk, {packed:.0f} MB as .tar.gz")
    out = {"bundle_mb": round(size, 1), "bundle_targz_mb": round(packed, 1)}
    venv_program = Path(sys.executable).parent / "sealed-table"
    display = _xvfb()
    if display is None:
        print("  no Xvfb and xwininfo here: start-up to the window not measured")
        return out
    server, name = display
    try:
        for label, command in (("bundle", [str(bundle)]), ("venv", [str(venv_program)])):
            times = [window_start(command, name) for _ in range(runs)]
            median = statistics.median(times)
            print(f"  start-up to the lobby window ({label}): median {median:.2f} s, max {max(times):.2f} s")
            out[f"{label}_window_s_median"] = round(median, 3)
    finally:
        server.terminate()
        server.wait(timeout=10)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes to start (default 3)")
    parser.add_argument("--games", type=int, default=2, help="6-player games per process (default 2)")
    parser.add_argument("--animations", choices=("on", "off"), default="on", help="animated moves (default on)")
    bundle = ROOT / "dist" / "sealed-table" / "sealed-table"
    parser.add_argument("--bundle", type=Path, default=bundle, help="the bundle's program (default: %(default)s)")
    args = parser.parse_args(argv)
    results = [run_once(args.games, args.animations) for _ in range(args.runs)]
    starts = [r["lobby_s"] for r in results]
    peak = max(r["rss_peak_mb"] for r in results)
    lobby_rss = statistics.median(r["rss_lobby_mb"] for r in results)
    median_start = statistics.median(starts)
    print(f"start-up to the painted lobby: median {median_start:.2f} s, max {max(starts):.2f} s over {args.runs} runs")
    print(f"  target {START_TARGET_S:.1f} s -> ratio {median_start / START_TARGET_S:.2f} of the budget")
    print(f"resident memory: {lobby_rss:.0f} MB at the lobby, peak {peak:.0f} MB during {args.games} games each")
    print(f"  target {RSS_TARGET_MB:.0f} MB -> ratio {peak / RSS_TARGET_MB:.2f} of the budget")
    print(f"animations {args.animations}")
    summary = {"lobby_s_median": round(median_start, 3), "rss_peak_mb": round(peak, 1), "runs": args.runs}
    if args.bundle.is_file():
        summary.update(bundle_figures(args.bundle, args.runs))
    else:
        print(f"no bundle at {args.bundle} (python -m scripts.bundle builds it): its figures are left out")
    print(json.dumps({**summary, "animations": args.animations}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
