"""A Universal Hive Protocol engine over stdin/stdout, in classic mode (CC-21).

``python3 -m engines.collective_conflict.uhp`` speaks the protocol that the
classic hex tile game's tools use (``info``, ``newgame``, ``play``, ``pass``,
``validmoves``, ``bestmove``, ``undo``, ``options``), so that those tools can
drive our engine and compare its moves with established engines.  Only the
base game is supported (game type ``Base``).

Names: White is seat 0, Black seat 1; MotherShip = Q, Runner = A, Jumper = G,
Climber = B, NetCaster = S, numbered in order of placement (``wA1``, ``bS2``).
A position is written relative to a neighbour: ``X-`` east of X, ``X/``
north-east, ``X\\`` south-east, ``-X`` west, ``/X`` south-west, ``\\X``
north-west, and ``X`` alone on top of X.  Our engine skips a player who cannot
act (CC-5); the protocol wants an explicit ``pass``, so this layer keeps the
protocol's move list and offers ``pass`` exactly when the engine skipped.

``bestmove depth N`` searches N plies; ``bestmove time hh:mm:ss`` deepens the
search until the time is nearly up (:mod:`.bots.classic_search`).  The clock lives
here, in the front end that does the I/O: the search only gets callables that
say "stop" and "do not start another depth".  One search serves the whole
session, so its tables carry over from move to move, and the game's positions so
far go with every ``bestmove`` (the repetition draw, CC-22).

Bad input is answered with ``err`` (or ``invalidmove`` for a move) and the loop
goes on with the game as it was.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from typing import IO

from engines.collective_conflict.bots.classic_search import ClassicSearch, position_key
from engines.collective_conflict.rules import CLIMBER, JUMPER, KIND_BY_NAME, KIND_NAMES, MOTHERSHIP, NETCASTER, RUNNER
from engines.collective_conflict.state import CollectiveConflictState
from engines.core.hexgrid import hex_id, hex_qr
from engines.core.pending import Decision
from engines.core.state import Action, IllegalAction, Knowledge, PositionKey

VERSION = "0.2.0"
#: The deepest ``bestmove depth`` accepted (each ply multiplies the work by the number of moves).
MAX_DEPTH = 12
#: Of the time given to ``bestmove time`` (counted from the moment the command was read): when the search
#: must stop, and after which it starts no new depth.  On this shared 2-core machine, with the load at 8, an
#: answer came about 0.05 s after the hard stop (the node poll, the answer's writing, waiting for a core):
#: the rest of the time is the margin for a process that is descheduled just then.
HARD_SHARE = 0.7
SOFT_SHARE = 0.25
_STATES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")
LETTER = {MOTHERSHIP: "Q", RUNNER: "A", JUMPER: "G", CLIMBER: "B", NETCASTER: "S"}
KIND_OF_LETTER = {v: k for k, v in LETTER.items()}
COLOUR = ("w", "b")
# (prefix, suffix) by direction from the reference piece to the target: E, NE, NW, W, SW, SE
_MARKS = (("", "-"), ("", "/"), ("\\", ""), ("-", ""), ("/", ""), ("", "\\"))
_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class UhpError(Exception):
    """A command that cannot be carried out (``err``)."""


class InvalidMove(Exception):
    """A move that is not legal here (``invalidmove``)."""


class UhpGame:
    """A classic game plus the protocol's view of it: piece names and the move list with passes."""

    def __init__(self) -> None:
        self.state = CollectiveConflictState(2, {"classic": True})
        self.names: dict[int, str] = {}
        self.history: list[str] = []
        self.actions: list[Action | None] = []
        #: The position after each move (the start first): the repetition draw counts them (CC-22).
        self.positions: list[PositionKey] = [position_key(self.state)]

    # -- names and positions ---------------------------------------------------
    def _name_of_next(self, seat: int, kind: int) -> str:
        count = sum(1 for p, o in enumerate(self.state.p_owner) if o == seat and self.state.p_kind[p] == kind)
        return f"{COLOUR[seat]}{LETTER[kind]}" + ("" if kind == MOTHERSHIP else str(count + 1))

    def _piece_by_name(self, name: str) -> int | None:
        for pid, n in self.names.items():
            if n == name:
                return pid
        return None

    def _top_name(self, qr: tuple[int, int], exclude: int | None = None) -> str | None:
        stack = [p for p in self.state.stacks.get(hex_id(*qr), []) if p != exclude]
        return self.names[stack[-1]] if stack else None

    def to_move_string(self, action: Action | None) -> str:
        if action is None:
            return "pass"
        seat = self.seat_to_move()
        if action[0] == "place":
            name = self._name_of_next(seat, KIND_BY_NAME[action[1]])
            target = action[2]
            moving = None
        else:
            moving = self.state.stacks[hex_id(*action[1])][-1]
            name = self.names[moving]
            target = action[2]
        if not self.history:
            return name
        on_top = self._top_name(target, exclude=moving)
        if on_top is not None:
            return f"{name} {on_top}"
        for i, (dq, dr) in enumerate(_DIRS):
            ref = (target[0] - dq, target[1] - dr)
            ref_name = self._top_name(ref, exclude=moving)
            if ref_name is not None:
                pre, post = _MARKS[i]
                return f"{name} {pre}{ref_name}{post}"
        raise UhpError("no neighbour to describe the position")  # pragma: no cover

    def parse(self, text: str) -> Action | None:  # noqa: C901 (tests/test_complexity.py)
        text = text.strip()
        if text.lower() == "pass":
            return None
        parts = text.split()
        if not parts or len(parts) > 2 or len(parts[0]) < 2:
            raise InvalidMove(f"cannot read move {text!r}")
        name = parts[0]
        if name[0] not in "wb" or name[1] not in KIND_OF_LETTER:
            raise InvalidMove(f"unknown piece {name!r}")
        seat = COLOUR.index(name[0])
        kind = KIND_OF_LETTER[name[1]]
        if seat != self.seat_to_move():
            raise InvalidMove(f"it is not {name[0]}'s turn")
        pid = self._piece_by_name(name)
        if pid is not None:
            top = self.state.stacks[self.state.p_pos[pid]][-1]
            if top != pid:
                raise InvalidMove(f"{name} is covered by {self.names[top]} and cannot move")
        if len(parts) == 1:
            if self.history:
                raise InvalidMove("a position is needed after the first move")
            target = (0, 0)
        else:
            target = self._target(parts[1])
        if pid is None:
            if name != self._name_of_next(seat, kind):
                raise InvalidMove(f"{name} is not the next {KIND_NAMES[kind]} to place")
            return ("place", KIND_NAMES[kind], target)
        return ("move", hex_qr(self.state.p_pos[pid]), target)

    def _target(self, ref: str) -> tuple[int, int]:
        pre = ref[0] if ref[0] in "-/\\" else ""
        post = ref[-1] if ref[-1] in "-/\\" else ""
        base = ref[len(pre) : len(ref) - len(post)]
        pid = self._piece_by_name(base)
        if pid is None or self.state.p_pos[pid] < 0 or (pre and post):
            raise InvalidMove(f"unknown reference {ref!r}")
        q, r = hex_qr(self.state.p_pos[pid])
        if not pre and not post:
            return (q, r)
        i = _MARKS.index((pre, post))
        return (q + _DIRS[i][0], r + _DIRS[i][1])

    # -- playing ------------------------------------------------------------------
    def seat_to_move(self) -> int:
        return len(self.history) % 2

    def legal(self) -> list[Action | None]:
        if self.state.is_over():
            return []
        pending = self.state.pending()
        assert isinstance(pending, Decision)
        if pending.seat != self.seat_to_move():
            return [None]  # the engine skipped this player: the protocol calls it a pass
        return list(self.state.legal_actions(pending.seat, Knowledge(None)))

    def play(self, action: Action | None) -> None:
        legal = self.legal()
        if action not in legal:
            raise InvalidMove("that move is not legal here")
        text = self.to_move_string(action)
        if action is not None:
            seat = self.seat_to_move()
            if action[0] == "place":
                self.names[len(self.state.p_owner)] = text.split()[0]
            self.state.push(seat, action)
        self.history.append(text)
        self.actions.append(action)
        self.positions.append(position_key(self.state))

    def seen(self) -> Counter[PositionKey]:
        """How often each position of this game has occurred so far (the current one included)."""
        return Counter(self.positions)

    def undo(self, count: int) -> None:
        if count < 0 or count > len(self.actions):
            raise UhpError("cannot undo that many moves")
        keep = self.actions[: len(self.actions) - count]
        self.__init__()  # type: ignore[misc]  # a fresh start in place: the engine keeps no other state
        for action in keep:
            self.play(action)

    def status(self) -> str:
        if not self.history:
            return "NotStarted"
        over = self.state.result()
        if over is None:
            return "InProgress"
        if over.draw:
            return "Draw"
        return "WhiteWins" if over.winners == (0,) else "BlackWins"

    def turn_string(self) -> str:
        return f"{'White' if self.seat_to_move() == 0 else 'Black'}[{len(self.history) // 2 + 1}]"

    def game_string(self) -> str:
        return ";".join(["Base", self.status(), self.turn_string(), *self.history])


class UhpEngine:
    """The command loop: one command in, its answer and ``ok`` out."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.game: UhpGame | None = None
        #: One search for the session: its tables outlive each ``bestmove``.
        self.search = ClassicSearch()
        #: When the command being carried out was read (``time.monotonic``).
        self.received = 0.0

    def write(self, text: str) -> None:
        self.out.write(text + "\n")

    def command(self, line: str) -> bool:
        line = line.strip()
        if not line:
            return False
        self.received = time.monotonic()  # a time budget counts from here, not from when the search starts
        command, _, args = line.partition(" ")
        args = args.strip()
        try:
            if command == "exit":
                return True
            handler = getattr(self, "cmd_" + command, None)
            if handler is None:
                raise UhpError(f"unknown command {command!r}")
            handler(args)
        except InvalidMove as exc:
            self.write(f"invalidmove {exc}")
        except (UhpError, IllegalAction) as exc:
            self.write(f"err {exc}")
        except ValueError as exc:  # a last guard: bad input must never end the loop
            self.write(f"err cannot read {line!r}: {exc}")
        self.write("ok")
        self.out.flush()
        return False

    def _need_game(self) -> UhpGame:
        if self.game is None:
            raise UhpError("no game in progress (use newgame)")
        return self.game

    def cmd_info(self, args: str) -> None:
        # the capabilities line lists supported expansions; the base game has none, so it is left out
        self.write(f"id SealedTable-CollectiveConflictState v{VERSION}")

    def cmd_newgame(self, args: str) -> None:
        """``newgame``, ``newgame Base`` or ``newgame <GameString>``: the game string's state and turn must be true."""
        parts = [p.strip() for p in args.split(";")] if args else ["Base"]
        if parts[0] != "Base":
            raise UhpError(f"unsupported game type {parts[0]!r}: only Base")
        if len(parts) == 2:
            raise UhpError("a game string is GameType;GameState;Turn;moves...")
        game = UhpGame()
        for text in parts[3:]:
            game.play(game.parse(text))
        if len(parts) > 2:
            if parts[1] not in _STATES:
                raise UhpError(f"unknown game state {parts[1]!r}")
            if parts[1] != game.status():
                raise UhpError(f"the game string says {parts[1]} but its moves give {game.status()}")
            if parts[2] != game.turn_string():
                raise UhpError(f"the game string says {parts[2]} but its moves give {game.turn_string()}")
        self.game = game
        self.write(game.game_string())

    def cmd_play(self, args: str) -> None:
        game = self._need_game()
        game.play(game.parse(args))
        self.write(game.game_string())

    def cmd_pass(self, args: str) -> None:
        self.cmd_play("pass")

    def cmd_validmoves(self, args: str) -> None:
        game = self._need_game()
        self.write(";".join(game.to_move_string(a) for a in game.legal()))

    def cmd_bestmove(self, args: str) -> None:
        """``bestmove``, ``bestmove depth N`` or ``bestmove time hh:mm:ss``."""
        depth: int | None = 2
        seconds = 0
        words = args.split()
        if words and words[0] == "depth" and len(words) == 2:
            depth = _count(words[1], "depth")
            if not 1 <= depth <= MAX_DEPTH:
                raise UhpError(f"depth must be 1 to {MAX_DEPTH}")
        elif words and words[0] == "time" and len(words) == 2:
            seconds = _seconds(words[1])
            depth = None
        elif words:
            raise UhpError("use bestmove, bestmove depth N or bestmove time hh:mm:ss")
        game = self._need_game()
        legal = game.legal()
        if not legal:
            raise UhpError("the game is over")
        if legal == [None]:
            self.write(game.to_move_string(None))
            return
        if depth is not None:
            action = self.search.choose(game.state.clone(), game.seen(), depth=depth)
        else:
            start = self.received
            hard, soft = start + seconds * HARD_SHARE, start + seconds * SOFT_SHARE
            action = self.search.choose(
                game.state.clone(),
                game.seen(),
                stop=lambda: time.monotonic() >= hard,
                enough=lambda: time.monotonic() >= soft,
            )
        self.write(game.to_move_string(action))

    def cmd_undo(self, args: str) -> None:
        game = self._need_game()
        game.undo(_count(args, "undo") if args else 1)
        self.write(game.game_string())

    def cmd_options(self, args: str) -> None:
        if args:
            raise UhpError("this engine has no options")


def _count(text: str, what: str) -> int:
    """A whole number of moves or plies, or a clear error."""
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise UhpError(f"{what} needs a whole number, not {text!r}")
    return int(text)


def _seconds(text: str) -> int:
    """``hh:mm:ss`` as seconds (more than none), or a clear error."""
    match = re.fullmatch(r"([0-9]{1,2}):([0-5][0-9]):([0-5][0-9])", text)
    if match is None:
        raise UhpError(f"time is hh:mm:ss, not {text!r}")
    hours, minutes, secs = (int(g) for g in match.groups())
    total = hours * 3600 + minutes * 60 + secs
    if total == 0:
        raise UhpError("the time must be more than 00:00:00")
    return total


def main(argv: list[str] | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    engine = UhpEngine(stdout or sys.stdout)
    engine.command("info")
    for line in stdin or sys.stdin:
        if engine.command(line):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
