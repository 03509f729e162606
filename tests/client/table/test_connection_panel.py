"""The table's connection panel in a network game: who is connected, the clock to a vote, an outage.

The integration test plays one seat in a window and the other as a silent headless peer (its
session writes its automatic entries and never decides), on an embedded relay the test stops
and starts again on the same port, and then cuts the silent peer off.  The panel is read as the
player sees it.  The words themselves are checked on plain states below (no clock involved).
"""

from __future__ import annotations

from client.games.kit import kit_for
from client.i18n import tr
from client.net.connection import GONE, OFFLINE, ONLINE, ConnectionState, SeatState
from client.net.game import NetGame
from client.table.connection_panel import clock_line, duration, forfeit_text, offline_text, seat_line
from engines.core import Decision
from protocol import session as session_mod
from protocol.crypto import signing
from relay.transport.room import Backoff, RoomTransport, monotonic_ms
from tests.client.drive import click_action, make_window, preferred, start_relay, stop_relay

#: Bob's answer time: long enough that it never runs out while the test waits on relays, however busy
#: the machine (the test reads the clock running down, never its end).
TIMEOUT_MS = 300_000
#: How long Bob's program waits before it tries a lost relay again (Ann's waits a quarter second).
BOB_BACK_S = 8.0
BOB_BACK_MS = int(BOB_BACK_S * 1000)


def test_the_panel_follows_a_relay_outage_and_a_peer_cut_off(qtbot, qloop, tmp_path):
    relay = start_relay(qtbot, qloop)
    PeerSession = session_mod.PeerSession
    room = "CONNVIEW"
    keys = [signing.SigningKey.generate(bytes([i + 41]) * 32) for i in range(2)]
    secrets = [bytes([i + 51]) * 32 for i in range(2)]
    names = ["Ann", "Bob"]
    seats = [PeerSession.seat_card(names[i], keys[i], secrets[i]) for i in range(2)]
    mine = PeerSession.create(
        room,
        "system-launch",
        {},
        seats,
        keys[0],
        secrets[0],
        TIMEOUT_MS,
        now_ms=monotonic_ms(),
        dev_timeout_ms=TIMEOUT_MS,
    )
    silent = PeerSession.join(room, 1, keys[1], secrets[1], creator=keys[0].public_bytes(), dev_timeout_ms=TIMEOUT_MS)
    # Bob's program waits longer than Ann's before it tries the relay again (it is back after her).
    slow = Backoff(base=BOB_BACK_S, cap=BOB_BACK_S)
    peer = RoomTransport(relay.address, silent, "connbob", lambda events: None, presence_info={"seat": 1}, backoff=slow)
    peer_task = qloop.create_task(peer.run())
    window = make_window(qtbot, tmp_path, "Ann")
    game = NetGame(mine, relay.address, "connann")
    window.start_network(game)
    try:
        qtbot.waitUntil(lambda: window.game_screen is not None, timeout=20_000)
        panel = window.game_screen.connection

        def bob_to_decide() -> bool:
            waiting, pending = mine.waiting_for, mine.pending
            return waiting is not None and waiting[0] == 1 and isinstance(pending, Decision) and pending.seat == 1

        turn = 0
        while not bob_to_decide():
            qtbot.waitUntil(lambda: game.human_to_move() or bob_to_decide(), timeout=20_000)
            if game.human_to_move():
                click_action(qtbot, window.game_screen, preferred(game.legal(), turn))
                turn += 1
            assert turn < 20
        # Bob is connected and silent: his row says connected, the clock to a vote runs down.
        qtbot.waitUntil(lambda: tr("conn.online", name="Bob") in panel.texts(), timeout=10_000)
        assert tr("conn.me_online", name="Ann") in panel.texts()
        qtbot.waitUntil(lambda: panel.state is not None and panel.state.owing().seat == 1, timeout=5_000)
        first = panel.state.owing().left_ms
        assert 0 < first <= TIMEOUT_MS
        assert panel.clock.text().startswith("Bob owes the next move since")
        qtbot.waitUntil(lambda: panel.state.owing().left_ms <= first - 1000, timeout=5_000)
        assert panel.clock.text() != "" and panel.forfeit.isHidden(), "nothing to explain while Bob is connected"
        before_outage = panel.state.owing().left_ms

        # The relay goes down: the panel says so, and that no clock runs here.
        port = int(relay.address.rsplit(":", 1)[1])
        stop_relay(qtbot, qloop, relay)
        qtbot.waitUntil(lambda: panel.headline.isVisible(), timeout=10_000)
        assert panel.headline.text().startswith(tr("net.offline"))
        assert tr("net.offline_alone", name="Bob") in panel.headline.text()
        assert panel.state.owing().left_ms is None
        assert panel.clock.text() == tr("conn.clock_stopped", name="Bob")
        assert tr("conn.me_offline", name="Ann") in panel.texts()
        assert not mine.finished

        # It comes back on the same port: a full answer time of grace, counted afresh from the reconnect.
        relay = start_relay(qtbot, qloop, port)
        qtbot.waitUntil(lambda: not panel.state.offline and panel.state.owing().left_ms is not None, timeout=15_000)
        assert panel.headline.isHidden()
        assert panel.state.owing().left_ms > before_outage, "the reconnect gave Bob a fresh timeout"
        # Back before Bob: what the last connection said of him is no news of him on this one.
        assert peer.connections == 1, "Bob is still away"
        assert tr("conn.online", name="Bob") not in panel.texts(), panel.texts()
        qtbot.waitUntil(lambda: tr("conn.online", name="Bob") in panel.texts(), timeout=10_000 + BOB_BACK_MS)

        # Bob's program goes away: his row says since when, and what a forfeit would do to this game.
        peer.stop()
        qtbot.waitUntil(lambda: any(t.startswith("Bob: not connected since") for t in panel.texts()), timeout=10_000)
        assert panel.forfeit.isVisible()
        assert panel.forfeit.text() == f"{tr('sl.forfeit.two')} {tr('conn.claim', name='Bob')}"
        assert not mine.finished, "Bob still has his time to come back"
    finally:
        game.stop()
        peer.stop()
        qtbot.waitUntil(peer_task.done, timeout=10_000)
        stop_relay(qtbot, qloop, relay)


def _state(*seats: SeatState, active: int, offline: bool = False) -> ConnectionState:
    return ConnectionState(offline, None, tuple(seats), TIMEOUT_MS, active)


def test_the_words_for_each_seat_the_clock_and_a_forfeit():
    names = ["Ann", "Bob", "Cleo"]
    me, cleo = SeatState(0, True, ONLINE, None), SeatState(2, False, GONE, None)
    waiting = SeatState(1, False, ONLINE, 100.0, True, 100.0, 61_000)
    state = _state(me, waiting, cleo, active=2)
    assert [seat_line(s, names) for s in state.seats] == [
        tr("conn.me_online", name="Ann"),
        tr("conn.online", name="Bob"),
        tr("conn.gone", name="Cleo"),
    ]
    assert "in 1:01" in clock_line(state, names)
    assert forfeit_text(state, names, kit_for("system-launch")) == "", "a connected seat with time left: nothing yet"

    # The moment a vote becomes possible: each game says what a forfeit does to it.
    overdue = SeatState(1, False, ONLINE, 100.0, True, 100.0, 0)
    many = _state(me, overdue, SeatState(2, False, ONLINE, None), active=3)
    assert clock_line(many, names).startswith("Bob has not answered since")
    assert forfeit_text(many, names, kit_for("system-launch")) == tr("sl.forfeit.many")
    assert forfeit_text(many, names, kit_for("collective-conflict")) == tr("cc.forfeit.many")
    two = _state(me, overdue, cleo, active=2)
    claim = tr("conn.claim", name="Bob")
    assert forfeit_text(two, names, kit_for("anomaly-maze")) == f"{tr('maze.forfeit')} {claim}"
    assert forfeit_text(two, names, kit_for("collective-conflict")) == f"{tr('cc.forfeit.two')} {claim}"

    # My own move: my deadline, and nothing to explain about me.
    own = _state(SeatState(0, True, ONLINE, None, True, 100.0, 3_605_000), SeatState(1, False, OFFLINE, 50.0), active=2)
    assert clock_line(own, names) == tr("conn.my_clock", left="1:00:05")
    assert forfeit_text(own, names, kit_for("system-launch")) == ""

    # Cut off: no clock runs here, the words say so, and whose clock may still run elsewhere.
    bob = SeatState(1, False, ONLINE, None, True, 100.0, None)
    cut = _state(SeatState(0, True, OFFLINE, 90.0), bob, active=2, offline=True)
    assert clock_line(cut, names) == tr("conn.clock_stopped", name="Bob")
    assert offline_text(cut, names) == f"{tr('net.offline')} {tr('net.offline_alone', name='Bob')}"
    assert forfeit_text(cut, names, kit_for("system-launch")) == "", "nobody is judged from a computer cut off"
    assert duration(3 * 86_400_000 + 2 * 3_600_000) == tr("conn.days", days=3, rest="2:00")
