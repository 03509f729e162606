"""What a game waits for next.

Every engine answers ``state.pending()`` with exactly one of the values below.
The protocol layer turns each kind into the right exchange of messages (a
signed decision, a commit-reveal round, a mental-poker draw, an encrypted
private delivery); the in-process referee of :mod:`engines.core.referee`
resolves them directly from its hidden truth.  Keeping the list closed is the
point: a transport that handles these six kinds can run any of our games.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ChanceKind(StrEnum):
    """How a chance event must be produced so that nobody can steer it."""

    #: Derived from the joint seed committed by every seat before the game
    #: (starting layout, first player, Data Core hexes, relocations).
    PUBLIC_SEEDED = "public-seeded"
    #: Must be unpredictable and unbiasable *at the moment it is needed*
    #: (a die rolled after an attack has been declared): a fresh
    #: commit-reveal round among the seats.
    INTERACTIVE = "interactive"
    #: A secret permutation of known cards into new, unknown slots
    #: (the opening shuffle, or reshuffling the discards).  Resolved by a
    #: mental-poker shuffle pass by every seat.
    SECRET_SHUFFLE = "secret-shuffle"


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat must choose an action; ``what`` names the kind of choice."""

    seat: int
    what: str


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance event.

    For ``PUBLIC_SEEDED`` and ``INTERACTIVE`` the outcome is an integer in
    ``range(outcomes)`` and the resolving action is ``("chance", outcome)``.
    For ``SECRET_SHUFFLE`` the ``cards`` are the public identities being
    shuffled into the fresh slots ``slots`` (same length); the resolving action
    is ``("shuffled",)`` and nobody learns which card is in which slot.
    """

    kind: ChanceKind
    what: str
    outcomes: int = 0
    cards: tuple[int, ...] = ()
    slots: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RevealOwed:
    """``seat`` must open its sealed value ``secret`` before play goes on.

    Resolved by ``("reveal", secret, value)`` written by ``seat``; the protocol
    checks the value against the commitment before the engine sees it.
    """

    seat: int
    secret: int
    what: str


@dataclass(frozen=True, slots=True)
class Deal:
    """Card slot ``slot`` goes to ``seat``'s hand; only that seat learns it.

    Resolved by ``("deal", slot)``.  With mental poker the other seats
    publish their locks' keys for the slot first.
    """

    slot: int
    seat: int


@dataclass(frozen=True, slots=True)
class PrivateDelivery:
    """Seat ``source`` shows the cards in ``slots`` to seat ``target`` alone.

    Resolved by ``("delivered",)`` once ``target`` holds the keys.  ``fresh``, if not
    empty, names as many never-used slots: the delivered cards move there, re-keyed by
    ``source`` in an order only ``source`` and ``target`` learn, so that a third seat
    that knew the old slots cannot follow the cards (System Launch, SL-10).  In process
    ``fresh[i]`` holds the card of ``slots[i]``; the protocol permutes them in secret.
    """

    source: int
    target: int
    slots: tuple[int, ...]
    what: str
    fresh: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameOver:
    """Nothing is pending; ``winners`` is empty for a game nobody won."""

    winners: tuple[int, ...]
    reason: str

    @property
    def draw(self) -> bool:
        return len(self.winners) != 1


Pending = Decision | Chance | RevealOwed | Deal | PrivateDelivery | GameOver
