"""Staged departures for the protocol tests: seats that vanish at a chosen point, and the checks after."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from engines.core import GameOver, SeededStream, registry
from protocol.session import PeerSession
from protocol.sim.network import TIMEOUT_MS, _create_as, _Network, classify
from protocol.table import Expect, Table
from tests.protocol.helpers import seat_keys

GAME = "system-launch"


MAX_STEPS = 400_000


#: Where a seat stops: a test of the table and the entry it owes.
Point = Callable[[Table, Expect], bool]


POINTS: dict[str, Point] = {
    "opening-deal": lambda t, e: e.type == "keys" and t.state.public()["after"] == "opening-deal",
    "keys-mid-game": lambda t, e: e.type == "keys" and t.state.round >= 2,
    "own-decision": lambda t, e: e.type == "action" and t.state.round >= 2,
}


def vanishing(point: Point) -> type[PeerSession]:
    """A seat that plays honestly until ``point``, then vanishes: it writes, votes and reads nothing."""

    class Vanish(PeerSession):
        vanished = False

        def receive(self, data: bytes, now_ms: int) -> list:
            return [] if self.vanished else super().receive(data, now_ms)

        def tick(self, now_ms: int) -> list:
            return [] if self.vanished else super().tick(now_ms)

        def submit(self, action):
            return [] if self.vanished else super().submit(action)

        def _pump(self) -> None:
            table = self.table
            exp = table.expected() if table is not None and not self.finished else None
            if not self.vanished and exp is not None and exp.writer == self.seat and point(table, exp):
                self.vanished = True
            if not self.vanished:
                super()._pump()

    return Vanish


def setup(players: int, seed: bytes, special: int, cls: type[PeerSession], bot: str = "greedy", observers: int = 0):
    """Peers for every seat (``special`` of class ``cls``), then observers, on the simulator's seeded network."""
    spec = registry.get(GAME)
    keys, secrets = seat_keys(seed, players)
    cards = [PeerSession.seat_card(f"bot {s}", keys[s], secrets[s]) for s in range(players)]
    room = "gone-" + hashlib.sha256(seed).hexdigest()[:12]
    if special == 0:
        peers = [_create_as(cls, room, GAME, {}, cards, keys[0], secrets[0])]
    else:
        peers = [PeerSession.create(room, GAME, {}, cards, keys[0], secrets[0], TIMEOUT_MS)]
    for s in range(1, players):
        kind = cls if s == special else PeerSession
        peers.append(kind(room, s, keys[s], secrets[s], creator=keys[0].public_bytes()))
    peers += [PeerSession.observe(room, creator=keys[0].public_bytes()) for _ in range(observers)]
    net = _Network(SeededStream(seed, "network"), peers, [spec.bots[bot](s, seed) for s in range(players)])
    for s, peer in enumerate(peers):
        net.handle(s, peer.take_events())
    return peers, net


def run(peers: list[PeerSession], net: _Network, must_finish: list[int], idle_ticks: int = 12) -> None:
    """Deliver; when nothing is in flight, let a timeout pass on every clock; stop when done or stuck."""
    idle = 0
    for _ in range(MAX_STEPS):
        if all(peers[s].finished for s in must_finish) or idle >= idle_ticks:
            return
        if net.step():
            idle = 0
            continue
        idle += 1
        net.now += TIMEOUT_MS
        for s, peer in enumerate(peers):
            net.handle(s, peer.tick(net.now))


def play_with(players: int, seed: bytes, silent: int, cls: type[PeerSession], bot: str = "greedy"):
    """One game over the simulated network; every peer is returned (the silent one too)."""
    peers, net = setup(players, seed, silent, cls, bot)
    run(peers, net, [s for s in range(players) if s != silent])
    return peers


def assert_forfeit_played_out(peers: list[PeerSession], silent: int) -> None:
    """The silent seat was voted gone, the game was played to its end, and all honest peers agree."""
    honest = [p for s, p in enumerate(peers) if s != silent]
    for peer in honest:
        table = peer.table
        assert peer.finished, "an honest peer never finished"
        assert table.abandoned is None, table.abandoned
        assert table.gone.get(silent, ("", 0))[0] == "silent"
        assert isinstance(table.result, GameOver)
        if not table.state.opening:  # gone during the opening: dealt again without it (SL-11), nothing set aside
            assert table.set_asides, "the silent seat's locked cards were not set aside"
        assert table.audit_done
        verdict = peer.verdict
        assert verdict is not None and not verdict.fair and verdict.seat == silent, verdict
        assert verdict.kind == "disconnected" and not verdict.cheated  # silence is not cheating
        assert classify(verdict) == f"withhold by seat {silent}"
    first = honest[0].table
    for peer in honest[1:]:
        assert peer.table.state.hash() == first.state.hash()
        assert peer.table.head_digest == first.head_digest
        assert peer.table.set_asides == first.set_asides
        assert peer.verdict == honest[0].verdict
    state = first.state
    assert not state.alive[silent]
    if state.opening:
        redeal = first.ledger.deck_for(state.opening)
        assert silent not in redeal.participants and len(redeal.slots) == 44
        assert not first.set_asides
    # Every undrawn slot of a deck the silent seat locked went out, never to a hand.
    aside = {slot for _, slots in first.set_asides for slot in slots}
    assert aside <= set(state.out)
    assert not aside & {slot for hand in state.hands for slot in hand}


def assert_all_agree(peers: list[PeerSession]) -> None:
    first = peers[0]
    for peer in peers:
        assert peer.finished, f"seat {peer.seat} is still waiting"
        assert peer.table.abandoned is None
        assert peer.table.head_digest == first.table.head_digest
        assert peer.table.state.hash() == first.table.state.hash()
