"""A saved game's offline audit (the file format itself is :mod:`protocol.logfile`).

Loading never trusts the file:
the verifier checks every signature first (damage nobody signed is :class:`DamagedFile`, never a
seat's fault), then the chain, then replays it through an observer session, which checks every
link, rule and secret exactly as a live peer does, and then each voided claim kept beside the log
(a claim it contests reads contested, as it does live).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from protocol.envelope import Envelope, parse
from protocol.errors import ProtocolError
from protocol.events import Rejected, Verdict
from protocol.logfile import FILE_VERSION, MAGIC, MAX_FILE_BYTES, SavedGame, SaveFileError, dump, load
from protocol.session import PeerSession

#: The file format's names, read from here by the verifier's callers as well.
__all__ = [
    "FILE_VERSION",
    "MAGIC",
    "MAX_FILE_BYTES",
    "Checked",
    "DamagedFile",
    "SaveFileError",
    "SavedGame",
    "SeatIdentity",
    "check_bytes",
    "dump",
    "fingerprint",
    "key_matches",
    "load",
    "verify_bytes",
]


class DamagedFile(SaveFileError):
    """Bytes nobody signed: an entry that does not parse, or whose signature fails under every seat's key.

    Damage is never blamed on a seat (``python -m protocol verify`` exits 3): only a valid
    signature is evidence against its signer.
    """


@dataclass(frozen=True)
class SeatIdentity:
    """A seat as the genesis names it: its name, its signing key and that key's fingerprint."""

    seat: int
    name: str
    key: bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass(frozen=True)
class Checked:
    """What the offline verifier found: the verdict, the seats, and whether they are the ones the user knows.

    ``mismatches`` lists each identity the user pinned (``--creator``, ``--seat-key``) that the
    file does not carry: a game re-signed with fresh keys verifies, but not as theirs.
    """

    verdict: Verdict
    seats: tuple[SeatIdentity, ...]
    mismatches: tuple[str, ...] = ()


def fingerprint(key: bytes) -> str:
    """A short, readable fingerprint of a public key: 20 hex digits of its SHA-256, in groups of four."""
    digest = hashlib.sha256(b"sealed-table/key-fingerprint\x00" + bytes(key)).hexdigest()[:20]
    return " ".join(digest[i : i + 4] for i in range(0, 20, 4))


def key_matches(known: str, key: bytes) -> bool:
    """Whether ``known`` (the key in hex, or its fingerprint, spaces and case ignored) names ``key``."""
    text = "".join(known.split()).lower().replace(":", "")
    return text in (bytes(key).hex(), fingerprint(key).replace(" ", ""))


def verify_bytes(data: bytes) -> Verdict:
    """Audit a saved game offline: ``FAIR``, who cheated, who was disconnected, or which entry was tampered with."""
    return check_bytes(data).verdict


def check_bytes(data: bytes, creator: str | None = None, seat_keys: dict[int, str] | None = None) -> Checked:  # noqa: C901 (tests/test_complexity.py)
    """The offline verifier: every signature first, then the chain, then a full replay and the audit.

    :class:`DamagedFile` for bytes nobody signed, :class:`SaveFileError` for a file that is not a
    saved game or is incomplete.  ``creator`` / ``seat_keys``: identities the user knows (a key in
    hex or its fingerprint), compared with the genesis.
    """
    saved = load(data)
    if not saved.entries:
        raise SaveFileError("the saved game holds no entries")
    envelopes = [_parsed(index, raw, "entry") for index, raw in enumerate(saved.entries)]
    evidence = [_parsed(index, raw, "evidence item") for index, raw in enumerate(saved.evidence)]
    voided = [_parsed(index, raw, "voided claim") for index, raw in enumerate(saved.voided)]
    genesis = envelopes[0]
    if genesis.type != "genesis" or genesis.seq != 0:
        raise DamagedFile("entry 0 is not a genesis")
    seats = tuple(SeatIdentity(i, s["name"], s["sign"]) for i, s in enumerate(genesis.body["seats"]))
    if not seats or not genesis.signed_by(seats[0].key):
        raise DamagedFile("entry 0 (the genesis) is not signed by the creator key it names: damage nobody signed")
    for what, items in (("entry", envelopes), ("evidence item", evidence), ("voided claim", voided)):
        for index, env in enumerate(items):
            if not any(env.signed_by(s.key) for s in seats):
                raise DamagedFile(f"{what} {index} is damaged: its signature fails under every seat's key")
    for index, env in enumerate(envelopes):
        if env.seq != index:
            raise DamagedFile(f"entry {index} claims seq {env.seq}: entries are missing or out of order")
    mismatches = _mismatches(seats, creator, seat_keys or {})
    for index, env in enumerate(envelopes):
        if index > 0 and env.prev != envelopes[index - 1].digest and env.signed_by(seats[env.seat].key):
            previous = envelopes[index - 1]
            if previous.signed_by(seats[previous.seat].key):  # a valid signature of its author: it signed it
                reason = (
                    f"tampered: entry {previous.seq} was replaced by seat {previous.seat} (entry {env.seq}, "
                    f"signed by seat {env.seat}, chains to a different one)"
                )
                return Checked(Verdict(False, previous.seat, previous.seq, reason), seats, mismatches)
    observer = PeerSession.observe(saved.room)
    for env in envelopes:
        events = observer.receive(env.data, 0)
        for event in events:
            if isinstance(event, Rejected):  # the one event with a refusal code
                raise SaveFileError(f"entry {env.seq} is refused: {event.reason}")
        if observer.finished:
            break
    _take_voided(observer, voided)
    late = 1 << 50  # evidence is judged after every grace period has passed
    for env in evidence:
        if observer.finished:
            break
        observer.receive(env.data, late)
        observer.tick(2 * late)
    verdict = observer.verdict
    if verdict is None:
        raise SaveFileError("the saved game is incomplete: it ends before the end-of-game audit")
    return Checked(verdict, seats, mismatches)


def _take_voided(observer: PeerSession, voided: list[Envelope]) -> None:
    """Each voided claim the file keeps, checked as a live replica checks it, then put on the record.

    It must be a two-seat claim validly signed by its claimant, chained to the same entry as the
    claimed seat's own entry for that seq, which the log holds (the entry that voided it).  A claim
    it contests makes the verdict contested, as it does for every reader of the same record.
    """
    table = observer.table
    if table is None:
        return
    for index, env in enumerate(voided):
        problem = table.voided_problem(env)
        if problem is not None:
            raise SaveFileError(f"voided claim {index} is refused: {problem}")
        table.record_voided(env)


def _parsed(index: int, raw: bytes, what: str) -> Envelope:
    try:
        return parse(raw)
    except ProtocolError as exc:
        raise DamagedFile(f"{what} {index} is damaged: {exc.reason}") from None


def _mismatches(seats: tuple[SeatIdentity, ...], creator: str | None, seat_keys: dict[int, str]) -> tuple[str, ...]:
    out = []
    if creator is not None and not key_matches(creator, seats[0].key):
        out.append(f"the creator (seat 0) is not the key you gave: this game has {seats[0].fingerprint}")
    for seat, known in sorted(seat_keys.items()):
        if not 0 <= seat < len(seats):
            out.append(f"seat {seat} is not at this table ({len(seats)} seats)")
        elif not key_matches(known, seats[seat].key):
            out.append(f"seat {seat} is not the key you gave: this game has {seats[seat].fingerprint}")
    return tuple(out)
