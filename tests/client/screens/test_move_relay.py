"""The menu's "Move this game to another relay…", in two real windows over two real relays.

Two windows play through relay A.  Mid-game each player moves the game to relay B from the game
menu, and relay A is stopped.  Nothing is lost: the game finishes on B, both windows agree, and
the audit is fair.  Outside a network game the action is disabled.
"""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog

from client.net.game import NetGame
from client.screens import move_relay
from protocol import session as session_mod
from protocol.crypto import signing
from relay.transport.room import monotonic_ms
from tests.client.drive import click_action, make_window, preferred, start_relay, stop_relay


def test_both_players_move_the_game_to_another_relay_and_it_finishes_there(qtbot, qloop, tmp_path, monkeypatch):
    PeerSession = session_mod.PeerSession
    first, second = start_relay(qtbot, qloop), start_relay(qtbot, qloop)
    room = "MOVREL"
    keys = [signing.SigningKey.generate(bytes([i + 21]) * 32) for i in range(2)]
    secrets = [bytes([i + 31]) * 32 for i in range(2)]
    seats = [PeerSession.seat_card(n, keys[i], secrets[i]) for i, n in enumerate(["Ann", "Ben"])]
    sessions = [
        PeerSession.create(room, "system-launch", {}, seats, keys[0], secrets[0], now_ms=monotonic_ms()),
        PeerSession.join(room, 1, keys[1], secrets[1], creator=keys[0].public_bytes()),
    ]
    windows = [make_window(qtbot, tmp_path, n) for n in ("Ann", "Ben")]
    windows[0].menus.game_menu.aboutToShow.emit()
    assert not windows[0].menus.move_relay_action.isEnabled()  # in the lobby there is nothing to move
    games = [NetGame(s, first.address, f"mover{i}") for i, s in enumerate(sessions)]
    try:
        for window, game in zip(windows, games, strict=True):
            window.start_network(game)
        qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
        decisions = 0

        def play(until: int) -> None:
            nonlocal decisions
            while decisions < until and not all(g.over() is not None for g in games):
                qtbot.waitUntil(
                    lambda: any(g.human_to_move() for g in games) or all(g.over() is not None for g in games),
                    timeout=20_000,
                )
                for window, game in zip(windows, games, strict=True):
                    if game.human_to_move():
                        click_action(qtbot, window.game_screen, preferred(game.legal(), decisions))
                        decisions += 1
                assert decisions < 600, "the game did not end"

        play(4)
        assert not any(g.over() for g in games), "the move is tried mid-game"
        monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (second.address, True))
        for window in windows:
            window.menus.game_menu.aboutToShow.emit()
            assert window.menus.move_relay_action.isEnabled()
            window.menus.move_relay_action.trigger()
        qtbot.waitUntil(lambda: all(str(g.transport.address) == second.address for g in games), timeout=20_000)
        stop_relay(qtbot, qloop, first)  # relay A is gone for good: everything must be on B
        play(10_000)
        qtbot.waitUntil(lambda: all(g.verdict is not None for g in games), timeout=30_000)
        assert [g.verdict.fair for g in games] == [True, True], [g.verdict for g in games]
        assert len({g.state.hash() for g in games}) == 1
        assert all(m.new == second.address for g in games for m in g.transport.moves)
        assert all(g.relay == second.address for g in games)
    finally:
        for game in games:
            game.stop()
        stop_relay(qtbot, qloop, second)
        if first.running:
            stop_relay(qtbot, qloop, first)


def test_a_bad_address_is_said_in_words_and_the_game_stays(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    assert move_relay.ask_and_move(window, ask=lambda: ("relay.example:1883", True)) is None  # no game: said so
    assert window.message_box is not None and window.message_box.isVisible()


def test_a_room_hosted_with_a_fallback_gives_it_to_the_guest_and_the_genesis(qtbot, qloop, relay, tmp_path):  # type: ignore[no-untyped-def]
    """The relay field takes "relay, fallback": the link carries the fallback, the guest's game and the genesis too."""
    from PySide6.QtCore import Qt

    from relay.lobby.invitation import parse_invitation
    from tests.client.drive import let_in

    fallback = "127.0.0.1:1"  # where the game would move; it need not be up to be named
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host_lobby, guest_lobby = host_window.lobby, guest_window.lobby
    host_lobby.local.players.setValue(2)
    host_lobby.online.relay.setCurrentText(f"{relay.address}, {fallback}")
    qtbot.mouseClick(host_lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: host_lobby.hosting is not None and "1 of 2" in host_lobby.online.status.text())
    link = host_lobby.room_panel.link
    assert parse_invitation(link).relay == relay.address and parse_invitation(link).fallbacks == (fallback,)
    guest_lobby.online.room.setText(link)
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)
    let_in(qtbot, host_window, "Guest")
    windows = [host_window, guest_window]
    qtbot.waitUntil(lambda: all(w.game is not None and w.game.started for w in windows), timeout=20_000)
    games = [w.game for w in windows]
    try:
        assert [g.fallbacks for g in games] == [(fallback,), (fallback,)]
        assert all(g.session.table.relays == (relay.address, fallback) for g in games)
        assert all([str(r) for r in g.transport.ring] == [relay.address, fallback] for g in games)
    finally:
        for game in games:
            game.stop()


def test_a_fallback_that_is_not_an_address_is_said_in_the_lobby(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    window.lobby.online.relay.setCurrentText("127.0.0.1:1883, not an address")
    qtbot.mouseClick(window.lobby.online.host, Qt.MouseButton.LeftButton)
    assert "not an address" in window.lobby.online.status.text() and window.lobby.hosting is None
