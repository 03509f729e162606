"""What a session tells its driver: plain, immutable events (timeouts are data too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import Action, GameOver, Pending


@dataclass(frozen=True, slots=True)
class Outbound:
    """Bytes this session wants published, at ``sealed/v2/room/{room}/{topic}``.

    Log entries (:meth:`PeerSession.take_outgoing`) go to ``log/{seq}``, retained, QoS 1;
    notices (:meth:`PeerSession.take_notices`) to ``notice/{seat}/{seq}/{type}``, retained, QoS 1.
    """

    seq: int
    data: bytes
    topic: str


#: Verdict kinds.  Only ``CHEAT`` names a cheater: it rests on signed evidence of misbehaviour.
#: ``DISCONNECTED``: every other seat voted a silent seat gone (it forfeits; silence is no proof).
#: ``CLAIMED``: two seats, the one left declared the other gone on its own vote alone: a win
#: claimed after disconnection, never a proven result (the silent seat's own entry voids it).
#: ``CONTESTED``: such a claim, while the record holds the claimed seat's own claim against the claimant,
#: voided by the claimant's entry, and the claimed seat wrote nothing since: two silences that cannot be
#: told apart, a result for nobody (it names no seat).
#: ``ABANDONED``: the game cannot go on and has no result.
FAIR_KIND, CHEAT, DISCONNECTED, CLAIMED, ABANDONED = "fair", "cheat", "disconnected", "claimed", "abandoned"
CONTESTED = "contested"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The end-of-game audit's answer: fair, or who cheated (or was disconnected), at which entry, and how.

    ``fair`` is True only for a game finished and audited with nothing found (a seat that left
    with its signed notice does not spoil it).  ``kind`` keeps "cheated" (signed evidence) apart
    from "disconnected"/"claimed" (silence), "contested" and "abandoned" (no result): see docs/protocol.md.
    """

    fair: bool
    seat: int | None = None
    seq: int | None = None
    reason: str = ""
    kind: str = CHEAT

    def __post_init__(self) -> None:
        if self.fair and self.kind == CHEAT:
            object.__setattr__(self, "kind", FAIR_KIND)

    @property
    def cheated(self) -> bool:
        """Whether the verdict names a cheater (signed evidence), not a disconnection or no result."""
        return not self.fair and self.kind == CHEAT

    @property
    def label(self) -> str:
        if self.fair:
            return "fair"
        if self.kind == CHEAT:
            return f"seat {self.seat}: {self.reason.split(':')[0]}"
        if self.seat is None:
            return self.reason if self.reason.startswith(self.kind) else f"{self.kind}: {self.reason}"
        claimed = " (a win claimed after disconnection, not a proven result)" if self.kind == CLAIMED else ""
        return f"seat {self.seat}: disconnected at entry {self.seq}{claimed}"

    def as_json(self) -> dict[str, Any]:
        if self.fair:
            return {"verdict": "fair"}
        return {"verdict": self.kind, "seat": self.seat, "seq": self.seq, "reason": self.reason}


FAIR = Verdict(True)


@dataclass(frozen=True, slots=True)
class Rejected:
    """Input refused before it changed anything (garbage, a stranger's bytes, a lying relay)."""

    code: str
    reason: str
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class Started:
    """The genesis was accepted: the game, its seats and the room are fixed."""

    game: str
    players: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class Applied:
    """Entry ``seq`` by ``seat`` of ``type`` is part of the game now."""

    seq: int
    seat: int
    type: str


@dataclass(frozen=True, slots=True)
class Moved:
    """The public game state changed: ``seat`` (TABLE = -1 for chance, deals...) did ``action``."""

    seq: int
    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class YourTurn:
    """This seat must decide now: call ``submit`` with one of ``legal``."""

    seq: int
    pending: Pending
    legal: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class Overdue:
    """``seat`` owes entry ``seq`` since ``since_ms`` and the timeout has passed."""

    seat: int
    seq: int
    since_ms: int


@dataclass(frozen=True, slots=True)
class Gone:
    """``seat`` left (``reason="left"``) or was declared gone for silence (``"silent"``).

    ``claimed``: two seats only, so the one declaring it (the beneficiary) did so alone: a claim
    that the silent seat's own entry for ``seq`` voids (see :class:`ClaimVoided`).
    """

    seat: int
    seq: int
    reason: str
    claimed: bool = False


@dataclass(frozen=True, slots=True)
class ClaimVoided:
    """``claimant``'s claim that ``seat`` was gone at entry ``seq`` is void: ``seat``'s own signed entry
    for ``seq``, chained to the same previous entry, is here.  The game goes on from that entry
    (a replica that applied the claim is rebuilt from the log up to ``seq``)."""

    seat: int
    seq: int
    claimant: int


@dataclass(frozen=True, slots=True)
class CheatDetected:
    """A correctly signed entry proves that ``seat`` broke the protocol or the rules; play stops."""

    seat: int
    seq: int
    reason: str


@dataclass(frozen=True, slots=True)
class Equivocation:
    """``seat`` signed two different entries for ``seq``: both are the proof."""

    seat: int
    seq: int
    first: bytes
    second: bytes


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The rules say the game is over; the end-of-game secrets and audit follow."""

    result: GameOver


@dataclass(frozen=True, slots=True)
class Abandoned:
    """The game cannot go on (the engine or the joint seed cannot proceed; see ``reason``)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Audited:
    """The audit is done: the session is finished with ``verdict``."""

    verdict: Verdict


@dataclass(frozen=True, slots=True)
class SetAside:
    """At entry ``seq`` the engine set ``slots`` aside: their keys left with a seat declared gone.

    A client that mirrors the game from ``Moved`` and ``Gone`` events calls
    ``state.set_aside(slots)`` on its mirror here, in order with the others.
    """

    seq: int
    slots: tuple[int, ...]


Event = (
    Rejected
    | Started
    | Applied
    | Moved
    | YourTurn
    | Overdue
    | Gone
    | ClaimVoided
    | CheatDetected
    | Equivocation
    | GameEnded
    | SetAside
    | Abandoned
    | Audited
)
