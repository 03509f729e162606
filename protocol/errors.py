"""Why an entry was refused, as data: a short machine code and a sentence for people.

Everything that comes off the wire is untrusted, so every refusal is an ordinary
value (``Rejected``) rather than an exception escaping the session.  The codes are
stable strings so that tests, logs and the client can tell refusals apart.
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    MALFORMED = "malformed"  # not msgpack, wrong shape, wrong field types
    OVERSIZED = "oversized"  # larger than MAX_ENTRY_BYTES
    VERSION = "version"  # another protocol version
    UNKNOWN_TYPE = "unknown-type"  # a type this version does not know
    UNSIGNED = "unsigned"  # no signature, or one of the wrong length
    BAD_SIGNATURE = "bad-signature"  # signature does not verify with any seat's key
    WRONG_ROOM = "wrong-room"  # written for another room
    WRONG_GAME = "wrong-game"  # signed for another game (an earlier one in the same room code, say)
    SEQUENCE = "sequence"  # seq outside what this session accepts
    UNKNOWN_SEAT = "unknown-seat"  # author is not a seat of the game
    NO_GENESIS = "no-genesis"  # too many entries buffered before the game is known
    GENESIS = "genesis"  # a genesis that this seat cannot accept
    STALE = "stale"  # a late entry for a seq that was settled otherwise (seat declared gone)
    FINISHED = "finished"  # the session has stopped (game over and audited, or halted)
    INTERNAL = "internal"  # a bug in this program met this input: refused, and worth a report


class ProtocolError(Exception):
    """An entry refused before it could change anything; ``code`` + ``reason``."""

    def __init__(self, code: Code, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


class Misconduct(Exception):
    """A correctly signed entry that breaks the protocol or the rules: a cheat by ``seat``.

    ``seq``, where the raiser knows it, is the entry the verdict names; without it the session
    names the entry it was working on.
    """

    def __init__(self, seat: int, reason: str, seq: int | None = None) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason
        self.seq = seq
