"""The engine contract: public state, per-seat knowledge, actions.

An engine is a :class:`GameState` subclass.  The state object holds *public*
information only — what every peer may know — so it can be encoded, hashed and
compared across peers, and handed to a bot without leaking anything.  What a
seat knows beyond that (the identity of the cards in its hand, the value it
sealed in a commitment) lives in a :class:`Knowledge` that the seat keeps to
itself.  A ``Knowledge`` with ``seat=None`` knows everything: that is the
full-knowledge mode used by the end-of-game audit and by tests.

Actions are plain tuples whose first item is a verb (``("build", 12, 7)``):
hashable, cheap to compare, and msgpack-encodable exactly as they are, so the
wire format and the engine's own vocabulary are the same thing.

A seat's chosen action may carry a secret (which of two command units is the
Decoy, whether a trap is armed).  :meth:`GameState.publish` splits such a
*private* action into the public action that goes on the wire and the values
that must be sealed (committed to) with it; the engine refers to each sealed
value by a small integer id that the public action carries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.core.encoding import canonical_encode, state_hash
from engines.core.pending import GameOver, Pending

Action = tuple[Any, ...]

#: A hashable summary of a position, for repetition counts and transposition tables.
PositionKey = tuple[object, ...]

#: The author of chance, deal, shuffle and delivery resolutions: nobody's
#: decision, produced by the table (referee or protocol) itself.
TABLE = -1


class IllegalAction(ValueError):
    """An action that the rules forbid here; ``str()`` says why, for people."""


@dataclass(slots=True)
class Knowledge:
    """What one seat knows beyond the public state (``seat=None``: everything).

    ``cards`` maps card slots to card identities; ``sealed`` maps sealed-value
    ids to the values committed to.  Only the owner of a secret (or the
    full-knowledge view) holds it; the public state never does.
    """

    seat: int | None
    cards: dict[int, int] = field(default_factory=dict)
    sealed: dict[int, Any] = field(default_factory=dict)

    @property
    def full(self) -> bool:
        return self.seat is None

    def copy(self) -> Knowledge:
        return Knowledge(self.seat, dict(self.cards), dict(self.sealed))


@dataclass(frozen=True, slots=True)
class Publication:
    """A private action split into its public form and the values it seals."""

    action: Action
    sealed: dict[int, Any]


class GameState(ABC):
    """Public state of one game; mutable, cloned explicitly (``clone``).

    Subclasses implement the rules.  The methods below are the whole surface
    the protocol, the referee, bots and the client use.
    """

    #: Registry name, e.g. ``"system-launch"``.
    game: ClassVar[str]

    # -- what happens next -------------------------------------------------
    @abstractmethod
    def pending(self) -> Pending:
        """Exactly what the game waits for now (see :mod:`.pending`)."""

    @abstractmethod
    def legal_actions(self, seat: int, knowledge: Knowledge) -> list[Action]:
        """The (private) actions ``seat`` may choose now, from its knowledge.

        Empty unless ``pending()`` is a :class:`~.pending.Decision` for
        ``seat``.  The order is stable (the same on every machine).
        """

    def publish(self, seat: int, action: Action, knowledge: Knowledge) -> Publication:
        """Split a private action into its public form and sealed values.

        Games without sealed secrets publish actions unchanged.
        """
        return Publication(action, {})

    def shown(self, seat: int, action: Action) -> tuple[tuple[int, int], ...]:
        """Card slots that this public action shows to everyone, with the claimed identities.

        ``((slot, card), ...)``.  The protocol requires the author's key for each
        such slot in the same entry and every peer checks that the slot really
        decrypts to that card, so a card cannot be shown by someone who does not
        hold it.  Games without cards show nothing.
        """
        return ()

    # -- applying ---------------------------------------------------------
    @abstractmethod
    def check(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may apply ``action``.

        With ``knowledge=None`` only public information is used — this is how
        every peer validates every other peer's action.  With a knowledge that
        holds the relevant secrets (the author's own, or full knowledge in the
        audit) the rules that depend on secrets are checked as well.
        ``seat`` is :data:`TABLE` for chance, deals, shuffles and deliveries.
        """

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply a public action that :meth:`check` accepted (mutates)."""

    def push(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:
        """Check, then apply: the safe entry point for untrusted input."""
        self.check(seat, action, knowledge)
        self.apply(seat, action)

    @abstractmethod
    def forfeit(self, seat: int) -> None:
        """Remove ``seat`` from play (left, or declared gone by all others).

        Takes effect at once; if it was that seat's decision, play moves on.
        """

    def set_aside(self, slots: tuple[int, ...]) -> None:
        """Put card ``slots`` out of play, face down, for the rest of the game (mutates).

        Why: when a seat is declared gone its per-card keys leave with it, so the
        cards it never unlocked (the undrawn deck) can never be opened again.  The
        protocol names those slots, at a point of the log every peer agrees on,
        and the engine takes them out of play by its own rules so the others can
        finish the game.  Where a slot may be (deck, hand) and what follows (an
        empty deck, a reshuffle) is the engine's rule.

        The default raises :class:`IllegalAction`: a game without cards has no
        slot to set aside.  An engine with cards overrides it; a slot it does not
        hold, or a set it cannot take, is refused with ``IllegalAction`` and no
        change.
        """
        raise IllegalAction(f"{self.game} has no cards to set aside")

    # -- reading ----------------------------------------------------------
    @abstractmethod
    def public(self) -> Any:
        """The public state as plain data (canonically encodable)."""

    def encode(self) -> bytes:
        return canonical_encode(self.public())

    def hash(self) -> bytes:
        """SHA-256 of the canonical public state: what peers compare."""
        return state_hash(self.public())

    @abstractmethod
    def view(self, knowledge: Knowledge) -> dict[str, Any]:
        """What the person (or bot) at ``knowledge.seat`` sees: plain data."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent copy."""

    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats."""

    def result(self) -> GameOver | None:
        p = self.pending()
        return p if isinstance(p, GameOver) else None

    def is_over(self) -> bool:
        return isinstance(self.pending(), GameOver)
