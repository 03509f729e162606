"""The mental-poker card ledger: secret shuffles, draws, shows and their audit.

Pure and sans-I/O: bodies are plain msgpack-able data, randomness comes from an
injected :class:`~protocol.crypto.entropy.Entropy`, and every ``accept_*``
either validates completely or raises :class:`CardProtocolError` naming the
culprit without changing anything.  The scheme and its checks are described in
``docs/protocol-cards.md``.
"""

from protocol.cards.deck import LOCK, SHUFFLE, Deck, Verdict
from protocol.cards.errors import CardProtocolError
from protocol.cards.ledger import CardLedger, KeyRing, keys_from_body, keys_to_body
from protocol.cards.reslot import Reslot
from protocol.cards.seat_secrets import SeatSecrets, secrets_from_body, secrets_to_body

__all__ = [
    "LOCK",
    "SHUFFLE",
    "CardLedger",
    "CardProtocolError",
    "Deck",
    "KeyRing",
    "Reslot",
    "SeatSecrets",
    "Verdict",
    "keys_from_body",
    "keys_to_body",
    "secrets_from_body",
    "secrets_to_body",
]
