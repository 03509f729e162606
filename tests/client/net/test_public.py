"""The public relays in the lobby: offered by default in the internet section, a room opened on the first that
answers with the others as fallbacks; and a local or LAN game never contacts any of them.

Public brokers cannot be reached from here: the table's addresses are replaced by local stand-ins
(``relay.public.ENV_OVERRIDE``) that count every connection made to them.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from client.net import lan, transport
from client.net.address import parse_relay_address
from client.net.errors import NetError
from client.net.lan import stop_lan_relay
from client.net.public import first_answering, playable, public_line
from relay.public import ENV_OVERRIDE, PUBLIC_BROKERS, RETAIN_OFF
from tests.client.drive import make_window
from tests.relay.helpers import TcpProxy
from tests.relay.public_emulation import emulate


class Counting:
    """A listener that counts the connections made to it and closes each at once (no relay answers there)."""

    def __init__(self) -> None:
        self.count = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            self.count += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self._listener.close()


class CountingProxy(TcpProxy):
    """A proxy to a real relay that counts the connections made through it."""

    accepted = 0

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:  # one per connection accepted
        self.accepted += 1
        super()._pipe(a, b)


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Counting]]:
    listeners = [Counting(), Counting()]
    monkeypatch.setenv(ENV_OVERRIDE, ", ".join(f"mqtts://127.0.0.1:{c.port}" for c in listeners))
    yield listeners
    for c in listeners:
        c.close()


def test_local_and_lan_games_never_contact_a_public_relay(qtbot, qloop, tmp_path, monkeypatch, stand_ins):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(transport, "LAN_INTERFACES", ["127.0.0.1"])
    monkeypatch.setattr(lan, "LAN_PORTS", (0,))
    window = make_window(qtbot, tmp_path, "Host")
    lobby = window.lobby
    assert lobby.online.relay.currentText() == public_line(), "the internet section offers the public relays"
    lobby.local.players.setValue(2)
    try:
        qtbot.mouseClick(lobby.lan.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: lobby.hosting is not None and lobby.room_panel.isVisible(), timeout=15_000)
        qtbot.mouseClick(lobby.room_panel.cancel_button, Qt.MouseButton.LeftButton)
        assert lobby.hosting is None
        window.start_local("system-launch", 2)
        assert window.game_screen is not None
        window.game_screen.timer.stop()
    finally:
        stop = qloop.create_task(stop_lan_relay())
        qtbot.waitUntil(stop.done, timeout=5_000)
    assert [c.count for c in stand_ins] == [0, 0]


def test_a_room_opens_on_the_first_public_relay_that_answers_with_the_others_as_fallbacks(  # type: ignore[no-untyped-def]
    qtbot, qloop, relay, tmp_path, monkeypatch
):
    dead = Counting()
    proxy = CountingProxy(int(relay.address.rsplit(":", 1)[1]))
    monkeypatch.setenv(ENV_OVERRIDE, f"127.0.0.1:{dead.port}, {proxy.address}")
    try:
        window = make_window(qtbot, tmp_path, "Host")
        lobby = window.lobby
        assert lobby.online.relay.currentText() == public_line() == f"127.0.0.1:{dead.port}, {proxy.address}"
        qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: lobby.hosting is not None and lobby.room_panel.isVisible(), timeout=15_000)
        hosting = lobby.hosting
        assert hosting.address == parse_relay_address(proxy.address), "opened on the first that answers"
        assert hosting.fallbacks == (f"127.0.0.1:{dead.port}",), "the others are its fallbacks"
        assert dead.count >= 1 and proxy.accepted >= 1, "tried in order: the dead one first"
        qtbot.mouseClick(lobby.room_panel.cancel_button, Qt.MouseButton.LeftButton)
        assert lobby.hosting is None
    finally:
        proxy.close()
        dead.close()


async def _open_where_retained_is_kept(binary: str, tmp: Path) -> None:
    off = replace(PUBLIC_BROKERS[0], retain=RETAIN_OFF)
    async with emulate(binary, off, tmp / "off") as without, emulate(binary, PUBLIC_BROKERS[1], tmp / "on") as with_:
        with pytest.raises(NetError) as refused:
            await playable(without.address)
        assert refused.value.code == "no-retain"
        relay, fallbacks = await first_answering([without.address, with_.address])
        assert relay == with_.address and fallbacks == (str(without.address),)


@pytest.mark.timeout(30)
def test_a_public_relay_with_retained_messages_off_is_passed_over_for_the_next(mosquitto_path, tmp_path) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_open_where_retained_is_kept(mosquitto_path, tmp_path))
