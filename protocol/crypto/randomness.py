"""Joint randomness by commit-reveal: a public seed, and dice nobody can steer.

Each seat draws a fresh 32-byte *share*, writes ``share_commitment`` to the
log, and only once every seat's commitment is on the log do the seats reveal
their shares.  The outcome is ``SHA-256`` over all shares in seat order, fed to
``SeededStream(joint, label).below(n)``.

Why no single seat can predict it: before the reveals, the only thing known
about an honest seat's share is its commitment, which hides it (SHA-256 over
256 random bits); the joint value is a hash over *all* shares, so it is
unpredictable until the last honest share is out.

Why no single seat can bias it: a seat's share is fixed by its commitment
before anyone reveals (the commitment binds), and the joint value of shares
that include one uniform, independent share is uniform — a cheater's choice of
share cannot depend on the honest shares because it committed without seeing
them.  The last seat to reveal *can* compute the outcome first and refuse to
reveal; that is the one lever commit-reveal leaves, so a seat that withholds
its reveal is declared gone by the others and named in the audit, which costs
it the game (a forfeit) — an abort never yields a better roll.

For interactive chance (a die after an attack is declared) a *fresh* round is
run after the declaration, with a label naming that event, so the outcome was
not knowable when the attacker chose to attack.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from engines.core import SeededStream
from protocol.crypto.commit import commitment, opens
from protocol.crypto.framing import frame, text_bytes

SHARE_BYTES = 32
SHARE_TAG = "random-share"
JOINT_DOMAIN = b"sealed-table/joint/v1"


def share_commitment(room: str, seat: int, label: str, share32: bytes) -> bytes:
    """The commitment a seat writes before anyone reveals.

    The share itself is 256 random bits, so it serves as the commitment's salt;
    the label (which chance event) is the committed value.
    """
    if not isinstance(share32, (bytes, bytearray)) or len(share32) != SHARE_BYTES:
        raise ValueError("a randomness share is exactly 32 bytes")
    return commitment(SHARE_TAG, room, seat, bytes(share32), label)


def opens_share(digest: bytes, room: str, seat: int, label: str, share32: bytes) -> bool:
    """Whether a revealed share matches the seat's commitment (False on any bad input)."""
    return opens(digest, SHARE_TAG, room, seat, share32, label)


def joint_value(shares: Sequence[bytes], label: str) -> bytes:
    """SHA-256 over the label and every seat's share, in seat order."""
    if not shares:
        raise ValueError("a joint value needs at least one share")
    for share in shares:
        if not isinstance(share, (bytes, bytearray)) or len(share) != SHARE_BYTES:
            raise ValueError("a randomness share is exactly 32 bytes")
    return hashlib.sha256(frame(JOINT_DOMAIN, text_bytes(label), *(bytes(s) for s in shares))).digest()


def outcome(joint: bytes, label: str, n: int) -> int:
    """The chance outcome in ``range(n)`` that every peer derives from the joint value."""
    return SeededStream(joint, label).below(n)
