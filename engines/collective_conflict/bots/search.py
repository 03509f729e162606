"""The Collective Conflict search bot: our move, every reply, and our winning answer to it.

Three plies, selectively: every action of ours is scored by :func:`evaluate`;
the best ``width`` are searched against every reply of the next seat to move
(the most threatening replies first, so that alpha cuts come early); and after
each reply we look for our *immediate win* — a hex that would close the ring
around an opponent command unit and that one of our actions can fill.  That
third ply is what makes a threat worth something: a move that leaves the
opponent no reply stopping a surround scores as a win, and a reply that parries
the threat is the one the search expects.  The check is cheap because it runs
only when an opponent command unit already has five occupied sides, and only
for the replies that could decide the minimum.  When every candidate within
the width loses to some reply, the search goes on down the list looking for a
defence (a move the one-ply order ranked low, such as stepping out of a ring).
A reply that leaves our decisive command unit in a five-sided ring that no
action of ours opens counts as lost (:meth:`SearchBot._doomed`): the win it
gives the opponent is one ply beyond the search.

The bot plays one game, so it may remember it: boards it has already left
behind cost a little, which breaks the back-and-forth shuffles that otherwise
end in the move-limit draw.

Everything is counted in nodes (positions built), never in clock time, so a
bot's choice is the same on every machine; the budget keeps a move well under a
second here (``benchmarks/cc_bots.py`` prints p50/p99/max).  The bot sees only
its seat's view; an opponent's sealed identities are guessed by
:func:`determinise` and weighed at their expected value.
"""

from __future__ import annotations

from typing import Any

from engines.collective_conflict.bots.evaluate import WIN, after, determinise, evaluate
from engines.collective_conflict.bots.memory import LeftBoards, PositionMemory, identity_filter
from engines.collective_conflict.rules import COMMAND, MOTHERSHIP
from engines.collective_conflict.state import CollectiveConflictState
from engines.core.hexgrid import DELTAS, hex_id
from engines.core.pending import Decision
from engines.core.seeded import SeededStream
from engines.core.state import Action, GameState, Knowledge

#: Value of a drawn game (the repetition draw): sought when behind, avoided when ahead.
DRAW = 0
#: Value of a surround we can close next move around a command unit that is surely the Network's last hope.
SURE_WIN = WIN - 1
#: Value of a reply after which our decisive command unit has five occupied sides and no action of ours
#: frees it: the opponent closes the ring next.
DOOMED = -SURE_WIN
#: ... and around one whose identity we do not know (half the time it is the MotherShip).
LIKELY_WIN = WIN // 4
#: Nodes charged for generating a position's actions (about twice the cost of building a position).
GENERATE_COST = 2
#: Our candidates searched against every reply, best first by their one-ply value.
WIDTH = 24
#: Nodes per decision: 0.2-0.3 ms of CPU each here, so a decision takes about half a second at its worst.
BUDGET = 1600
#: Pressure on our own command units and on the opponents' (eighths of :func:`evaluate`'s weights):
#: the search bot guards its own ring far more than greedy does (16 against 5) and presses the
#: opponents' harder (12 against 4).
DEFENCE = 16
ATTACK = 12
#: Worth of each of our command units on the board, whichever it is (a Network moves only once one
#: is placed; which identity goes first is drawn by :func:`.memory.identity_filter`).
COMMAND_WORTH = 150
#: Eighths of the ring pressure that our own free units beside our command unit count for (they can
#: step away); without this discount every placement next to our first command unit would look bad
#: and the bot would walk a lone unit about instead of developing its reserve.
FREE_SHARE = 2
#: Worth of holding the Virus (a Runner collected a Data Core).
VIRUS = 80
#: Worth of each hex (up to four) where we can still place while our reserve is not empty: a bot
#: whose first units were hemmed in by foreign ones could never bring its reserve into play.
ROOM = 20
#: Our free units are drawn to the hex that would close a five-sided ring, not to the unit inside it
#: (units drawn to the unit circle the ring as its own sides and never close it).
HOLE = True
#: Worth (per weight point of :func:`evaluate`) of a foreign unit on top of a command unit: it pins the
#: unit in its ring.
PIN = 100
#: Cost of each hex between our free units and the nearest opponent command unit.
CHASE = 3
#: Penalty, per earlier time, for leaving a board we have already left: shuffling ends in a draw.
REPEAT = 150
#: Cost per foreign side beyond two around our command unit when it cannot slide out (see :func:`evaluate`):
#: a MotherShip boxed in has no way out of a fifth side.
TRAPPED = 60
#: How many times that cost a five-sided ring counts (one hex from closing, with no way out): a command unit
#: left in such a ring while the bot presses its own attack is lost.
CLOSING = 4
#: Cost of each free foreign unit beside our command unit, half that two steps away (see :func:`evaluate`):
#: a MotherShip that walks among foreign units in the opening is ringed rounds later.
EXPOSURE = 40
#: Weight (in :func:`evaluate`'s terms, a MotherShip 8, a Decoy 2) of each of our own command units while both
#: are on the board and our Decoy is unrevealed, and then a ring about to close around either counts as lost
#: (:meth:`SearchBot._decisive_rings`): guarded alike, how hard the bot guards one is no tell of which it is
#: (CC-8).  0 weighs them by identity.
ALIKE = 5


def node_cost(state: CollectiveConflictState, seats: list[int]) -> int:
    """Nodes charged for building and judging one position whose next mover is one of ``seats``.

    Building a position ends with the engine asking whether the next mover can
    act at all; while it holds units in reserve a placement answers at once, but
    with an empty reserve the engine generates every move, which takes about as
    long as the rest of the node.  Charging such positions double keeps the
    worst decision near the time of a typical one.
    """
    return 2 if all(not any(state.reserve[s].values()) for s in seats) else 1


class _OutOfBudget(Exception):
    """The next piece of work would overspend the node budget: the search stops where it is."""


def destination(action: Action) -> tuple[int, int] | None:
    """The hex an action fills, if any (a placement, a move, a cast or a jump's landing)."""
    verb = action[0]
    # a public action names its hexes by (q, r); Action itself cannot say which item is a hex
    if verb in ("place", "move", "cast"):
        placed: tuple[int, int] = action[2]
        return placed
    if verb == "jump":
        landing: tuple[int, int] = action[3]
        return landing
    return None


def source(action: Action) -> tuple[int, int] | None:
    """The hex a unit leaves, if any."""
    return action[1] if action[0] in ("move", "cast", "jump") else None


class SearchBot:
    """Selective three-ply search over one determinisation, bounded by a node budget."""

    def __init__(
        self,
        seat: int,
        seed: bytes,
        width: int = WIDTH,
        budget: int = BUDGET,
        defence: int = DEFENCE,
        attack: int = ATTACK,
        command: int = COMMAND_WORTH,
        free_share: int = FREE_SHARE,
        virus: int = VIRUS,
        room: int = ROOM,
        hole: bool = HOLE,
        pin: int = PIN,
        chase: int = CHASE,
        repeat: int = REPEAT,
        trapped: int = TRAPPED,
        closing: int = CLOSING,
        exposure: int = EXPOSURE,
        alike: int = ALIKE,
    ) -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"cc-search/{seat}")
        self.width = width
        self.budget = budget
        self.defence = defence
        self.attack = attack
        self.command = command
        self.free_share = free_share
        self.virus = virus
        self.room = room
        self.hole = hole
        self.pin = pin
        self.chase = chase
        self.repeat = repeat
        self.trapped = trapped
        self.closing = closing
        self.exposure = exposure
        self.alike = alike
        #: How often each board we left behind has been seen (a bot plays one game: it may remember it).
        self.history = LeftBoards()
        #: The game's positions as this bot has seen them, for the repetition draw (CC-22).
        self.memory = PositionMemory()
        #: Nodes spent on the last decision and the value it expected (for tests and benchmarks).
        self.nodes = 0
        self.value = 0

    # -- the decision ------------------------------------------------------------------
    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:  # noqa: C901 (tests/test_complexity.py)
        assert isinstance(state, CollectiveConflictState)
        seat = self.seat
        self.memory.note(state)
        legal = identity_filter(state, seat, legal, self.rng)
        guess = determinise(state, seat, knowledge, self.rng)
        self.nodes = 0
        unit = node_cost(state, [s for s in range(state.players) if s != seat and state.active[s]])
        first: list[tuple[int, int, Action, CollectiveConflictState, dict[int, Any]]] = []
        try:
            for i, action in enumerate(legal):
                self._spend(unit)
                g = dict(guess)
                child = after(state, seat, action, knowledge, g)
                value = self._value(child, g)
                if value >= WIN:
                    self.memory.note(child)
                    return action
                if self._repeats(child):
                    value = DRAW
                value -= self._stale(child)
                first.append((value, -i, action, child, g))
        except _OutOfBudget:
            if not first:
                return legal[0]
        first.sort(key=lambda x: (x[0], x[1]), reverse=True)
        # a move into a repetition draw is always weighed, however low its one-ply rank (it is sought when behind)
        first = first[: self.width] + sorted(first[self.width :], key=lambda x: not self._repeats(x[3]))
        best_value: int | None = None
        best_action, best_child = first[0][2], first[0][3]
        for rank, (value, _, action, child, g) in enumerate(first):
            if rank >= self.width and best_value is not None and best_value > DOOMED and not self._repeats(child):
                break  # past the width only while every candidate so far loses: look for a defence
            try:
                pending = child.pending()
                if self._repeats(child):
                    worst = DRAW  # the third time of this position: the game ends drawn (CC-22)
                elif isinstance(pending, Decision) and pending.seat != seat:
                    worst = self._replies(child, pending.seat, g, best_value)
                    if worst < WIN // 8:
                        worst -= self._stale(child)  # (``value`` has paid it already)
                elif isinstance(pending, Decision):
                    worst = max(value, self._our_win(child))  # the opponent is skipped: we move again
                else:
                    worst = value
            except _OutOfBudget:
                break  # a half-searched candidate would look better than it is
            if best_value is None or worst > best_value:
                best_value, best_action, best_child = worst, action, child
        if self.repeat:
            self.history.leave(best_child)
        self.memory.note(best_child)
        self.value = best_value if best_value is not None else first[0][0]
        return best_action

    def _repeats(self, state: CollectiveConflictState) -> bool:
        """Would reaching ``state`` be its third occurrence (the repetition draw, CC-22)?"""
        return self.memory.would_repeat(state)

    def _stale(self, child: CollectiveConflictState) -> int:
        """The penalty for leaving a board we have left before: shuffling back and forth ends in a draw."""
        return self.history.cost(child, self.repeat)

    def _spend(self, cost: int) -> None:
        """Count ``cost`` nodes, or stop the search if they would overspend the budget."""
        if self.nodes + cost > self.budget:
            raise _OutOfBudget
        self.nodes += cost

    def _value(self, state: CollectiveConflictState, guess: dict[int, Any]) -> int:
        return evaluate(
            state,
            self.seat,
            guess,
            self.defence,
            expect=True,
            command=self.command,
            free_share=self.free_share,
            virus=self.virus,
            room=self.room,
            hole=self.hole,
            attack=self.attack,
            pin=self.pin,
            chase=self.chase,
            trapped=self.trapped,
            closing=self.closing,
            exposure=self.exposure,
            alike=self.alike,
        )

    # -- the second and third plies -----------------------------------------------------
    def _replies(self, child: CollectiveConflictState, mover: int, guess: dict[int, Any], alpha: int | None) -> int:
        """The least value the mover can leave us (:class:`_OutOfBudget` if the budget cannot pay for it).

        A reply's value is the larger of its static value and our immediate win
        after it.  Replies statically at or below ``alpha`` end the search of this
        candidate (an alpha cut) unless they leave us a win; the rest are checked
        for our win lowest first, and the first without one is the minimum.
        """
        unit = node_cost(child, [self.seat])
        self._spend(GENERATE_COST)
        replies = _ordered_replies(child, mover, self.seat)
        if self.nodes + len(replies) * unit > self.budget:
            raise _OutOfBudget
        seen: list[tuple[int, int, CollectiveConflictState]] = []
        lowest: int | None = None
        for i, reply in enumerate(replies):
            self._spend(unit)
            g2 = dict(guess)
            grand = after(child, mover, reply, None, g2)
            v = self._value(grand, g2)
            if v <= -WIN:
                return v
            if self._repeats(grand):
                v = DRAW
            elif self._doomed(grand, g2):
                v = DOOMED
            if alpha is not None and v <= alpha:
                win = self._our_win(grand)
                if win == 0:
                    return v
                lowest = win if lowest is None else min(win, lowest)
                continue
            seen.append((v, i, grand))
        seen.sort(key=lambda x: (x[0], x[1]))
        for v, _, grand in seen:
            win = self._our_win(grand)
            if win == 0:
                return v if lowest is None else min(v, lowest)
            lowest = win if lowest is None else min(win, lowest)
        return SURE_WIN if lowest is None else lowest

    def _doomed(self, state: CollectiveConflictState, guess: dict[int, Any]) -> bool:
        """Is a ring around our decisive command unit one side from closing, with no action of ours to stop it?

        Decisive: our MotherShip (we know our own identities) or our only command
        unit on the board.  We, to move, escape if some action leaves no such ring
        (a side steps away, the unit itself moves) or wins outright; the actions
        touching the ring are tried first, so a parry is usually found at once.
        """
        pending = state.pending()
        if not isinstance(pending, Decision) or pending.seat != self.seat:
            return False
        if not self._decisive_rings(state, guess):
            return False
        unit = node_cost(state, [s for s in range(state.players) if s != self.seat and state.active[s]])
        self._spend(GENERATE_COST)
        near: list[Action] = []
        rest: list[Action] = []
        rings = self._decisive_rings(state, guess)
        around = {c + d for c in rings for d in DELTAS} | set(rings)
        for action in state._public_legal():
            src = source(action)
            (near if src is not None and hex_id(*src) in around else rest).append(action)
        for action in near + rest:
            self._spend(unit)
            g = dict(guess)
            child = after(state, self.seat, action, None, g)
            over = child.over
            if over is not None:
                if over.winners == (self.seat,):
                    return False
                continue
            if not self._decisive_rings(child, g):
                return False
        return True

    def _decisive_rings(self, state: CollectiveConflictState, guess: dict[int, Any]) -> set[int]:
        """The hexes of our command units that decide our Network and have exactly five occupied sides.

        With :attr:`alike` both our command units count as deciding while both are on the board: a ring the
        bot let close around its Decoy and never around its MotherShip would tell which is which.
        """
        stacks = state.stacks
        ours = [
            (h, stack[0])
            for h, stack in stacks.items()
            if state.p_owner[stack[0]] == self.seat and state.p_kind[stack[0]] in (COMMAND, MOTHERSHIP)
        ]
        out: set[int] = set()
        for h, piece in ours:
            sid = state.piece_sid.get(piece)
            decisive = (
                len(ours) == 1
                or self.alike > 0
                or state.p_kind[piece] == MOTHERSHIP
                or (sid is not None and guess.get(sid) == "mothership")
            )
            if decisive and sum(1 for d in DELTAS if (h + d) in stacks) == 5:
                out.add(h)
        return out

    def _our_win(self, state: CollectiveConflictState) -> int:  # noqa: C901 (tests/test_complexity.py)
        """:data:`SURE_WIN` or :data:`LIKELY_WIN` if we, to move, can close a ring next; else 0."""
        pending = state.pending()
        if not isinstance(pending, Decision) or pending.seat != self.seat:
            return 0
        targets = _ringable(state, self.seat)
        if not targets:
            return 0
        self._spend(GENERATE_COST)
        ours = _ringable(state, -1, only=self.seat)
        best = 0
        for action in state._public_legal():
            dest = destination(action)
            if dest is None:
                continue
            d = hex_id(*dest)
            if d not in targets:
                continue
            centre, sure = targets[d]
            src = source(action)
            if src is not None:
                s = hex_id(*src)
                if len(state.stacks[s]) == 1 and any(s + delta == centre for delta in DELTAS):
                    continue  # the unit leaves a side of the very ring it would close
            if d in ours:
                continue  # it would close a ring around our own command unit too
            value = SURE_WIN if sure else LIKELY_WIN
            if value > best:
                best = value
                if best == SURE_WIN:
                    break
        return best


def _ringable(state: CollectiveConflictState, seat: int, only: int | None = None) -> dict[int, tuple[int, bool]]:
    """The free hex of every command unit with five occupied sides: ``{hex: (unit hex, surely decisive)}``.

    With ``only`` the command units of that seat; otherwise those of every active
    seat but ``seat``.  "Surely decisive" means closing the ring ends the Network
    whatever the unit is: it is its owner's only command unit on the board, its
    owner's Decoy is already revealed, or it is an open MotherShip (classic).
    """
    stacks = state.stacks
    p_owner = state.p_owner
    p_kind = state.p_kind
    out: dict[int, tuple[int, bool]] = {}
    count: dict[int, int] = {}
    for stack in stacks.values():
        bottom = stack[0]
        if p_kind[bottom] == COMMAND or p_kind[bottom] == MOTHERSHIP:
            owner = p_owner[bottom]
            count[owner] = count.get(owner, 0) + 1
    for h, stack in stacks.items():
        bottom = stack[0]
        kind = p_kind[bottom]
        if kind != COMMAND and kind != MOTHERSHIP:
            continue
        owner = p_owner[bottom]
        if (only is not None and owner != only) or (only is None and owner == seat) or not state.active[owner]:
            continue
        free = [h + d for d in DELTAS if (h + d) not in stacks]
        if len(free) != 1:
            continue
        sure = kind == MOTHERSHIP or count[owner] == 1 or state.decoy_revealed[owner]
        out[free[0]] = (h, sure)
    return out


def _ordered_replies(state: CollectiveConflictState, mover: int, victim: int) -> list[Action]:
    """The mover's public actions, those ending next to the victim's command units first."""
    danger: set[int] = set()
    for h, stack in state.stacks.items():
        piece = stack[0]
        if state.p_owner[piece] == victim and state.p_kind[piece] in (COMMAND, MOTHERSHIP):
            danger.update(h + d for d in DELTAS)
    near: list[Action] = []
    rest: list[Action] = []
    for action in state._public_legal():
        dest = destination(action)
        if dest is not None and hex_id(*dest) in danger:
            near.append(action)
        else:
            rest.append(action)
    return near + rest


__all__ = ["SearchBot", "destination"]
