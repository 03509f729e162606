"""Nothing lost when the program closes: kept seats, "Games in progress", the offer after a crash, slow games.

The correspondence game is played by the real window (its lobby, room panel and table) against a
headless peer in its own process and a bot the window runs, on a real Mosquitto: the host picks an
answer time of a day, goes back to the lobby and resumes, quits (asked, the seat kept), the headless
peer is killed too; everything is started again, the game is resumed from the list and finished fair.
"""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from client.i18n import tr
from client.net import transport
from client.net.address import _KNOWN, parse_relay_address, use_relay_settings
from client.net.game import NetGame
from client.net.lan import hosted_relay, stop_lan_relay
from client.net.resume import resume_online
from client.screens.lobby import answer_time
from client.store import kept_seats
from protocol import session as session_mod
from protocol.crypto import signing
from protocol.schema import MIN_TIMEOUT_MS
from relay.transport.room import monotonic_ms
from tests.client.drive import click_action, let_in, make_window, preferred
from tests.relay.helpers import Peer, mosquitto

DAY = 86_400_000


@pytest.fixture
def questions(monkeypatch):
    """Every question asked, each answered with the next reply queued (Yes when none is)."""
    asked: list[str] = []
    replies: list[QMessageBox.StandardButton] = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return replies.pop(0) if replies else QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked, replies


def _seat(room: str, **fields) -> kept_seats.SavedSeat:
    base = dict(
        room=room,
        seat=1,
        game="system-launch",
        relay="127.0.0.1:1",
        peer="p" + room.lower(),
        creator=bytes(32),
        sign=bytes(range(32)),
        secret=bytes(range(1, 33)),
        names=["Ann", "Tester", "Cid"],
        turn="Ann",
        turn_seat=0,
        started=1_700_000_000.0,
        last_activity=1_700_000_600.0,
        timeout_ms=DAY,
    )
    base.update(fields)
    return kept_seats.SavedSeat(**base)


def _play(qtbot, window, decisions: int, limit: int | None = None) -> int:
    """Click through ``decisions`` of the window's own decisions (or to the end of the game)."""
    game, done = window.game, 0
    while game.over() is None and (limit is None or done < limit):
        qtbot.waitUntil(lambda: game.human_to_move() or game.over() is not None, timeout=20_000)
        if game.over() is None:
            click_action(qtbot, window.game_screen, preferred(game.legal(), decisions + done))
            done += 1
    return done


def test_the_games_in_progress_list_shows_kept_seats_and_a_clear_line_for_a_damaged_one(qtbot, window, private_config):
    lobby = window.lobby
    assert not lobby.saved.isVisible(), "no kept seat: no list"
    waiting = kept_seats.save(_seat("WAITIN"), private_config)
    kept_seats.save(_seat("MYTURN", turn="Tester", turn_seat=1, last_activity=1_700_000_900.0), private_config)
    kept_seats.save(_seat("ENDED1", finished=True, verdict="fair"), private_config)
    kept_seats.save(_seat("GAVEUP", left=True), private_config)
    broken = kept_seats.games_dir(private_config) / "BROKEN-p1"
    broken.mkdir()
    (broken / kept_seats.INFO_FILE).write_text("{not json")
    (broken / kept_seats.KEY_FILE).write_bytes(b"\xc1")
    half = kept_seats.games_dir(private_config) / "HALF-p2"
    half.mkdir()
    (half / kept_seats.INFO_FILE).write_text(json.dumps(waiting.public()))  # the key file is missing

    lobby.show_saved_games()
    assert lobby.saved.isVisible() and lobby.saved.title.text() == tr("saved.title")
    texts = [lobby.saved.games.item(i).text() for i in range(lobby.saved.games.count())]
    assert len(texts) == 4, texts  # the finished game and the given-up seat are not listed
    assert "MYTURN" in texts[0] and tr("saved.your_turn") in texts[0], "newest activity first"
    assert "WAITIN" in texts[1] and tr("saved.turn_of", name="Ann") in texts[1]
    for text in texts[:2]:
        assert tr("game.system-launch") in text and "Ann, " + tr("room.you", name="Tester") + ", Cid" in text
    assert "2023-11-14" in texts[1], "the last activity is shown"
    assert "BROKEN-p1" in texts[2] + texts[3] and "HALF-p2" in texts[2] + texts[3]
    assert any("missing" in t for t in texts[2:]) and any("damaged" in t for t in texts[2:])
    assert not lobby.saved.games.item(2).flags() & Qt.ItemFlag.ItemIsSelectable, "a damaged line cannot be resumed"

    asked: list[object] = []
    lobby.resume_requested.disconnect(window.resume_saved)  # only the request is looked at: no relay is dialled
    lobby.resume_requested.connect(asked.append)
    assert not lobby.saved.resume_button.isEnabled()
    lobby.saved.games.setCurrentRow(1)
    assert lobby.saved.resume_button.isEnabled()
    qtbot.mouseClick(lobby.saved.resume_button, Qt.MouseButton.LeftButton)
    assert [s.room for s in asked] == ["WAITIN"]
    assert (broken / kept_seats.INFO_FILE).read_text() == "{not json", "nothing in a damaged folder is touched"


def test_after_a_crash_the_program_offers_to_go_back_to_its_game(qtbot, private_config, questions, monkeypatch):
    from client.screens.window.main import MainWindow
    from client.store.settings import Settings

    asked, replies = questions
    kept = kept_seats.save(_seat("CRASHD"), private_config)
    resumed: list[str] = []
    monkeypatch.setattr(MainWindow, "resume_saved", lambda self, seat: resumed.append(seat.room))

    def start() -> MainWindow:
        win = MainWindow(settings=Settings(name="Tester", bot_delay_ms=0), config=private_config)
        qtbot.addWidget(win)
        return win

    # Closed properly: nothing is asked.
    assert start().offer_resume() is None and asked == []
    # At the table when the program died: the mark is there at the next start; "No" leaves the seat listed.
    kept_seats.mark_playing(kept, private_config)
    replies.append(QMessageBox.StandardButton.No)
    assert start().offer_resume() is None
    assert asked == [tr("resume.offer", game=tr("game.system-launch"), room="CRASHD")] and resumed == []
    assert kept_seats.crashed_in(private_config) is None, "asked once"
    assert [s.room for s in kept_seats.in_progress(private_config)] == ["CRASHD"]
    # "Yes" resumes it.
    kept_seats.mark_playing(kept, private_config)
    window = start()
    assert window.offer_resume() is not None and resumed == ["CRASHD"]
    # A game that ended meanwhile is not offered.
    kept.finished = True
    kept_seats.write_public(kept)
    kept_seats.mark_playing(kept, private_config)
    assert start().offer_resume() is None and len(asked) == 2


def test_a_joiner_refuses_a_genesis_whose_answer_time_is_outside_30_s_to_7_days(qtbot, qloop, relay, tmp_path):
    PeerSession = session_mod.PeerSession
    keys = [signing.SigningKey.generate(bytes([i + 61]) * 32) for i in range(2)]
    secrets = [bytes([i + 71]) * 32 for i in range(2)]
    seats = [PeerSession.seat_card(n, keys[i], secrets[i]) for i, n in enumerate(["Far", "Near"])]
    too_short = MIN_TIMEOUT_MS - 1  # (above 7 days the genesis schema itself refuses to carry it)
    host = PeerSession.create(
        "SHORTR", "system-launch", {}, seats, keys[0], secrets[0], too_short, monotonic_ms(), dev_timeout_ms=too_short
    )
    joiner = PeerSession.join("SHORTR", 1, keys[1], secrets[1], creator=keys[0].public_bytes())
    windows = [make_window(qtbot, tmp_path, n) for n in ("Far", "Near")]
    games = [NetGame(s, relay.address, f"long{i}") for i, s in enumerate((host, joiner))]
    for window, game in zip(windows, games, strict=True):
        window.start_network(game)
    qtbot.waitUntil(lambda: windows[1].message_box is not None, timeout=20_000)
    text = windows[1].message_box.text()
    assert text.startswith(tr("resume.genesis_refused", reason="")) and "outside 30 s .. 7 days" in text
    assert joiner.table is None and windows[1].game_screen is None, "the game is not played"
    for game in games:
        game.stop()


def test_a_correspondence_game_closed_everywhere_is_reopened_and_finished_fair(
    qtbot, qloop, mosquitto_path, tmp_path, questions, monkeypatch
):
    asked, _ = questions
    broker = mosquitto(mosquitto_path, tmp_path).start()
    guest = None
    try:
        window = make_window(qtbot, tmp_path, "Host")
        config = tmp_path / "Host"
        lobby, panel = window.lobby, window.lobby.room_panel
        lobby.local.players.setValue(3)
        lobby.online.relay.setCurrentText(broker.address)
        qtbot.mouseClick(lobby.online.host, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: lobby.hosting is not None and panel.isVisible(), timeout=10_000)
        hosting = lobby.hosting
        hosting.options = {"protections_to_win": 2}  # a longer game: it must outlast the closes

        # The host picks an answer time of a day: the invitation says it, the room's card carries it.
        assert panel.answer_choice.isVisible() and panel.answer_choice.currentData() == 120_000
        day = panel.answer_choice.findData(DAY)
        panel.answer_choice.setCurrentIndex(day)
        panel.answer_choice.activated.emit(day)
        assert tr("room.invitation_answer", answer=answer_time(DAY)) in panel.invite.text()
        assert answer_time(DAY) == "1 day" and answer_time(30_000) == "30 seconds" and answer_time(90_000) == "90 s"
        qtbot.waitUntil(lambda: hosting.lobby.timeout_ms == DAY, timeout=10_000)

        guest = Peer(
            1,
            ["--join", panel.link, "--seat-bot", "greedy", "--name", "Corr", "--state-dir", str(tmp_path / "corr")],
            tmp_path / "corr",
            tmp_path / "corr.out",
        ).start()
        let_in(qtbot, window, "Corr")
        qtbot.waitUntil(lambda: [r.kind for r in hosting.rows()] == ["you", "player", "free"], timeout=10_000)
        panel.rows[2][2].setCurrentIndex(1)  # the last seat: a bot this window plays
        panel.rows[2][2].activated.emit(1)
        qtbot.waitUntil(panel.start_button.isEnabled, timeout=10_000)

        # Kept before the seat's first entry: when the table is handed over, the files are on disk already.
        kept_at_start: list[bool] = []
        lobby.network_game.connect(
            lambda game: kept_at_start.append(
                game.saved is not None and (game.saved.folder / kept_seats.KEY_FILE).is_file()
            )
        )
        qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
        assert kept_at_start == [True]
        assert "answer time 86400 s" in guest.text(), "the joiner read the day in the room's card"
        game = window.game
        assert game.session.table.timeout_ms == DAY
        _play(qtbot, window, 0, limit=1)

        # Back to the lobby: asked, the seat is listed, and taken again (the bot played on meanwhile).
        window.menus.lobby_action.trigger()
        assert asked[-1] == tr("confirm.abandon_net_kept", answer="1 day")
        assert window.game is None and lobby.saved.isVisible() and lobby.saved.games.count() == 1
        lobby.saved.games.setCurrentRow(0)
        qtbot.mouseClick(lobby.saved.resume_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
        assert window.game is not game and window.game.bots == game.bots, "the running bot is not started twice"
        played = _play(qtbot, window, 2, limit=1)
        assert played == 1 and window.game.over() is None, "the game must still be running for the rest of the test"

        # Quit: asked, and the seat stays resumable; the headless peer is killed: every program is closed.
        asks = len(asked)
        window.close()
        assert not window.isVisible() and len(asked) == asks + 1
        assert asked[-1] == tr("confirm.abandon_net_kept", answer="1 day")
        guest.kill()
        assert kept_seats.crashed_in(config) is None, "a clean close leaves no mark of a crash"
        [kept] = kept_seats.in_progress(config)
        assert kept.timeout_ms == DAY and kept.names[:2] == ["Host", "Corr"] and len(kept.bots) == 1

        # Everything starts again: the headless peer from its state dir, the program from its config dir.
        guest.start()
        again = make_window(qtbot, tmp_path, "Host")
        assert again.offer_resume() is None
        again.lobby.show_saved_games()
        row = again.lobby.saved.games.item(0).text()
        assert kept.room in row and "Corr" in row and (tr("saved.your_turn") in row or "Waiting for" in row)
        again.lobby.saved.games.setCurrentRow(0)
        qtbot.mouseClick(again.lobby.saved.resume_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: again.game_screen is not None, timeout=20_000)
        _play(qtbot, again, 4)
        qtbot.waitUntil(lambda: again.game.verdict is not None, timeout=30_000)
        assert again.game.verdict.fair and again.game.gone == [], "fair, and nobody was voted gone"
        assert guest.wait(30) == 0 and "verdict: fair" in guest.text() and "Gone" not in guest.text()
        qtbot.waitUntil(lambda: not kept_seats.in_progress(config), timeout=5_000)
        again.to_lobby()
        assert not again.lobby.saved.isVisible(), "the finished game left the list"
        assert (kept.folder / kept_seats.KEY_FILE).exists() and os.stat(kept.folder).st_mode & 0o777 == 0o700
        again.playing = None
    finally:
        if guest is not None:
            guest.kill()
        broker.stop()


def test_a_kept_seat_names_its_relay_without_the_password_which_is_saved_where_passwords_go(
    qtbot, qloop, window, private_config
):

    PeerSession = session_mod.PeerSession
    key, secret = signing.SigningKey.generate(bytes([81]) * 32), bytes([82]) * 32
    address = parse_relay_address("mqtt://ann:s3cret@127.0.0.1:9")  # nobody listens there
    game = NetGame(PeerSession.join("PASSWD", 1, key, secret, creator=bytes(32)), address, "ppasswd")
    kept = _seat("PASSWD", relay=str(address), sign=key.private_bytes(), secret=secret)
    game.keep(kept, private_config)
    window.start_network(game)
    text = (kept.folder / kept_seats.INFO_FILE).read_text()
    assert "s3cret" not in text and json.loads(text)["relay"] == "mqtt://ann@127.0.0.1:9"
    assert window.settings.passwords == {"mqtt://ann@127.0.0.1:9": "s3cret"}
    assert "s3cret" in (private_config / "relay-passwords.json").read_text()
    _KNOWN.clear()  # a new run: only the saved settings know the password
    use_relay_settings(window.settings.relay_profiles())
    assert parse_relay_address(kept.relay).password == "s3cret", "a resume finds it again"
    game.stop()


def test_a_lan_room_this_machine_hosted_gets_its_relay_back_on_the_same_port(qtbot, qloop, private_config, monkeypatch):
    import socket

    monkeypatch.setattr(transport, "LAN_INTERFACES", ["127.0.0.1"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    key = signing.SigningKey.generate(bytes([91]) * 32)
    kept = _seat("LANHST", seat=0, relay=f"127.0.0.1:{port}", lan_port=port, sign=key.private_bytes())
    task = qloop.create_task(resume_online(kept, "Tester"))
    qtbot.waitUntil(task.done, timeout=10_000)
    try:
        game = task.result()
        assert hosted_relay() is not None and hosted_relay().address.endswith(f":{port}")
        assert game.relay.port == port and game.session.seat == 0
    finally:
        stop = qloop.create_task(stop_lan_relay())
        qtbot.waitUntil(stop.done, timeout=10_000)
