"""A game on this machine against bots: the referee holds the truth, no network.

:class:`LocalGame` is the Qt-free controller behind the table window.  It
owns an :class:`engines.core.Referee` (which shuffles, deals and delivers for
real, keeping the truth to itself), one human seat and bots in the other
seats.  The window advances it one *step* at a time — one decision by a bot
together with the table's resolutions that follow it — so bots' turns can be
shown step by step with a timer in between, and a paused game (rules page
open) simply takes no steps.

Every decision taken (the private action, before ``publish``) is recorded
with the seed; that pair is the local game file (:mod:`client.play.local_file`),
from which the whole game, secrets included, is rebuilt exactly.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from client.play.source import FORFEIT, Entry, EventTap
from engines.core import Action, Decision, GameOver, GameState, IllegalAction, Knowledge, Pending, Referee, get
from engines.core.bots import Bot
from engines.core.registry import players_text


@dataclass
class LocalGame:
    """One local game: the referee, the human seat, the bots, the record."""

    game: str
    players: int
    seed: bytes
    human: int
    names: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    bot_kind: str = "greedy"

    def __post_init__(self) -> None:
        self.spec = get(self.game)
        if not self.spec.min_players <= self.players <= self.spec.max_players:
            raise ValueError(f"{self.spec.title} is {players_text(self.spec)}, not {self.players}")
        if not 0 <= self.human < self.players or len(self.names) != self.players:
            raise ValueError("the human seat and the names must fit the number of players")
        self.referee = Referee(self.spec.new_state(self.players, dict(self.options)), self.seed)
        self.tap = EventTap(self.referee.state)
        #: Every entry so far, with its events (the table's log is built from these).
        self.entries: list[Entry] = []
        kind = self.bot_kind if self.bot_kind in self.spec.bots else sorted(self.spec.bots)[0]
        self.bots: dict[int, Bot] = {
            seat: self.spec.bots[kind](seat, self.seed + f"/bot{seat}".encode())
            for seat in range(self.players)
            if seat != self.human
        }
        #: Every seat decision in order, as chosen (private form): the game file.
        self.decisions: list[tuple[int, Action]] = []
        #: The player gave up their seat ("Leave the game"); the bots play on.
        self.human_left = False

    @classmethod
    def new(
        cls, game: str, players: int, human_name: str, bot_names: list[str], seed: bytes | None = None, **kw: Any
    ) -> LocalGame:
        """A fresh game with the human in seat 0 and bots named from ``bot_names``."""
        names = [human_name, *bot_names[: players - 1]]
        return cls(game, players, seed or secrets.token_bytes(16), 0, names, **kw)

    # -- reading ---------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.referee.state

    @property
    def knowledge(self) -> Knowledge:
        """What the human's seat knows (never more)."""
        return self.referee.knowledge(self.human)

    @property
    def history(self) -> list[tuple[int, Action]]:
        return self.referee.history

    def pending(self) -> Pending:
        return self.state.pending()

    def over(self) -> GameOver | None:
        p = self.pending()
        return p if isinstance(p, GameOver) else None

    def human_to_move(self) -> bool:
        p = self.pending()
        return isinstance(p, Decision) and p.seat == self.human

    def has_steps(self) -> bool:
        """Whether :meth:`step` would do something now (bots or the table are to act)."""
        return self.over() is None and not self.human_to_move()

    def legal(self) -> list[Action]:
        """The human's legal actions now (empty when it is not their decision)."""
        if not self.human_to_move():
            return []
        return self.state.legal_actions(self.human, self.knowledge)

    def view(self) -> dict[str, Any]:
        return self.state.view(self.knowledge)

    # -- advancing -------------------------------------------------------------
    def step(self) -> list[Entry]:
        """One step of play that no person decides; the entries it added (empty if waiting).

        Table items (shuffles, deals, deliveries, chance, owed reveals) are all
        resolved; then, if a bot must decide, it decides once and the table
        items that follow are resolved too.
        """
        start = len(self.entries)
        self._resolve()
        pending = self.pending()
        if isinstance(pending, Decision) and pending.seat != self.human:
            bot = self.bots[pending.seat]
            knowledge = self.referee.knowledge(pending.seat)
            legal = self.state.legal_actions(pending.seat, knowledge)
            action = bot.choose(self.state, knowledge, legal)
            self._decide(pending.seat, action)
        return self.entries[start:]

    def act(self, action: Action) -> list[Entry]:
        """The human's decision; IllegalAction (and no change) unless it is legal now."""
        if not self.human_to_move():
            raise IllegalAction("it is not your decision")
        if tuple(action) not in {tuple(a) for a in self.legal()}:
            raise IllegalAction("that action is not allowed now")
        start = len(self.entries)
        self._decide(self.human, tuple(action))
        return self.entries[start:]

    def forfeit_human(self) -> list[Entry]:
        """The human leaves the game (the bots play on to the end)."""
        start = len(self.entries)
        if self.over() is None:
            self.human_left = True
            self.state.forfeit(self.human)
            self.decisions.append((self.human, (FORFEIT,)))
            self.entries.append(Entry(len(self.history) - 1, self.human, (FORFEIT,), self.tap.new()))
            self._resolve()
        return self.entries[start:]

    def _decide(self, seat: int, action: Action) -> None:
        before = self.pending()
        self.referee.decide(seat, action)
        self.decisions.append((seat, action))
        self._record(before)
        self._resolve()

    def _resolve(self) -> None:
        while True:
            before = self.pending()
            if not self.referee.resolve_table():
                return
            self._record(before)

    def _record(self, before: Any) -> None:
        seat, action = self.history[-1]
        self.entries.append(Entry(len(self.history) - 1, seat, action, self.tap.new(), before))


__all__ = ["LocalGame"]
