"""A LAN game: one window hosts (embedded relay, announced), another finds the room and joins.

Zeroconf is bound to 127.0.0.1 and the relay takes a free port: no traffic leaves the machine.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from client.net import lan, transport
from client.net.address import readable_fingerprint
from client.net.lan import hosted_relay, stop_lan_relay
from tests.client.drive import click_action, let_in, make_window, preferred


@pytest.fixture
def loopback_lan(monkeypatch, tmp_path):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(transport, "LAN_INTERFACES", ["127.0.0.1"])
    monkeypatch.setattr(lan, "LAN_PORTS", (0,))
    monkeypatch.setenv("SEALED_TABLE_CONFIG_DIR", str(tmp_path / "keys"))
    yield


def test_host_a_lan_game_and_join_it_from_the_found_list(qtbot, qloop, loopback_lan, tmp_path):
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host_lobby, guest_lobby = host_window.lobby, guest_window.lobby
    host_lobby.local.players.setValue(2)
    games = []
    try:
        qtbot.mouseClick(host_lobby.lan.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "1 of 2" in host_lobby.lan.status.text(), timeout=15_000)
        assert hosted_relay() is not None
        address = hosted_relay().address
        assert address in host_lobby.lan.status.text()

        qtbot.mouseClick(guest_lobby.lan.search, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "search" not in guest_lobby.busy, timeout=15_000)
        found = guest_lobby.lan.found
        rooms = [found.item(i).data(Qt.ItemDataRole.UserRole) for i in range(found.count())]
        port = address.rpartition(":")[2]
        ours = [i for i, (relay, code, _key) in enumerate(rooms) if relay.endswith(f":{port}") and code]
        assert host_lobby.hosting is not None
        fp = host_lobby.hosting.invitation().fingerprint
        assert readable_fingerprint(fp) in found.item(ours[0]).text(), "the host's key is shown"
        assert ours, (rooms, guest_lobby.lan.status.text())
        guest_lobby.lan.found.setCurrentRow(ours[0])
        qtbot.mouseClick(guest_lobby.lan.join, Qt.MouseButton.LeftButton)
        let_in(qtbot, host_window, "Guest")

        windows = [host_window, guest_window]
        qtbot.waitUntil(lambda: all(w.game_screen is not None for w in windows), timeout=20_000)
        games = [w.game for w in windows]
        assert games[0].names == games[1].names == ["Host", "Guest"]
        # The first decision of the game goes through.
        qtbot.waitUntil(lambda: any(g.human_to_move() for g in games), timeout=20_000)
        mover = next(i for i, g in enumerate(games) if g.human_to_move())
        before = len(games[1 - mover].history)
        click_action(qtbot, windows[mover].game_screen, preferred(games[mover].legal(), 0))
        qtbot.waitUntil(lambda: len(games[1 - mover].history) > before, timeout=10_000)
    finally:
        for game in games:
            game.stop()
        stop = qloop.create_task(stop_lan_relay())
        qtbot.waitUntil(stop.done, timeout=5_000)
    assert hosted_relay() is None
