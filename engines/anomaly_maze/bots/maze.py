"""The AI player ("Gracz SI"): easy, normal and hard.

It plays one phase at a time through the bot interface (AM-12) and reads
nothing but ``state.view(knowledge)`` — what a person at that seat sees (in
this game, everything but future dice).  Dice come from the table's stream and
are never predicted; only their known distribution is used.

How it thinks.  In the Anomaly phase it plans the whole turn: for every
candidate rotation or shift it simulates the board (:class:`Snap`, a compact
copy of the public state with the same rules as the engine for anomalies and
movement), enumerates every path of the move that follows, and scores the end
of the turn with :func:`evaluate` — mission points, the walking distance still
needed to reach its key and then its chest (a wall costs extra steps: it can be
rotated away later), HP, the expected result of its attack dice when the
opponent will be in an open line, time lost off the board, respawn blocking,
and the danger of ending on a cell the opponent can push off the board.  The
opponent's distance counts against it, so a shift that cuts the opponent off
is worth something.  In the Move phase it walks the path it planned (or, with
no plan for this board, re-scores every path the same way); in the Combat
phase it always rolls (attacking costs nothing: the defender never strikes
back within the turn).

Levels.  ``easy`` looks at a seeded sample of anomalies and ignores the
opponent's progress and the push-off danger.  ``normal`` considers every
shift and every rotation near the pawns and the targets.  ``hard`` takes the
best few plans of ``normal`` and answers each with the opponent's best reply
(found by the same search from the opponent's side) and then its own best
next turn, choosing the plan that leaves it best off after both; the two
attacks in between (its own now, the opponent's in the reply) count by their
outcomes, an elimination included (:func:`fights`); it never
undoes the opponent's last anomaly (the opposite shift, the tile turned back)
unless that beats every other plan by a mission point, so two hard AIs do not
undo each other's paths forever.  Budgets are counts of candidates, never
time, so the same game always gets the same answers.  Every level
remembers the positions its own turns ended in and avoids steering into one
again (two greedy players otherwise undo each other's shift forever).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.anomaly_maze import board
from engines.anomaly_maze.options import ITEMS
from engines.core import GameState, Knowledge, SeededStream
from engines.core.state import Action, PositionKey

INF = 10**6
W_MP = 100  # one mission point
W_STEP = 10  # one step of walking still needed
W_HP = 12  # one hit point
WALL = 4  # steps a closed passage counts for in the distance estimate
NEW_MISSION_STEPS = 14  # expected length of a freshly drawn mission
PUSH_RISK = 140  # ending a turn on a cell the opponent can push off the board
KEY_HELD = 80  # a carried key cannot be shifted away: worth more than its distance
REPLY_OPP = 1  # scoring a reply I cannot answer: the opponent's walking distance counts as much as mine
OPP_PROGRESS = 2  # the opponent's walking distance counts 1/OPP_PROGRESS (it can repair the maze)

#: Cells whose tile crosses the edge in some shift: a pawn there can be pushed off.
EDGE_CELLS = frozenset(src for (_, src, _) in board.SHIFTS.values())
_LINKS = tuple(tuple((side, board.OPPOSITE[side], nb) for side, nb in board.NEIGHBOURS[c]) for c in range(board.CELLS))


@dataclass(slots=True)
class Snap:
    """The parts of the public state a plan changes, cheap to copy."""

    tiles: list[int]
    pos: list[int | None]
    hp: list[int]
    mp: list[int]
    key: list[int | None]
    carrying: list[bool]
    chest: list[int | None]
    items: list[int | None]
    countdown: list[int]
    blocks: list[int]
    dead: bool = False  # the mover was eliminated this turn

    @classmethod
    def of(cls, view: dict[str, Any]) -> Snap:
        """From a seat's view (:meth:`AnomalyMazeState.view`) — all the AI ever reads."""
        players = view["players"]
        return cls(
            [t["mask"] for t in view["tiles"]],
            [p["cell"] for p in players],
            [p["hp"] for p in players],
            [p["mp"] for p in players],
            [p["key"] for p in players],
            [p["carrying_key"] for p in players],
            [p["chest"] for p in players],
            [view["items"][i] for i in ITEMS],
            [p["countdown"] for p in players],
            [p["blocked"] for p in players],
        )

    def copy(self) -> Snap:
        return Snap(
            self.tiles,  # replaced, never mutated in place
            list(self.pos),
            list(self.hp),
            list(self.mp),
            list(self.key),
            list(self.carrying),
            list(self.chest),
            list(self.items),
            list(self.countdown),
            list(self.blocks),
        )


class Rules:
    """The engine's numbers, read once per decision."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.opts = opts
        self.max_hp: int = opts["max_hp"]
        self.steps: int = opts["max_steps"]
        self.dice: int = opts["dice_per_turn"]
        self.countdown: int = opts["countdown"]
        self.blacksaw: int = opts["blacksaw_attempt"]
        self.effect: tuple[int, int, int] = (opts["medkit_heal"], -opts["mine_damage"], -opts["spikes_damage"])
        self.damage_dist = _damage_distribution(opts["combat_table"], self.dice)


def _damage_distribution(table: tuple[int, ...], dice: int) -> list[tuple[int, int]]:
    """(total damage, ways) over all face sequences of ``dice`` dice, out of 6**dice."""
    dist = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in dist.items():
            for d in table:
                nxt[total + d] = nxt.get(total + d, 0) + ways
        dist = nxt
    return sorted(dist.items())


def distances(tiles: list[int], src: int) -> list[int]:
    """Walking distance to ``src`` from every cell; a closed passage costs WALL.

    Dijkstra with a bucket queue (edge costs are 1 or WALL, small ints).
    """
    dist = [INF] * board.CELLS
    dist[src] = 0
    buckets: list[list[int]] = [[src]]
    d = 0
    while d < len(buckets):
        for c in buckets[d]:
            if dist[c] != d:
                continue
            t = tiles[c]
            for side, opp, nb in _LINKS[c]:
                nd = d + 1 if t & side and tiles[nb] & opp else d + WALL
                if nd < dist[nb]:
                    dist[nb] = nd
                    while len(buckets) <= nd:
                        buckets.append([])
                    buckets[nd].append(nb)
        d += 1
    return dist


# -- simulation -------------------------------------------------------------
def do_anomaly(s: Snap, me: int, action: Action, rules: Rules) -> Snap:
    out = s.copy()
    if action[0] == "rotate":
        tiles = list(s.tiles)
        tiles[action[1]] = board.rotate(tiles[action[1]], action[2])
        out.tiles = tiles
        return out
    _, axis, index, direction = action
    mapping, source, target = board.SHIFTS[(axis, index, direction)]
    out.tiles = board.shift_tiles(s.tiles, axis, index, direction)
    for seq in (out.key, out.chest, out.items):
        for i, c in enumerate(seq):
            if c is not None and c in mapping:
                seq[i] = mapping[c]
    for p in (0, 1):
        c = out.pos[p]
        if c is not None and c in mapping:
            out.pos[p] = mapping[c]
            if c == source:
                _eliminate(out, p, target, rules)
                if p == me:
                    out.dead = True
                else:
                    out.mp[me] += rules.opts["kill_mp"]
    return out


def _eliminate(s: Snap, p: int, drop: int | None, rules: Rules) -> None:
    if s.carrying[p]:
        s.carrying[p] = False
        s.key[p] = drop
    s.pos[p] = None
    s.hp[p] = 0
    s.countdown[p] = rules.countdown
    s.blocks[p] = 0


def do_move(s: Snap, me: int, path: tuple[int, ...], rules: Rules) -> Snap:
    out = s.copy()
    for c in path:
        out.pos[me] = c
        if not out.carrying[me] and out.key[me] == c:
            out.key[me] = None
            out.carrying[me] = True
        if out.carrying[me] and out.chest[me] == c:
            out.carrying[me] = False
            out.chest[me] = None
            out.mp[me] += rules.opts["chest_mp"]
        for i, item in enumerate(out.items):
            if item == c:
                out.items[i] = None
                out.hp[me] = min(rules.max_hp, out.hp[me] + rules.effect[i])
                if out.hp[me] <= 0:
                    _eliminate(out, me, c, rules)
                    out.dead = True
                    return out
    return out


def start_turn(s: Snap, p: int, rules: Rules) -> Snap:
    """The automatic start of ``p``'s turn: missed turn, blocked attempt, or respawn."""
    if s.pos[p] is not None:
        return s
    out = s.copy()
    if out.countdown[p] > 0:
        out.countdown[p] -= 1
        out.dead = True
        return out
    spawn = board.RESPAWNS[p]
    if out.pos[1 - p] == spawn:
        out.blocks[p] += 1
        if out.blocks[p] < rules.blacksaw:
            out.dead = True
            return out
        _eliminate(out, 1 - p, spawn, rules)
    out.pos[p] = spawn
    out.hp[p] = rules.max_hp
    out.blocks[p] = 0
    if not out.carrying[p] and out.key[p] == spawn:
        out.key[p] = None
        out.carrying[p] = True
    return out


# -- evaluation -------------------------------------------------------------
class Maps:
    """Distance maps of one board, computed on demand and shared by all paths."""

    __slots__ = ("_cache", "tiles")

    def __init__(self, tiles: list[int]) -> None:
        self.tiles = tiles
        self._cache: dict[int, list[int]] = {}

    def to(self, c: int) -> list[int]:
        d = self._cache.get(c)
        if d is None:
            d = self._cache[c] = distances(self.tiles, c)
        return d


def remaining(s: Snap, p: int, maps: Maps, rules: Rules) -> int:
    """Steps still needed by ``p`` to open its chest (estimates for missing parts)."""
    at = s.pos[p]
    extra = 0
    if at is None:
        at = board.RESPAWNS[p]
        extra = rules.steps * (s.countdown[p] + 1)
    chest = s.chest[p]
    if chest is None:
        return extra + NEW_MISSION_STEPS
    if s.carrying[p]:
        return extra + maps.to(chest)[at]
    key = s.key[p]
    if key is None:
        return extra + NEW_MISSION_STEPS
    return extra + maps.to(key)[at] + maps.to(chest)[key]


def side_value(s: Snap, p: int, maps: Maps, rules: Rules, progress: bool = True, divisor: int = 1) -> int:
    v = W_MP * s.mp[p] + W_HP * s.hp[p]
    if s.pos[p] is None:
        v -= W_HP * rules.max_hp // 2  # it comes back with full HP, but later
    if s.carrying[p]:
        v += KEY_HELD
    if progress:
        v -= W_STEP * min(remaining(s, p, maps, rules), 60) // divisor
    return v


def evaluate(
    s: Snap, me: int, mover: int, rules: Rules, full: bool = True, maps: Maps | None = None, opp_div: int = OPP_PROGRESS
) -> int:
    """Score of a position at the end of ``mover``'s move phase, for ``me``.

    The mover's dice are taken at their expectation; the side that plays next
    may push a pawn standing on an edge cell off the board.
    """
    maps = maps or Maps(s.tiles)
    opp = 1 - me
    base = side_value(s, me, maps, rules) - side_value(s, opp, maps, rules, progress=full, divisor=opp_div)
    if full:
        nxt = 1 - mover
        victim = 1 - nxt
        if s.pos[victim] in EDGE_CELLS:
            base += -PUSH_RISK if victim == me else PUSH_RISK // 3
        # respawn blocking: standing on the waiting opponent's Respawn
        for p in (0, 1):
            q = 1 - p
            if s.pos[q] is None and s.pos[p] == board.RESPAWNS[q]:
                sign = 1 if p == me else -1
                lethal = s.countdown[q] == 0 and s.blocks[q] >= rules.blacksaw - 1
                # BlackSaw on the next attempt costs a whole elimination
                cost = 2 * W_MP + W_STEP * rules.steps * (rules.countdown + 1)
                base += sign * (-cost if lethal else W_STEP * rules.steps)
    a, b = s.pos[mover], s.pos[1 - mover]
    if a is None or b is None or not board.line_of_sight(s.tiles, a, b):
        return base
    return _with_combat(s, me, mover, rules, full, maps, base, opp_div)


def _with_combat(
    s: Snap, me: int, mover: int, rules: Rules, full: bool, maps: Maps, base: int, opp_div: int = OPP_PROGRESS
) -> int:
    """Expected value of the mover rolling all its dice at the opponent now."""
    victim = 1 - mover
    hp = s.hp[victim]
    total: int = 6**rules.dice  # int ** int is typed Any (a negative power is a float)
    kill_ways = sum(w for dmg, w in rules.damage_dist if dmg >= hp)
    hurt = sum(dmg * w for dmg, w in rules.damage_dist if dmg < hp)
    sign = 1 if victim == me else -1
    value = base * (total - kill_ways) - sign * W_HP * hurt
    if kill_ways:
        killed = s.copy()
        _eliminate(killed, victim, s.pos[victim], rules)
        killed.mp[mover] += rules.opts["kill_mp"]
        value += kill_ways * evaluate(killed, me, mover, rules, full, maps, opp_div)
    return value // total


# -- search -----------------------------------------------------------------
def candidate_anomalies(s: Snap, me: int, level: str, rng: SeededStream | None) -> list[Action]:
    """The anomalies worth simulating, in a stable order."""
    shifts = [("shift", a, i, d) for a in board.AXES for i in range(board.SIZE) for d in (1, -1)]
    near: set[int] = set()
    focus = [c for c in (s.pos[me], s.pos[1 - me], s.key[me], s.chest[me]) if c is not None]
    radius = {s.pos[me]: 3}
    for f in focus:
        r0, k0 = divmod(f, board.SIZE)
        rad = radius.get(f, 1)
        for c in board.ORDINARY:
            r, k = divmod(c, board.SIZE)
            if abs(r - r0) + abs(k - k0) <= rad:
                near.add(c)
    # one rotation that changes nothing near anyone stands for "leave the maze as it is"
    idle = next((c for c in board.ORDINARY if c not in near), board.ORDINARY[0])
    rotations = [("rotate", idle, 1)]
    for c in sorted(near):
        seen = {s.tiles[c]}
        for q in (1, 2, 3):  # a straight turned by 180° is the same tile: simulate it once
            turned = board.rotate(s.tiles[c], q)
            if turned not in seen:
                seen.add(turned)
                rotations.append(("rotate", c, q))
    out = rotations + shifts
    if level == "easy" and rng is not None:
        picked = sorted({rng.below(len(out)) for _ in range(24)})
        return [out[i] for i in picked]
    return out


@dataclass(slots=True)
class Plan:
    value: int
    anomaly: Action
    path: tuple[int, ...]
    after: Snap


def best_moves(s: Snap, me: int, rules: Rules, full: bool) -> list[tuple[int, tuple[int, ...], Snap]]:
    """Every path of the move phase with the end-of-turn score, best first."""
    start = s.pos[me]
    if s.dead or start is None:
        return [(evaluate(s, me, me, rules, full), (), s)]
    maps = Maps(s.tiles)
    out = []
    for path in board.paths(s.tiles, start, s.pos[1 - me], rules.steps):
        after = do_move(s, me, path, rules) if path else s
        out.append((evaluate(after, me, me, rules, full, maps), path, after))
    out.sort(key=lambda t: -t[0])  # stable: ties keep the path order
    return out


def plan_turn(s: Snap, me: int, rules: Rules, level: str, rng: SeededStream | None) -> list[Plan]:
    """Every candidate anomaly with its best move, best first."""
    full = level != "easy"
    plans = []
    for anomaly in candidate_anomalies(s, me, level, rng):
        after_anomaly = do_anomaly(s, me, anomaly, rules)
        value, path, after = best_moves(after_anomaly, me, rules, full)[0]
        plans.append(Plan(value, anomaly, path, after))
    plans.sort(key=lambda p: -p.value)
    return plans


def fights(s: Snap, mover: int, rules: Rules) -> list[tuple[int, Snap]]:
    """The outcomes of the mover's attack, as (ways out of 6**dice, position after it).

    The mover always rolls when the pawns see each other.  The outcomes are
    grouped in two: the victim survives (its HP lowered by the mean damage of
    the rolls it survives) or it is eliminated.  Without a line of sight the
    one outcome is the position itself.
    """
    total: int = 6**rules.dice
    a, b = s.pos[mover], s.pos[1 - mover]
    if s.dead or a is None or b is None or not board.line_of_sight(s.tiles, a, b):
        return [(total, s)]
    victim = 1 - mover
    hp = s.hp[victim]
    kill = sum(w for dmg, w in rules.damage_dist if dmg >= hp)
    survive = total - kill
    out = []
    if survive:
        hurt = sum(dmg * w for dmg, w in rules.damage_dist if dmg < hp)
        hit = s.copy()
        hit.hp[victim] -= (2 * hurt + survive) // (2 * survive)  # the mean, rounded
        out.append((survive, hit))
    if kill:
        killed = s.copy()
        _eliminate(killed, victim, s.pos[victim], rules)
        killed.mp[mover] += rules.opts["kill_mp"]
        out.append((kill, killed))
    return out


def my_next_turn(s: Snap, me: int, rules: Rules) -> int:
    """My best next turn from ``s`` (the opponent's turn over), scored in my own terms (see :func:`reply_value`)."""
    if s.dead:  # the flag was the opponent's (eliminated in its own move): not mine
        s = s.copy()
    mine = start_turn(s, me, rules)
    if mine.dead:
        return evaluate(mine, me, 1 - me, rules, opp_div=REPLY_OPP)
    return plan_turn(mine, me, rules, "normal", None)[0].value


def reply_value(after: Snap, me: int, rules: Rules) -> int:
    """My score once I have attacked, the opponent has replied (its greedy 'normal' turn, its attack) and I have
    played my next turn.

    The reply is the one the opponent likes best; what counts is where it
    leaves me: my own best next turn, scored in my own terms.  (Negating the
    opponent's score instead weighed my progress at 1/OPP_PROGRESS and the
    opponent's in full, so two hard AIs spent their anomalies spoiling each
    other's paths rather than walking their own.)  If I cannot play that next
    turn (off the board), the position after the reply is scored with both
    walking distances weighed alike (REPLY_OPP).  Both attacks on the way
    count by their outcomes (:func:`fights`): a plan that ends in the
    opponent's line of fire, or leaves it exposed to mine, is judged on the
    damage and the eliminations it risks, not only at the last step.
    """
    opp = 1 - me
    total: int = 6**rules.dice
    value = 0
    for ways, hit in fights(after, me, rules):
        s = start_turn(hit.copy() if hit.dead else hit, opp, rules)  # a flag of my own elimination: not the opponent's
        if s.dead:  # the opponent misses its turn: mine comes next
            value += ways * my_next_turn(s, me, rules)
            continue
        reply = plan_turn(s, opp, rules, "normal", None)[0]
        for ways2, hit2 in fights(reply.after, opp, rules):
            value += ways * ways2 * my_next_turn(hit2, me, rules) // total
    return value // total


def signature(s: Snap) -> PositionKey:
    """What a repeated position looks like: maze, pawns and objects."""
    return (tuple(s.tiles), tuple(s.pos), tuple(s.key), tuple(s.chest), tuple(s.items), tuple(s.carrying))


def last_anomaly(view: dict[str, Any], seat: int) -> Action | None:
    """The anomaly ``seat`` played in its latest turn, if it came after the viewer's own.

    Read from the public event log (what a person saw happen on the board):
    newest first, stopping at the viewer's own latest anomaly, so an answer
    never names a change older than the viewer's previous turn.
    """
    me = view["you"]
    for event in reversed(view["events"]):
        verb = event[0]
        if verb not in ("rotate", "shift"):
            continue
        if event[1] == me:
            return None
        if event[1] == seat:
            return (verb, *event[2:])
    return None


def undoes(action: Action, previous: Action | None, tiles: list[int]) -> bool:
    """Whether ``action`` puts back what ``previous`` (the opponent's last anomaly) changed.

    A shift is undone by the opposite shift of the same line; a rotation by a
    rotation of the same tile that restores its old sides (for a straight tile
    both a quarter turn and three quarters do).
    """
    if previous is None or action[0] != previous[0]:
        return False
    if action[0] == "shift":
        return bool(action[1] == previous[1] and action[2] == previous[2] and action[3] == -previous[3])
    cell, q = action[1], action[2]
    if cell != previous[1]:
        return False
    return board.rotate(tiles[cell], q) == board.rotate(tiles[cell], -previous[2] % 4)


class MazeBot:
    """The AI player at ``level`` ("easy", "normal" or "hard") for ``seat``.

    It remembers the positions its own turns ended in (public information a
    person remembers too) and avoids steering into one again: two greedy
    players otherwise undo each other's shift forever.  The move planned in
    the Anomaly phase is kept for the Move phase, so the turn it shows is the
    turn it planned.
    """

    HARD_BRANCH = 10
    REPEAT_PENALTY = 2 * W_MP
    UNDO_MARGIN = W_MP

    def __init__(self, seat: int, seed: bytes, level: str = "normal") -> None:
        if level not in ("easy", "normal", "hard"):
            raise ValueError(f"unknown AI level {level!r}")
        self.seat = seat
        self.level = level
        self.rng = SeededStream(seed, f"anomaly-maze-ai/{level}/{seat}")
        self.seen: set[PositionKey] = set()
        self.planned: tuple[PositionKey, tuple[int, ...]] | None = None

    def _hard_choice(
        self, plans: list[Plan], repeats: set[int], previous: Action | None, snap: Snap, rules: Rules
    ) -> Plan:
        """The best of the top plans after the opponent's best reply, never an undo if avoidable.

        Two strong players otherwise spend every anomaly putting back the
        other's (one shifts a line, the other shifts it back), and neither
        ever reaches its goal.  So a plan that undoes the opponent's last
        anomaly is chosen only if, after the reply, it beats the best other
        plan by more than UNDO_MARGIN (it wins a point, saves the pawn, ...).
        The best plan that is not an undo is always among those checked.
        """
        me = self.seat
        top = plans[: self.HARD_BRANCH]
        fresh = next((p for p in plans if not undoes(p.anomaly, previous, snap.tiles)), None)
        if fresh is not None and all(p is not fresh for p in top):
            top.append(fresh)
        scored = []
        for i, p in enumerate(top):
            value = reply_value(p.after, me, rules) - (self.REPEAT_PENALTY if id(p) in repeats else 0)
            scored.append((value, -i, undoes(p.anomaly, previous, snap.tiles), p))
        best = max(scored, key=lambda t: (t[0], t[1]))
        others = [t for t in scored if not t[2]]
        if best[2] and others:
            alternative = max(others, key=lambda t: (t[0], t[1]))
            if best[0] - alternative[0] <= self.UNDO_MARGIN:
                return alternative[3]
        return best[3]

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        view = state.view(knowledge)
        phase = view["phase"]
        if phase == "combat":
            return ("attack",) if ("attack",) in legal else legal[0]
        rules = Rules(view["options"])
        snap = Snap.of(view)
        me = self.seat
        if phase == "move":
            if self.planned is not None and self.planned[0] == signature(snap):
                action = ("move", *self.planned[1])
            else:
                action = ("move", *best_moves(snap, me, rules, self.level != "easy")[0][1])
            self.planned = None
            return action if action in legal else legal[0]
        plans = plan_turn(snap, me, rules, self.level, self.rng)
        repeats = {id(p) for p in plans if signature(p.after) in self.seen}
        for plan in plans:
            if id(plan) in repeats:
                plan.value -= self.REPEAT_PENALTY
        plans.sort(key=lambda p: -p.value)
        if self.level == "hard":
            chosen = self._hard_choice(plans, repeats, last_anomaly(view, 1 - me), snap, rules)
        else:
            chosen = plans[0]
        self.seen.add(signature(chosen.after))
        after_anomaly = do_anomaly(snap, me, chosen.anomaly, rules)
        self.planned = (signature(after_anomaly), chosen.path)
        return chosen.anomaly if chosen.anomaly in legal else legal[0]
