"""A saved game: the signed log in a small msgpack container, and its offline audit.

File layout: ``MAGIC`` (8 bytes) then a canonical msgpack map
``{"version": 1, "room": str, "entries": [bytes, ...], "evidence": [bytes, ...]}`` — the
entries exactly as they were signed, in sequence order, and, for a game stopped by a
cheat, the signed entries that prove it (they never entered the log).  Loading never trusts the file: the verifier
replays it through an observer session, which checks every signature, link,
rule and secret exactly as a live peer does.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack

from engines.core import canonical_encode

from .envelope import parse
from .errors import ProtocolError
from .events import Verdict

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


def dump(room: str, entries: list[bytes], evidence: list[bytes] | tuple[bytes, ...] = ()) -> bytes:
    body = {"version": FILE_VERSION, "room": room, "entries": list(entries), "evidence": list(evidence)}
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
    for items in (entries, evidence):
        if not isinstance(items, list) or not all(isinstance(e, bytes) for e in items):
            raise SaveFileError("the saved game is corrupt (bad header fields)")
    if not isinstance(room, str):
        raise SaveFileError("the saved game is corrupt (bad header fields)")
    return SavedGame(room, entries, evidence)


def verify_bytes(data: bytes) -> Verdict:
    """Audit a saved game offline: ``FAIR``, or who cheated (or which entry was tampered with)."""
    from .session import PeerSession

    saved = load(data)
    if not saved.entries:
        raise SaveFileError("the saved game holds no entries")
    observer = PeerSession.observe(saved.room)
    envelopes = []
    for index, raw in enumerate(saved.entries):
        try:
            env = parse(raw)
        except ProtocolError as exc:
            raise SaveFileError(f"entry {index} is damaged: {exc.reason}") from None
        if env.seq != index:
            raise SaveFileError(f"entry {index} claims seq {env.seq}: entries are missing or out of order")
        envelopes.append(env)
    for index, env in enumerate(envelopes):
        if index > 0 and env.prev != envelopes[index - 1].digest:
            previous = envelopes[index - 1]
            return Verdict(
                False,
                previous.seat,
                previous.seq,
                f"tampered: entry {previous.seq} was replaced (entry {env.seq}, signed by seat {env.seat}, "
                "chains to a different one)",
            )
    for env in envelopes:
        events = observer.receive(env.data, 0)
        for event in events:
            code = getattr(event, "code", None)
            if code is not None:
                raise SaveFileError(f"entry {env.seq} is refused: {event.reason}")  # type: ignore[union-attr]
        if observer.finished:
            break
    late = 1 << 50  # evidence is judged after every grace period has passed
    for raw in saved.evidence:
        if observer.finished:
            break
        observer.receive(raw, late)
        observer.tick(2 * late)
    verdict = observer.verdict
    if verdict is None:
        raise SaveFileError("the saved game is incomplete: it ends before the end-of-game audit")
    return verdict
