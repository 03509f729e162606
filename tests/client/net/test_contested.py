"""The two-seat out-wait as the desktop program shows it: no win for the aborter on either seat's screen.

The attack is staged with real sessions (``tests/protocol/contest.py``): A goes silent owing entry n,
B claims it gone and its program closes, A publishes entry n (overwriting the relay's copy of B's
claim) and then claims B gone.  Each seat's desktop program is then started again and fed what the
relay holds, as its transport feeds it (:class:`~client.net.game.NetGame`): the aborter's table
reads *contested*, with no winner in its report; the claimant's is the claimed seat's: it refuses
the claim with its own entry for that position, and play goes on, nobody has lost.
"""

from __future__ import annotations

import tests.protocol.toy_game  # noqa: F401  (registers "toy")
from client.net.game import NetGame
from client.screens.report import verdict_of
from protocol.events import CONTESTED
from protocol.session import PeerSession
from tests.protocol.contest import Room, aborted
from tests.protocol.helpers import seat_keys


def _desktop(room: Room, seat: int) -> NetGame:
    """``seat``'s desktop program started again: a NetGame fed the relay's record, as its transport does."""
    keys, secrets = seat_keys(room.seed, 2)
    game = NetGame(PeerSession.join(room.room, seat, keys[seat], secrets[seat], creator=room.creator))
    for data in room.record():
        game.feed(game.session.receive(data, room.now))
    while game.has_steps():
        game.step()
    return game


def test_neither_desktop_shows_a_win_for_the_seat_that_outwaited_the_claim() -> None:
    room, a, b, n, m = aborted(b"desktop abort")
    aborter = _desktop(room, a)
    assert aborter.verdict is not None and aborter.verdict.kind == CONTESTED, aborter.verdict
    assert f"seat {b} had claimed seat {a} gone at entry {n}" in aborter.verdict.reason
    shown = verdict_of(aborter.verdict)
    assert shown.kind == "contested" and shown.seat == -1  # what the report says: no result, nobody named
    claimant = _desktop(room, b)
    assert claimant.verdict is None, claimant.verdict  # the game is not over for the seat claimed gone at m
    session = claimant.session
    assert not session.finished and session.table is not None and session.table.claim is None
    assert session.waiting_for is not None and session.waiting_for[0] == b and session.waiting_for[1] > m
