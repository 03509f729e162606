"""What the window keeps of a network seat's end: the audit's verdict as the headless peer keeps it."""

from __future__ import annotations

from pathlib import Path

from client.net.game import NetGame
from client.screens.window.kept import note_progress
from client.store import kept_seats
from client.store.kept_seats import SavedSeat
from protocol.events import DISCONNECTED, Verdict
from tests.protocol.helpers import lockstep


def test_a_seat_gone_is_kept_as_a_disconnection_never_as_a_cheat(tmp_path: Path) -> None:
    peers = lockstep("system-launch", 2, b"kept verdict")
    game = NetGame(peers[1])
    seat = SavedSeat("ROOMEF", 1, "system-launch", "127.0.0.1:9", "kept-1", b"\1" * 32, b"\2" * 32, b"\3" * 32)
    game.keep(seat, tmp_path)
    game.verdict = Verdict(False, 0, 12, "disconnected at entry 12: declared gone", DISCONNECTED)
    note_progress(game, tmp_path, current=True)
    assert game.saved is not None and game.saved.folder is not None
    kept = kept_seats.load(game.saved.folder)
    assert kept.verdict == game.verdict.label == "seat 0: disconnected at entry 12", kept.verdict
