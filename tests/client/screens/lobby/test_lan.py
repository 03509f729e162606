"""The LAN section's list of what a search found: rooms with their host's key, and relays with no room."""

from __future__ import annotations

from PySide6.QtCore import Qt

from client.i18n import tr
from client.tools.screenshots import example_search


def test_a_relay_found_with_no_room_is_handed_to_the_internet_section(qtbot, window):
    """Its address goes to the internet section, to open a room there."""
    lobby = window.lobby
    lobby.lan.show_found(example_search())
    found = lobby.lan.found
    assert found.count() == 2 and "ABCD-EFGH-JKMN-PQRS" in found.item(0).text() and "club-pc" in found.item(1).text()
    assert lobby.lan.status.text() == tr(
        "lobby.lan.rooms_found", relays=tr("lobby.lan.found", count=2), rooms=tr("lobby.lan.rooms", count=1)
    )
    assert not lobby.lan.join.isEnabled(), "nothing chosen yet"
    found.setCurrentRow(1)
    assert lobby.lan.join.isEnabled()
    qtbot.mouseClick(lobby.lan.join, Qt.MouseButton.LeftButton)
    assert lobby.online.relay.currentText() == "192.168.1.31:1883"
    assert lobby.online.status.text() == tr("lobby.net.text")
    assert not lobby.waiting() and not lobby.room_panel.isVisible()


def test_a_search_that_finds_nothing_says_so(window):
    lobby = window.lobby
    lobby.lan.show_found(([], []))
    assert lobby.lan.found.count() == 0 and lobby.lan.status.text() == tr("lobby.lan.none")
