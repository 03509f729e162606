"""Small builders for protocol tests: seeded keys, a room of real sessions, a finished game."""

from __future__ import annotations

from engines.core import SeededStream
from protocol.crypto.private import AgreementKey, SealError, delivery_context, open_sealed
from protocol.crypto.signing import SigningKey
from protocol.envelope import parse
from protocol.session import PeerSession
from protocol.sim.network import GameRun, play
from protocol.table import Table


def seat_keys(seed: bytes, players: int) -> tuple[list[SigningKey], list[bytes]]:
    keys = [SigningKey.generate(SeededStream(seed, f"sign/{s}").token(32)) for s in range(players)]
    secrets = [SeededStream(seed, f"secret/{s}").token(32) for s in range(players)]
    return keys, secrets


def lockstep(game: str, players: int, seed: bytes, options: dict | None = None) -> list[PeerSession]:
    """Sessions for every seat with the genesis delivered, moved in lockstep (no network)."""
    keys, secrets = seat_keys(seed, players)
    cards = [PeerSession.seat_card(f"p{s}", keys[s], secrets[s]) for s in range(players)]
    room = "test-" + seed.hex()[:8]
    peers = [PeerSession.create(room, game, options or {}, cards, keys[0], secrets[0])]
    peers += [PeerSession.join(room, s, keys[s], secrets[s], creator=keys[0].public_bytes()) for s in range(1, players)]
    return peers


def run_lockstep(
    peers: list[PeerSession], until_seq: int | None = None, max_rounds: int = 100_000, silent: frozenset = frozenset()
) -> None:
    """Deliver every outgoing entry to every other peer and let bots decide, until nothing moves."""
    from engines.core import RandomBot

    bots = [RandomBot(s, b"lockstep") for s in range(len(peers))]
    for _ in range(max_rounds):
        moved = False
        for s, peer in enumerate(peers):
            if s in silent:
                peer.take_outgoing()
                peer.take_notices()
                continue
            for out in peer.take_outgoing() + peer.take_notices():
                for t, other in enumerate(peers):
                    if t != s:
                        other.receive(out.data, 0)
                moved = True
        if until_seq is not None and peers[0].table is not None and peers[0].table.head >= until_seq:
            return
        if not moved:
            for s, peer in enumerate(peers):
                if peer.finished or peer.table is None or peer.left:
                    continue
                exp = peer.table.expected()
                if exp is not None and exp.writer == s and exp.type == "action":
                    legal = peer.legal_actions()
                    peer.submit(bots[s].choose(peer.state, peer.knowledge, legal))
                    moved = True
                    break
        if not moved:
            return


def finished_log(game: str = "toy", players: int = 3, seed: bytes = b"log") -> list[bytes]:
    run = play(game, players, seed)
    assert run.agreed() == "fair"
    return run.log


# -- leaving must not expose the hand another seat delivered ----------------------------------------------
def _byte_strings(value, size: int = 32):
    if isinstance(value, bytes) and len(value) == size:
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _byte_strings(k, size)
            yield from _byte_strings(v, size)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _byte_strings(v, size)


def _opens_with(candidate: bytes, delivery: tuple, table) -> bool:
    """Whether a third seat opens ``delivery`` with ``candidate`` as a private key (any way it may try)."""
    seq, source, target, box = delivery
    context = delivery_context(table.room, source, target, seq)
    tries = []
    try:
        key = AgreementKey.from_private_bytes(candidate)
    except SealError:
        return False
    tries.append(lambda: open_sealed(key, table.seats[source].box, context, box))
    try:
        from protocol.crypto.private import open_with_delivery_key

        tries.append(
            lambda: open_with_delivery_key(candidate, table.seats[source].box, table.seats[target].box, context, box)
        )
    except ImportError:  # pragma: no cover - a protocol without delivery keys: only the agreement key to try
        pass
    for attempt in tries:
        try:
            attempt()
            return True
        except SealError:
            continue
    return False


def replica(run: GameRun, upto: int) -> Table:
    """The public replica after entries ``1..upto - 1`` of an honest peer's log."""
    entries = [parse(data) for data in run.log]
    table = Table(entries[0])
    for env in entries[1:upto]:
        table.apply(env)
    return table
