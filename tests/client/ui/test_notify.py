"""Turn notices: when a network game's turn comes and the window is in the background, the player is told.

Two windows play System Launch through the embedded relay; Bob's window is minimised.  Qt's own
``QApplication.alert`` is recorded (the offscreen platform has no system tray, so that is the way a
notice goes out here); the notifier's ``sent`` list says what the player was told.  With the setting
off, the next turn comes silently.
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from client.i18n import tr
from client.net.game import NetGame
from client.ui.notify import ALERT
from protocol import session as session_mod
from protocol.crypto import signing
from relay.transport.room import monotonic_ms
from tests.client.drive import click_action, make_window, preferred


def test_the_turn_comes_to_a_window_in_the_background(qtbot, qloop, relay, tmp_path, monkeypatch):
    alerts: list[object] = []
    monkeypatch.setattr(QApplication, "alert", staticmethod(lambda widget, ms=0: alerts.append(widget)))
    PeerSession = session_mod.PeerSession
    room = "NOTIFY"
    keys = [signing.SigningKey.generate(bytes([i + 61]) * 32) for i in range(2)]
    secrets = [bytes([i + 71]) * 32 for i in range(2)]
    names = ["Ann", "Bob"]
    seats = [PeerSession.seat_card(names[i], keys[i], secrets[i]) for i in range(2)]
    sessions = [
        PeerSession.create(room, "system-launch", {}, seats, keys[0], secrets[0], now_ms=monotonic_ms()),
        PeerSession.join(room, 1, keys[1], secrets[1], creator=keys[0].public_bytes()),
    ]
    ann, bob = windows = [make_window(qtbot, tmp_path, n) for n in names]
    bob.showMinimized()
    assert not bob.notifier.in_front()
    games = [NetGame(s, relay.address, f"notify{i}") for i, s in enumerate(sessions)]
    for window, game in zip(windows, games, strict=True):
        window.start_network(game)
    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    text = tr("notify.turn_text", game=tr("game.system-launch"))

    def play_ann_until_bob_moves(turn: int) -> None:
        limit = turn + 40
        while not games[1].human_to_move():
            qtbot.waitUntil(lambda: games[0].human_to_move() or games[1].human_to_move(), timeout=20_000)
            if games[0].human_to_move():
                click_action(qtbot, ann.game_screen, preferred(games[0].legal(), turn))
                turn += 1
            assert turn < limit

    try:
        play_ann_until_bob_moves(0)
        qtbot.waitUntil(lambda: bool(bob.notifier.sent), timeout=5_000)
        assert bob.notifier.sent == [(ALERT, text)], "one notice for the turn that came"
        assert bob in alerts

        # A redraw while the turn lasts is no new turn.
        bob.game_screen.refresh()
        assert len(bob.notifier.sent) == 1

        # Switched off in the settings: Bob moves, and his next turn comes without a notice.
        bob.settings.notify_turn = False
        sent_before, alerts_before = len(bob.notifier.sent), alerts.count(bob)
        click_action(qtbot, bob.game_screen, preferred(games[1].legal(), 1))
        qtbot.waitUntil(lambda: not games[1].human_to_move() or games[0].human_to_move(), timeout=10_000)
        play_ann_until_bob_moves(100)
        assert len(bob.notifier.sent) == sent_before and alerts.count(bob) == alerts_before
    finally:
        for game in games:
            game.stop()


def test_the_setting_switches_turn_notices_off_and_is_kept(qtbot, window, private_config):
    from client.store import settings as settings_mod

    assert window.settings.notify_turn, "on by default"
    dialog = window.open_settings()
    assert dialog.notify_turn.isChecked() and dialog.notify_turn.text() == tr("settings.notify_turn")
    dialog.notify_turn.setChecked(False)
    dialog.accept()
    assert window.settings.notify_turn is False
    assert settings_mod.load(private_config).notify_turn is False
