"""A desktop program killed mid-game (SIGKILL, a real process) and started again resumes its seat.

The room is opened by a headless peer (another real process) on a real Mosquitto; the desktop
program joins it through its lobby with the invitation link and plays through its table's
buttons (``desktop_peer.py``).  Killed after its first decision, it leaves its kept seat and the
mark of a crash behind; started again with the same config directory it offers to go back,
reads the game back from the relay and plays it to the end: the audit says fair, and nobody
was voted gone.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

from client.store import kept_seats
from tests.relay.helpers import ROOT, Peer, env, mosquitto, wait_for_line

#: The desktop program driven through its widgets, as its own process (run from the checkout's root).
DRIVER = "tests.client.desktop_peer"


def _desktop(config: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    with open(out, "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", DRIVER, "--config", str(config), "--name", "Desk", *extra],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env(),
            cwd=ROOT,
        )


def test_a_killed_desktop_program_resumes_its_seat_and_the_game_ends_fair(mosquitto_path, tmp_path):
    broker = mosquitto(mosquitto_path, tmp_path).start()
    host = Peer(
        0,
        [
            *("--relay", broker.address, "--create", "system-launch", "--players", "2", "--accept-all"),
            *("--seat-bot", "greedy", "--name", "Hosty", "--state-dir", str(tmp_path / "host")),
        ],
        tmp_path / "host",
        tmp_path / "host.out",
    )
    config, out = tmp_path / "desk", tmp_path / "desk.out"
    desk = None
    try:
        host.start()
        link = wait_for_line(host.out, r"^invitation (sealed\S+)$").group(1)
        room = wait_for_line(host.out, r"^room ([A-Z]{6})$").group(1)
        desk = _desktop(config, out, "--join", link)
        # Killed at its first decision: a two-seat game lasts only a handful of them, and the
        # program goes on playing while this test reads its output.
        wait_for_line(out, r"^decision 1$", timeout=40)
        desk.kill()  # SIGKILL: no close, no leave notice, no cleanup
        desk.wait(10)
        before = out.read_text().count("decision ")

        # The seat is on disk, private, with no password and no secret in the clear.
        kept = [s for s in kept_seats.load_all(config) if isinstance(s, kept_seats.SavedSeat)]
        assert [(s.room, s.seat, s.game) for s in kept] == [(room, 1, "system-launch")]
        folder = kept[0].folder
        assert stat.S_IMODE(kept_seats.games_dir(config).stat().st_mode) == 0o700
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for name in (kept_seats.INFO_FILE, kept_seats.KEY_FILE):
            assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
        public = (folder / kept_seats.INFO_FILE).read_text()
        assert kept[0].secret.hex() not in public and "secret" not in json.loads(public)

        assert kept_seats.crashed_in(config) is not None, "the crash leaves its mark"

        desk = _desktop(config, out)
        wait_for_line(out, r"^over$", timeout=60)
        text = out.read_text()
        assert f"room {room}" in text.split("offered: ", 1)[1].splitlines()[0], "the program offered to go back"
        assert text.count("decision ") > before, "the resumed seat went on deciding"
        assert "gone []" in text and "verdict fair" in text, text[-800:]
        assert host.wait(30) == 0
        host_text = host.text()
        assert "verdict: fair" in host_text and "Gone" not in host_text and "Overdue" not in host_text
        state = wait_for_line(out, r"^state ([0-9a-f]+)$").group(1)
        assert f"final state hash {state}" in host_text, "both programs end on the same state"
        desk.wait(10)
        assert kept_seats.in_progress(config) == [], "a finished game leaves the list"
        assert (folder / kept_seats.KEY_FILE).exists(), "its files stay"
    finally:
        if desk is not None and desk.poll() is None:
            desk.kill()
        host.kill()
        broker.stop()
