"""What the Collective Conflict bots know how to judge: a position's value and a guess at the secrets.

Shared by the greedy and the search bot.  A bot sees only its seat's view, so
wherever a secret it does not hold decides (which opponent command unit is the
MotherShip, whether a trap is armed) it *determinises*: :func:`determinise`
fixes one guess from the bot's own seeded stream and :func:`settle` plays the
owed reveals as if the guess were true.  :func:`evaluate` is integer-only, so
the bots stay deterministic on every machine.
"""

from __future__ import annotations

from typing import Any

from engines.collective_conflict.rules import CLIMBER, COMMAND, JUMPER, MOTHERSHIP, NETCASTER, RUNNER
from engines.collective_conflict.state import CollectiveConflictState
from engines.core.hexgrid import DELTAS, WIDTH, articulation_points
from engines.core.pending import Chance, RevealOwed
from engines.core.seeded import SeededStream
from engines.core.state import TABLE, Action, Knowledge

WIN = 1_000_000
#: Value of n occupied sides around a command unit (the sixth ends it).
PRESSURE = (0, 10, 30, 70, 150, 400, 5000)
#: Value of a unit that is free to move, by kind (a pinned unit is worth nothing here).
UNIT = 25
MOBILITY = {RUNNER: 12, CLIMBER: 9, JUMPER: 7, NETCASTER: 5, COMMAND: 3, MOTHERSHIP: 3}
#: Offsets of the hexes two steps from a hex (hex ids are linear in q and r, so offsets add).
RING2 = tuple(sorted({a + b for a in DELTAS for b in DELTAS} - {0} - set(DELTAS)))


def evaluate(  # noqa: C901 (tests/test_complexity.py)
    state: CollectiveConflictState,
    seat: int,
    guess: dict[int, Any],
    defence: int = 5,
    expect: bool = False,
    decoy: int = 0,
    attack: int = 4,
    pin: int = 0,
    chase: int = 3,
    command: int = 0,
    free_share: int = 8,
    virus: int = 0,
    room: int = 0,
    hole: bool = False,
    trapped: int = 0,
    closing: int = 1,
    exposure: int = 0,
    alike: int = 0,
) -> int:
    """Pressure on the opponents' command units minus pressure on one's own, plus closeness to them.

    ``defence`` (in eighths) weighs pressure on one's own command units against pressure on theirs.
    With ``expect`` an opponent's command unit of unknown identity counts at its expected weight
    instead of the guessed one.  ``decoy`` is the worth of one's own Decoy standing on the board:
    an opponent who cannot tell it from the MotherShip spends moves on it.  ``attack`` (in eighths)
    weighs pressure on the opponents' command units.  ``pin`` is the worth of a foreign unit on top
    of a command unit (it cannot move out of the ring), per weight point; ``chase`` the cost of each
    hex between one's free units and the nearest opponent command unit.  ``command`` is the worth
    of each of one's own command units on the board, whatever it is (so the choice between MotherShip
    and Decoy is not made here: :mod:`.memory` draws it).  ``free_share`` (in eighths) is how much
    a unit beside its own command unit counts towards the ring while it is free to step away (until
    the fifth side is filled, when every side counts in full).  ``virus`` is the worth of holding
    the Virus (a Runner that collected a Data Core), for oneself and, shared out, for the opponents.
    ``room`` is the worth of each hex (up to four) where one can still place while one's reserve is
    not empty; a reserve hemmed in by foreign units with no hex left costs twice that per unit, since
    units that cannot come into play are lost.  With ``hole`` the units are drawn towards the one
    free side of an opponent command unit whose other five are filled (the hex that closes the ring)
    rather than towards the unit itself.  ``trapped`` is the cost, per foreign side beyond two, of one's
    own command unit with three or four foreign sides that cannot slide out of its ring (every free side
    is a gate with both flanks taken): such a unit is lost once a fifth side is filled, whatever one
    does then.  Once that fifth side is filled the cost is ``closing`` times as much: the ring stays
    one hex from closing until the opponent brings a unit to that hex (a search that sees a few plies
    counts it as merely bad while no opponent unit reaches the hole yet, and then cannot parry).
    ``exposure`` is the cost of each foreign unit free to move that stands beside one's own command unit
    (on top of the ring's pressure), and half that for one two steps away: the units that can fill its
    sides next.  A ring is lost long before the search sees it close, when the command unit walks among
    the opponent's units in the opening, so it is kept away from them while it still can be.
    With ``alike`` one's own two command units, while both are on the board and the Decoy is unrevealed,
    are both weighed at ``alike`` instead of by identity, so that how hard the bot guards each tells an
    opponent nothing of which is which (CC-8).
    """
    over = state.over
    if over is not None:
        if seat in over.winners:
            return WIN if len(over.winners) == 1 else 0
        return -WIN
    stacks = state.stacks
    p_owner = state.p_owner
    p_kind = state.p_kind
    others = max(1, state.players - 1)
    foe_unit = -UNIT // others
    score = 0
    commands = []
    for h, stack in stacks.items():
        for unit in stack:
            unit_owner = p_owner[unit]
            if unit_owner >= 0:
                score += UNIT if unit_owner == seat else foe_unit
        bottom = stack[0]
        if p_kind[bottom] == COMMAND or p_kind[bottom] == MOTHERSHIP:
            commands.append((h, bottom, p_owner[bottom]))
    lone = [sum(1 for c in commands if c[2] == o) == 1 for o in range(state.players)]
    cut = articulation_points(stacks)
    targets = []
    for h, piece, owner in commands:
        n = 0
        free_own = 0
        for d in DELTAS:
            side = stacks.get(h + d)
            if side is None:
                continue
            n += 1
            if free_share < 8 and p_owner[side[-1]] == owner and (len(side) > 1 or (h + d) not in cut):
                free_own += 1
        ring = PRESSURE[n]
        if free_own and n < 5:
            ring = PRESSURE[n - free_own] + (ring - PRESSURE[n - free_own]) * free_share // 8
        sid = state.piece_sid.get(piece)
        identity = guess.get(sid, "mothership") if sid is not None else "mothership"
        # a lone command unit is as good as a MotherShip: surrounding a Decoy alone collapses its Network
        if lone[owner] or (owner != seat and state.decoy_revealed[owner]):
            weight = 8
        elif owner != seat and expect:
            weight = 5  # unknown: the mean of a MotherShip (8) and a Decoy (2)
        elif owner == seat and alike:
            weight = alike  # our own two, weighed alike: how hard we defend one is no tell
        else:
            weight = 8 if identity == "mothership" else 2
        pinned = pin and any(p_owner[p] != owner and p_owner[p] >= 0 for p in stacks[h][1:])
        if owner == seat:
            score -= weight * ring * defence // 8
            if trapped and 3 <= n <= 5:
                stuck = _stuck_sides(state, h, seat, cut) * (closing if n == 5 else 1)
                score -= weight * trapped * stuck * defence // 8
            if pinned:
                score -= weight * pin * defence // 8
            if exposure:
                near = _free_foreign(state, h, seat, cut, DELTAS) * 2 + _free_foreign(state, h, seat, cut, RING2)
                score -= weight * exposure * near * defence // 128
            if identity == "decoy" and sid is not None:
                score += decoy
            if sid is not None:
                score += command
        else:
            score += weight * ring * attack // 8
            if pinned:
                score += weight * pin * attack // 8
            if hole and n == 5:
                gap = next(h + d for d in DELTAS if (h + d) not in stacks)
                targets.append(divmod(gap, WIDTH))
            else:
                targets.append(divmod(h, WIDTH))
    if room and state.activated(seat):
        waiting = sum(state.reserve[seat].values())
        if waiting:
            hexes = len(state.placement_hexes(seat))
            score += room * min(hexes, 4) if hexes else -2 * room * waiting
    if virus:
        for holder in range(state.players):
            if state.virus[holder] and state.active[holder]:
                score += virus if holder == seat else -virus // others
    chasers = []
    for h, stack in stacks.items():
        top = stack[-1]
        owner = p_owner[top]
        if owner < 0:
            continue
        kind = p_kind[top]
        if owner == seat and kind != COMMAND and kind != MOTHERSHIP:
            chasers.append(h)
        if len(stack) == 1 and h in cut:
            continue
        value = MOBILITY.get(kind, 0)
        score += value if owner == seat else -value // others
    for h in chasers if targets else ():
        hq, hr = divmod(h, WIDTH)
        score -= chase * min((abs(hq - q) + abs(hr - r) + abs(hq - q + hr - r)) // 2 for q, r in targets)
    return score


def _free_foreign(state: CollectiveConflictState, h: int, seat: int, cut: set[int], offsets: tuple[int, ...]) -> int:
    """Foreign units free to move (not under another unit, not holding the board together) at ``h`` + ``offsets``."""
    stacks = state.stacks
    p_owner = state.p_owner
    n = 0
    for d in offsets:
        stack = stacks.get(h + d)
        if stack is None:
            continue
        top = p_owner[stack[-1]]
        if top >= 0 and top != seat and (len(stack) > 1 or (h + d) not in cut):
            n += 1
    return n


def _stuck_sides(state: CollectiveConflictState, h: int, seat: int, cut: set[int]) -> int:
    """Foreign sides beyond two around one's command unit on ``h`` if it cannot slide out, else 0."""
    stacks = state.stacks
    p_owner = state.p_owner
    foreign = sum(1 for d in DELTAS if (h + d) in stacks and p_owner[stacks[h + d][-1]] != seat)
    if foreign < 3:
        return 0
    stack = stacks[h]
    if len(stack) == 1 and h not in cut:
        for i, d in enumerate(DELTAS):
            if (h + d) not in stacks and ((h + DELTAS[i - 1]) not in stacks or (h + DELTAS[(i + 1) % 6]) not in stacks):
                return 0  # a free gate: it can slide out
    return foreign - 2


def settle(state: CollectiveConflictState, guess: dict[int, Any]) -> None:
    """Resolve reveals and chance with the guessed values until someone must decide."""
    for _ in range(64):
        p = state.pending()
        if isinstance(p, RevealOwed):
            if p.what == "trap":
                value: Any = bool(guess.get(p.secret, True))
            else:
                value = guess.get(p.secret, "mothership")
                if value == "decoy" and state.decoy_revealed[p.seat]:
                    value = "mothership"
            state.apply(p.seat, ("reveal", p.secret, value))
        elif isinstance(p, Chance):
            state.apply(TABLE, ("chance", 0))
        else:
            return


def determinise(state: CollectiveConflictState, seat: int, knowledge: Knowledge, rng: SeededStream) -> dict[int, Any]:
    """One guess for every secret the seat does not hold; its own from its knowledge."""
    guess: dict[int, Any] = dict(knowledge.sealed)
    for other in range(state.players):
        sids = state.commands[other]
        if other == seat or not sids:
            continue
        if state.decoy_revealed[other]:
            for sid in sids:
                guess.setdefault(sid, "mothership" if state.secrets[sid][3] is None else state.secrets[sid][3])
            continue
        mothership = sids[rng.below(len(sids))] if len(sids) == 2 or rng.below(2) else None
        for sid in sids:
            guess.setdefault(sid, "mothership" if sid == mothership else "decoy")
    return guess


def after(
    state: CollectiveConflictState, seat: int, action: Action, knowledge: Knowledge | None, guess: dict[int, Any]
) -> CollectiveConflictState:
    """A copy of ``state`` after ``seat`` plays ``action`` and the owed reveals are settled by ``guess``.

    With ``knowledge`` the action is the seat's private form (sealed values go
    into ``guess``); without it, the public form of an opponent's action.
    """
    child = state.clone()
    if knowledge is not None:
        pub = child.publish(seat, action, knowledge)
        guess.update(pub.sealed)
        action = pub.action
    child.apply(seat, action)
    settle(child, guess)
    return child
