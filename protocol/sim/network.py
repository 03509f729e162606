"""A deterministic in-memory network of peers playing whole games (``python -m protocol simulate``).

Every peer is a real :class:`PeerSession`; the network is a seeded event queue
that delivers each published message to every other peer after a random delay,
sometimes twice, so entries arrive late, duplicated and out of order.  Clocks are
simulated milliseconds.  Bots play the seats (the engine's registered bot), all
keys and secrets come from seeded generators, and one peer may be a cheater from
:mod:`protocol.sim.cheats.catalogue`.  Same arguments, same games, same digest.
"""

from __future__ import annotations

import hashlib
import heapq
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.core import SeededStream, registry
from protocol.crypto.signing import SigningKey
from protocol.events import CONTESTED, Verdict, YourTurn
from protocol.schema import MIN_TIMEOUT_MS
from protocol.session import PeerSession
from protocol.sim.cheats.base import Cheater
from protocol.sim.cheats.catalogue import CATALOGUE, CHEATS, GAME_CATALOGUE, TamperedSave
from protocol.table import SeatCardError, SeatInfo
from protocol.verify import SaveFileError, verify_bytes

MAX_DELAY_MS = 40
#: The shortest timeout a real game may have (simulated clocks: no game waits for it in real time).
TIMEOUT_MS = MIN_TIMEOUT_MS
MAX_STEPS = 2_000_000


def classify(verdict: Verdict | None) -> str:
    """A short, stable name for a verdict: ``fair`` or ``<kind> by seat N``.

    The kind names what the verdict's evidence proves; each staged cheat declares the kind it
    stages (``protocol.sim.cheats.catalogue.staged_kind``), and tests/protocol/sim/test_cheat_kinds.py checks
    every cheat of the catalogue against it.
    """
    if verdict is None:
        return "unfinished"
    if verdict.fair:
        return "fair"
    if verdict.kind == CONTESTED:
        return CONTESTED  # two claims stand against each other: the verdict names nobody
    reason = verdict.reason
    kinds = (
        ("agreement key is not a valid", "low-order-agreement-key"),
        ("signing key is not a valid", "small-order-signing-key"),
        ("forged signature", "forged-signature"),
        ("out of turn", "out-of-turn"),
        ("replayed entry", "replayed-entry"),
        ("equivocation", "equivocation"),
        ("broken chain", "broken-chain"),
        ("false state hash", "false-state-hash"),
        ("false reveal", "false-reveal"),
        ("repeats an element", "duplicated-card"),
        # A failing proof shows that a pass is false, not how it was falsified (a foreign card, a
        # tagged pair): the kind names what the evidence proves.
        ("re-slotting pass", "false-reslot"),
        ("shuffle pass", "false-shuffle-pass"),  # its proof fails, or (the audit) it does not follow its secrets
        ("lock pass", "false-lock-pass"),
        ("entry was due", "wrong-entry-type"),
        ("false key", "wrong-card-key"),
        ("does not hold", "show-not-held"),
        ("withheld", "withhold"),
        ("disconnected", "withhold"),
        ("tampered", "tampered-saved-game"),
        ("illegal", "illegal-action"),
    )
    name = next((kind for text, kind in kinds if text in reason), "other")
    return f"{name} by seat {verdict.seat}"


@dataclass
class GameRun:
    """One simulated game: what every honest peer concluded, and the final state hash."""

    verdicts: dict[int, Verdict | None]
    final_hash: bytes
    entries: int
    saved: bytes = b""
    log: list[bytes] = field(default_factory=list)
    honest_save: bytes = b""

    def agreed(self) -> str:
        labels = {classify(v) for v in self.verdicts.values()}
        return labels.pop() if len(labels) == 1 else "disagreement: " + " | ".join(sorted(labels))


def play(  # noqa: C901 (tests/test_complexity.py)
    game: str,
    players: int,
    seed: bytes,
    cheat: str | None = None,
    cheater: int = 1,
    options: dict[str, Any] | None = None,
    bot: str = "random",
    classes: dict[int, type[PeerSession]] | None = None,
    cards_from: dict[int, bytes] | None = None,
) -> GameRun:
    """Play one game over the simulated network and return what the honest peers concluded."""
    spec = registry.get(game)
    rng = SeededStream(seed, "network")
    keys = [SigningKey.generate(SeededStream(seed, f"sign/{s}").token(32)) for s in range(players)]
    secrets = [SeededStream(seed, f"secret/{s}").token(32) for s in range(players)]
    room = "sim-" + hashlib.sha256(seed).hexdigest()[:12]
    bots = [spec.bots[bot](s, seed) for s in range(players)]
    cls: list[type[PeerSession]] = [PeerSession] * players
    if cheat is not None:
        cls[cheater] = CHEATS[cheat]
    for s, special in (classes or {}).items():
        cls[s] = special
    cards = [cls[s].seat_card(f"bot {s}", keys[s], (cards_from or {}).get(s, secrets[s])) for s in range(players)]
    peers: list[PeerSession] = []
    for s in range(players):
        if s == 0:
            try:
                if cls[0] is PeerSession:
                    peer = PeerSession.create(room, game, options or {}, cards, keys[0], secrets[0], TIMEOUT_MS)
                else:
                    peer = _create_as(cls[0], room, game, options or {}, cards, keys[0], secrets[0])
            except SeatCardError as exc:  # the host refuses a seat card: no game, the seat is named
                refused = Verdict(False, exc.seat, 0, f"invalid seat card: {exc.reason}")
                return GameRun({s: refused for s in range(players) if cheat is None or s != cheater}, b"", 0)
        else:
            peer = cls[s](room, s, keys[s], secrets[s], creator=keys[0].public_bytes())
        peers.append(peer)
    net = _Network(rng, peers, bots)
    for s, peer in enumerate(peers):
        net.handle(s, peer.take_events())
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        honest_done = all(p.finished for s, p in enumerate(peers) if cls[s] is PeerSession or s != cheater)
        if honest_done:
            break
        if not net.step():
            net.now += TIMEOUT_MS
            for s, peer in enumerate(peers):
                net.handle(s, peer.tick(net.now))
            if not net.queue and all(p.waiting_for is None for p in peers if not p.finished):
                break
    honest = [s for s in range(players) if cheat is None or s != cheater]
    lead = peers[honest[0]]
    state, table = lead.state, lead.table
    run = GameRun(
        {s: peers[s].verdict for s in honest},
        state.hash() if state else b"",
        table.head + 1 if table else 0,
        log=[e.data for e in table.log] if table else [],
    )
    run.honest_save = lead.save() if table else b""
    if cheat == "tampered-saved-game":
        tamperer = peers[cheater]
        assert isinstance(tamperer, TamperedSave)
        saved = tamperer.saved_game()
        run.saved = saved
        out: dict[int, Verdict | None] = {}
        for s in honest:
            try:
                out[s] = verify_bytes(saved)
            except SaveFileError as exc:
                out[s] = Verdict(False, None, None, f"tampered: {exc}")
        run.verdicts = out
    return run


def _create_as(
    cls: type[PeerSession],
    room: str,
    game: str,
    options: Mapping[str, Any],
    cards: Sequence[SeatInfo],
    key: SigningKey,
    secret: bytes,
) -> PeerSession:
    """Seat 0 as a cheater: create honestly, then carry on as the cheating subclass.

    The subclass's own attributes (set by its constructor) stay; the session's are the honest creator's.
    """
    honest = PeerSession.create(room, game, options, cards, key, secret, TIMEOUT_MS)
    peer = cls(room, 0, key, secret, creator=key.public_bytes())
    peer.__dict__.update(honest.__dict__)
    if peer.table is not None:
        peer.table.hooks = peer
    return peer


class _Network:
    """Seeded delivery: each message reaches every other peer after 1..MAX_DELAY ms, sometimes twice."""

    def __init__(self, rng: SeededStream, peers: list[PeerSession], bots: list[Any]) -> None:
        self.rng = rng
        self.bots = bots
        self.peers = peers
        self.queue: list[tuple[int, int, int, bytes]] = []
        self.now = 0
        self.counter = 0

    def publish(self, sender: int, data: bytes) -> None:
        for target in range(len(self.peers)):
            if target == sender:
                continue
            copies = 2 if self.rng.below(8) == 0 else 1
            for _ in range(copies):
                self.counter += 1
                heapq.heappush(self.queue, (self.now + 1 + self.rng.below(MAX_DELAY_MS), self.counter, target, data))

    def step(self) -> bool:
        if not self.queue:
            return False
        when, _, target, data = heapq.heappop(self.queue)
        self.now = max(self.now, when)
        self.handle(target, self.peers[target].receive(data, self.now))
        return True

    def handle(self, seat: int, events: list[Any]) -> None:
        peer = self.peers[seat]
        while True:
            for event in events:
                if isinstance(event, YourTurn) and not peer.finished:
                    legal = peer.legal_actions()
                    if legal and peer.table is not None:
                        bot = self.bots[seat]
                        events2 = peer.submit(bot.choose(peer.state, peer.knowledge, legal))
                        self._flush(seat)
                        self.handle(seat, events2)
            self._flush(seat)
            return

    def _flush(self, seat: int) -> None:
        peer = self.peers[seat]
        for out in peer.take_outgoing() + peer.take_notices():
            self.publish(seat, out.data)


def simulate(game: str, players: int, games: int, seed: str, cheat: str | None = None) -> dict[str, Any]:
    """Many games; the summary the CLI prints as its last line."""
    started = time.perf_counter()
    spec = registry.get(game)
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(f"{spec.title} is {registry.players_text(spec)}, not {players}")
    if cheat is not None and cheat not in CHEATS:
        raise ValueError(f"unknown cheat {cheat!r}; known: {', '.join(sorted(CHEATS))}")
    verdicts: Counter[str] = Counter()
    digest = hashlib.sha256(b"sealed-table/simulate\x00")
    for index in range(games):
        game_seed = f"{seed}/{index}".encode()
        cheater = 1 + index % (players - 1) if cheat else 1
        run = play(game, players, game_seed, cheat, cheater)
        label = run.agreed()
        verdicts[label] += 1
        digest.update(run.final_hash + label.encode())
    return {
        "game": game,
        "players": players,
        "games": games,
        "cheat": cheat,
        "verdicts": dict(sorted(verdicts.items())),
        "digest": digest.hexdigest(),
        "seconds": round(time.perf_counter() - started, 3),
    }


def list_cheats() -> list[str]:
    """One line per cheat: its name, the games it can be staged in (none said: any game), what it does."""
    generic = [f"{name}: {text}" for name, text in CATALOGUE.items()]
    offered = [(name, ", ".join(games) or "no game", text) for name, (games, text) in GAME_CATALOGUE.items()]
    return generic + [f"{name} ({games}): {text}" for name, games, text in offered]


__all__ = ["Cheater", "GameRun", "classify", "list_cheats", "play", "simulate"]
