"""Collective Conflict: the rules engine behind the engine contract.

Public and audited rules
========================
Everything the peers check for each other (``check(seat, action)`` with no
knowledge) is public: whose turn it is, placement hexes (joining one's own
Network, the three-own-sides exception after activation, the first unit
touching the structure), the third-move rule (CC-6: the public only sees
"command unit", which is all that rule needs), every unit's movement with
coherence, freedom to move, stacks and height gates, immobilised and
Virus-blocked units, Data Cores and the Runner's hop, the Virus, surround,
collapse and Wreck removal, and the shape of every reveal (a Network cannot
reveal a second Decoy).

Two kinds of secret exist (CC-8, CC-14), both sealed by ``publish()``:

* which command unit is the MotherShip and which the Decoy: the private action
  ``("place", "mothership"|"decoy", hex)`` becomes the public
  ``("place", "command", hex, secret_id)`` with ``{secret_id: name}`` sealed;
* whether a NetCaster's trap is armed: ``("cast", src, dst, armed)`` becomes
  ``("cast", src, dst, secret_id)`` with ``{secret_id: armed}`` sealed.

Rules that only a secret can decide are *audited*: ``check`` enforces them
when given a knowledge holding the secret (the author's own, or full knowledge
in the end-of-game audit) and skips them otherwise.  They are:

* CC-7, the tenth-move rule (from the tenth own move on, while the real
  MotherShip is off the board, only the MotherShip may be placed);
* a command placement's sealed identity (one MotherShip, one Decoy);
* every reveal (``("reveal", id, value)`` must equal the sealed value).

A reveal is owed (``RevealOwed``) when a command unit is surrounded
("command-unit") and when a foreign unit ends its action (a move or a
placement) on the hex of a live trap not revealed yet ("trap"; CC-23: a
revealed trap catches later victims without a second reveal).  Everything
still sealed at the end is opened by the protocol's audit;
``public()["secrets"]`` lists every secret id with its owner and kind.

Actions (hexes are axial ``(q, r)`` pairs)
------------------------------------------
``("place", kind, hex)``; ``("place", "command", hex, id)`` (public form);
``("move", src, dst)``; ``("move", src, dst, core)`` (a Runner also collecting
the Data Core at ``core``, CC-16); ``("jump", src, mid, dst)`` (a Jumper's
double jump, CC-15); ``("cast", src, dst, armed | id)`` (a NetCaster move,
CC-14); ``("virus", runner, target)`` and ``("virus", runner, target, level)``
for a unit under a Climber, ``level`` 0 being the bottom of the stack (CC-18,
CC-24); ``("reveal", id, value)``;
``("chance", n)`` by the table.  In classic mode NetCaster moves are plain
``"move"`` actions and the MotherShip is placed openly.  An action must equal
a legal one with the same types throughout (``True`` is not ``1``).

How a game ends: the last active Network wins; Networks collapsing together
share a draw; the third occurrence of a position is a shared draw (CC-22); a
skipped turn ends the game only when no active Network could act once its
blocks expire (CC-25); a round limit exists only as an option (``max_rounds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.collective_conflict import movegen as mg
from engines.collective_conflict.repetition import PositionCounts, digest
from engines.collective_conflict.rules import (
    CLIMBER,
    COMMAND,
    DECOY,
    JUMPER,
    KIND_BY_NAME,
    KIND_NAMES,
    MOTHERSHIP,
    NETCASTER,
    PLACE_ORDER,
    RUNNER,
    WRECK,
    Settings,
)
from engines.core.hexgrid import DELTAS, ORIGIN, articulation_points, hex_id, hex_qr
from engines.core.pending import Chance, ChanceKind, Decision, GameOver, Pending, RevealOwed
from engines.core.state import TABLE, Action, GameState, IllegalAction, Knowledge, Publication

_IDENTITIES = ("mothership", "decoy")


def _norm(value: Any, depth: int = 0) -> Any:
    """Lists to tuples (msgpack and people send either); refuse anything unhashable."""
    if isinstance(value, (list, tuple)):
        if depth > 3:
            raise IllegalAction("malformed action: nested too deeply")
        return tuple(_norm(v, depth + 1) for v in value)
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    raise IllegalAction(f"malformed action: unexpected {type(value).__name__}")


def _exact(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down: ``True == 1`` in Python, but ``True`` is not the secret id 1."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(_exact(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _qr(h: int) -> tuple[int, int]:
    return hex_qr(h)


def _id(qr: Any) -> int:
    if not (isinstance(qr, tuple) and len(qr) == 2 and all(type(c) is int for c in qr)):
        raise IllegalAction(f"not a hex: {qr!r}")
    try:
        return hex_id(qr[0], qr[1])
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None


class CollectiveConflictState(GameState):
    """Public state of one game of Collective Conflict (full game or classic mode)."""

    game = "collective-conflict"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        if not 2 <= players <= 10:
            raise ValueError("Collective Conflict is for 2–10 players")
        self.settings = Settings.make(players, options or {})
        s = self.settings
        self._n = players
        self.classic = s.classic
        self.stacks: dict[int, list[int]] = {}
        self.p_owner: list[int] = []
        self.p_kind: list[int] = []
        self.p_pos: list[int] = []
        start = s.reserve_counts()
        self.reserve: list[dict[int, int]] = [dict(start) for _ in range(players)]
        self.active = [True] * players
        self.moves = [0] * players
        self.placed = [0] * players
        self.commands: list[list[int]] = [[] for _ in range(players)]
        self.secrets: dict[int, list[Any]] = {}
        self.piece_sid: dict[int, int] = {}
        self.next_sid = 1
        self.decoy_revealed = [False] * players
        self.virus = [False] * players
        self.virus_targets: list[list[int]] = [[] for _ in range(players)]
        self.frozen_next: set[int] = set()
        self.blocked: set[int] = set()
        self.traps: list[tuple[int, int, int]] = []
        self.cores: set[int] = set()
        self.queue: list[tuple[int, int, str, int]] = []
        self.batch_collapsed: list[int] = []
        self.core_due = False
        self.first: int | None = None
        self.current = -1
        self.round = 0
        #: Turns skipped in a row (CC-5); shown, not a rule: the no-action draw looks at the board (CC-25).
        self.skips = 0
        #: CC-22: how often each position occurred since the material last changed (see ``_record_position``).
        self.seen = PositionCounts()
        self.seen_material = -1
        #: How often the position now to be played has occurred (0 while none is offered).
        self.repetitions = 0
        self.over: GameOver | None = None
        self._legal: list[Action] | None = None
        #: The public legal actions, each mapped to itself so that ``check`` can compare types exactly.
        self._legal_set: dict[Action, Action] | None = None
        self._layout()
        if s.first_player is not None:
            self._start(s.first_player)

    # -- set-up -------------------------------------------------------------
    def _layout(self) -> None:
        """CC-3: the starting Wrecks."""
        if self.classic or self._n <= 2:
            return
        if self._n <= 4:
            cells = [(0, 0)]
        elif self._n <= 7:
            cells = [(0, 0), (1, 0), (0, 1)]
        else:
            cells = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
        for q, r in cells:
            self._new_piece(-1, WRECK, hex_id(q, r))

    def _new_piece(self, owner: int, kind: int, h: int) -> int:
        pid = len(self.p_owner)
        self.p_owner.append(owner)
        self.p_kind.append(kind)
        self.p_pos.append(h)
        self.stacks.setdefault(h, []).append(pid)
        return pid

    def _start(self, first: int) -> None:
        self.first = first
        self.current = first
        self.round = 1
        self._round_start()

    # -- contract: reading ----------------------------------------------------
    @property
    def players(self) -> int:
        return self._n

    def pending(self) -> Pending:
        if self.over is not None:
            return self.over
        if self.first is None:
            return Chance(ChanceKind.PUBLIC_SEEDED, "first-player", self._n)
        if self.queue:
            seat, sid, what, _ = self.queue[0]
            return RevealOwed(seat, sid, what)
        if self.core_due:
            return Chance(ChanceKind.PUBLIC_SEEDED, "data-core", len(self._core_candidates()))
        return Decision(self.current, "turn")

    def clone(self) -> CollectiveConflictState:
        other = object.__new__(CollectiveConflictState)
        other.__dict__.update(self.__dict__)
        other.stacks = {h: list(s) for h, s in self.stacks.items()}
        other.p_owner = list(self.p_owner)
        other.p_kind = list(self.p_kind)
        other.p_pos = list(self.p_pos)
        other.reserve = [dict(r) for r in self.reserve]
        other.active = list(self.active)
        other.moves = list(self.moves)
        other.placed = list(self.placed)
        other.commands = [list(c) for c in self.commands]
        other.secrets = {k: list(v) for k, v in self.secrets.items()}
        other.piece_sid = dict(self.piece_sid)
        other.decoy_revealed = list(self.decoy_revealed)
        other.virus = list(self.virus)
        other.virus_targets = [list(v) for v in self.virus_targets]
        other.frozen_next = set(self.frozen_next)
        other.blocked = set(self.blocked)
        other.traps = list(self.traps)
        other.cores = set(self.cores)
        other.queue = list(self.queue)
        other.batch_collapsed = list(self.batch_collapsed)
        other.seen = self.seen.copy()
        other._legal = self._legal
        other._legal_set = self._legal_set
        return other

    def public(self) -> dict[str, Any]:
        pending = self.pending()
        return {
            "game": self.game,
            "players": self._n,
            "settings": self.settings.as_public(),
            "first": self.first,
            "current": self.current,
            "round": self.round,
            "pending": _pending_data(pending),
            "active": list(self.active),
            "moves": list(self.moves),
            "stacks": [
                [*_qr(h), [[p, self.p_owner[p], KIND_NAMES[self.p_kind[p]]] for p in self.stacks[h]]]
                for h in sorted(self.stacks)
            ],
            "reserve": [{KIND_NAMES[k]: v for k, v in sorted(r.items()) if v} for r in self.reserve],
            "commands": [list(c) for c in self.commands],
            "command_units": [[pid, sid] for pid, sid in sorted(self.piece_sid.items())],
            "secrets": {sid: list(v) for sid, v in sorted(self.secrets.items())},
            "next_secret": self.next_sid,
            "traps": [[*_qr(h), owner, sid] for h, owner, sid in self.traps],
            "cores": [list(_qr(h)) for h in sorted(self.cores)],
            "virus": list(self.virus),
            "virus_targets": [list(v) for v in self.virus_targets],
            "frozen_next": sorted(self.frozen_next),
            "blocked": sorted(self.blocked),
            "queue": [list(item) for item in self.queue],
            "skips": self.skips,
            "repetitions": self.repetitions,
        }

    def view(self, knowledge: Knowledge) -> dict[str, Any]:
        """The public state plus what this seat alone knows: its Decoy and its armed traps."""
        out = self.public()
        seat = knowledge.seat
        mine = {}
        for sid, (owner, what, where, revealed) in sorted(self.secrets.items()):
            if (knowledge.full or owner == seat) and sid in knowledge.sealed:
                mine[sid] = {"what": what, "where": where, "value": knowledge.sealed[sid], "revealed": revealed}
        out["seat"] = seat
        out["mine"] = mine
        return out

    # -- contract: choosing -----------------------------------------------------
    def legal_actions(self, seat: int, knowledge: Knowledge) -> list[Action]:
        pending = self.pending()
        if not isinstance(pending, Decision) or pending.seat != seat:
            return []
        public = self._public_legal()
        if self.classic:
            return list(public)
        in_reserve = self._private_reserve(seat, knowledge)
        restricted = self._tenth_rule_applies(seat, knowledge)
        out: list[Action] = []
        for action in public:
            verb = action[0]
            if verb == "place":
                if action[1] == "command":
                    for name in _IDENTITIES:
                        if name in in_reserve and (not restricted or name == "mothership"):
                            out.append(("place", name, action[2]))
                elif not restricted:
                    out.append(action)
            elif verb == "cast":
                out.append(("cast", action[1], action[2], True))
                out.append(("cast", action[1], action[2], False))
            else:
                out.append(action)
        return out

    def _private_reserve(self, seat: int, knowledge: Knowledge) -> set[str]:
        """Which identities the seat still holds, from its sealed values (both if unknown)."""
        if self.reserve[seat].get(COMMAND, 0) == 0:
            return set()
        placed = {knowledge.sealed.get(sid) for sid in self.commands[seat]}
        left = {name for name in _IDENTITIES if name not in placed}
        return left or set(_IDENTITIES)

    def _mothership_on_board(self, seat: int, knowledge: Knowledge | None) -> bool | None:
        """From the seat's sealed values: is its MotherShip placed?  ``None`` if unknown."""
        if knowledge is None:
            return None
        values = []
        for sid in self.commands[seat]:
            if sid not in knowledge.sealed:
                return None
            values.append(knowledge.sealed[sid])
        return "mothership" in values

    def _tenth_rule_applies(self, seat: int, knowledge: Knowledge | None) -> bool:
        if self.moves[seat] + 1 < self.settings.mothership_only_from:
            return False
        return self._mothership_on_board(seat, knowledge) is False

    def publish(self, seat: int, action: Action, knowledge: Knowledge) -> Publication:
        action = _norm(action)
        if not any(a == action and _exact(a, action) for a in self.legal_actions(seat, knowledge)):
            raise IllegalAction(f"{_show(action)} is not a legal choice for seat {seat} now")
        verb = action[0]
        if verb == "place" and action[1] in _IDENTITIES and not self.classic:
            sid = self.next_sid
            return Publication(("place", "command", action[2], sid), {sid: action[1]})
        if verb == "cast":
            sid = self.next_sid
            return Publication(("cast", action[1], action[2], sid), {sid: bool(action[3])})
        return Publication(action, {})

    # -- contract: checking ---------------------------------------------------------
    def check(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:
        pending = self.pending()
        if isinstance(pending, GameOver):
            raise IllegalAction("the game is over")
        if not isinstance(action, (tuple, list)) or not action:
            raise IllegalAction("an action is a non-empty tuple")
        action = _norm(action)
        verb = action[0]
        if isinstance(pending, Chance):
            if seat != TABLE or verb != "chance":
                raise IllegalAction(f"waiting for the table's chance draw ({pending.what})")
            if len(action) != 2 or type(action[1]) is not int or not 0 <= action[1] < pending.outcomes:
                raise IllegalAction(f"a chance outcome must be an integer in range({pending.outcomes})")
            return
        if isinstance(pending, RevealOwed):
            self._check_reveal(pending, seat, action, knowledge)
            return
        assert isinstance(pending, Decision)
        if seat != pending.seat:
            raise IllegalAction(f"it is seat {pending.seat}'s turn, not seat {seat}'s")
        self._public_legal()
        assert self._legal_set is not None
        legal = self._legal_set.get(action)
        if legal is None or not _exact(legal, action):
            raise IllegalAction(f"{_show(action)} is not legal for seat {seat} here")
        if knowledge is not None and not self.classic:
            self._check_secret_rules(seat, action, knowledge)

    def _check_reveal(self, pending: RevealOwed, seat: int, action: Action, knowledge: Knowledge | None) -> None:
        if seat != pending.seat:
            raise IllegalAction(f"seat {pending.seat} owes a reveal; seat {seat} cannot act now")
        if verb_of(action) != "reveal" or len(action) != 3 or type(action[1]) is not int or action[1] != pending.secret:
            raise IllegalAction(f"seat {seat} must reveal secret {pending.secret} now")
        value = action[2]
        if pending.what == "trap":
            if type(value) is not bool:
                raise IllegalAction("a trap is revealed as armed (true) or not (false)")
        else:
            if value not in _IDENTITIES:
                raise IllegalAction("a command unit is revealed as 'mothership' or 'decoy'")
            if value == "decoy" and self.decoy_revealed[seat]:
                raise IllegalAction("this Network has already revealed its Decoy")
        if knowledge is not None and pending.secret in knowledge.sealed and knowledge.sealed[pending.secret] != value:
            raise IllegalAction(f"the reveal of secret {pending.secret} does not match the sealed value")

    def _check_secret_rules(self, seat: int, action: Action, knowledge: Knowledge) -> None:
        verb = action[0]
        if verb == "cast" and action[3] in knowledge.sealed and type(knowledge.sealed[action[3]]) is not bool:
            raise IllegalAction("a trap's sealed value must be true or false")
        if verb != "place":
            return
        sid = action[3] if action[1] == "command" else None
        identity = knowledge.sealed.get(sid) if sid is not None else None
        if sid is not None and sid in knowledge.sealed:
            if identity not in _IDENTITIES:
                raise IllegalAction("a command unit's sealed identity must be 'mothership' or 'decoy'")
            for other in self.commands[seat]:
                if knowledge.sealed.get(other) == identity:
                    raise IllegalAction(f"seat {seat} has already placed its {identity}")
        if self._tenth_rule_applies(seat, knowledge):
            if sid is None:
                raise IllegalAction(
                    f"tenth-move rule (CC-7): seat {seat} may place only its MotherShip while it is off the board"
                )
            if sid in knowledge.sealed and identity != "mothership":
                raise IllegalAction(
                    f"tenth-move rule (CC-7): seat {seat} placed its Decoy while its MotherShip is off the board"
                )

    # -- contract: applying ---------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        action = _norm(action)
        self._legal = self._legal_set = None
        verb = action[0]
        if verb == "chance":
            if self.first is None:
                self._start(action[1])
            else:
                self.cores.add(self._core_candidates()[action[1]])
                self.core_due = False
                self._begin_turn()
            return
        if verb == "reveal":
            self._apply_reveal(action[1], action[2])
            return
        self._apply_turn(seat, action)

    def forfeit(self, seat: int) -> None:
        """Leaving = a voluntary collapse (section 6), at once, also out of turn."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise IllegalAction(f"no seat {seat!r} in this game")
        if self.over is not None or not self.active[seat]:
            return
        self._legal = self._legal_set = None
        owed = bool(self.queue)
        self._collapse(seat)
        self.batch_collapsed.remove(seat)  # a Network that leaves shares no draw
        if self.classic:
            self.over = GameOver((1 - seat,), "the other player left")
            return
        if self.queue:  # reveals of other seats still owed: the action's batch ends after them
            if sum(self.active) <= 1:
                self._finish_batch(advance=False)
            return
        if self.first is None or self.core_due:  # a chance comes first; the turn begins after it
            self._finish_batch(advance=False)
            return
        if owed or self.current == seat:  # the leaver owed the last reveal of the batch, or it was its turn
            self._finish_batch(advance=True)
            return
        self._finish_batch(advance=False)
        if self.over is None:
            self._offer_turn()  # the mover may have lost (or gained) its actions: offer its turn again

    # -- turn flow -------------------------------------------------------------------
    def _round_start(self) -> None:
        """CC-17: a Data Core may appear at the start of each round, then the turn begins."""
        s = self.settings
        if s.data_cores and not self.classic:
            target = -(-self._n // s.data_core_divisor)
            if len(self.cores) < target and self._core_candidates():
                self.core_due = True
                return
        self._begin_turn()

    def _core_candidates(self) -> list[int]:
        return [h for h in mg.touching_hexes(self.stacks) if h not in self.cores]

    def _begin_turn(self) -> None:
        seat = self.current
        if not self.active[seat]:
            self._advance()
            return
        self.traps = [t for t in self.traps if t[1] != seat]
        blocked = {p for p in self.frozen_next if self.p_owner[p] == seat}
        self.frozen_next -= blocked
        for piece in self.virus_targets[seat]:
            h = self.p_pos[piece]
            if h < 0 or self.p_owner[piece] != seat:
                continue
            blocked.add(piece)
            for d in DELTAS:
                for q in self.stacks.get(h + d, ()):
                    if self.p_owner[q] == seat:
                        blocked.add(q)
        self.virus_targets[seat] = []
        self.blocked = blocked
        self._offer_turn()

    def _offer_turn(self) -> None:
        """The current seat plays, or is skipped (CC-5); the no-action draw (CC-25); the repetition draw (CC-22)."""
        self._legal = self._legal_set = None
        if self._has_action():
            self._record_position()
            return
        self.skips += 1
        if not self._anyone_can_act():
            self._draw("no Network can act")
            return
        self._advance()

    def _anyone_can_act(self) -> bool:
        """CC-25: could any active Network act on this board once the blocks now in force have expired?

        Blocks (a Virus, an immobilising trap) last one turn and only actions
        make new ones, so while every seat is being skipped the board stays as
        it is and only the blocks run out.  Judging the board itself, as it is
        now, also counts whatever a leave has changed.
        """
        current, blocked = self.current, self.blocked
        try:
            for seat in range(self._n):
                if self.active[seat]:
                    self.current, self.blocked = seat, set()
                    self._legal = self._legal_set = None
                    if self._has_action():
                        return True
            return False
        finally:
            self.current, self.blocked = current, blocked
            self._legal = self._legal_set = None

    def _record_position(self) -> None:
        """CC-22: count the position now offered to the current seat; its third occurrence is a shared draw.

        Units, Wrecks and reserves only ever leave the game, so a position
        seen before the material last changed cannot come back: the count
        starts afresh then, which keeps it small.
        """
        limit = self.settings.repetition
        if limit is None:
            return
        material = sum(1 for h in self.p_pos if h >= 0) + sum(sum(r.values()) for r in self.reserve)
        if material != self.seen_material:
            self.seen = PositionCounts()
            self.seen_material = material
        count = self.seen.add(digest(self._position_key()))
        self.repetitions = count
        if count >= limit:
            self._draw("position repeated")

    def _position_key(self) -> list[int]:
        """The public position and the seat to move, as a player sees it, as integers (see :func:`digest`).

        Units of the same Network and kind are interchangeable; command units
        keep their secret id (to their owner they are not).  Own-move counts
        matter only up to the last rule that reads them.  Every section starts
        with its length, so two different positions never give the same list.
        """
        owner, kind, sid, pos, stacks = self.p_owner, self.p_kind, self.piece_sid, self.p_pos, self.stacks
        out = [self.current, len(stacks)]
        for h in sorted(stacks):
            stack = stacks[h]
            out += (h, len(stack))
            for p in stack:
                out += (owner[p], kind[p], sid.get(p, 0))
        for r in self.reserve:
            out.append(len(r))
            for k, v in sorted(r.items()):
                out += (k, v)
        out += self.active
        out += self.decoy_revealed
        out += self.virus
        cap = self.settings.rule_moves()
        out += (min(m, cap) for m in self.moves)

        def where(pieces: Any) -> None:
            spots = sorted((pos[p], stacks[pos[p]].index(p)) if pos[p] >= 0 else (-1, 0) for p in pieces)
            out.append(len(spots))
            for spot in spots:
                out.extend(spot)

        for targets in self.virus_targets:
            where(targets)
        where(self.frozen_next)
        where(self.blocked)
        traps = sorted((h, o, {None: 2, True: 1, False: 0}[self.secrets[s][3]]) for h, o, s in self.traps)
        out.append(len(traps))
        for trap in traps:
            out += trap
        out.append(len(self.cores))
        out += sorted(self.cores)
        return out

    def _advance(self) -> None:
        self.blocked = set()
        self._legal = self._legal_set = None
        n = self._n
        cur = self.current
        assert self.first is not None
        for k in range(1, n + 1):
            nxt = (cur + k) % n
            if self.active[nxt]:
                break
        else:  # pragma: no cover - guarded by the game-end check
            self._draw("no active Network")
            return
        first = self.first
        self.current = nxt
        if (nxt - first) % n <= (cur - first) % n:
            self.round += 1
            limit = self.settings.max_rounds
            if limit is not None and self.round > limit:
                self._draw("move limit")
                return
            self._round_start()
            return
        self._begin_turn()

    def _draw(self, reason: str) -> None:
        self.over = GameOver(tuple(i for i in range(self._n) if self.active[i]), reason)

    # -- applying a seat's turn ----------------------------------------------------------
    def _apply_turn(self, seat: int, action: Action) -> None:  # noqa: C901 (tests/test_complexity.py)
        self.skips = 0
        self.repetitions = 0
        self.moves[seat] += 1
        verb = action[0]
        moved: int | None = None
        if verb == "place":
            kind = KIND_BY_NAME[action[1]]
            h = _id(action[2])
            pid = moved = self._new_piece(seat, kind, h)
            self.reserve[seat][kind] -= 1
            self.placed[seat] += 1
            if kind == COMMAND:
                sid = action[3]
                self._seal(sid, seat, "command-unit", list(action[2]))
                self.commands[seat].append(sid)
                self.piece_sid[pid] = sid
        elif verb == "virus":
            self.virus[seat] = False
            stack = self.stacks[_id(action[2])]
            target = stack[action[3]] if len(action) == 4 else stack[-1]
            self.virus_targets[self.p_owner[target]].append(target)
        else:
            src = _id(action[1])
            dst = _id(action[3] if verb == "jump" else action[2])
            moved = self._move_top(src, dst)
            if verb == "cast":
                sid = action[3]
                self._seal(sid, seat, "trap", list(action[1]))
                self.traps.append((src, seat, sid))
            elif verb == "move" and self.p_kind[moved] == RUNNER and not self.classic:
                if len(action) == 4:
                    self.cores.discard(_id(action[3]))
                    self.virus[seat] = True
                if dst in self.cores and not self.virus[seat]:
                    self.cores.discard(dst)
                    self.virus[seat] = True
        if self.classic:
            self._classic_end()
            if self.over is None:
                self._advance()
            return
        if moved is not None:  # CC-23: every live foreign trap on the hex catches the unit, placed or moved
            dst = self.p_pos[moved]
            for h, owner, sid in self.traps:
                if h != dst or owner == seat:
                    continue
                armed = self.secrets[sid][3]
                if armed is None:
                    self.queue.append((owner, sid, "trap", moved))
                elif armed is True:  # revealed for an earlier victim: no second reveal
                    self._catch(moved)
        for h in sorted(self.stacks):
            piece = self.stacks[h][0]
            if self.p_kind[piece] == COMMAND and all((h + d) in self.stacks for d in DELTAS):
                owner = self.p_owner[piece]
                self.queue.append((owner, self.piece_sid[piece], "command-unit", piece))
        if not self.queue:
            self._finish_batch(advance=True)

    def _seal(self, sid: int, seat: int, what: str, where: list[int]) -> None:
        self.secrets[sid] = [seat, what, where, None]
        self.next_sid = sid + 1

    def _move_top(self, src: int, dst: int) -> int:
        stack = self.stacks[src]
        piece = stack.pop()
        if not stack:
            del self.stacks[src]
        self.stacks.setdefault(dst, []).append(piece)
        self.p_pos[piece] = dst
        return piece

    def _apply_reveal(self, sid: int, value: Any) -> None:
        seat, _, what, piece = self.queue.pop(0)
        self.secrets[sid][3] = value
        if what == "trap":
            if value is True:
                self._catch(piece)
        elif value == "mothership":
            self._collapse(seat)
        else:
            self.decoy_revealed[seat] = True
            other_on_board = any(
                p != piece and self.p_kind[p] == COMMAND and self.p_owner[p] == seat and self.p_pos[p] >= 0
                for p in self.piece_sid
            )
            if other_on_board:
                self.p_owner[piece] = -1
                self.p_kind[piece] = WRECK
            else:
                self._collapse(seat)
        self._prune_queue()
        if not self.queue:
            self._finish_batch(advance=True)

    def _catch(self, piece: int) -> None:
        """A trap caught ``piece``: it cannot move during its Network's next turn (if still a unit of one)."""
        owner = self.p_owner[piece]
        if self.p_pos[piece] >= 0 and owner >= 0 and self.active[owner]:
            self.frozen_next.add(piece)

    def _prune_queue(self) -> None:
        self.queue = [
            item
            for item in self.queue
            if self.active[item[0]] and (item[2] == "trap" or self.p_kind[item[3]] == COMMAND)
        ]

    def _collapse(self, seat: int) -> None:
        """CC-10: board-level units become Wrecks, higher ones vanish, the reserve is discarded."""
        self.active[seat] = False
        self.batch_collapsed.append(seat)
        for pid in range(len(self.p_owner)):
            if self.p_owner[pid] != seat or self.p_pos[pid] < 0:
                continue
            h = self.p_pos[pid]
            stack = self.stacks[h]
            if stack[0] == pid:
                self.p_owner[pid] = -1
                self.p_kind[pid] = WRECK
            else:
                stack.remove(pid)
                self.p_pos[pid] = -1
        self.reserve[seat] = {}
        self.traps = [t for t in self.traps if t[1] != seat]
        self.virus[seat] = False
        self.virus_targets[seat] = []
        self._prune_queue()

    def _finish_batch(self, advance: bool) -> None:
        """After an action and its reveals: Wreck removal, the end of the game, the next turn."""
        self._remove_wrecks()
        self._legal = self._legal_set = None
        # a caught unit that became a Wreck, left the board or lost its Network is caught no more
        self.frozen_next = {p for p in self.frozen_next if self.p_owner[p] >= 0 and self.active[self.p_owner[p]]}
        alive = [i for i in range(self._n) if self.active[i]]
        collapsed = sorted(set(self.batch_collapsed))
        self.batch_collapsed = []
        if len(alive) == 1:
            self.over = GameOver((alive[0],), "last active Network")
            return
        if not alive:
            self.over = GameOver(tuple(collapsed), "the last Networks collapsed together: shared draw")
            return
        if advance:
            self._advance()

    def _removal_started(self) -> bool:
        """CC-19: every active Network has at least one command unit on the board."""
        if self.classic or not self.settings.wreck_removal:
            return False
        on_board = [False] * self._n
        for piece in self.piece_sid:
            if self.p_kind[piece] == COMMAND and self.p_pos[piece] >= 0:
                on_board[self.p_owner[piece]] = True
        return all(on_board[i] for i in range(self._n) if self.active[i])

    def _removable_wreck(self) -> int | None:
        wrecks = [h for h, s in self.stacks.items() if len(s) == 1 and self.p_kind[s[0]] == WRECK]
        if not wrecks:
            return None
        cut = articulation_points(self.stacks)
        for h in sorted(wrecks):
            if h not in cut and len(self.stacks) > 1:
                return h
        return None

    def _remove_wrecks(self) -> None:
        """CC-19: removable Wrecks go one at a time, lowest (q, r) first, until none can."""
        if not self._removal_started():
            return
        while True:
            h = self._removable_wreck()
            if h is None:
                return
            piece = self.stacks.pop(h)[0]
            self.p_pos[piece] = -1

    def _classic_end(self) -> None:
        lost = []
        for seat in range(2):
            for h, stack in self.stacks.items():
                bottom = stack[0]
                if (
                    self.p_kind[bottom] == MOTHERSHIP
                    and self.p_owner[bottom] == seat
                    and all((h + d) in self.stacks for d in DELTAS)
                ):
                    lost.append(seat)
        if len(lost) == 2:
            self.active = [False, False]
            self.over = GameOver((0, 1), "both MotherShips surrounded: draw")
        elif lost:
            self.active[lost[0]] = False
            self.over = GameOver((1 - lost[0],), "MotherShip surrounded")

    # -- legal actions (public) ------------------------------------------------------------
    def _public_legal(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._generate() if isinstance(self.pending(), Decision) else []
            self._legal_set = {a: a for a in self._legal}
        return self._legal

    def _has_action(self) -> bool:
        """Cheaper than generating every action: is there at least one (else the turn is skipped, CC-5)?"""
        seat = self.current
        if self.placement_kinds(seat) and self.placement_hexes(seat):
            return True
        return bool(self._public_legal())

    def activated(self, seat: int) -> bool:
        """A Network may move once a command unit (classic: the MotherShip) is placed."""
        if self.classic:
            return self.reserve[seat].get(MOTHERSHIP, 0) == 0
        return bool(self.commands[seat])

    def placement_kinds(self, seat: int) -> list[int]:
        s = self.settings
        kinds = [k for k in PLACE_ORDER if self.reserve[seat].get(k, 0) > 0]
        own_move = self.moves[seat] + 1
        if self.classic:
            if own_move == 1 and s.classic_no_queen_first:
                kinds = [k for k in kinds if k != MOTHERSHIP]
            if own_move >= s.classic_queen_by_move and MOTHERSHIP in kinds:
                kinds = [MOTHERSHIP]
        elif own_move >= s.command_by_move and not self.commands[seat]:
            kinds = [k for k in kinds if k == COMMAND]
        return kinds

    def placement_hexes(self, seat: int) -> list[int]:
        if not self.stacks:
            return [ORIGIN]
        if self.placed[seat] == 0:
            return mg.touching_hexes(self.stacks)
        tops = {h: self.p_owner[s[-1]] for h, s in self.stacks.items()}
        if self.classic:
            return mg.placement_hexes(tops, seat, True, 7)
        return mg.placement_hexes(tops, seat, self.activated(seat), self.settings.own_sides_exception)

    def _generate(self) -> list[Action]:  # noqa: C901 (tests/test_complexity.py)
        seat = self.current
        out: list[Action] = []
        kinds = self.placement_kinds(seat)
        if kinds:
            hexes = [_qr(h) for h in self.placement_hexes(seat)]
            for kind in kinds:
                name = KIND_NAMES[kind]
                if kind == COMMAND:
                    out.extend(("place", name, h, self.next_sid) for h in hexes)
                else:
                    out.extend(("place", name, h) for h in hexes)
        if not self.activated(seat):
            return out
        for src, dst, extra in self.unit_moves(seat):
            kind = self.p_kind[self.stacks[src][-1]]
            s_qr, d_qr = _qr(src), _qr(dst)
            if extra is not None:
                if kind == JUMPER:
                    out.append(("jump", s_qr, _qr(extra), d_qr))
                else:
                    out.append(("move", s_qr, d_qr, _qr(extra)))
            elif kind == NETCASTER and self.settings.traps and not self.classic:
                out.append(("cast", s_qr, d_qr, self.next_sid))
            else:
                out.append(("move", s_qr, d_qr))
        if self.virus[seat] and not self.classic:
            runners = [
                h
                for h in sorted(self.stacks)
                if self._mine_free(self.stacks[h][-1], seat) and self.p_kind[self.stacks[h][-1]] == RUNNER
            ]
            targets: list[tuple[Any, ...]] = []  # CC-24: any unit of another active Network, covered ones too
            for h in sorted(self.stacks):
                stack = self.stacks[h]
                top = len(stack) - 1
                for level, piece in enumerate(stack):
                    o = self.p_owner[piece]
                    if o >= 0 and o != seat and self.active[o]:
                        targets.append((_qr(h),) if level == top else (_qr(h), level))
            out.extend(("virus", _qr(r), *t) for r in runners for t in targets)
        return out

    def _mine_free(self, piece: int, seat: int) -> bool:
        return self.p_owner[piece] == seat and piece not in self.blocked

    def unit_moves(self, seat: int) -> list[tuple[int, int, int | None]]:  # noqa: C901 (tests/test_complexity.py)
        """``(src, dst, extra)`` for every unit move of ``seat`` (extra: a jump's middle or a collected core)."""
        s = self.settings
        stacks = self.stacks
        cut: set[int] | None = None
        out: list[tuple[int, int, int | None]] = []
        for h in sorted(stacks):
            stack = stacks[h]
            piece = stack[-1]
            if not self._mine_free(piece, seat):
                continue
            kind = self.p_kind[piece]
            ground = len(stack) == 1
            if ground:
                if cut is None:
                    cut = articulation_points(stacks)
                if h in cut:
                    continue
            if kind == CLIMBER:
                for t in sorted(mg.climber_targets(stacks, h, s.climber_two_steps)):
                    out.append((h, t, None))
                continue
            del stacks[h]
            try:
                if kind in (MOTHERSHIP, DECOY, COMMAND):
                    dests = sorted(mg.slide_steps(stacks, h))
                elif kind == RUNNER:
                    dests = sorted(mg.runner_targets(stacks, h))
                elif kind == NETCASTER:
                    dests = sorted(mg.walker_targets(stacks, h, s.netcaster_steps))
                elif kind == JUMPER:
                    out.extend(self._jumps(h, stack))
                    continue
                else:
                    dests = []
            finally:
                stacks[h] = stack
            if kind == RUNNER and not self.classic:
                out.extend(self._runner_variants(seat, h, dests))
            else:
                out.extend((h, t, None) for t in dests)
        return out

    def _jumps(self, h: int, stack: list[int]) -> list[tuple[int, int, int | None]]:
        """CC-15 (stacks without the Jumper at ``h``): single jumps, and second jumps when no Wreck would go."""
        stacks = self.stacks
        out: list[tuple[int, int, int | None]] = []
        seconds: list[tuple[int, int, int | None]] = []
        for i, land in sorted(mg.jump_lines(stacks, h), key=lambda x: x[1]):
            out.append((h, land, None))
            if not self.settings.jumper_double or self.classic:
                continue
            stacks[land] = stack
            try:
                if self._removal_started() and self._removable_wreck() is not None:
                    continue
                for j, land2 in mg.jump_lines(stacks, land):
                    if j != i and land2 != h:
                        seconds.append((h, land2, land))
            finally:
                del stacks[land]
        seconds.sort(key=lambda x: (x[2], x[1]))
        return out + seconds

    def _runner_variants(self, seat: int, h: int, dests: list[int]) -> list[tuple[int, int, int | None]]:
        """CC-16: each Runner destination, and the same with a Data Core hop next to its start or end."""
        out: list[tuple[int, int, int | None]] = []
        # CC-24: a hop reaches only a core on a free hex (the Runner's own start is free once it has left)
        free = {c for c in self.cores if c not in self.stacks or c == h} if not self.virus[seat] else set()
        near_start = {h + d for d in DELTAS} & free
        for t in dests:
            out.append((h, t, None))
            if not free or t in self.cores:
                continue
            near = near_start | ({t + d for d in DELTAS} & free)
            out.extend((h, t, c) for c in sorted(near))
        return out


def verb_of(action: Action) -> Any:
    return action[0] if action else None


def _show(action: Any) -> str:
    return repr(action)[:120]


def _pending_data(p: Pending) -> list[Any]:
    if isinstance(p, Decision):
        return ["decision", p.seat, p.what]
    if isinstance(p, Chance):
        return ["chance", str(p.kind), p.what, p.outcomes]
    if isinstance(p, RevealOwed):
        return ["reveal", p.seat, p.secret, p.what]
    assert isinstance(p, GameOver)
    return ["over", list(p.winners), p.reason]


def new_state(players: int, options: Mapping[str, Any]) -> CollectiveConflictState:
    return CollectiveConflictState(players, options)


__all__ = ["CLIMBER", "DECOY", "CollectiveConflictState", "new_state"]
