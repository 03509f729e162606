"""The desktop table after a claimed win is voided (the two-seat rule).

Two seats, played by sessions in lockstep (no relay): seat 1 goes silent for longer than the
timeout, seat 0 (the player at this window) claims the win, and its table shows the game over.
Then seat 1's own entry for that seq arrives: the session voids the claim and rebuilds its
replica.  The window must follow: the mirror goes back to before the claim, the table shows the
game again, the log and the status line say the claim was voided, and play goes on to the end.
"""

from __future__ import annotations

from client.net.game import NetGame
from client.table.screen import GameScreen
from engines.core import RandomBot
from protocol.events import ClaimVoided
from tests.protocol.helpers import lockstep


class Room:
    """Two sessions in lockstep; seat 0's events go to the window's NetGame; seat 1 may be held back."""

    def __init__(self) -> None:
        self.peers = lockstep("system-launch", 2, b"claim-voided")
        self.game = NetGame(self.peers[0])
        self.bots = [RandomBot(s, b"claim-voided") for s in range(2)]
        self.held: list[bytes] = []
        self.hold = False
        self.now = 0
        self.events: list = []

    def feed(self, seat: int, events: list) -> None:
        if seat == 0:
            self.events += events
            self.game.feed(events)

    def pump(self, until=None) -> None:
        """Deliver and let bots decide until nothing moves (or ``until()``)."""
        for _ in range(100_000):
            if until is not None and until():
                return
            moved = False
            for s, peer in enumerate(self.peers):
                outs = peer.take_outgoing() + peer.take_notices()
                if s == 1 and self.hold:
                    self.held += [out.data for out in outs]
                    continue
                for out in outs:
                    self.feed(1 - s, self.peers[1 - s].receive(out.data, self.now))
                    moved = True
            if moved:
                continue
            for s, peer in enumerate(self.peers):
                table = peer.table
                exp = table.expected() if table is not None and not peer.finished else None
                if exp is not None and exp.writer == s and exp.type == "action":
                    action = self.bots[s].choose(peer.state, peer.knowledge, peer.legal_actions())
                    self.feed(s, peer.submit(action))
                    moved = True
                    break
            if not moved:
                return

    def release(self) -> None:
        self.hold = False
        held, self.held = self.held, []
        for data in held:
            self.feed(0, self.peers[0].receive(data, self.now))


def show_all(screen: GameScreen) -> None:
    screen.refresh_if_changed()
    while screen.game.has_steps():
        screen._tick()
    screen.refresh_if_changed()


def claim(room: Room) -> None:
    """Play to mid-game; seat 1 writes its entry, but it is held back longer than the timeout: seat 0 claims."""
    room.pump(until=lambda: room.peers[0].table.head >= 12 and room.peers[0].table.expected().writer == 1)
    room.hold = True
    room.pump()
    assert room.held
    room.now += room.peers[0].table.timeout_ms + 1
    room.feed(0, room.peers[0].tick(room.now))
    room.pump()
    assert room.peers[0].finished and room.peers[0].table.claim is not None


def test_the_table_goes_on_from_the_voided_claim(qtbot):
    room = Room()
    game = room.game
    room.pump(until=lambda: game.started)
    screen = GameScreen.of_network(game, 0)
    qtbot.addWidget(screen)
    claim(room)
    show_all(screen)
    assert game.over() is not None and screen.ended and game.verdict is not None
    # Seat 1's own entry arrives: the claim is void, the window shows the game again.
    room.release()
    assert any(isinstance(e, ClaimVoided) for e in room.events)
    show_all(screen)
    assert game.over() is None and not screen.ended and game.verdict is None
    assert game.in_step()  # the mirror is the session's rebuilt state
    assert "log.claim-voided" in [line.msg for line in screen.log.lines]
    assert screen.net_status.isVisibleTo(screen) and "came back" in screen.net_status.text()
    # And play goes on to a real end, the window in step with the session.
    room.pump()
    show_all(screen)
    assert room.peers[0].finished and room.peers[0].table.claim is None
    assert game.over() is not None and screen.ended and game.in_step()
    assert game.verdict is not None and game.verdict.fair


def test_a_report_open_on_the_claimed_win_gives_way_to_the_table(window):
    room = Room()
    window.start_network(room.game)
    claim(room)
    show_all(window.game_screen)
    report = window.show_report()  # the player looks at the claimed win
    assert report is not None and window.current_screen is report
    room.release()  # the claimed seat's entry: the claim is void
    assert window.report is None and window.current_screen is window.game_screen
    show_all(window.game_screen)
    assert room.game.over() is None and "came back" in window.game_screen.net_status.text()
