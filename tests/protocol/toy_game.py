"""A tiny game that exercises every pending kind, so the protocol is proven generic.

Twelve numbered cards.  The first player comes from public-seeded chance, the deck
is shuffled secretly, two cards are dealt to every seat, then each seat in turn
either plays a card face up (a shown card), draws (a deal), seals a bit (a sealed
value, opened with a RevealOwed at the start of the seat's next turn), peeks at
another seat's hand (a private delivery) or rolls a die (interactive chance).
Highest score after ``rounds`` rounds wins.  The one rule that depends on a secret
(a sealed value must be 0 or 1) is checked with knowledge, so a breach is caught by
the end-of-game audit even if the value is never revealed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import (
    TABLE,
    Action,
    Chance,
    ChanceKind,
    Deal,
    Decision,
    GameOver,
    GameSpec,
    GameState,
    IllegalAction,
    Knowledge,
    Pending,
    PrivateDelivery,
    Publication,
    RandomBot,
    RevealOwed,
    register,
)

CARDS = 12


class ToyState(GameState):
    game = "toy"

    def __init__(self, players: int, rounds: int = 2) -> None:
        self.n = players
        self.phase = "first"
        self.turn = 0
        self.turns_left = rounds * players
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.played: list[tuple[int, int, int]] = []
        self.scores = [0] * players
        self.active = [True] * players
        self.open_seal: dict[int, int] = {}
        self.next_id = 0
        self.deal_queue: list[tuple[int, int]] = []
        self.reveal_due: tuple[int, int] | None = None
        self.delivery: tuple[int, int, tuple[int, ...]] | None = None
        self.rolling = False
        self.drawing: tuple[int, int] | None = None

    @property
    def players(self) -> int:
        return self.n

    # -- reading -------------------------------------------------------------
    def pending(self) -> Pending:
        if self.phase == "first":
            return Chance(ChanceKind.PUBLIC_SEEDED, "first player", outcomes=self.n)
        if self.phase == "shuffle":
            return Chance(ChanceKind.SECRET_SHUFFLE, "shuffle", cards=tuple(range(CARDS)), slots=tuple(range(CARDS)))
        if self.phase == "deal":
            slot, seat = self.deal_queue[0]
            return Deal(slot, seat)
        if self.phase == "over":
            live = [s for s in range(self.n) if self.active[s]]
            best = max(self.scores[s] for s in live)
            winners = tuple(s for s in live if self.scores[s] == best)
            return GameOver(winners, "highest score")
        if self.delivery is not None:
            source, target, slots = self.delivery
            return PrivateDelivery(source, target, slots, "peek")
        if self.rolling:
            return Chance(ChanceKind.INTERACTIVE, "die", outcomes=6)
        if self.drawing is not None:
            slot, seat = self.drawing
            return Deal(slot, seat)
        if self.reveal_due is not None:
            seat, secret = self.reveal_due
            return RevealOwed(seat, secret, "sealed bit")
        return Decision(self.turn, "turn")

    def legal_actions(self, seat: int, knowledge: Knowledge) -> list[Action]:
        p = self.pending()
        if not isinstance(p, Decision) or p.seat != seat:
            return []
        acts: list[Action] = [("pass",), ("roll",)]
        acts += [("play", slot, knowledge.cards[slot]) for slot in self.hands[seat] if slot in knowledge.cards]
        if self.deck:
            acts.append(("draw",))
        if seat not in self.open_seal:
            acts += [("seal", 0), ("seal", 1)]
        acts += [("peek", t) for t in range(self.n) if t != seat and self.active[t] and self.hands[t]]
        return acts

    def publish(self, seat: int, action: Action, knowledge: Knowledge) -> Publication:
        if action[0] == "seal":
            return Publication(("seal", self.next_id), {self.next_id: action[1]})
        return Publication(action, {})

    def shown(self, seat: int, action: Action) -> tuple[tuple[int, int], ...]:
        if action[0] == "play" and len(action) == 3:
            return ((action[1], action[2]),)
        return ()

    # -- checking ------------------------------------------------------------
    def check(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:
        p = self.pending()
        verb = action[0] if action else None
        if seat == TABLE:
            self._check_table(p, action)
            return
        if isinstance(p, RevealOwed):
            if p.seat != seat or action[:2] != ("reveal", p.secret) or len(action) != 3:
                raise IllegalAction("a reveal is owed")
            if action[2] not in (0, 1):
                raise IllegalAction("a sealed bit is 0 or 1")
            return
        if not isinstance(p, Decision) or p.seat != seat:
            raise IllegalAction(f"seat {seat} may not act now")
        if verb == "play" and len(action) == 3:
            slot, card = action[1], action[2]
            if slot not in self.hands[seat]:
                raise IllegalAction("that card is not in your hand")
            if type(card) is not int or not 0 <= card < CARDS or card in {c for _, _, c in self.played}:
                raise IllegalAction("no such card")
            if knowledge is not None and slot in knowledge.cards and knowledge.cards[slot] != card:
                raise IllegalAction("the card in that slot is another one")
        elif verb == "seal" and len(action) == 2:
            if action[1] != self.next_id or seat in self.open_seal:
                raise IllegalAction("cannot seal now")
            if knowledge is not None and action[1] in knowledge.sealed and knowledge.sealed[action[1]] not in (0, 1):
                raise IllegalAction("a sealed bit is 0 or 1")
        elif verb == "peek" and len(action) == 2:
            t = action[1]
            if type(t) is not int or not 0 <= t < self.n or t == seat or not self.active[t] or not self.hands[t]:
                raise IllegalAction("cannot peek at that seat")
        elif verb == "draw" and len(action) == 1:
            if not self.deck:
                raise IllegalAction("the deck is empty")
        elif action not in (("pass",), ("roll",)):
            raise IllegalAction(f"unknown action {verb!r}")

    def _check_table(self, p: Pending, action: Action) -> None:
        if isinstance(p, Chance) and p.kind is not ChanceKind.SECRET_SHUFFLE:
            if (
                len(action) != 2
                or action[0] != "chance"
                or type(action[1]) is not int
                or not 0 <= action[1] < p.outcomes
            ):
                raise IllegalAction("a chance outcome is expected")
        elif isinstance(p, Chance):
            if action != ("shuffled",):
                raise IllegalAction("a shuffle is expected")
        elif isinstance(p, Deal):
            if action != ("deal", p.slot):
                raise IllegalAction("a deal is expected")
        elif isinstance(p, PrivateDelivery):
            if action != ("delivered",):
                raise IllegalAction("a delivery is expected")
        else:
            raise IllegalAction("the table has nothing to resolve")

    # -- applying ------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        verb = action[0]
        if seat == TABLE:
            if verb == "chance" and self.phase == "first":
                self.turn = action[1]
                self.phase = "shuffle"
            elif verb == "shuffled":
                self.phase = "deal"
                order = [(self.turn + i) % self.n for i in range(self.n)]
                self.deal_queue = [(k, order[k % self.n]) for k in range(2 * self.n)]
                self.deck = list(range(2 * self.n, CARDS))
                self._skip_dead_deals()
            elif verb == "deal" and self.phase == "deal":
                slot, target = self.deal_queue.pop(0)
                self.hands[target].append(slot)
                self._skip_dead_deals()
            elif verb == "deal":
                slot, target = self.drawing  # type: ignore[misc]
                self.hands[target].append(slot)
                self.drawing = None
                self._end_turn()
            elif verb == "delivered":
                self.delivery = None
                self._end_turn()
            elif verb == "chance":
                self.scores[self.turn] += action[1] + 1
                self.rolling = False
                self._end_turn()
            return
        if verb == "reveal":
            self.scores[seat] += 5 * action[2]
            del self.open_seal[seat]
            self.reveal_due = None
        elif verb == "play":
            self.hands[seat].remove(action[1])
            self.played.append((seat, action[1], action[2]))
            self.scores[seat] += action[2]
            self._end_turn()
        elif verb == "seal":
            self.open_seal[seat] = action[1]
            self.next_id += 1
            self._end_turn()
        elif verb == "peek":
            self.delivery = (action[1], seat, tuple(self.hands[action[1]]))
        elif verb == "roll":
            self.rolling = True
        elif verb == "draw":
            self.drawing = (self.deck.pop(0), seat)
        else:
            self._end_turn()

    def _skip_dead_deals(self) -> None:
        self.deal_queue = [(slot, s) for slot, s in self.deal_queue if self.active[s]]
        if not self.deal_queue:
            self.phase = "play"
            if not self.active[self.turn]:
                self.turn = next(
                    (self.turn + s) % self.n for s in range(self.n) if self.active[(self.turn + s) % self.n]
                )
            self._start_turn()

    def _end_turn(self) -> None:
        self.turns_left -= 1
        live = [s for s in range(self.n) if self.active[s]]
        if self.turns_left <= 0 or len(live) <= 1:
            self.phase = "over"
            return
        self.turn = next(
            (self.turn + i) % self.n for i in range(1, self.n + 1) if self.active[(self.turn + i) % self.n]
        )
        self._start_turn()

    def _start_turn(self) -> None:
        if self.turn in self.open_seal:
            self.reveal_due = (self.turn, self.open_seal[self.turn])

    def forfeit(self, seat: int) -> None:
        if not self.active[seat] or self.phase == "over":
            return
        self.active[seat] = False
        if self.phase in ("first", "shuffle"):
            if sum(self.active) <= 1:
                self.phase = "over"
            return
        if self.phase == "deal":
            if sum(self.active) <= 1:
                self.phase = "over"
                return
            self._skip_dead_deals()
            return
        if self.delivery is not None and seat in self.delivery[:2]:
            self.delivery = None
        if self.drawing is not None and self.drawing[1] == seat:
            self.drawing = None
        if self.reveal_due is not None and self.reveal_due[0] == seat:
            self.reveal_due = None
        if self.turn == seat or sum(self.active) <= 1:
            self.rolling = False
            self.drawing = None
            self.delivery = None
            self._end_turn()

    def public(self) -> Any:
        return {
            "n": self.n,
            "phase": self.phase,
            "turn": self.turn,
            "turns_left": self.turns_left,
            "deck": self.deck,
            "hands": self.hands,
            "played": self.played,
            "scores": self.scores,
            "active": self.active,
            "open_seal": self.open_seal,
            "next_id": self.next_id,
            "deal_queue": self.deal_queue,
            "reveal_due": self.reveal_due,
            "delivery": self.delivery,
            "rolling": self.rolling,
            "drawing": self.drawing,
        }

    def view(self, knowledge: Knowledge) -> dict[str, Any]:
        return {"public": self.public(), "cards": dict(knowledge.cards)}

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        for name, value in self.__dict__.items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            elif isinstance(value, dict):
                value = dict(value)
            setattr(other, name, value)
        return other


def new_state(players: int, options: Mapping[str, Any]) -> ToyState:
    return ToyState(players, int(options.get("rounds", 2)))


SPEC = GameSpec("toy", "Toy (protocol tests)", 2, 6, new_state, bots={"random": RandomBot})
register(SPEC)
