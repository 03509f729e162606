"""Anomaly Maze over a relay: two windows, one seat each, click through the maze board to the end.

The same path as System Launch's network game (``NetGame`` over the embedded
relay); the dice are the protocol's interactive chance, rolled only after an
attack is declared.  At the end both windows agree on the state and show the
audit's verdict.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from client.games.anomaly_maze.showcase import clicks_for
from client.games.anomaly_maze.table import AnomalyMazeTable
from client.i18n import tr
from client.net.game import NetGame
from engines.anomaly_maze.bots.maze import MazeBot
from protocol import session as session_mod
from protocol.crypto import signing
from relay.transport.room import monotonic_ms
from tests.client.drive import make_window


def click(qtbot, table, action):  # type: ignore[no-untyped-def]
    for widget, point in clicks_for(table, tuple(action)):
        if point is None:
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=point)


def test_two_windows_play_the_maze_through_the_embedded_relay(qtbot, qloop, relay, tmp_path, monkeypatch):
    PeerSession = session_mod.PeerSession
    room = "MAZENET"
    keys = [signing.SigningKey.generate(bytes([i + 21]) * 32) for i in range(2)]
    secrets = [bytes([i + 31]) * 32 for i in range(2)]
    names = ["Ola", "Sasha"]
    seats = [PeerSession.seat_card(names[i], keys[i], secrets[i]) for i in range(2)]
    sessions = [
        PeerSession.create(room, "anomaly-maze", {"win_mp": 8}, seats, keys[0], secrets[0], now_ms=monotonic_ms()),
        PeerSession.join(room, 1, keys[1], secrets[1], creator=keys[0].public_bytes()),
    ]
    windows = [make_window(qtbot, tmp_path, n) for n in names]
    games = [NetGame(s, relay.address, f"peer{i}") for i, s in enumerate(sessions)]
    for window, game in zip(windows, games, strict=True):
        window.start_network(game)
    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    assert all(isinstance(w.game_screen.table, AnomalyMazeTable) for w in windows)
    # A shorter match (a house rule: 8 MP wins) keeps the test quick.
    # Each person's choices come from an easy AI of their own, taken by clicking the board.
    players = [MazeBot(i, f"net-player-{i}".encode(), "easy") for i in range(2)]
    decisions, by_seat, attacks = 0, [0, 0], 0
    while not all(g.over() is not None for g in games):
        qtbot.waitUntil(
            lambda: any(g.human_to_move() for g in games) or all(g.over() is not None for g in games), timeout=30_000
        )
        for window, game in zip(windows, games, strict=True):
            if game.human_to_move():
                action = players[game.human].choose(game.state, game.knowledge, game.legal())
                before = len(game.session.table.log)
                click(qtbot, window.game_screen.table, action)
                assert len(game.session.table.log) > before, f"the click on {action} was not sent"
                attacks += action == ("attack",)
                decisions += 1
                by_seat[game.human] += 1
        assert decisions < 1500, "the game did not end"
    assert min(by_seat) > 0
    assert attacks > 0, "the game went through combat: dice were rolled through the protocol"
    rolled = sum(1 for e in games[0].entries if any(ev[0] == "die" for ev in e.events))
    assert rolled >= attacks
    qtbot.waitUntil(lambda: all(g.verdict is not None for g in games), timeout=30_000)
    assert [g.verdict.fair for g in games] == [True, True], [g.verdict for g in games]
    assert all(g.in_step() for g in games)
    assert len({g.state.hash() for g in games} | {s.state.hash() for s in sessions}) == 1
    for window in windows:
        qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
        assert window.report.verdict_text.text() == tr("report.net_fair")
    # The signed log opens in the replay viewer on the maze board, audited offline.
    target = tmp_path / "maze.sealedlog"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(windows[0].report.save_button, Qt.MouseButton.LeftButton)
    viewer = windows[1].open_replay_file(target)
    assert viewer is not None and isinstance(viewer.table, AnomalyMazeTable)
    assert viewer.replay.frames[-1].state.hash() == games[1].state.hash()
    assert viewer.audit.text() == tr("replay.verdict", verdict=tr("report.net_fair"))
    for game in games:
        game.stop()
