"""The lobby once a room is open: no section squashed, and no stale room line after the game."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt


def _open_room(qtbot: Any, window: Any, address: str, players: int) -> Any:
    lobby = window.lobby
    lobby.local.players.setValue(players)
    lobby.online.relay.setCurrentText(address)
    qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lobby.hosting is not None and lobby.room_panel.isVisible(), timeout=10_000)
    return lobby.hosting


def test_no_lobby_section_is_squashed_when_a_room_opens(qtbot, window, relay):
    window.resize(1280, 800)
    lobby = window.lobby
    _open_room(qtbot, window, relay.address, 3)
    qtbot.wait(50)
    for section in (lobby.local, lobby.lan, lobby.online, lobby.room_panel):
        assert section.height() >= section.minimumSizeHint().height(), (section, section.height())
    lobby.cancel_waiting()


def test_back_from_a_game_the_lobby_shows_no_stale_room_line(qtbot, window):
    lobby = window.lobby
    lobby.online.set_status("Room KXPRTA is open at 127.0.0.1:1883: 1 of 3 seats taken.")
    lobby.lan.set_status("Relays found: 1, open rooms: 0.")
    window.start_local("system-launch", 3, seed=b"stale")
    window.to_lobby()
    assert lobby.online.status.text() == "" and lobby.lan.status.text() == ""
