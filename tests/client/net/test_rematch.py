"""Rematch: two desktop programs finish a network game, both say "Play again", and play again.

The room is opened and joined through the lobbies on an embedded relay.  The game is brought to
its end the quick way a real one may end: the guest leaves at its turn (two seats: the host wins).
On the reports, the guest offers a rematch, the host sees the offer and accepts; the new game
starts in a fresh room on the same relay with the same players in the same seats.  Then the second
game ends the same way, the host asks again and the guest goes back to the lobby: that is a no, the
host is told, and nothing more is offered.  "No thanks" itself is clicked on a report below.
A host who sat in seat 2 with its bot in seat 1 plays again with the same bot in the same seat.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from client.i18n import tr
from tests.client.drive import click_action, let_in, make_window, preferred


def _finish_by_leaving(qtbot, host, guest) -> None:  # type: ignore[no-untyped-def]
    """The host plays until it is the guest's turn; the guest leaves; both reports open."""
    games = [host.game, guest.game]
    turn = 0
    while not games[1].human_to_move():
        qtbot.waitUntil(lambda: games[0].human_to_move() or games[1].human_to_move(), timeout=20_000)
        if games[0].human_to_move():
            click_action(qtbot, host.game_screen, preferred(games[0].legal(), turn))
            turn += 1
        assert turn < 40
    qtbot.mouseClick(guest.game_screen.leave_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: all(g.over() is not None for g in games), timeout=20_000)
    for window in (host, guest):
        qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
        assert window.report is not None and window.rematch is not None


def test_play_again_starts_the_same_players_in_a_new_room(qtbot, qloop, relay, tmp_path, monkeypatch):
    monkeypatch.setenv("SEALED_TABLE_CONFIG_DIR", str(tmp_path / "keys"))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    host, guest = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host.lobby.local.players.setValue(2)
    host.lobby.online.relay.setCurrentText(relay.address)
    qtbot.mouseClick(host.lobby.online.host, Qt.MouseButton.LeftButton)
    status = host.lobby.online.status
    qtbot.waitUntil(lambda: "1 of 2" in status.text() or "1 / 2" in status.text(), timeout=10_000)
    guest.lobby.online.room.setText(host.lobby.room_panel.link)
    qtbot.mouseClick(guest.lobby.online.join, Qt.MouseButton.LeftButton)
    let_in(qtbot, host, "Guest")
    windows = [host, guest]
    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    first = [w.game for w in windows]
    try:
        _finish_by_leaving(qtbot, host, guest)
        host_panel, guest_panel = (w.rematch_panel for w in windows)
        assert host_panel.play_button.isVisible() and guest_panel.play_button.isVisible()
        assert host_panel.status.isHidden(), "nobody asked yet"

        # The guest offers; the host sees who asks, and accepts.
        qtbot.mouseClick(guest_panel.play_button, Qt.MouseButton.LeftButton)
        assert guest_panel.status.text() == tr("rematch.waiting", names="Host")
        qtbot.waitUntil(lambda: host_panel.status.text() == tr("rematch.offer", names="Guest"), timeout=10_000)
        qtbot.mouseClick(host_panel.play_button, Qt.MouseButton.LeftButton)

        qtbot.waitUntil(
            lambda: all(w.game is not g and w.game_screen is not None for w, g in zip(windows, first, strict=True)),
            timeout=20_000,
        )
        second = [w.game for w in windows]
        guest_game = second[1]
        old, new = first[0].session.table, second[0].session.table
        assert new.room != old.room, "a fresh room"
        assert [g.human for g in second] == [0, 1], "the same seats"
        assert [g.names for g in second] == [["Host", "Guest"]] * 2
        assert [s.sign for s in new.seats] == [s.sign for s in old.seats], "the same players' keys"
        assert str(second[1].relay) == str(first[1].relay), "the same relay"
        assert second[1].session.table.game_id == new.game_id
        assert new.timeout_ms == old.timeout_ms

        # The second game ends too; the host asks again, and the guest goes back to the lobby instead:
        # that is a "no", and the host is told.
        _finish_by_leaving(qtbot, host, guest)
        host_panel = host.rematch_panel
        qtbot.mouseClick(host_panel.play_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: guest.rematch_panel.status.text() == tr("rematch.offer", names="Host"), timeout=10_000)
        qtbot.mouseClick(guest.report.lobby_button, Qt.MouseButton.LeftButton)
        assert guest.rematch is None and guest.game is None
        qtbot.waitUntil(lambda: host_panel.status.text() == tr("rematch.declined", name="Guest"), timeout=10_000)
        assert not host_panel.play_button.isVisible() and not host_panel.decline_button.isVisible()
    finally:
        for window in windows:
            if window.game is not None:
                window.game.stop()
        if "guest_game" in locals():
            guest_game.stop()


def test_a_host_whose_bot_sat_first_plays_again_with_the_same_bot_in_the_same_seat(
    qtbot, qloop, relay, tmp_path, monkeypatch
):
    """Seat 1 writes the genesis: here it is the host's bot, so the bot's key announces the new room."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window = make_window(qtbot, tmp_path, "Host")
    games = []
    try:
        lobby, panel = window.lobby, window.lobby.room_panel
        lobby.local.players.setValue(2)
        lobby.online.relay.setCurrentText(relay.address)
        qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: lobby.hosting is not None and "1 of 2" in lobby.online.status.text(), timeout=10_000)
        qtbot.mouseClick(panel.rows[1][3], Qt.MouseButton.LeftButton)  # "Sit here" on seat 2
        qtbot.waitUntil(lambda: [r.kind for r in lobby.hosting.rows()] == ["bots-only", "you"], timeout=5_000)
        choice = panel.rows[0][2]
        choice.setCurrentIndex(choice.findData("random"))
        choice.activated.emit(choice.currentIndex())
        qtbot.waitUntil(lambda: [r.kind for r in lobby.hosting.rows()] == ["bot", "you"], timeout=5_000)
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
        first = window.game
        games.append(first)
        assert first.human == 1 and [b.session.seat for b in first.bots] == [0]

        qtbot.waitUntil(lambda: first.human_to_move(), timeout=20_000)
        qtbot.mouseClick(window.game_screen.leave_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: first.over() is not None, timeout=20_000)
        qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(window.rematch_panel.play_button, Qt.MouseButton.LeftButton)

        qtbot.waitUntil(lambda: window.game is not first and window.game_screen is not None, timeout=20_000)
        second = window.game
        games.append(second)
        assert second.human == 1 and second.names == first.names
        assert [(b.session.seat, b.kind) for b in second.bots] == [(0, "random")]
        assert second.session.table.room != first.session.table.room
        qtbot.waitUntil(lambda: second.session.table.head > 0, timeout=10_000)
    finally:
        for game in games:
            game.stop()


def test_no_thanks_ends_the_offer_here_at_once(qtbot, tmp_path):
    """The answer counts on this machine as soon as it is given (the relay hears it when reachable)."""
    from client.net.game import NetGame
    from client.net.rematch import Rematch
    from client.screens.rematch_panel import RematchPanel
    from protocol.crypto import signing
    from protocol.session import PeerSession
    from relay.transport.room import monotonic_ms

    keys = [signing.SigningKey.generate(bytes([i + 5]) * 32) for i in range(2)]
    secrets = [bytes([i + 15]) * 32 for i in range(2)]
    seats = [PeerSession.seat_card(n, keys[i], secrets[i]) for i, n in enumerate(["Ann", "Ben"])]
    session = PeerSession.create("NOTHANKS", "system-launch", {}, seats, keys[0], secrets[0], now_ms=monotonic_ms())
    rematch = Rematch(NetGame(session, "127.0.0.1:9"), "Ann", tmp_path)
    panel = RematchPanel(rematch)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.play_button.isVisible() and panel.decline_button.isVisible() and panel.status.isHidden()
    qtbot.mouseClick(panel.decline_button, Qt.MouseButton.LeftButton)
    assert panel.status.text() == tr("rematch.you_declined")
    assert not panel.play_button.isVisible() and not panel.decline_button.isVisible()
    assert rematch.channel.answers[0].accept is False and rematch.channel.answers[0].key == rematch.next_key
