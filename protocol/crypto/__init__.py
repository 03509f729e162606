"""Cryptographic primitives of the trust layer, all sans-I/O.

Every function here is pure: randomness comes in as bytes or from an injected
generator (see :mod:`.entropy`), so tests run with seeded generators and two
peers given the same inputs compute the same bytes.  The one exception is
``SigningKey.generate(None)`` / ``AgreementKey.generate(None)``, which draw
from the operating system for real use.

- :mod:`.signing` — Ed25519 identity and entry signatures.
- :mod:`.commit` — commitments (hash over tag, room, seat, salt, value).
- :mod:`.private` — per-game X25519 keys and sealed private messages.
- :mod:`.group` — the prime-order group of edwards25519 for card encryption.
- :mod:`.randomness` — joint seeds and interactive randomness by commit-reveal.
- :mod:`.entropy` — the injectable source of fresh randomness.
"""

from protocol.crypto.commit import COMMIT_SALT_BYTES, commitment, opens
from protocol.crypto.entropy import Entropy, SystemEntropy
from protocol.crypto.group import GroupError, card_element, invert, is_element, is_scalar, mul, scalar_from, scalar_mul
from protocol.crypto.private import AgreementKey, SealError, delivery_context, open_as_auditor, open_sealed, seal
from protocol.crypto.randomness import joint_value, opens_share, outcome, share_commitment
from protocol.crypto.signing import SigningKey, verify

__all__ = [
    "COMMIT_SALT_BYTES",
    "AgreementKey",
    "Entropy",
    "GroupError",
    "SealError",
    "SigningKey",
    "SystemEntropy",
    "card_element",
    "commitment",
    "delivery_context",
    "invert",
    "is_element",
    "is_scalar",
    "joint_value",
    "mul",
    "open_as_auditor",
    "open_sealed",
    "opens",
    "opens_share",
    "outcome",
    "scalar_from",
    "scalar_mul",
    "seal",
    "share_commitment",
    "verify",
]
