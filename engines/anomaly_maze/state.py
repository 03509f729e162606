"""The Anomaly Maze rules engine (rule text + rulings AM-1..AM-14).

Seats: 0 is player 1 (Respawn G1), 1 is player 2 (Respawn A7).  Cells are
ints ``row * 7 + col`` (row 0 = A at the top, col 0 = column 1); see
:mod:`.board`.  Nothing in this game is secret except future dice, so the
public state is the whole state and every seat's view is the same.

Action vocabulary (plain tuples, msgpack-encodable as they are):

* Anomaly phase (``Decision(seat, "anomaly")``), exactly one of
  ``("rotate", cell, quarter_turns)`` — an ordinary tile turned clockwise by
  1, 2 or 3 quarter turns (AM-4); or
  ``("shift", "row" | "col", index, direction)`` — a cyclic shift of row or
  column ``index`` (0..6) by ``+1`` (east / south) or ``-1`` (west / north)
  around the fixed Respawns (AM-3).
* Move phase (``Decision(seat, "move")``): ``("move", c1, ..., ck)``, the
  cells entered in order, 0 ≤ k ≤ 3 (``("move",)`` stays).  Skipped
  automatically when no step is possible.
* Combat phase (``Decision(seat, "combat")``): ``("attack",)`` declares one
  attack die; ``("no-attack",)`` stops.  Offered only while a die is left and
  the opponent is in an open line (AM-7); it ends by itself otherwise.
* Chance, written by ``TABLE``: ``("chance", n)``.  Public-seeded events:
  ``first-player`` (2 outcomes), ``tile`` (one per ordinary cell of the
  layout, 10 outcomes = :data:`.board.SHAPES`), ``key`` / ``chest`` /
  ``medkit`` / ``mine`` / ``spikes`` placements (outcome = index into the
  sorted list of allowed cells, see :meth:`AnomalyMazeState.allowed_cells`;
  an object that acted leaves out the cell where it acted, AM-13).  The
  placements a move causes are drawn once the move is over: the mover's new
  key, its new chest, then the objects in the order they acted.
  Interactive: ``die`` (6 outcomes, face = n + 1), asked only after
  ``("attack",)`` was applied.

The view (:meth:`AnomalyMazeState.view`) is plain data for the board widget:
``tiles`` (49 dicts: cell, name, open sides as "NESW" letters, mask, respawn
owner), ``players`` (cell, hp, mp, carrying_key, key and chest cells,
countdown, blocked attempts, blocking), ``items``, ``phase``, ``turn``,
``round``, ``dice_left``, ``can_attack``, ``over`` and the last events.
Events are tuples, newest last (``event_seq`` counts them all):
``turn`` (seat, round), ``rotate`` (seat, cell, q), ``shift`` (seat, axis,
index, direction), ``move`` (seat, start, cells entered...; only the seat when
it stays), ``key-taken`` / ``chest-opened`` (seat, cell), ``medkit`` (seat, cell, healed), ``mine`` / ``spikes`` (seat,
cell, damage), ``attack`` (seat), ``die`` (attacker, face, damage),
``no-attack`` (seat), ``eliminated`` (seat, cause, scorer or -1),
``turn-missed`` (seat, turns still to miss), ``respawn-blocked`` (seat, n of
3), ``blacksaw`` (respawning seat, blocker), ``respawn`` (seat, cell),
``key-placed`` / ``chest-placed`` (seat, cell), ``item-placed`` (item, cell),
``forfeit`` (seat), ``game-over`` (winners, reason).  The events are a
display log: they are not part of :meth:`AnomalyMazeState.public`, so they are
never hashed (docs/ARCHITECTURE.md).

Automatic steps (no decision): the start of a turn (missed turns, respawn
attempts, blocking 1/3 and 2/3, BlackSaw on 3/3), ending phases with nothing
legal left, ending the turn, item appearance at the start of their rounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from engines.anomaly_maze import board
from engines.anomaly_maze.options import ITEMS, resolve
from engines.core import TABLE, Action, Chance, ChanceKind, Decision, GameOver, GameState, IllegalAction, Knowledge
from engines.core.pending import Pending

MAX_EVENTS = 32


def _is_int(x: object) -> TypeGuard[int]:
    """True for a plain int (never a bool): wire values arrive untyped."""
    return isinstance(x, int) and not isinstance(x, bool)


class AnomalyMazeState(GameState):
    """Public state of one game of Anomaly Maze (two seats)."""

    game = "anomaly-maze"

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.opts = resolve(options)
        self.tiles = [0] * board.CELLS
        for c, t in board.RESPAWN_TILES.items():
            self.tiles[c] = t
        self.pos: list[int | None] = list(board.RESPAWNS)
        self.hp = [self.opts["max_hp"]] * 2
        self.mp = [0, 0]
        self.key: list[int | None] = [None, None]  # cell of the key lying on the board
        self.carrying = [False, False]
        self.chest: list[int | None] = [None, None]
        self.items: dict[str, int | None] = dict.fromkeys(ITEMS)
        self.countdown = [0, 0]  # own turns still to miss while off the board
        self.blocks = [0, 0]  # blocked respawn attempts so far (AM-10)
        self.first: int | None = None
        self.turn = 0
        self.round = 0
        self.phase = "setup"
        self.dice_left = 0
        self.queue: list[tuple[Any, ...]] = [("first-player",)]
        self.queue += [("tile", c) for c in board.ORDINARY]
        self.queue += [("key", 0), ("chest", 0), ("key", 1), ("chest", 1)]
        self.over: tuple[tuple[int, ...], str] | None = None
        self.events: list[tuple[Any, ...]] = []
        self.event_seq = 0

    # -- contract: reading ------------------------------------------------
    @property
    def players(self) -> int:
        return 2

    def pending(self) -> Pending:
        if self.over is not None:
            return GameOver(*self.over)
        if self.queue:
            task = self.queue[0]
            what = task[0]
            if what == "die":
                return Chance(ChanceKind.INTERACTIVE, "die", 6)
            if what == "first-player":
                return Chance(ChanceKind.PUBLIC_SEEDED, what, 2)
            if what == "tile":
                return Chance(ChanceKind.PUBLIC_SEEDED, what, len(board.SHAPES))
            return Chance(ChanceKind.PUBLIC_SEEDED, what, len(self._cells_for(task)))
        return Decision(self.turn, self.phase)

    def allowed_cells(self) -> list[int]:
        """Cells where a key, chest or object may appear (AM-8): ordinary, and
        empty of pawns, keys, chests and other objects."""
        taken = {c for c in self.pos if c is not None}
        taken.update(c for c in self.key if c is not None)
        taken.update(c for c in self.chest if c is not None)
        taken.update(c for c in self.items.values() if c is not None)
        return [c for c in board.ORDINARY if c not in taken]

    def _cells_for(self, task: tuple[Any, ...]) -> list[int]:
        """The cells a placement task draws from: an object that acted on a cell,
        queued as ``(item, cell)``, never comes back there (AM-13)."""
        cells = self.allowed_cells()
        if len(task) == 2 and task[0] in ITEMS:
            cells = [c for c in cells if c != task[1]]
        return cells

    def target(self) -> bool:
        """Whether the player to move sees the opponent along an open line."""
        a, b = self.pos[self.turn], self.pos[1 - self.turn]
        return a is not None and b is not None and board.line_of_sight(self.tiles, a, b)

    def legal_actions(self, seat: int, knowledge: Knowledge) -> list[Action]:
        p = self.pending()
        if not isinstance(p, Decision) or p.seat != seat:
            return []
        if self.phase == "anomaly":
            return self.anomaly_actions()
        if self.phase == "move":
            return [("move", *path) for path in self.move_paths()]
        return [("attack",), ("no-attack",)]

    @staticmethod
    def anomaly_actions() -> list[Action]:
        """Every rotation (cell order, 1..3 quarter turns), then every shift."""
        out: list[Action] = [("rotate", c, q) for c in board.ORDINARY for q in (1, 2, 3)]
        out += [("shift", a, i, d) for a in board.AXES for i in range(board.SIZE) for d in (1, -1)]
        return out

    def move_paths(self) -> list[tuple[int, ...]]:
        me = self.pos[self.turn]
        if me is None:
            return []
        return board.paths(self.tiles, me, self.pos[1 - self.turn], self.opts["max_steps"])

    # -- contract: checking -----------------------------------------------
    def check(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:  # noqa: C901 (tests/test_complexity.py)
        if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
            raise IllegalAction(f"an action is a tuple starting with a verb, not {action!r}")
        pending = self.pending()
        if isinstance(pending, GameOver):
            raise IllegalAction("the game is over")
        if isinstance(pending, Chance):
            if seat != TABLE:
                raise IllegalAction(f"waiting for the table to resolve {pending.what!r}, not for seat {seat}")
            if len(action) != 2 or action[0] != "chance" or not _is_int(action[1]):
                raise IllegalAction(f"a chance is resolved by ('chance', n), not {action!r}")
            if not 0 <= action[1] < pending.outcomes:
                raise IllegalAction(f"chance outcome {action[1]} is outside 0..{pending.outcomes - 1}")
            return
        assert isinstance(pending, Decision)
        if seat != pending.seat:
            raise IllegalAction(f"it is seat {pending.seat}'s {pending.what} decision, not seat {seat}'s")
        verb = action[0]
        if self.phase == "anomaly":
            self._check_anomaly(action)
        elif self.phase == "move":
            if verb != "move":
                raise IllegalAction(f"the move phase takes ('move', cells...), not {verb!r}")
            self._check_move(action[1:])
        elif verb not in ("attack", "no-attack") or len(action) != 1:
            raise IllegalAction(f"the combat phase takes ('attack',) or ('no-attack',), not {action!r}")

    def _check_anomaly(self, action: Action) -> None:  # noqa: C901 (tests/test_complexity.py)
        verb = action[0]
        if verb == "rotate":
            if len(action) != 3 or not _is_int(action[1]) or not _is_int(action[2]):
                raise IllegalAction(f"a rotation is ('rotate', cell, quarter_turns), not {action!r}")
            c, q = action[1], action[2]
            if not 0 <= c < board.CELLS:
                raise IllegalAction(f"no cell {c} on the board")
            if c in board.RESPAWN_TILES:
                raise IllegalAction(f"{board.name(c)} is a Respawn: it cannot be rotated")
            if q not in (1, 2, 3):
                raise IllegalAction(f"a rotation is 1, 2 or 3 quarter turns, not {q}")
            return
        if verb == "shift":
            if len(action) != 4:
                raise IllegalAction(f"a shift is ('shift', 'row'|'col', index, +1|-1), not {action!r}")
            _, axis, index, direction = action
            if axis not in board.AXES:
                raise IllegalAction(f"shift axis must be 'row' or 'col', not {axis!r}")
            if not _is_int(index) or not 0 <= index < board.SIZE:
                raise IllegalAction(f"shift index must be 0..6, not {index!r}")
            if not _is_int(direction) or direction not in (1, -1):
                raise IllegalAction(f"shift direction must be +1 or -1, not {direction!r}")
            return
        raise IllegalAction(f"the anomaly phase takes a rotation or a shift, not {verb!r}")

    def _check_move(self, path: tuple[Any, ...]) -> None:
        if len(path) > self.opts["max_steps"]:
            raise IllegalAction(f"a move has at most {self.opts['max_steps']} steps, not {len(path)}")
        me = self.pos[self.turn]
        assert me is not None
        other = self.pos[1 - self.turn]
        here = me
        seen = {me}
        for c in path:
            if not _is_int(c) or not 0 <= c < board.CELLS:
                raise IllegalAction(f"no cell {c!r} on the board")
            if c in seen:
                raise IllegalAction(f"the path visits {board.name(c)} twice")
            if c == other:
                raise IllegalAction(f"{board.name(c)} holds the opponent's pawn")
            if c not in board.exits(self.tiles, here):
                raise IllegalAction(f"no open passage from {board.name(here)} to {board.name(c)}")
            seen.add(c)
            here = c

    # -- contract: applying -----------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        if seat == TABLE:
            self._resolve_chance(self.queue.pop(0), action[1])
        elif action[0] == "rotate":
            self._rotate(action[1], action[2])
        elif action[0] == "shift":
            self._shift(action[1], action[2], action[3])
        elif action[0] == "move":
            self._move(action[1:])
        elif action[0] == "attack":
            self.dice_left -= 1
            self._event("attack", self.turn)
            self.queue.append(("die",))
        else:
            self._event("no-attack", self.turn)
            self.dice_left = 0
        self._continue()

    def forfeit(self, seat: int) -> None:
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalAction(f"no seat {seat!r} in this game (seats 0 and 1)")
        if self.over is None:
            self._event("forfeit", seat)
            self._finish((1 - seat,), "forfeit")

    # -- rules ------------------------------------------------------------
    def _resolve_chance(self, task: tuple[Any, ...], n: int) -> None:
        what = task[0]
        if what == "first-player":
            self.first = n
            self.turn = n
        elif what == "tile":
            self.tiles[task[1]] = board.SHAPES[n]
        elif what == "die":
            self._die(n)
        else:
            c = self._cells_for(task)[n]
            if what == "key":
                self.key[task[1]] = c
                self._event("key-placed", task[1], c)
            elif what == "chest":
                self.chest[task[1]] = c
                self._event("chest-placed", task[1], c)
            else:
                self.items[what] = c
                self._event("item-placed", what, c)

    def _rotate(self, c: int, q: int) -> None:
        self.tiles[c] = board.rotate(self.tiles[c], q)
        self._event("rotate", self.turn, c, q)
        self.phase = "move"

    def _shift(self, axis: str, index: int, direction: int) -> None:
        mapping, source, target = board.SHIFTS[(axis, index, direction)]
        self.tiles = board.shift_tiles(self.tiles, axis, index, direction)
        self._event("shift", self.turn, axis, index, direction)
        pushed = None
        for p in (0, 1):
            c = self.pos[p]
            if c in mapping:
                if c == source:
                    pushed = p
                self.pos[p] = mapping[c]
        for seq in (self.key, self.chest):
            for p in (0, 1):
                c = seq[p]
                if c is not None and c in mapping:
                    seq[p] = mapping[c]
        for item in ITEMS:
            c = self.items[item]
            if c is not None and c in mapping:
                self.items[item] = mapping[c]
        self.phase = "move"
        if pushed is not None:
            scorer = None if pushed == self.turn else self.turn
            self._eliminate(pushed, "pushed-off", scorer, target)

    def _move(self, path: tuple[int, ...]) -> None:
        p = self.turn
        self._event("move", p, *((self.pos[p], *path) if path else ()))  # the start too: a walk reads "C3–C4–C5"
        for c in path:
            self.pos[p] = c
            self._enter(p, c)
            if self.pos[p] is None or self.over is not None:
                break
        # What the move drew is placed once it is over, in the order the rules page gives:
        # the new key, the new chest, then the objects in the order they acted.
        self.queue.sort(key=lambda task: 0 if task[0] in ("key", "chest") else 1)
        self.phase = "combat"

    def _enter(self, p: int, c: int) -> None:
        """Everything that entering ``c`` triggers, in order (AM-5, AM-6, AM-8)."""
        if not self.carrying[p] and self.key[p] == c:
            self.key[p] = None
            self.carrying[p] = True
            self._event("key-taken", p, c)
        if self.carrying[p] and self.chest[p] == c:
            self.carrying[p] = False
            self.chest[p] = None
            self._event("chest-opened", p, c)
            self._score(p, self.opts["chest_mp"])
            if self.over is not None:
                return
            self.queue += [("key", p), ("chest", p)]
        for item in ITEMS:
            if self.items[item] != c:
                continue
            self.items[item] = None
            self.queue.append((item, c))
            if item == "medkit":
                healed = min(self.opts["max_hp"], self.hp[p] + self.opts["medkit_heal"]) - self.hp[p]
                self.hp[p] += healed
                self._event("medkit", p, c, healed)
            else:
                damage = self.opts[f"{item}_damage"]
                self.hp[p] -= damage
                self._event(item, p, c, damage)
                if self.hp[p] <= 0:
                    self._eliminate(p, item, None, c)
                    return

    def _die(self, n: int) -> None:
        attacker = self.turn
        victim = 1 - attacker
        damage = self.opts["combat_table"][n]
        self._event("die", attacker, n + 1, damage)
        if self.pos[victim] is None:  # cannot happen: the die follows a legal attack
            return
        self.hp[victim] -= damage
        if self.hp[victim] <= 0:
            self._eliminate(victim, "combat", attacker, self.pos[victim])

    def _eliminate(self, p: int, cause: str, scorer: int | None, drop: int | None) -> None:
        """Pawn ``p`` leaves the board (AM-9); a carried key drops on ``drop``."""
        if self.carrying[p]:
            self.carrying[p] = False
            self.key[p] = drop
        self.pos[p] = None
        self.hp[p] = 0
        self.countdown[p] = self.opts["countdown"]
        self.blocks[p] = 0
        self._event("eliminated", p, cause, -1 if scorer is None else scorer)
        if scorer is not None:
            self._score(scorer, self.opts["kill_mp"])

    def _score(self, p: int, points: int) -> None:
        self.mp[p] += points
        if self.mp[p] >= self.opts["win_mp"]:
            self._finish((p,), "mission points")

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.over = (winners, reason)
        self.phase = "over"
        self.queue.clear()
        self._event("game-over", list(winners), reason)

    def _continue(self) -> None:  # noqa: C901 (tests/test_complexity.py)
        """Run automatic steps until a decision or a chance is needed."""
        while self.over is None and not self.queue:
            if self.phase == "setup":
                self.round = 1
                self.turn = self.first if self.first is not None else 0
                self._queue_items()
                self.phase = "start"
            elif self.phase == "start":
                if self._start_turn():
                    self.phase = "anomaly"
                    return
                self._end_turn()
            elif self.phase == "anomaly":
                return
            elif self.phase == "move":
                if self.pos[self.turn] is None:
                    self._end_turn()
                elif len(self.move_paths()) > 1:
                    return
                else:
                    self.phase = "combat"
            elif self.phase == "combat":
                if self.dice_left > 0 and self.target():
                    return
                self._end_turn()
            else:  # pragma: no cover - "over" always has self.over set
                return

    def _queue_items(self) -> None:
        for item in ITEMS:
            if self.opts[f"{item}_round"] == self.round and self.items[item] is None:
                self.queue.append((item,))

    def _start_turn(self) -> bool:
        """Missed turns, respawn and blocking (AM-9, AM-10); True if the turn is played."""
        p = self.turn
        self.dice_left = self.opts["dice_per_turn"]
        self._event("turn", p, self.round)
        if self.pos[p] is not None:
            return True
        if self.countdown[p] > 0:
            self.countdown[p] -= 1
            self._event("turn-missed", p, self.countdown[p])
            return False
        spawn = board.RESPAWNS[p]
        other = 1 - p
        if self.pos[other] == spawn:
            self.blocks[p] += 1
            if self.blocks[p] < self.opts["blacksaw_attempt"]:
                self._event("respawn-blocked", p, self.blocks[p])
                return False
            self._event("blacksaw", p, other)
            self._eliminate(other, "blacksaw", None, spawn)
        self.pos[p] = spawn
        self.hp[p] = self.opts["max_hp"]
        self.blocks[p] = 0
        self._event("respawn", p, spawn)
        if not self.carrying[p] and self.key[p] == spawn:
            self.key[p] = None
            self.carrying[p] = True
            self._event("key-taken", p, spawn)
        return True

    def _end_turn(self) -> None:
        self.dice_left = 0
        nxt = 1 - self.turn
        if nxt == self.first:
            limit = self.opts["round_limit"]
            if limit and self.round >= limit:
                self._finish((), "round limit")  # AM-14: only when asked for, and a draw
                return
            self.round += 1
            self._queue_items()
        self.turn = nxt
        self.phase = "start"

    def _event(self, *event: Any) -> None:
        self.events.append(event)
        self.event_seq += 1
        if len(self.events) > MAX_EVENTS:
            del self.events[0]

    # -- plain data -------------------------------------------------------
    def public(self) -> dict[str, Any]:
        return {
            "options": dict(self.opts),
            "tiles": list(self.tiles),
            "pos": list(self.pos),
            "hp": list(self.hp),
            "mp": list(self.mp),
            "key": list(self.key),
            "carrying": list(self.carrying),
            "chest": list(self.chest),
            "items": dict(self.items),
            "countdown": list(self.countdown),
            "blocks": list(self.blocks),
            "first": self.first,
            "turn": self.turn,
            "round": self.round,
            "phase": self.phase,
            "dice_left": self.dice_left,
            "queue": [list(t) for t in self.queue],
            "over": None if self.over is None else [list(self.over[0]), self.over[1]],
        }

    def view(self, knowledge: Knowledge) -> dict[str, Any]:
        """Plain data for the board widget; identical for every seat (no secrets)."""
        players = []
        for p in (0, 1):
            c = self.pos[p]
            players.append(
                {
                    "seat": p,
                    "respawn": board.RESPAWNS[p],
                    "cell": c,
                    "name": None if c is None else board.name(c),
                    "on_board": c is not None,
                    "hp": self.hp[p],
                    "max_hp": self.opts["max_hp"],
                    "mp": self.mp[p],
                    "carrying_key": self.carrying[p],
                    "key": self.key[p],
                    "chest": self.chest[p],
                    "countdown": self.countdown[p] if c is None else 0,
                    "blocked": self.blocks[p],
                    "blocking": c == board.RESPAWNS[1 - p] and self.pos[1 - p] is None,
                }
            )
        tiles = [
            {
                "cell": c,
                "name": board.name(c),
                "open": board.open_names(self.tiles[c]),
                "mask": self.tiles[c],
                "respawn": board.RESPAWNS.index(c) if c in board.RESPAWN_TILES else None,
            }
            for c in range(board.CELLS)
        ]
        pending = self.pending()
        return {
            "game": self.game,
            "you": knowledge.seat,
            "options": dict(self.opts),
            "tiles": tiles,
            "players": players,
            "items": dict(self.items),
            "phase": self.phase,
            "turn": self.turn,
            "round": self.round,
            "round_limit": self.opts["round_limit"],
            "win_mp": self.opts["win_mp"],
            "dice_left": self.dice_left,
            "can_attack": self.phase == "combat" and self.target(),
            "waiting_for": type(pending).__name__,
            "over": None if self.over is None else {"winners": list(self.over[0]), "reason": self.over[1]},
            "events": [list(e) for e in self.events],
            "event_seq": self.event_seq,
        }

    def clone(self) -> AnomalyMazeState:
        other = object.__new__(AnomalyMazeState)
        other.opts = self.opts  # never mutated after construction
        other.tiles = list(self.tiles)
        other.pos = list(self.pos)
        other.hp = list(self.hp)
        other.mp = list(self.mp)
        other.key = list(self.key)
        other.carrying = list(self.carrying)
        other.chest = list(self.chest)
        other.items = dict(self.items)
        other.countdown = list(self.countdown)
        other.blocks = list(self.blocks)
        other.first = self.first
        other.turn = self.turn
        other.round = self.round
        other.phase = self.phase
        other.dice_left = self.dice_left
        other.queue = list(self.queue)
        other.over = self.over
        other.events = list(self.events)
        other.event_seq = self.event_seq
        return other


def new_state(players: int, options: Mapping[str, Any]) -> AnomalyMazeState:
    """Registry entry point: a fresh game (exactly two players)."""
    if players != 2:
        raise ValueError(f"Anomaly Maze is for exactly 2 players, not {players}")
    return AnomalyMazeState(options)
