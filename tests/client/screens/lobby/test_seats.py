"""Rooms in the desktop program: seat picking, bots for empty seats, cancel — through the real lobby widgets.

Every window is a real MainWindow; the relay is the embedded one on a free port, started by the test.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from client.i18n import tr
from client.net import lan, transport
from client.net.address import parse_relay_address
from client.net.errors import NetError
from client.net.lan import hosted_relay, stop_lan_relay
from relay.lobby.listing import list_rooms
from tests.client.drive import (
    choose_bot,
    click_action,
    confirm_join,
    kinds,
    let_in,
    make_window,
    open_room,
    preferred,
    stop_all,
)


def listed(qtbot: Any, qloop: Any, address: str, code: str) -> bool:
    """Whether room ``code`` is in the relay's listing (whose cards show doors, not codes)."""
    task = qloop.create_task(list_rooms(address, 2))
    qtbot.waitUntil(task.done, timeout=10_000)
    return any(card.is_room(code) for card in task.result())


def ask_to_join(qtbot: Any, window: Any, address: str, code: str, seat: int | None, host: Any = None) -> None:
    """Join by the room code (seeing the host's name and key first); with ``host`` the host lets us in."""
    lobby = window.lobby
    lobby.online.relay.setCurrentText(address)
    lobby.online.room.setText(code)
    lobby.online.seat_wish.setCurrentIndex(lobby.online.seat_wish.findData(seat))
    qtbot.mouseClick(lobby.online.join, Qt.MouseButton.LeftButton)
    confirm_join(qtbot, lobby)
    if host is not None:
        let_in(qtbot, host, window.settings.name)


def test_pick_seats_fill_one_with_a_bot_and_play_to_the_end(qtbot, qloop, relay, tmp_path):
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    hosting = open_room(qtbot, host_window, relay.address, 3, listed=True)
    panel = host_window.lobby.room_panel
    code = hosting.code
    assert code in panel.title.text() and kinds(hosting) == ["you", "free", "free"]
    assert not panel.start_button.isEnabled()

    # A joiner asks for seat 3 and gets it (in order of joining it would have been seat 2).
    ask_to_join(qtbot, guest_window, relay.address, code, 2, host_window)
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "free", "player"], timeout=10_000)
    guest_lobby = guest_window.lobby
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == tr("room.waiting_start", seat=3), timeout=5_000)
    assert guest_lobby.room_panel.rows[2][1].text() == tr("room.you", name="Guest")
    assert panel.rows[2][1].text() == "Guest"

    # The host moves to seat 2; seat 1 (which opens the game) is then for the host's bots only.
    qtbot.mouseClick(panel.rows[1][3], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: kinds(hosting) == ["bots-only", "you", "player"], timeout=5_000)
    assert panel.rows[0][1].text() == tr("room.bots_only") and not panel.rows[1][3].isVisible()
    qtbot.waitUntil(lambda: guest_lobby.room_panel.rows[1][1].text() == "Host", timeout=5_000)

    # Somebody else asks for the same seat: refused, with a message, and no room panel left open.
    late = make_window(qtbot, tmp_path, "Late")
    ask_to_join(qtbot, late, relay.address, code, 2)
    taken = NetError("seat-taken", code=code, seat=3).message()
    qtbot.waitUntil(lambda: late.lobby.online.status.text() == taken, timeout=10_000)
    assert late.lobby.online.status.property("error") == "true"
    assert not late.lobby.room_panel.isVisible() and late.game is None and late.lobby.online.join.isEnabled()
    ask_to_join(qtbot, late, relay.address, code, 5)  # a 3-seat room has no seat 6
    missing = NetError("no-such-seat", code=code, seat=6, total=3).message()
    qtbot.waitUntil(lambda: late.lobby.online.status.text() == missing, timeout=10_000)

    # The empty seat becomes a greedy bot; then the host starts the game.
    assert not panel.start_button.isEnabled()
    choose_bot(panel, 0, "greedy")
    qtbot.waitUntil(lambda: kinds(hosting) == ["bot", "you", "player"], timeout=5_000)
    assert panel.start_button.isEnabled()
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)

    windows = [host_window, guest_window]
    qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
    games = [w.game for w in windows]
    assert [g.human for g in games] == [1, 2]
    bot_name = games[0].bots[0].name
    assert games[0].names == games[1].names == [bot_name, "Host", "Guest"]
    assert not host_window.lobby.room_panel.isVisible() and not guest_lobby.room_panel.isVisible()
    bot_session = games[0].bots[0].session
    assert bot_session.seat == 0 and games[0].session is not bot_session

    turn = 0
    while not all(g.over() is not None for g in games):
        qtbot.waitUntil(
            lambda: any(g.human_to_move() for g in games) or all(g.over() is not None for g in games), timeout=20_000
        )
        for window, game in zip(windows, games, strict=True):
            if game.human_to_move():
                click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
                turn += 1
        assert turn < 800, "the game did not end"
    assert turn > 0 and len(games[0].history) > turn, "both people and the bot took decisions"
    assert games[0].bots[0].driver.decisions > 0, "the bot played its seat"

    qtbot.waitUntil(
        lambda: all(g.verdict is not None for g in games) and bot_session.verdict is not None, timeout=30_000
    )
    assert [g.verdict.fair for g in games] == [True, True] and bot_session.verdict.fair
    hashes = {g.state.hash() for g in games} | {g.session.state.hash() for g in games} | {bot_session.state.hash()}
    assert len(hashes) == 1, "every window, every session and the bot end on the same state"
    for window in windows:
        qtbot.mouseClick(window.game_screen.table.report_button, Qt.MouseButton.LeftButton)
        assert window.report.verdict_text.text() == tr("report.net_fair")
    qtbot.waitUntil(lambda: not listed(qtbot, qloop, relay.address, code), timeout=10_000)
    stop_all(qtbot, games)


def test_the_host_in_seat_one_against_a_random_bot(qtbot, qloop, relay, tmp_path):
    """The other arrangement: the host writes the genesis itself and its bot joins it, over the relay."""
    window = make_window(qtbot, tmp_path, "Host")
    hosting = open_room(qtbot, window, relay.address, 2)
    panel = window.lobby.room_panel
    assert not panel.rows[0][2].isVisible() and not panel.rows[0][3].isVisible(), "no choice on the host's own seat"
    choose_bot(panel, 1, "random")
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "bot"], timeout=5_000)
    # The panel shows the bot as soon as it is seated (not as a person, with no choice to change it).
    assert panel.rows[1][2].isVisible() and panel.rows[1][2].currentData() == "random"
    choose_bot(panel, 1, "greedy")  # a change of mind: another bot, with new keys
    qtbot.waitUntil(lambda: hosting.rows()[1].bot == "greedy", timeout=5_000)
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
    game = window.game
    assert game.human == 0 and len(game.bots) == 1 and game.bots[0].kind == "greedy"
    turn = 0
    while game.over() is None:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
        if game.human_to_move():
            click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
            turn += 1
        assert turn < 400
    bot_session = game.bots[0].session
    qtbot.waitUntil(lambda: game.verdict is not None and bot_session.verdict is not None, timeout=30_000)
    assert game.verdict.fair and bot_session.verdict.fair
    assert game.state.hash() == bot_session.state.hash()
    qtbot.waitUntil(lambda: not listed(qtbot, qloop, relay.address, hosting.code), timeout=10_000)
    stop_all(qtbot, [game])


def test_cancel_frees_the_seat_closes_the_room_and_returns_to_the_lobby(qtbot, qloop, relay, tmp_path):
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host_lobby, guest_lobby = host_window.lobby, guest_window.lobby
    hosting = open_room(qtbot, host_window, relay.address, 3, listed=True)
    code = hosting.code
    qtbot.waitUntil(lambda: listed(qtbot, qloop, relay.address, code), timeout=10_000)

    # A joiner who cancels gives the seat back at once.
    ask_to_join(qtbot, guest_window, relay.address, code, None, host_window)
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "player", "free"], timeout=10_000)
    qtbot.mouseClick(guest_lobby.room_panel.cancel_button, Qt.MouseButton.LeftButton)
    assert not guest_lobby.room_panel.isVisible() and guest_lobby.online.join.isEnabled()
    assert guest_lobby.online.status.text() == tr("room.left", code=code)
    assert guest_lobby.online.status.property("error") == "false"
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "free", "free"], timeout=10_000)

    # The joiner comes back; the host cancels: the room leaves the listing, the joiner is told.
    ask_to_join(qtbot, guest_window, relay.address, code, None, host_window)
    qtbot.waitUntil(lambda: kinds(hosting) == ["you", "player", "free"], timeout=10_000)
    qtbot.mouseClick(host_lobby.room_panel.cancel_button, Qt.MouseButton.LeftButton)
    assert host_lobby.hosting is None and not host_lobby.room_panel.isVisible()
    assert host_lobby.online.status.text() == tr("room.closed", code=code)
    assert host_lobby.online.status.property("error") == "false"
    assert host_lobby.online.host.isEnabled() and host_window.stack.currentWidget() is host_lobby
    qtbot.waitUntil(lambda: not listed(qtbot, qloop, relay.address, code), timeout=10_000)
    closed = NetError("room-closed", code=code).message()
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == closed, timeout=10_000)
    assert not guest_lobby.room_panel.isVisible() and guest_window.game is None

    # Leaving the lobby screen while hosting does the same as Cancel.
    again = open_room(qtbot, host_window, relay.address, 2, listed=True)
    qtbot.waitUntil(lambda: listed(qtbot, qloop, relay.address, again.code), timeout=10_000)
    host_window.start_local("system-launch", 2)
    assert host_lobby.hosting is None and host_window.game_screen is not None
    qtbot.waitUntil(lambda: not listed(qtbot, qloop, relay.address, again.code), timeout=10_000)
    host_window.game_screen.timer.stop()


def test_a_wrong_relay_while_hosting_says_so_and_leaves_no_panel(qtbot, qloop, tmp_path):
    window = make_window(qtbot, tmp_path, "Host")
    lobby = window.lobby
    lobby.online.relay.setCurrentText("127.0.0.1:1")
    qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
    unreachable = NetError("unreachable", address="127.0.0.1:1").message()
    qtbot.waitUntil(lambda: lobby.online.status.text() == unreachable, timeout=10_000)
    assert lobby.hosting is None and not lobby.room_panel.isVisible() and lobby.online.host.isEnabled()


def test_a_lan_room_with_a_bot_plays_to_the_end(qtbot, qloop, tmp_path, monkeypatch):
    """The LAN path: the embedded relay this window starts, the same room panel, a bot in the other seat."""
    monkeypatch.setattr(transport, "LAN_INTERFACES", ["127.0.0.1"])
    monkeypatch.setattr(lan, "LAN_PORTS", (0,))
    window = make_window(qtbot, tmp_path, "Host")
    lobby = window.lobby
    lobby.local.players.setValue(2)
    game = None
    try:
        qtbot.mouseClick(lobby.lan.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: lobby.hosting is not None and lobby.room_panel.isVisible(), timeout=15_000)
        hosting = lobby.hosting
        assert hosting.address == parse_relay_address(hosted_relay().address)
        choose_bot(lobby.room_panel, 1, "random")
        qtbot.waitUntil(lambda: kinds(hosting) == ["you", "bot"] and lobby.room_panel.start_button.isEnabled())
        qtbot.mouseClick(lobby.room_panel.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
        game = window.game
        turn = 0
        while game.over() is None:
            qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
            if game.human_to_move():
                click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
                turn += 1
            assert turn < 400
        qtbot.waitUntil(lambda: game.verdict is not None, timeout=30_000)
        assert game.verdict.fair and game.state.hash() == game.bots[0].session.state.hash()
    finally:
        if game is not None:
            stop_all(qtbot, [game])
        stop = qloop.create_task(stop_lan_relay())
        qtbot.waitUntil(stop.done, timeout=5_000)
