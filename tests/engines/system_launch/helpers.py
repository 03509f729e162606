"""Test helpers: a stacked-deck table for System Launch, and a referee that checks invariants.

``Table`` plays the protocol's part like the core Referee does, but with a deck
order the test chooses, so that each rule can be set up exactly.  ``rig`` puts
cards straight into System or Discard rows (taking them from the bottom of the
deck, so every card stays in exactly one place) to skip the turns a test does
not care about.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.core import (
    TABLE,
    Chance,
    ChanceKind,
    Deal,
    Decision,
    GameOver,
    Knowledge,
    PrivateDelivery,
    Referee,
)
from engines.core.referee import deliver
from engines.system_launch import CARD_KIND, SystemLaunchState
from engines.system_launch.cards import KIND_COUNTS
from engines.system_launch.state import AFTER_DEAL, DRAW

_FIRST_OF_KIND = [sum(KIND_COUNTS[:k]) for k in range(len(KIND_COUNTS))]


def card(kind: int, index: int = 0) -> int:
    """The ``index``-th card identity of ``kind``."""
    assert 0 <= index < KIND_COUNTS[kind]
    return _FIRST_OF_KIND[kind] + index


class Table:
    """A game with a stacked deck: ``hands[s]`` dealt to seat ``s``, then ``top`` on the deck."""

    def __init__(
        self,
        players: int,
        hands: Sequence[Sequence[int]],
        top: Sequence[int] = (),
        first: int = 0,
        options: Mapping[str, Any] | None = None,
        system: Mapping[int, Iterable[int]] | None = None,
        discard: Mapping[int, Iterable[int]] | None = None,
    ) -> None:
        self.state = SystemLaunchState(players, options)
        self.truth = Knowledge(None)
        self.seats = [Knowledge(s) for s in range(players)]
        self.reshuffle_orders: list[list[int]] = []
        self.history: list[tuple[int, tuple]] = []
        start = self.state.opts.starting_hand
        order: list[int] = []
        for r in range(start):
            for i in range(players):
                order.append(hands[(first + i) % players][r])
        order.extend(top)
        rigged = [c for rows in (system or {}, discard or {}) for cards in rows.values() for c in cards]
        rest = [c for c in range(44) if c not in order and c not in rigged]
        order.extend(rest)
        order.extend(rigged)  # at the bottom: rig() takes them out of the deck
        assert sorted(order) == list(range(44)), "a card is stacked twice"
        self.table(("shuffled",), order)
        self.table(("chance", first))
        # Deal the opening hands only, then rig rows, then resolve the first Phase 1 draw.
        while isinstance(self.state.pending(), Deal) and self.state.stage == DRAW and self.state.after == AFTER_DEAL:
            self.resolve_one()
        if system or discard:
            self.rig(system or {}, discard or {})
        self.resolve()

    # -- resolving what the table owes -------------------------------------------------
    def table(self, action: tuple, order: Sequence[int] | None = None) -> None:
        pending = self.state.pending()
        if isinstance(pending, Chance) and pending.kind is ChanceKind.SECRET_SHUFFLE:
            cards = list(order) if order is not None else list(pending.cards)
            assert sorted(cards) == sorted(pending.cards)
            for slot, c in zip(pending.slots, cards, strict=True):
                self.truth.cards[slot] = c
        self.push(TABLE, action)

    def resolve_one(self) -> None:
        pending = self.state.pending()
        if isinstance(pending, Deal):
            self.seats[pending.seat].cards[pending.slot] = self.truth.cards[pending.slot]
            self.push(TABLE, ("deal", pending.slot))
        elif isinstance(pending, PrivateDelivery):
            deliver(pending, self.truth, self.seats)
            self.push(TABLE, ("delivered",))
        elif isinstance(pending, Chance):
            order = self.reshuffle_orders.pop(0) if self.reshuffle_orders else None
            self.table(("shuffled",), order)
        else:
            raise AssertionError(f"nothing for the table: {pending}")

    def resolve(self) -> Decision | GameOver:
        while not isinstance(self.state.pending(), (Decision, GameOver)):
            self.resolve_one()
        return self.state.pending()

    def push(self, seat: int, action: tuple) -> None:
        knowledge = self.seats[seat] if seat != TABLE else None
        self.state.push(seat, action, knowledge)
        self.history.append((seat, action))

    def do(self, seat: int, action: tuple) -> Decision | GameOver:
        """A seat's decision, then whatever the table owes after it."""
        self.push(seat, action)
        return self.resolve()

    # -- reading ---------------------------------------------------------------
    def slot_of(self, seat: int, c: int) -> int:
        """The slot in ``seat``'s hand that holds card ``c``."""
        for slot in self.state.hands[seat]:
            if self.truth.cards[slot] == c:
                return slot
        raise AssertionError(f"card {c} is not in seat {seat}'s hand")

    def hand_cards(self, seat: int) -> list[int]:
        return [self.truth.cards[s] for s in self.state.hands[seat]]

    def idle(self, seat: int) -> Decision | GameOver:
        """Pass Phase 2, then discard the newest cards if Phase 3 asks for it."""
        pending = self.do(seat, ("pass",))
        while pending == Decision(seat, "discard"):
            slot = self.state.hands[seat][-1]
            pending = self.do(seat, ("discard", slot, self.truth.cards[slot]))
        return pending

    def past_the_opening(self) -> Decision | GameOver:
        """Every seat passes its first turn (and discards its newest card if it must): a seat that
        leaves after this is no reason to deal again (SL-11)."""
        pending = self.resolve()
        for _ in range(sum(self.state.alive)):
            assert isinstance(pending, Decision) and pending.what == "action", pending
            pending = self.idle(pending.seat)
        return pending

    def build(self, seat: int, c: int) -> Decision | GameOver:
        return self.do(seat, ("build", self.slot_of(seat, c), c))

    def play(self, seat: int, c: int, target: int) -> Decision | GameOver:
        return self.do(seat, ("play", self.slot_of(seat, c), c, target))

    # -- setting up --------------------------------------------------------------
    def rig(self, system: Mapping[int, Iterable[int]], discard: Mapping[int, Iterable[int]]) -> None:
        """Move cards from the deck straight into System / Discard rows (test set-up only)."""
        st = self.state
        taken = []
        for rows, target in ((system, st.system), (discard, st.discard)):
            for seat, cards in rows.items():
                for c in cards:
                    taken.append(next(s for s in st.deck if self.truth.cards[s] == c))
                    target[seat].append(c)
                    st.face_up[c] = True
        # The rigged cards were stacked at the bottom: the deck ends above them.
        assert sorted(taken) == list(range(st.deck_end - len(taken), st.deck_end))
        st.deck_end -= len(taken)
        st._pend = None


class CheckingReferee(Referee):
    """A Referee that checks the invariants after every action it applies."""

    def __init__(self, state: SystemLaunchState, seed: bytes, max_actions: int = 20_000) -> None:
        super().__init__(state, seed, max_actions)
        self.allowed: list[set[int]] = [set() for _ in range(state.players)]
        self.hashes: list[bytes] = []
        self.steps = 0

    def resolve_table(self) -> bool:
        pending = self.state.pending()
        if isinstance(pending, Deal):
            self.allowed[pending.seat].add(pending.slot)
        elif isinstance(pending, PrivateDelivery):
            assert pending.what == "hacker-attack"
            assert list(pending.slots) == self.state.hands[pending.source]
            self.allowed[pending.target].update(pending.fresh)
            self.allowed[pending.source].update(pending.fresh)
        return super().resolve_table()

    def _push(self, seat: int, action: tuple, knowledge: Knowledge | None = None) -> None:
        if seat != TABLE:
            assert action in self.state.legal_actions(seat, self.seats[seat])
        super()._push(seat, action, knowledge)
        self.after_step()

    def after_step(self) -> None:
        state = self.state
        self.steps += 1
        self.hashes.append(state.hash())
        if not self.truth.cards:  # before the opening shuffle
            return
        where = state.locate(self.truth)
        assert sorted(where) == list(range(44)), f"cards in no place: {set(range(44)) - set(where)}"
        hidden_at = {}
        for seat, hand in enumerate(state.hands):
            for slot in hand:
                hidden_at[slot] = seat
        for seat, knowledge in enumerate(self.seats):
            assert set(knowledge.cards) <= self.allowed[seat], "a seat knows a slot it was never dealt or shown"
            for slot in state.hands[seat]:
                assert knowledge.cards[slot] == self.truth.cards[slot]
            view = state.view(knowledge)
            assert [c for _, c in view["hand"]] == [self.truth.cards[s] for s in state.hands[seat]]
            assert view["hands"] == [len(h) for h in state.hands]
            for other, pairs in view["seen"].items():
                assert other != seat
                for slot, c in pairs:
                    assert slot in self.allowed[seat] and hidden_at[slot] == other
                    assert self.truth.cards[slot] == c
        public_cards = [c for row in state.system + state.discard for c in row]
        if state.in_play >= 0:
            public_cards.append(state.in_play)
        assert all(state.face_up[c] for c in public_cards)
        assert sum(state.face_up) == len(public_cards)


def kinds(cards: Iterable[int]) -> list[int]:
    return [CARD_KIND[c] for c in cards]


class GoneTable(CheckingReferee):
    """A checking referee that also plays the protocol's part for departures, as ``protocol/table.py``
    does: ``forfeit`` at the departure; for a seat declared gone (its card keys are lost with it),
    ``set_aside`` of every undrawn slot it locked, when such a slot is due to be dealt."""

    def __init__(self, state: SystemLaunchState, seed: bytes) -> None:
        super().__init__(state, seed)
        self.gone: set[int] = set()
        #: shuffle rounds as (slots, seats that locked them), like the protocol's card ledger
        self.rounds: list[tuple[tuple[int, ...], frozenset[int]]] = []
        self.dealt: set[int] = set()
        self.asides: list[tuple[int, ...]] = []
        #: everything that changed the state, in order, for a replay: (kind, seat, action or slots)
        self.log: list[tuple[str, int, tuple]] = []

    def _push(self, seat: int, action: tuple, knowledge: Knowledge | None = None) -> None:
        super()._push(seat, action, knowledge)
        self.log.append(("push", seat, action))

    def resolve_table(self) -> bool:
        pending = self.state.pending()
        if isinstance(pending, Chance) and pending.kind is ChanceKind.SECRET_SHUFFLE:
            seats = frozenset(s for s in range(self.state.players) if s not in self.gone)
            self.rounds.append((pending.slots, seats))
        if isinstance(pending, Deal):
            if self.blocked(pending.slot):
                slots = tuple(
                    slot
                    for slots, _ in self.rounds
                    for slot in slots
                    if slot not in self.dealt and self.blocked(slot) and not any(slot in a for a in self.asides)
                )
                self.state.set_aside(slots)
                self.asides.append(slots)
                self.log.append(("aside", TABLE, slots))
                self.after_step()
                return True
            self.dealt.add(pending.slot)
        return super().resolve_table()

    def blocked(self, slot: int) -> bool:
        seats = next(seats for slots, seats in self.rounds if slot in slots)
        return bool(seats & self.gone)

    def depart(self, seat: int, declared_gone: bool) -> None:
        if declared_gone:
            self.gone.add(seat)
        self.state.forfeit(seat)
        self.log.append(("forfeit", seat, ()))
        self.after_step()
