"""Invitations and approval in the desktop program, through the real lobby widgets and the embedded relay.

The host's room panel shows the invitation (link and words); a joiner with only a room code sees the
host's name, key fingerprint and answer time before asking; the host lets people in, turns them
away, or removes them before the start; an unlisted room is joined by its invitation only; the
joiner's game believes only a genesis by the host it was shown.
"""

from __future__ import annotations

from typing import Any

import msgpack
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from client.i18n import tr
from client.net.address import parse_relay_address
from client.net.errors import NetError
from client.net.hosting import Hosting
from client.net.joining import join_online
from client.store.identity import signing_key
from protocol.crypto.signing import SigningKey
from protocol.events import Rejected
from protocol.session import PeerSession
from protocol.table import SeatInfo
from relay.lobby.invitation import fingerprint, readable
from relay.lobby.listing import list_rooms
from tests.client.drive import let_in, make_window, request_row


def listed(qtbot: Any, qloop: Any, address: str, code: str) -> bool:
    """Whether room ``code`` is in the relay's listing (whose cards show doors, not codes)."""
    task = qloop.create_task(list_rooms(address, 2))
    qtbot.waitUntil(task.done, timeout=10_000)
    return any(card.is_room(code) for card in task.result())


def test_invite_refuse_remove_let_in_and_play(qtbot, qloop, relay, tmp_path):
    host_window, guest_window = make_window(qtbot, tmp_path, "Host"), make_window(qtbot, tmp_path, "Guest")
    host_lobby, guest_lobby = host_window.lobby, guest_window.lobby
    host_fp = fingerprint(signing_key(tmp_path / "Host").public_bytes())
    guest_fp = fingerprint(signing_key(tmp_path / "Guest").public_bytes())

    # An unlisted room: its panel shows the invitation, the copy button copies the link.
    host_lobby.local.players.setValue(3)
    host_lobby.online.relay.setCurrentText(relay.address)
    host_lobby.online.listed.setChecked(False)
    qtbot.mouseClick(host_lobby.online.host, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: host_lobby.hosting is not None and "1 of 3" in host_lobby.online.status.text())
    hosting, panel = host_lobby.hosting, host_lobby.room_panel
    code = hosting.code
    link = panel.link
    assert link == f"sealed://{relay.address}/{code}#{host_fp}.{hosting.room_host.token}"
    assert panel.invite.isVisible() and readable(host_fp) in panel.invite.text() and link in panel.invite.text()
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == link
    assert not listed(qtbot, qloop, relay.address, code), "an unlisted room is not in the listing"

    # The guest has only the code: an unlisted room is sealed from the relay by its host's key too, so the
    # code alone does not find it, and the lobby says what else to ask for.
    guest_lobby.online.relay.setCurrentText(relay.address)
    guest_lobby.online.room.setText(code)
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)
    not_listed = NetError("room-not-listed", code=code).message()
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == not_listed, timeout=10_000)
    assert hosting.requests() == [], "nothing reached the host"
    gpanel = guest_lobby.room_panel
    # With the words read out (the code and the host key), it asks at once.
    guest_lobby.online.host_key.setText(readable(host_fp))
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)

    # The request waits for the host, with the guest's key; the host turns it away.
    qtbot.waitUntil(lambda: request_row(panel, "Guest") is not None, timeout=10_000)
    any_seat = tr("lobby.net.any_seat")
    plain = tr("room.request", name="Guest", key=readable(guest_fp), seat=any_seat)
    assert request_row(panel, "Guest")[0].text() == plain, "asked with the words: not marked"
    assert [r.kind for r in hosting.rows()] == ["you", "free", "free"]
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == tr("room.waiting_host", host="Host"), timeout=5_000)
    qtbot.mouseClick(request_row(panel, "Guest")[2], Qt.MouseButton.LeftButton)
    refused = NetError("refused-by-host", code=code).message()
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == refused, timeout=10_000)
    assert not gpanel.isVisible() and guest_lobby.online.join.isEnabled()
    qtbot.waitUntil(lambda: request_row(panel, "Guest") is None, timeout=5_000)

    # The guest pastes the invitation (its request proves the link); the host lets it in, then takes it
    # out again before the start.
    guest_lobby.online.room.setText(link)
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)
    invited = tr("room.request_invited", name="Guest", key=readable(guest_fp), seat=any_seat)
    qtbot.waitUntil(lambda: request_row(panel, "Guest") is not None, timeout=10_000)
    assert request_row(panel, "Guest")[0].text() == invited
    let_in(qtbot, host_window, "Guest")
    qtbot.waitUntil(lambda: [r.kind for r in hosting.rows()] == ["you", "player", "free"], timeout=10_000)
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == tr("room.waiting_start", seat=2), timeout=10_000)
    remove = panel.rows[1][4]
    assert remove.isVisible() and remove.text() == tr("room.remove")
    qtbot.mouseClick(remove, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: guest_lobby.online.status.text() == refused, timeout=10_000)
    assert [r.kind for r in hosting.rows()] == ["you", "free", "free"]

    # Let in for good; the third seat is a bot of the host's; start.
    guest_lobby.online.room.setText(link)
    qtbot.mouseClick(guest_lobby.online.join, Qt.MouseButton.LeftButton)
    let_in(qtbot, host_window, "Guest")
    qtbot.waitUntil(lambda: [r.kind for r in hosting.rows()] == ["you", "player", "free"], timeout=10_000)
    choice = panel.rows[2][2]
    choice.setCurrentIndex(choice.findData("greedy"))
    choice.activated.emit(choice.currentIndex())
    qtbot.waitUntil(panel.start_button.isEnabled, timeout=10_000)
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    windows = [host_window, guest_window]
    qtbot.waitUntil(lambda: all(w.game is not None for w in windows), timeout=20_000)
    games = [w.game for w in windows]
    assert games[1].human == 1

    qtbot.waitUntil(lambda: all(g.started for g in games), timeout=20_000)
    assert games[0].names == games[1].names and games[1].names[:2] == ["Host", "Guest"]
    for game in games:
        game.stop()
    qtbot.waitUntil(lambda: all(bot.task is not None and bot.task.done() for bot in games[0].bots), timeout=10_000)


def test_the_desktop_join_path_refuses_a_strangers_genesis(tmp_path):
    """A stranger who reads the guest's retained request writes a genesis with its keys: the NetGame refuses it."""
    import asyncio

    from relay.broker.embedded import EmbeddedRelay, RelayConfig

    async def main() -> None:
        embedded = EmbeddedRelay(RelayConfig(host="127.0.0.1", port=0, advertise=False))
        await embedded.start()
        try:
            address = parse_relay_address(embedded.address)
            hosting = Hosting(address, "system-launch", 2, "Host", tmp_path / "Host")
            hosted = asyncio.create_task(hosting.run())
            while hosting.room_host._client is None:
                await asyncio.sleep(0.02)
            fp = hosting.invitation().fingerprint
            joined = asyncio.create_task(
                join_online(str(address), hosting.code, "Guest", identity_dir=tmp_path / "Guest", fingerprint=fp)
            )
            while not hosting.requests():
                await asyncio.sleep(0.02)
            request = hosting.room_host.waiting[hosting.requests()[0].peer]
            guest = SeatInfo(**msgpack.unpackb(request.card))
            mallory, secret = SigningKey.generate(), bytes(range(32))
            seats = [PeerSession.seat_card("Mallory", mallory, secret), guest]
            fake = PeerSession.create(hosting.code, "system-launch", {}, seats, mallory, secret, now_ms=0)
            fake_bytes = bytes(fake.take_outgoing()[0].data)
            await hosting.accept(request.peer)
            host_game, guest_game = await hosted, await joined
            events = guest_game.session.receive(fake_bytes, 0)
            assert any(isinstance(e, Rejected) and "creator" in e.reason for e in events), events
            assert guest_game.session.table is None, "the stranger's genesis did not start the guest's game"
            genesis = host_game.session.take_outgoing()[0].data
            guest_game.session.receive(bytes(genesis), 0)
            assert guest_game.session.table is not None
            await hosting.room_host.close()
        finally:
            await embedded.stop()

    asyncio.run(main())
