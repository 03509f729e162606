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
from protocol.simulate import play

SEED = b"secrecy"
#: Body fields that may differ: commitments, ciphertexts, blinding keys.
HIDDEN = {"c", "passed", "keys", "box", "memo", "commits"}
FIXED = SeededStream(SEED, "secret/1").token(32)


def twin(variant: bytes) -> type[PeerSession]:
    class Twin(PeerSession):
        def __init__(self, room, seat, key, secret, creator=None):
            super().__init__(room, seat, key, variant, creator=creator)
            self._box = agreement_key(FIXED)

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
