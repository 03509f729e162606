"""The desktop program on relays people run: TLS with the relay's own CA, WebSocket, a login.

The relay is Mosquitto with the shipped configuration's TLS, WebSocket and password file
switched on (tests/relay/secure_relay.py); every connection goes through the lobby's widgets.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from client.net.address import parse_relay_address
from client.net.errors import NetError
from client.screens.window.main import MainWindow
from client.store import settings as settings_mod
from client.store.settings import Settings
from tests.client.drive import click_action, preferred
from tests.relay.secure_relay import PASSWORD, USER, SecureRelay, secure_mosquitto


@pytest.fixture
def secure(mosquitto_path: str, tmp_path: Path) -> Iterator[SecureRelay]:
    from tests.relay.helpers import wait_port

    relay = secure_mosquitto(mosquitto_path, tmp_path)
    relay.broker.start()
    wait_port(relay.tls_port)
    wait_port(relay.ws_port)
    yield relay
    relay.broker.stop()


def window_with(qtbot: Any, settings: Settings, config: Path) -> MainWindow:
    win = MainWindow(settings=settings, config=config)
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.mark.parametrize("listener", ["tls", "ws"])
def test_host_a_game_with_a_bot_over_tls_and_websocket(qtbot, qloop, secure, tmp_path, listener):
    if listener == "tls":  # the relay's own CA, given in the relay settings; the password typed in the address
        shown = f"mqtts://{USER}@localhost:{secure.tls_port}"
        typed = f"mqtts://{USER}:{PASSWORD}@localhost:{secure.tls_port}"
        settings = Settings(name="Host", bot_delay_ms=0, relay_options={shown: {"ca_file": str(secure.ca_file)}})
    else:
        typed = secure.ws
        settings = Settings(name="Host", bot_delay_ms=0)
    window = window_with(qtbot, settings, tmp_path / "Host")
    lobby = window.lobby
    lobby.local.players.setValue(2)
    lobby.online.relay.setCurrentText(typed)
    qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: lobby.hosting is not None and "1 of 2" in lobby.online.status.text(), timeout=15_000)
    hosting = lobby.hosting
    panel = lobby.room_panel
    choice = panel.rows[1][2]
    index = choice.findData("random")
    choice.setCurrentIndex(index)
    choice.activated.emit(index)
    qtbot.waitUntil(lambda: [r.kind for r in hosting.rows()] == ["you", "bot"], timeout=10_000)
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
    game = window.game
    turn = 0
    while game.over() is None:
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
        if game.human_to_move():
            click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
            turn += 1
        assert turn < 400
    bot_session = game.bots[0].session
    qtbot.waitUntil(lambda: game.verdict is not None and bot_session.verdict is not None, timeout=30_000)
    assert game.verdict.fair and game.state.hash() == bot_session.state.hash()
    game.stop()
    qtbot.waitUntil(lambda: all(b.task is not None and b.task.done() for b in game.bots), timeout=10_000)
    # The relay is remembered without its password; the password is in a file only this user can read.
    assert PASSWORD not in json.dumps(window.settings.relays)
    config = tmp_path / "Host"
    assert PASSWORD not in (config / settings_mod.FILE_NAME).read_text()
    secret = config / settings_mod.PASSWORDS_FILE
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and PASSWORD in secret.read_text()
    assert settings_mod.load(config).relay_profiles()[window.settings.relays[0]]["password"] == PASSWORD


def test_each_failure_shows_its_sentence_in_the_lobby(qtbot, qloop, secure, tmp_path):
    window = window_with(qtbot, Settings(name="Guest", bot_delay_ms=0), tmp_path / "Guest")
    lobby = window.lobby
    cases = [
        (f"mqtts://{USER}:{PASSWORD}@localhost:{secure.tls_port}", "not-trusted"),  # our CA is not the system's
        (f"mqtt://{USER}:wrong@127.0.0.1:{secure.broker.port}", "wrong-login"),
        (f"127.0.0.1:{secure.broker.port}", "login-needed"),
        (f"mqtt://{USER}:{PASSWORD}@127.0.0.1:{secure.tls_port}", "wrong-transport"),
    ]
    for text, code in cases:
        lobby.online.set_status("")
        lobby.online.relay.setCurrentText(text)
        lobby.online.room.setText("KXPRTA")
        qtbot.mouseClick(lobby.online.join, Qt.MouseButton.LeftButton)
        address = str(parse_relay_address(text))
        # The sentence of that failure (up to the relay's own words, where it quotes them).
        expected = NetError(code, address=address, reason="\x00").message().split("\x00")[0]
        # A room code alone first shows who hosts it ("Connecting…" meanwhile): wait for the failure itself.
        qtbot.waitUntil(lambda: lobby.online.status.property("error") == "true", timeout=10_000)
        status = lobby.online.status.text()
        assert status.startswith(expected) and lobby.online.status.property("error") == "true", (code, status)
        assert PASSWORD not in status and "wrong@" not in status
