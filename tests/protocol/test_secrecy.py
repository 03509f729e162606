"""Secrecy: two games that differ only in one seat's secrets look the same on the wire until the end.

Seat 1 keeps its card order and its randomness shares (they decide what is dealt and
rolled, so the public game is the same), but its salts, pass scalar, lock keys and
nonces come from another secret.  Every entry before the end-of-game secrets must
then agree in everything but commitments, ciphertexts (passes, sealed boxes, memos)
and the blinding keys of cards, while the public state hash agrees at every entry.
"""

from __future__ import annotations

from engines.core import SeededStream
from protocol.cards import SeatSecrets
from protocol.envelope import parse
from protocol.session import PeerSession, agreement_key
from protocol.sim.network import play

SEED = b"secrecy"
#: Body fields that may differ: commitments, ciphertexts, blinding keys.
HIDDEN = {"c", "passed", "keys", "box", "memo", "commits"}
FIXED = SeededStream(SEED, "secret/1").token(32)


def twin(variant: bytes) -> type[PeerSession]:
    class Twin(PeerSession):
        def __init__(self, room, seat, key, secret, creator=None):
            super().__init__(room, seat, key, variant, creator=creator)
            self._secrets.box = agreement_key(FIXED)

        def _share(self, label):
            return SeededStream(FIXED, f"share/{label}").token(32)

        def round_opened(self, table, deck, attempt):
            fixed = SeatSecrets.generate(self.seat, deck.size, SeededStream(FIXED, f"deck/{attempt}"))
            mine = SeatSecrets.generate(self.seat, deck.size, SeededStream(variant, f"deck/{attempt}"))
            self.ring.rounds[deck.round] = SeatSecrets(self.seat, mine.scalar, fixed.permutation, mine.keys)

    return Twin


def transcript(game: str, variant: bytes) -> list:
    run = play(game, 3, SEED, classes={1: twin(variant)}, cards_from={1: FIXED})
    assert run.agreed() == "fair"
    return [parse(d) for d in run.log]


def compare(game: str) -> int:
    a, b = transcript(game, b"A" * 32), transcript(game, b"B" * 32)
    differing = 0
    for x, y in zip(a, b, strict=False):
        assert (x.seq, x.seat, x.type) == (y.seq, y.seat, y.type)
        if x.type == "secrets":
            break
        for name in x.body:
            if x.body[name] != y.body[name]:
                assert name in HIDDEN, (x.seq, x.type, name)
                differing += 1
        assert x.body.get("hash") == y.body.get("hash")
    return differing


def test_toy_transcripts_differ_only_in_commitments_and_ciphertexts():
    assert compare("toy") > 0  # the secrets did change something on the wire


def test_system_launch_transcripts_differ_only_in_commitments_and_ciphertexts():
    assert compare("system-launch") > 0


# -- lengths: no sealed value may show through the size of what carries it ----------------

#: Every value any engine seals, and the others of its kind it could have been (Collective Conflict's
#: command identities and traps; System Launch and Anomaly Maze seal no values, only card keys).
ALTERNATIVES = {"mothership": ("decoy",), "decoy": ("mothership",), True: (False,), False: (True,)}


def _agreement_keys(seed: bytes, players: int) -> dict:
    """Every seat's agreement key, as the simulator derives it from the seat's secret.

    (A seat never publishes its agreement key; the test, which made the secrets, may use them.)
    """
    return {s: agreement_key(SeededStream(seed, f"secret/{s}").token(32)) for s in range(players)}


def _reseal_lengths(game: str, players: int, seed: bytes) -> tuple[int, int]:
    """Play a game; for every memo and delivery, seal every other plaintext it could have carried.

    Returns (memos checked, deliveries checked).  Every alternative (each sealed value replaced by
    another of its kind, each delivered key by another key) must seal to exactly the length on the wire.
    """
    from engines.core import canonical_encode, decode
    from protocol.crypto.padding import PAD_BLOCK
    from protocol.crypto.private import delivery_context, open_as_auditor, seal

    run = play(game, players, seed, options={"max_rounds": 80} if game == "collective-conflict" else None)
    assert run.agreed() == "fair"
    entries = [parse(d) for d in run.log]
    room = entries[0].room
    boxes = _agreement_keys(seed, players)
    publics = [s["box"] for s in entries[0].body["seats"]]
    memos = deliveries = 0
    targets = _delivery_targets(run.log)
    for e in entries:
        if e.type == "action" and e.body["memo"]:
            context = delivery_context(room, e.seat, e.seat, e.seq)
            plain = decode(open_as_auditor(boxes[e.seat], publics[e.seat], context, e.body["memo"]))
            for sid, (salt, value) in plain.items():
                for other in ALTERNATIVES[value]:
                    changed = dict(plain)
                    changed[sid] = [salt, other]
                    size = PAD_BLOCK * len(plain)  # the session's size for a memo of that many values
                    again = seal(boxes[e.seat], publics[e.seat], context, canonical_encode(changed), bytes, size)
                    assert len(again) == len(e.body["memo"]), (game, e.seq, value, other)
                    memos += 1
        if e.type == "deliver":
            target = targets[e.seq]
            context = delivery_context(room, e.seat, target, e.seq)
            plain = decode(open_as_auditor(boxes[e.seat], publics[target], context, e.body["box"]))
            changed = {"keys": [[slot, bytes(31) + b"\x01"] for slot, _ in plain["keys"]]}
            again = seal(boxes[e.seat], publics[target], context, canonical_encode(changed), bytes)
            assert len(again) == len(e.body["box"]), (game, e.seq)
            deliveries += 1
    return memos, deliveries


def _delivery_targets(log: list[bytes]) -> dict[int, int]:
    """seq -> recipient of each ``deliver`` entry (not in its body), from an observer's replay of the log."""
    observer = PeerSession.observe(parse(log[0]).room)
    for data in log:
        observer.receive(data, 0)
    assert observer.table is not None
    return {seq: target for seq, _source, target, _box in observer.table.deliveries}


def test_no_sealed_length_depends_on_a_secret_in_any_game():
    """A Decoy's memo is as long as a MotherShip's: at 71 bytes against 76 an eavesdropper would name every identity."""
    memos, _ = _reseal_lengths("collective-conflict", 3, b"lengths-cc")
    assert memos > 0
    _, deliveries = _reseal_lengths("system-launch", 3, b"lengths-sl")
    assert deliveries > 0
    _reseal_lengths("anomaly-maze", 2, b"lengths-am")
