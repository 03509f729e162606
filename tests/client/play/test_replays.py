"""A networked game in which a silent seat's cards were set aside replays to the same final state."""

from __future__ import annotations

from client.play.replays import SignedReplay
from tests.protocol.departures import POINTS, assert_forfeit_played_out, play_with, vanishing


def test_the_replay_of_a_game_with_cards_set_aside_matches_the_peers():
    peers = play_with(4, b"client/set-aside", 2, vanishing(POINTS["keys-mid-game"]))
    assert_forfeit_played_out(peers, 2)
    replay = SignedReplay(peers[0].save())
    assert replay.final.hash() == peers[0].table.state.hash()
    assert replay.final.out == peers[0].table.state.out
