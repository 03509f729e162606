"""The saved-game file format: a small msgpack container around the signed log, and nothing else.

File layout: ``MAGIC`` (8 bytes) then a canonical msgpack map
``{"version": 1, "room": str, "entries": [bytes, ...], "evidence": [bytes, ...]}`` — the
entries exactly as they were signed, in sequence order, and, for a game stopped by a
cheat, the signed entries that prove it (they never entered the log) — and, when the game
had any, ``"voided": [bytes, ...]``: the two-seat claims the log voided, as their claimants
signed them (a later claim one of them contests reads contested: :mod:`protocol.claims`).  A file
without voided claims has no ``voided`` key at all, so every file written before the field keeps
its bytes and stays valid.

Kept apart from the offline verifier (:mod:`protocol.verify`, which replays a file through
a :class:`~protocol.session.PeerSession`) so that a session can write its own file without
importing the verifier that is built on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

import msgpack

from engines.core import canonical_encode

MAGIC = b"SEALTBL\x01"
FILE_VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024


class SaveFileError(ValueError):
    """A file that is not a saved game, or is damaged; ``str()`` says what is wrong."""


@dataclass(frozen=True)
class SavedGame:
    room: str
    entries: list[bytes]
    evidence: list[bytes]
    voided: list[bytes] = field(default_factory=list)


def dump(
    room: str,
    entries: list[bytes],
    evidence: list[bytes] | tuple[bytes, ...] = (),
    voided: list[bytes] | tuple[bytes, ...] = (),
) -> bytes:
    body: dict[str, object] = {"version": FILE_VERSION, "room": room, "entries": list(entries)}
    body["evidence"] = list(evidence)
    if voided:  # optional: absent, not empty, so a file without voided claims is byte for byte an older one
        body["voided"] = list(voided)
    return MAGIC + canonical_encode(body)


def load(data: bytes) -> SavedGame:
    if len(data) > MAX_FILE_BYTES:
        raise SaveFileError("the file is too large to be a saved game")
    if not data.startswith(MAGIC):
        raise SaveFileError("not a Sealed Table saved game (wrong magic)")
    try:
        raw = msgpack.unpackb(data[len(MAGIC) :], raw=False, use_list=True, strict_map_key=False)
    except Exception as exc:
        raise SaveFileError(f"the saved game is corrupt ({type(exc).__name__})") from None
    if not isinstance(raw, dict) or raw.get("version") != FILE_VERSION:
        raise SaveFileError("unknown saved-game version")
    room, entries, evidence = raw.get("room"), raw.get("entries"), raw.get("evidence", [])
    voided = raw.get("voided", [])
    if not (_byte_strings(entries) and _byte_strings(evidence) and _byte_strings(voided) and isinstance(room, str)):
        raise SaveFileError("the saved game is corrupt (bad header fields)")
    return SavedGame(room, entries, evidence, voided)


def _byte_strings(items: object) -> TypeGuard[list[bytes]]:
    return isinstance(items, list) and all(isinstance(e, bytes) for e in items)
