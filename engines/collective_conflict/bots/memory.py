"""What a Collective Conflict bot decides outside its search: which command unit to show, and what it remembers.

**MotherShip or Decoy.**  When both identities could be placed, the bot does
not choose by a fixed order (an opponent who knew that order would know which
command unit is which: CC-8).  :func:`identity_filter` draws the identity from
the bot's own seeded stream, weighed by the position: the more foreign units
stand near the hexes where the bot can place, the likelier it shows its Decoy
there first (it draws fire) and keeps its MotherShip back; the more of its own
units guard those hexes, the likelier the MotherShip goes first, but never by
more than two to one (:data:`ODDS`), so the position is no tell.  Only the
placements of the drawn identity stay among the candidates; where the
command unit goes is then the search's choice.

**The game's positions.**  The repetition draw (CC-22) ends a game when the
same position (public state and seat to move) occurs for the third time.  A
bot plays one game, so :class:`PositionMemory` counts the positions it has seen
at its own turns and after its own moves; a full cycle of play always passes
through the bot's turn, so no repetition the bot could walk into is missed.
The key is coarse (who of which kind stands where, the reserves, the Data
Cores, the Virus, the seat to move; never a secret), so it is never finer than
the rules' own notion of "the same position".

**The boards it left.**  :class:`LeftBoards` counts the boards (which unit
stands where) the bot left behind after its own moves; coming back to one
costs it, so it does not walk a unit back and forth until the repetition draw.
"""

from __future__ import annotations

from engines.collective_conflict.state import CollectiveConflictState
from engines.core.hexgrid import DELTAS, hex_id
from engines.core.pending import Decision
from engines.core.seeded import SeededStream
from engines.core.state import Action, PositionKey

_IDENTITIES = ("mothership", "decoy")
#: Hexes around our placement hexes that count as "near" (the hex's neighbours and theirs).
_NEAR_RINGS = 2
#: Each identity's base weight, and the most the position adds to it: the odds never pass two to one,
#: so an opponent who knew this rule could never guess the identity better than two times in three.
ODDS = 3


def position_key(state: CollectiveConflictState) -> PositionKey:
    """The public position for the repetition draw (no secret in it): board, reserves, cores, Virus, mover."""
    owner = state.p_owner
    kind = state.p_kind
    sid = state.piece_sid
    board = tuple(
        sorted((h, tuple((owner[p], kind[p], sid.get(p, 0)) for p in stack)) for h, stack in state.stacks.items())
    )
    pending = state.pending()
    mover = pending.seat if isinstance(pending, Decision) else -1
    return (
        board,
        tuple(tuple(sorted(r.items())) for r in state.reserve),
        tuple(sorted(state.cores)),
        tuple(state.virus),
        tuple(state.active),
        mover,
    )


class PositionMemory:
    """How often each position of this game has been seen by the bot."""

    def __init__(self) -> None:
        self.counts: dict[PositionKey, int] = {}

    def note(self, state: CollectiveConflictState) -> None:
        key = position_key(state)
        self.counts[key] = self.counts.get(key, 0) + 1

    def seen(self, state: CollectiveConflictState) -> int:
        return self.counts.get(position_key(state), 0)

    def would_repeat(self, state: CollectiveConflictState) -> bool:
        """Would reaching ``state`` be its third occurrence?  (Cheap while no position has occurred twice.)"""
        if not any(n >= 2 for n in self.counts.values()):
            return False
        return self.seen(state) >= 2


BoardKey = tuple[tuple[int, tuple[int, ...]], ...]


def board_key(state: CollectiveConflictState) -> BoardKey:
    """Who stands where, as a hashable key (unit ids, not just kinds: a Runner is not another Runner)."""
    return tuple(sorted((h, tuple(stack)) for h, stack in state.stacks.items()))


class LeftBoards(dict[BoardKey, int]):
    """How often the bot has left each board behind: coming back to one costs it, so it does not shuffle
    a unit back and forth into the repetition draw (both the greedy and the search bot keep one)."""

    def cost(self, state: CollectiveConflictState, weight: int) -> int:
        """``weight`` for each earlier time the bot left ``state``'s board behind."""
        return weight * self.get(board_key(state), 0) if weight and self else 0

    def leave(self, state: CollectiveConflictState) -> None:
        key = board_key(state)
        self[key] = self.get(key, 0) + 1


def _exposure(state: CollectiveConflictState, seat: int, hexes: set[int]) -> tuple[int, int]:
    """(foreign units, own units) within two steps of the hexes where a command unit could go."""
    near = set(hexes)
    for _ in range(_NEAR_RINGS):
        near |= {h + d for h in near for d in DELTAS}
    foreign = own = 0
    for h in near:
        stack = state.stacks.get(h)
        if not stack:
            continue
        top = state.p_owner[stack[-1]]
        if top == seat:
            own += 1
        elif top >= 0:
            foreign += 1
    return foreign, own


def identity_filter(state: CollectiveConflictState, seat: int, legal: list[Action], rng: SeededStream) -> list[Action]:
    """``legal`` with the command placements of one identity only, drawn from ``rng`` weighed by the position.

    Unchanged when at most one identity can be placed (the second command unit,
    or the tenth-move rule).
    """
    offered = {a[1] for a in legal if a[0] == "place" and a[1] in _IDENTITIES}
    if len(offered) < 2:
        return legal
    hexes = {hex_id(*a[2]) for a in legal if a[0] == "place" and a[1] == "decoy"}
    foreign, own = _exposure(state, seat, hexes)
    decoy_weight = ODDS + min(foreign, ODDS)
    mothership_weight = ODDS + min(own, ODDS)
    drawn = "decoy" if rng.below(decoy_weight + mothership_weight) < decoy_weight else "mothership"
    return [a for a in legal if not (a[0] == "place" and a[1] in _IDENTITIES and a[1] != drawn)]


__all__ = ["LeftBoards", "PositionMemory", "board_key", "identity_filter", "position_key"]
