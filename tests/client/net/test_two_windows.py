"""Two client windows in one test, joined through the embedded relay, play a game to the end.

Each window holds one seat: its own protocol session (keys, secrets) and its own
MQTT connection to a relay started by the test.  The players click through the
real table widgets; at the end both windows agree on the final state and show
the audit's verdict.  The seats are arranged here directly; the lobby's own room
panel (seat picking, bots, cancel) is driven in ``tests/client/screens/lobby/test_seats.py``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from client.i18n import tr
from client.net.errors import NetError
from client.net.game import NetGame
from protocol import session as session_mod
from protocol.crypto import signing
from relay.transport.room import monotonic_ms
from tests.client.drive import click_action, confirm_join, let_in, make_window, preferred


def test_two_windows_play_through_the_embedded_relay(qtbot, qloop, relay, tmp_path, monkeypatch):
    PeerSession = session_mod.PeerSession
    room = "TWOWIN"
    keys = [signing.SigningKey.generate(bytes([i + 1]) * 32) for i in range(2)]
    secrets = [bytes([i + 11]) * 32 for i in range(2)]
    names = ["Alice", "Bob"]
    seats = [PeerSession.seat_card(names[i], keys[i], secrets[i]) for i in range(2)]
    sessions = [
        PeerSession.create(room, "system-launch", {}, seats, keys[0], secrets[0], now_ms=monotonic_ms()),
        PeerSession.join(room, 1, keys[1], secrets[1], creator=keys[0].public_bytes()),
    ]
    windows = [make_window(qtbot, tmp_path, n) for n in names]
    games = [NetGame(s, relay.address, f"peer{i}") for i, s in enumerate(sessions)]
    for window, game in zip(windows, games, strict=True):
        window.start_network(game)

    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    assert [g.names for g in games] == [names, names]
    decisions = 0
    by_seat = [0, 0]
    while not all(g.over() is not None for g in games):
        qtbot.waitUntil(
            lambda: any(g.human_to_move() for g in games) or all(g.over() is not None for g in games), timeout=20_000
        )
        for window, game in zip(windows, games, strict=True):
            if game.human_to_move():
                click_action(qtbot, window.game_screen, preferred(game.legal(), decisions))
                decisions += 1
                by_seat[game.human] += 1
        assert decisions < 600, "the game did not end"

    assert min(by_seat) > 0, "both windows' players took decisions"
    qtbot.waitUntil(lambda: all(g.verdict is not None for g in games), timeout=30_000)
    assert [g.verdict.fair for g in games] == [True, True], [g.verdict for g in games]
    assert all(g.in_step() for g in games), "each window shows exactly its session's state"
    hashes = {g.state.hash() for g in games} | {s.state.hash() for s in sessions}
    assert len(hashes) == 1, "both windows and both sessions end on the same state"
    assert games[0].over() == games[1].over()
    for window in windows:
        qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
        assert window.report.verdict_text.text() == tr("report.net_fair")

    # Alice saves the signed log; Bob opens it: the offline audit agrees, every public move is a frame.
    target = tmp_path / "game.sealedlog"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(windows[0].report.save_button, Qt.MouseButton.LeftButton)
    assert target.is_file()
    viewer = windows[1].open_replay_file(target)
    assert viewer is not None and windows[1].stack.currentWidget() is viewer
    assert len(viewer.replay.frames) == len(games[1].history) + 1
    assert viewer.replay.frames[-1].state.hash() == games[1].state.hash()
    assert viewer.audit.text() == tr("replay.verdict", verdict=tr("report.net_fair"))
    qtbot.mouseClick(viewer.last_button, Qt.MouseButton.LeftButton)
    assert not viewer.full.isEnabled(), "a network game's hands stay hidden in its replay"
    for game in games:
        game.stop()


def test_a_room_opened_in_one_lobby_is_joined_from_another(qtbot, qloop, relay, tmp_path, monkeypatch):
    """The whole network path through the lobbies: open a room, read its code, join it, play, audit."""
    monkeypatch.setenv("SEALED_TABLE_CONFIG_DIR", str(tmp_path / "keys"))
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host_lobby, guest_lobby = host_window.lobby, guest_window.lobby
    host_lobby.local.players.setValue(2)
    host_lobby.online.relay.setCurrentText(relay.address)
    qtbot.mouseClick(host_lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: "1 of 2" in host_lobby.online.status.text() or "1 / 2" in host_lobby.online.status.text(),
        timeout=10_000,
    )
    code = host_lobby.online.status.text().split()[1]
    assert len(code) == 6 and code.isupper()

    # The guest pastes the host's invitation link (relay, room, host key): no relay to type, the host pinned.
    link = host_lobby.room_panel.link
    assert link.startswith(f"sealed://{relay.address}/{code}#")
    guest_lobby.online.room.setText(link)
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)
    let_in(qtbot, host_window, "Guest")
    windows = [host_window, guest_window]
    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    games = [w.game for w in windows]
    assert [g.human for g in games] == [0, 1] and games[0].names == ["Host", "Guest"]
    assert host_window.settings.relays == [relay.address] == guest_window.settings.relays

    # A third player comes too late: the room is full, and the lobby says so.
    late = make_window(qtbot, tmp_path, "Late")
    late.lobby.online.relay.setCurrentText(relay.address)
    late.lobby.online.room.setText(link)
    qtbot.mouseClick(late.lobby.online.join, Qt.MouseButton.LeftButton)
    confirm_join(qtbot, late.lobby)
    full = NetError("room-full", code=code).message()
    qtbot.waitUntil(lambda: late.lobby.online.status.text() == full, timeout=10_000)
    assert late.game is None

    turn = 0
    while not all(g.over() is not None for g in games):
        qtbot.waitUntil(
            lambda: any(g.human_to_move() for g in games) or all(g.over() is not None for g in games), timeout=20_000
        )
        for window, game in zip(windows, games, strict=True):
            if game.human_to_move():
                click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
                turn += 1
        assert turn < 600
    qtbot.waitUntil(lambda: all(g.verdict is not None for g in games), timeout=30_000)
    assert all(g.verdict.fair for g in games)
    assert games[0].state.hash() == games[1].state.hash()
    for game in games:
        game.stop()


def test_a_player_who_leaves_is_reported_gone_in_the_other_window(qtbot, qloop, relay, tmp_path, monkeypatch):
    PeerSession = session_mod.PeerSession
    keys = [signing.SigningKey.generate(bytes([i + 21]) * 32) for i in range(2)]
    secrets = [bytes([i + 31]) * 32 for i in range(2)]
    seats = [PeerSession.seat_card(n, keys[i], secrets[i]) for i, n in enumerate(["Ann", "Ben"])]
    sessions = [
        PeerSession.create("LEAVER", "system-launch", {}, seats, keys[0], secrets[0], now_ms=monotonic_ms()),
        PeerSession.join("LEAVER", 1, keys[1], secrets[1], creator=keys[0].public_bytes()),
    ]
    windows = [make_window(qtbot, tmp_path, n) for n in ("Ann", "Ben")]
    games = [NetGame(s, relay.address, f"leave{i}") for i, s in enumerate(sessions)]
    for window, game in zip(windows, games, strict=True):
        window.start_network(game)
    qtbot.waitUntil(lambda: any(g.human_to_move() for g in games), timeout=20_000)

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(windows[1].game_screen.leave_button, Qt.MouseButton.LeftButton)
    # Ann plays on; when Ben's turn comes, his signed leave notice makes him gone.
    turn = 0
    while games[0].over() is None:
        qtbot.waitUntil(lambda: games[0].human_to_move() or games[0].over() is not None, timeout=20_000)
        if games[0].human_to_move():
            click_action(qtbot, windows[0].game_screen, preferred(games[0].legal(), turn))
            turn += 1
        assert turn < 50
    over = games[0].over()
    assert over.winners == (0,) and over.reason == "last seat standing"
    assert tr("log.left", name="Ben") in windows[0].game_screen.log.texts()
    qtbot.mouseClick(windows[0].game_screen.table.report_button, Qt.MouseButton.LeftButton)
    assert windows[0].report.reason.text() == tr("report.reason.last seat standing")
    for game in games:
        game.stop()
