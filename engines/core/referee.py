"""An in-process table that knows everything and resolves what no seat decides.

Self-play, bots-only games in the client, tests and benchmarks need a game to
run without the protocol.  The :class:`Referee` plays the protocol's part from
a seeded stream: it shuffles for real (keeping the truth to itself), hands each
dealt card's identity to its receiver alone, delivers private showings, opens
sealed values when a reveal is owed, and asks each seat's bot for decisions
with that seat's knowledge only.  Same seed, same game, on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.bots import Bot
from engines.core.pending import Chance, ChanceKind, Deal, Decision, GameOver, PrivateDelivery, RevealOwed
from engines.core.seeded import SeededStream
from engines.core.state import TABLE, Action, GameState, Knowledge


class RefereeError(RuntimeError):
    """The engine asked for something impossible, or a game did not end."""


class Referee:
    """Runs one game to its end with bots, from a seed."""

    def __init__(self, state: GameState, seed: bytes, max_actions: int = 100_000) -> None:
        self.state = state
        self.rng = SeededStream(seed, "referee")
        self.truth = Knowledge(None)
        self.seats = [Knowledge(seat) for seat in range(state.players)]
        self.history: list[tuple[int, Action]] = []
        self.max_actions = max_actions

    def knowledge(self, seat: int) -> Knowledge:
        return self.seats[seat]

    def resolve_table(self) -> bool:
        """Resolve one pending item that no seat decides; False if none is."""
        pending = self.state.pending()
        if isinstance(pending, Chance):
            if pending.kind is ChanceKind.SECRET_SHUFFLE:
                cards = list(pending.cards)
                self.rng.shuffle(cards)
                for slot, card in zip(pending.slots, cards, strict=True):
                    self.truth.cards[slot] = card
                self._push(TABLE, ("shuffled",))
            else:
                self._push(TABLE, ("chance", self.rng.below(pending.outcomes)))
            return True
        if isinstance(pending, Deal):
            self.seats[pending.seat].cards[pending.slot] = self.truth.cards[pending.slot]
            self._push(TABLE, ("deal", pending.slot))
            return True
        if isinstance(pending, PrivateDelivery):
            deliver(pending, self.truth, self.seats)
            self._push(TABLE, ("delivered",))
            return True
        if isinstance(pending, RevealOwed):
            value = self.seats[pending.seat].sealed[pending.secret]
            self._push(pending.seat, ("reveal", pending.secret, value), self.seats[pending.seat])
            return True
        return False

    def decide(self, seat: int, action: Action) -> None:
        """Apply a seat's private action: publish, seal, check, apply."""
        knowledge = self.seats[seat]
        publication = self.state.publish(seat, action, knowledge)
        knowledge.sealed.update(publication.sealed)
        self.truth.sealed.update(publication.sealed)
        self._push(seat, publication.action, knowledge)

    def _push(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:
        if len(self.history) >= self.max_actions:
            raise RefereeError(f"game did not end within {self.max_actions} actions")
        self.state.push(seat, action, knowledge)
        self.history.append((seat, action))

    def run_table(self) -> Decision | GameOver:
        """Resolve table items until a seat must decide or the game is over."""
        while self.resolve_table():
            pass
        pending = self.state.pending()
        assert isinstance(pending, (Decision, GameOver)), pending
        return pending

    def play(self, bots: Sequence[Bot]) -> GameOver:
        """Play to the end; each bot sees its own seat's knowledge only."""
        while True:
            pending = self.run_table()
            if isinstance(pending, GameOver):
                return pending
            seat = pending.seat
            knowledge = self.seats[seat]
            legal = self.state.legal_actions(seat, knowledge)
            if not legal:
                raise RefereeError(f"seat {seat} must decide {pending.what!r} but has no legal action")
            self.decide(seat, bots[seat].choose(self.state, knowledge, legal))


def deliver(pending: PrivateDelivery, truth: Knowledge, seats: Sequence[Knowledge]) -> None:
    """What a private delivery changes in process: the target learns the cards; with ``fresh``
    slots, the cards move there for the truth, the source and the target (nobody else)."""
    moved = pending.fresh or pending.slots
    for old, new in zip(pending.slots, moved, strict=True):
        truth.cards[new] = truth.cards[old]
        seats[pending.target].cards[new] = truth.cards[old]
        if pending.fresh and old in seats[pending.source].cards:
            seats[pending.source].cards[new] = seats[pending.source].cards[old]
