"""The System Launch rules as a :class:`~engines.core.state.GameState`.

The state is *public*: it knows card slots, never the identity of a card that
is still hidden (in the deck, in a hand, or set aside by a seat that left).
Identities enter the state only when a card is shown — built, played as an
event, or discarded — and then they are face up for good, until a reshuffle
turns discards into fresh, unknown slots again.

The game is a small state machine (``stage``) so that ``pending()`` is a field
read, ``clone()`` copies a handful of short lists, and ``public()`` (plain data
for hashing) is built only when someone hashes.  See docs/rules/system-launch-engine.md
for the rules as a player reads them and for every decision taken here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from engines.core.pending import Chance, ChanceKind, Deal, Decision, GameOver, Pending, PrivateDelivery
from engines.core.state import TABLE, Action, GameState, IllegalAction, Knowledge
from engines.system_launch.cards import (
    ANTIVIRUS,
    BUILDABLE,
    CARD_KIND,
    CRASH,
    DECK_SIZE,
    FIREWALL,
    HACKER_ATTACK,
    IS_PART,
    IS_PROTECTION,
    KIND_NAMES,
    PASSWORD,
    PHISHING,
    UPGRADE,
    card_name,
)
from engines.system_launch.options import Options, make_options

# Stages: what the game is doing now.  Plain ints, names only for public() and view().
SHUFFLE, FIRST, DRAW, ACTION, HACK_DELIVER, HACK_TAKE, CRASH_CHOICE, DISCARD, OVER = range(9)
STAGE_NAMES = (
    "shuffle",
    "first-player",
    "draw",
    "action",
    "hacker-delivery",
    "hacker-take",
    "crash",
    "discard",
    "over",
)

# What follows a draw (stage DRAW).
AFTER_DEAL, AFTER_PHASE1, AFTER_ACTION = 0, 1, 2
AFTER_NAMES = ("opening-deal", "phase-1", "phase-2")

#: How many recent events the state keeps for views (a display log; not hashed).
EVENT_LOG = 16

_OPENING = Chance(ChanceKind.SECRET_SHUFFLE, "deck", cards=tuple(range(DECK_SIZE)), slots=tuple(range(DECK_SIZE)))
_ALL_CARDS = tuple(range(DECK_SIZE))


def _is_int(value: object) -> TypeGuard[int]:
    """True for a plain int (never a bool): wire values arrive untyped."""
    return type(value) is int


class SystemLaunchState(GameState):
    """Public state of one game of System Launch for 2–6 seats."""

    game = "system-launch"

    __slots__ = (
        "_pend",
        "active",
        "after",
        "alive",
        "deal_cursor",
        "deck_end",
        "deck_top",
        "discard",
        "draw_seat",
        "events",
        "exhausted",
        "face_up",
        "first",
        "hands",
        "in_play",
        "n",
        "next_slot",
        "opening",
        "opts",
        "out",
        "reason",
        "round",
        "skip",
        "stage",
        "system",
        "target",
        "to_deal",
        "winners",
    )

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        if type(players) is not int or not 2 <= players <= 6:
            raise ValueError(f"System Launch is for 2–6 players, not {players!r}")
        n = players
        self.n = n
        self.opts: Options = make_options(n, options)
        self.stage = SHUFFLE
        self.active = -1
        self.first = -1
        self.round = 0
        #: The deck is always a run of consecutive slots, top first: ``deck_top .. deck_end - 1``
        #: (the opening shuffle and every reshuffle fill fresh consecutive slots, and draws take
        #: the top), so two integers hold it and the hashed state stays small.
        self.deck_top = 0
        self.deck_end = 0
        #: The next never-used slot id (slot ids are never reused).
        self.next_slot = 0
        #: The first slot of the opening deck: 0, or where a re-deal (SL-11) put it.  Lower slots
        #: belong to an abandoned opening, whose cards were all gathered into the re-deal.
        self.opening = 0
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.system: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[list[int]] = [[] for _ in range(n)]
        self.alive = [True] * n
        self.skip = [False] * n
        #: Hand slots of seats that left: face down, out of the game for good.
        self.out: list[int] = []
        #: SL-9: a draw was due and nothing could be drawn; the game ends at the end of this round.
        self.exhausted = False
        self.draw_seat = -1
        self.after = AFTER_DEAL
        #: The target of the event being resolved (-1: none).
        self.target = -1
        #: The event card being resolved: shown, not yet in its player's Discard row (-1: none).
        self.in_play = -1
        self.to_deal = [0] * n
        self.deal_cursor = 0
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        #: face_up[card]: the card is shown (System, Discard or in play); derived, not hashed.
        self.face_up = [False] * DECK_SIZE
        self.events: list[tuple[Any, ...]] = []
        self._pend: Pending | None = None

    # -- contract: reading -------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    @property
    def options(self) -> Options:
        return self.opts

    @property
    def deck(self) -> list[int]:
        """The deck's slots, top first (identities unknown)."""
        return list(range(self.deck_top, self.deck_end))

    def pending(self) -> Pending:
        p = self._pend
        if p is None:
            p = self._pend = self._compute_pending()
        return p

    def _compute_pending(self) -> Pending:  # noqa: C901 (tests/test_complexity.py)
        st = self.stage
        if st == ACTION:
            return Decision(self.active, "action")
        if st == DRAW:
            if self.deck_top < self.deck_end:
                return Deal(self.deck_top, self.draw_seat)
            cards = self._discard_pool()
            return Chance(
                ChanceKind.SECRET_SHUFFLE,
                "reshuffle",
                cards=cards,
                slots=tuple(range(self.next_slot, self.next_slot + len(cards))),
            )
        if st == DISCARD:
            return Decision(self.active, "discard")
        if st == HACK_DELIVER:
            return PrivateDelivery(
                self.target, self.active, tuple(self.hands[self.target]), "hacker-attack", self._fresh_hand()
            )
        if st == HACK_TAKE:
            return Decision(self.active, "hacker-take")
        if st == CRASH_CHOICE:
            return Decision(self.target, "crash")
        if st == SHUFFLE:
            if self.opening == 0:
                return _OPENING
            slots = tuple(range(self.opening, self.opening + DECK_SIZE))
            return Chance(ChanceKind.SECRET_SHUFFLE, "deck", cards=_ALL_CARDS, slots=slots)
        if st == FIRST:
            return Chance(ChanceKind.PUBLIC_SEEDED, "first-player", outcomes=sum(self.alive))
        return GameOver(self.winners, self.reason)

    def _discard_pool(self) -> tuple[int, ...]:
        """The discarded identities in canonical (ascending) order: what a reshuffle shuffles."""
        pool: list[int] = []
        for row in self.discard:
            pool.extend(row)
        pool.sort()
        return tuple(pool)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "players": self.n,
            "options": self.opts.as_dict(),
            "stage": STAGE_NAMES[self.stage],
            "active": self.active,
            "first": self.first,
            "round": self.round,
            "deck": [self.deck_top, self.deck_end],
            "next_slot": self.next_slot,
            "hands": [list(h) for h in self.hands],
            "system": [list(r) for r in self.system],
            "discard": [list(r) for r in self.discard],
            "alive": list(self.alive),
            "skip": list(self.skip),
            "out": list(self.out),
            "exhausted": self.exhausted,
            "draw_seat": self.draw_seat,
            "after": AFTER_NAMES[self.after],
            "target": self.target,
            "in_play": self.in_play,
            "to_deal": list(self.to_deal),
            "deal_cursor": self.deal_cursor,
            "winners": list(self.winners),
            "reason": self.reason,
        }
        if self.opening:  # only after a re-deal (SL-11), so that every other game hashes as before
            out["opening"] = self.opening
        return out

    def clone(self) -> SystemLaunchState:
        new = SystemLaunchState.__new__(SystemLaunchState)
        new.n = self.n
        new.opts = self.opts
        new.stage = self.stage
        new.active = self.active
        new.first = self.first
        new.round = self.round
        new.deck_top = self.deck_top
        new.deck_end = self.deck_end
        new.next_slot = self.next_slot
        new.opening = self.opening
        new.hands = [h[:] for h in self.hands]
        new.system = [r[:] for r in self.system]
        new.discard = [r[:] for r in self.discard]
        new.alive = self.alive[:]
        new.skip = self.skip[:]
        new.out = self.out[:]
        new.exhausted = self.exhausted
        new.draw_seat = self.draw_seat
        new.after = self.after
        new.target = self.target
        new.in_play = self.in_play
        new.to_deal = self.to_deal[:]
        new.deal_cursor = self.deal_cursor
        new.winners = self.winners
        new.reason = self.reason
        new.face_up = self.face_up[:]
        new.events = self.events[-EVENT_LOG:]
        new._pend = self._pend
        return new

    def view(self, knowledge: Knowledge) -> dict[str, Any]:
        """What ``knowledge.seat`` sees; with full knowledge every hand is shown."""
        me = knowledge.seat
        known = knowledge.cards
        seen: dict[int, list[list[int]]] = {}
        for seat, hand in enumerate(self.hands):
            if seat == me:
                continue
            pairs = [[slot, known[slot]] for slot in hand if slot in known]
            if pairs:
                seen[seat] = pairs
        pend = self.pending()
        return {
            "game": self.game,
            "seat": me,
            "players": self.n,
            "options": self.opts.as_dict(),
            "stage": STAGE_NAMES[self.stage],
            "active": self.active,
            "first": self.first,
            "round": self.round,
            "deck": self.deck_end - self.deck_top,
            "hand": [[slot, known.get(slot)] for slot in self.hands[me]] if me is not None else [],
            "hands": [len(h) for h in self.hands],
            "seen": seen,
            "system": [list(r) for r in self.system],
            "discard": [list(r) for r in self.discard],
            "alive": list(self.alive),
            "skip": list(self.skip),
            "out": len(self.out),
            "in_play": self.in_play,
            "target": self.target,
            "exhausted": self.exhausted,
            "pending": describe(pend),
            "events": [list(e) for e in self.events[-EVENT_LOG:]],
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def locate(self, truth: Knowledge) -> dict[int, str]:  # noqa: C901 (tests/test_complexity.py)
        """Where each of the 44 cards is, given full knowledge (audit and tests).

        Raises ``ValueError`` if a card is in two places; a card missing from
        the result is in no place at all.
        """
        where: dict[int, str] = {}
        if self.next_slot == self.opening:  # the opening shuffle (or a re-deal's) has not happened
            return dict.fromkeys(range(DECK_SIZE), "shuffle")

        def put(card: int, place: str) -> None:
            if card in where:
                raise ValueError(f"{card_name(card)} is both in {where[card]} and in {place}")
            where[card] = place

        for slot in range(self.deck_top, self.deck_end):
            put(truth.cards[slot], "deck")
        for seat in range(self.n):
            for slot in self.hands[seat]:
                put(truth.cards[slot], f"hand/{seat}")
            for card in self.system[seat]:
                put(card, f"system/{seat}")
            for card in self.discard[seat]:
                put(card, f"discard/{seat}")
        for slot in self.out:
            put(truth.cards[slot], "out")
        if self.in_play >= 0:
            put(self.in_play, "in-play")
        return where

    # -- contract: legal actions -----------------------------------------------
    def legal_actions(self, seat: int, knowledge: Knowledge) -> list[Action]:  # noqa: C901 (tests/test_complexity.py)
        p = self.pending()
        if type(p) is not Decision or p.seat != seat:
            return []
        st = self.stage
        known = knowledge.cards
        if st == ACTION:
            acts: list[Action] = []
            built = {CARD_KIND[c] for c in self.system[seat]}
            others = [t for t in range(self.n) if t != seat and self.alive[t]]
            for slot in self.hands[seat]:
                card = known.get(slot)
                if card is None:
                    continue
                kind = CARD_KIND[card]
                if BUILDABLE[kind]:
                    if kind not in built:
                        acts.append(("build", slot, card))
                    acts.append(("upgrade", slot, card))
                elif kind == UPGRADE:
                    acts.append(("play", slot, card, seat))
                else:
                    for t in others:
                        acts.append(("play", slot, card, t))
            acts.append(("pass",))
            return acts
        if st == DISCARD:
            return [("discard", slot, known[slot]) for slot in self.hands[seat] if slot in known]
        if st == HACK_TAKE:
            acts = [("take", slot) for slot in self.hands[self.target]]
            acts.append(("take-none",))
            return acts
        if st == CRASH_CHOICE:
            return [("lose", card) for card in self.system[seat] if IS_PART[CARD_KIND[card]]]
        return []

    def shown(self, seat: int, action: Action) -> tuple[tuple[int, int], ...]:
        """Build, play, upgrade and discard show the card they carry: ``((slot, card),)``."""
        if type(action) is tuple and len(action) >= 3 and type(action[0]) is str and action[0] in _SHOWING:
            slot, card = action[1], action[2]
            if _is_int(slot) and _is_int(card):
                return ((slot, card),)
        return ()

    # -- contract: checking ---------------------------------------------------
    def check(self, seat: int, action: Action, knowledge: Knowledge | None = None) -> None:  # noqa: C901 (tests/test_complexity.py)
        if type(action) is not tuple or not action:
            raise IllegalAction("an action is a non-empty tuple")
        st = self.stage
        if st == OVER:
            raise IllegalAction("the game is over")
        verb = action[0]
        if seat == TABLE:
            self._check_table(action)
            return
        p = self.pending()
        if type(p) is not Decision:
            raise IllegalAction(f"no decision is pending: the table must resolve {describe(p)['kind']} first")
        if seat != p.seat:
            raise IllegalAction(f"it is seat {p.seat}'s decision ({p.what}), not seat {seat}'s")
        if st == ACTION:
            if verb == "pass":
                _arity(action, 1)
            elif verb == "build":
                _arity(action, 3)
                kind = self._check_claim(seat, action[1], action[2], knowledge)
                if not BUILDABLE[kind]:
                    raise IllegalAction(f"only Part and Protection cards can be built, not {KIND_NAMES[kind]}")
                for card in self.system[seat]:
                    if CARD_KIND[card] == kind:
                        raise IllegalAction(f"build rule: the System row already holds a {KIND_NAMES[kind]}")
            elif verb == "upgrade":
                _arity(action, 3)
                kind = self._check_claim(seat, action[1], action[2], knowledge)
                if not BUILDABLE[kind]:
                    raise IllegalAction(f"Upgrade discards a Part or Protection card, not {KIND_NAMES[kind]}")
            elif verb == "play":
                _arity(action, 4)
                kind = self._check_claim(seat, action[1], action[2], knowledge)
                if BUILDABLE[kind]:
                    raise IllegalAction(f"only Event cards can be played, not {KIND_NAMES[kind]}")
                target = action[3]
                if not _is_int(target) or not 0 <= target < self.n:
                    raise IllegalAction(f"no seat {target!r} to target")
                if kind == UPGRADE:
                    if target != seat:
                        raise IllegalAction("Upgrade! is played on yourself")
                elif target == seat:
                    raise IllegalAction(f"{KIND_NAMES[kind]} is played against another player")
                elif not self.alive[target]:
                    raise IllegalAction(f"seat {target} has left the game")
            else:
                raise IllegalAction(f"in Phase 2 the actions are build, play, upgrade and pass, not {verb!r}")
        elif st == DISCARD:
            if verb != "discard":
                raise IllegalAction(f"Phase 3: discard down to {self.opts.hand_limit} cards, not {verb!r}")
            _arity(action, 3)
            self._check_claim(seat, action[1], action[2], knowledge)
        elif st == HACK_TAKE:
            if verb == "take-none":
                _arity(action, 1)
            elif verb == "take":
                _arity(action, 2)
                if not _is_int(action[1]) or action[1] not in self.hands[self.target]:
                    raise IllegalAction(f"slot {action[1]!r} is not in seat {self.target}'s hand")
            else:
                raise IllegalAction(f"Hacker Attack: take a card or take none, not {verb!r}")
        elif st == CRASH_CHOICE:
            if verb != "lose":
                raise IllegalAction(f"Crash!: choose a Part of your System to discard, not {verb!r}")
            _arity(action, 2)
            card = action[1]
            if not _is_int(card) or card not in self.system[seat] or not IS_PART[CARD_KIND[card]]:
                raise IllegalAction(f"card {card!r} is not a Part in your System row")
        else:  # pragma: no cover - every Decision stage is handled above
            raise IllegalAction("nothing to decide")

    def _check_claim(self, seat: int, slot: Any, card: Any, knowledge: Knowledge | None) -> int:
        """Check that ``seat`` may show ``card`` from ``slot``; return the card's kind."""
        if not _is_int(slot) or not _is_int(card):
            raise IllegalAction("a shown card is named by an integer slot and an integer card")
        if not 0 <= card < DECK_SIZE:
            raise IllegalAction(f"there is no card {card}")
        if slot not in self.hands[seat]:
            raise IllegalAction(f"slot {slot} is not in seat {seat}'s hand")
        if self.face_up[card]:
            raise IllegalAction(f"{card_name(card)} is already face up on the table")
        if knowledge is not None:
            known = knowledge.cards.get(slot)
            if known is None:
                if knowledge.seat is None or knowledge.seat == seat:
                    raise IllegalAction(f"slot {slot} is not known to this knowledge")
            elif known != card:
                raise IllegalAction(f"slot {slot} does not hold the claimed card")
        return CARD_KIND[card]

    def _check_table(self, action: Action) -> None:
        st = self.stage
        verb = action[0]
        if st == SHUFFLE or (st == DRAW and self.deck_top == self.deck_end):
            if action != ("shuffled",):
                raise IllegalAction("a secret shuffle is pending; the table resolves it with ('shuffled',)")
        elif st == DRAW:
            if verb != "deal" or len(action) != 2 or action[1] != self.deck_top or not _is_int(action[1]):
                raise IllegalAction(f"the pending deal is ('deal', {self.deck_top})")
        elif st == FIRST:
            outcomes = sum(self.alive)
            if verb != "chance" or len(action) != 2 or not _is_int(action[1]) or not 0 <= action[1] < outcomes:
                raise IllegalAction(f"the first player is ('chance', n) with n in 0..{outcomes - 1}")
        elif st == HACK_DELIVER:
            if action != ("delivered",):
                raise IllegalAction("a private delivery is pending; the table resolves it with ('delivered',)")
        else:
            raise IllegalAction(f"a seat must decide now ({STAGE_NAMES[st]}), not the table")

    # -- contract: applying ----------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        verb = action[0]
        handler = _APPLY[verb]
        handler(self, seat, action)
        self._pend = None

    def _do_shuffled(self, seat: int, action: Action) -> None:
        if self.stage == SHUFFLE:
            self.deck_top, self.deck_end = self.opening, self.opening + DECK_SIZE
            self.next_slot = self.deck_end
            self.stage = FIRST
            self._event("shuffled", DECK_SIZE)
            return
        pool = self._discard_pool()
        face_up = self.face_up
        for card in pool:
            face_up[card] = False
        for row in self.discard:
            row.clear()
        start = self.next_slot
        self.next_slot = start + len(pool)
        self.deck_top, self.deck_end = start, self.next_slot
        self._event("reshuffled", len(pool))

    def _do_chance(self, seat: int, action: Action) -> None:
        alive = [s for s in range(self.n) if self.alive[s]]
        self.first = alive[action[1]]
        self._event("first-player", self.first)
        self.to_deal = [self.opts.starting_hand if a else 0 for a in self.alive]
        self.deal_cursor = self.first
        self._next_opening_deal()

    def _do_deal(self, seat: int, action: Action) -> None:
        slot = self.deck_top
        self.deck_top = slot + 1
        self.hands[self.draw_seat].append(slot)
        self._after_draw()

    def _fresh_hand(self) -> tuple[int, ...]:
        """SL-10: the slots the target's hand moves to when it is shown to the attacker.

        Fresh, never-used slots, re-keyed by the target in an order only it and the attacker
        learn: a third seat that once saw the hand (its own earlier Hacker Attack) knows the
        old slots, not these, so the take tells it only that one card changed hands.
        """
        return tuple(range(self.next_slot, self.next_slot + len(self.hands[self.target])))

    def _do_delivered(self, seat: int, action: Action) -> None:
        fresh = self._fresh_hand()
        self.hands[self.target] = list(fresh)
        self.next_slot += len(fresh)
        self.stage = HACK_TAKE

    def _show_from_hand(self, seat: int, action: Action, row: list[int]) -> None:
        """Build, upgrade and discard: the card leaves the hand face up onto one of the seat's rows."""
        verb, slot, card = action
        self.hands[seat].remove(slot)
        row.append(card)
        self.face_up[card] = True
        self._event(verb, seat, card)

    def _do_build(self, seat: int, action: Action) -> None:
        self._show_from_hand(seat, action, self.system[seat])
        self._end_phase2()

    def _do_upgrade(self, seat: int, action: Action) -> None:
        self._show_from_hand(seat, action, self.discard[seat])
        self._begin_draw(seat, AFTER_ACTION)

    def _do_pass(self, seat: int, action: Action) -> None:
        self._event("pass", seat)
        self._end_phase2()

    def _do_play(self, seat: int, action: Action) -> None:
        _, slot, card, target = action
        self.hands[seat].remove(slot)
        self.in_play = card
        self.face_up[card] = True
        kind = CARD_KIND[card]
        self._event("play", seat, card, target)
        if kind == UPGRADE:
            self._begin_draw(seat, AFTER_ACTION)
            return
        self.target = target
        if self._has_kind(target, _PROTECTION_AGAINST[kind]):
            self._event("cancelled", target, _PROTECTION_AGAINST[kind])
            self._end_phase2()
        elif kind == PHISHING:
            self.skip[target] = True
            self._end_phase2()
        elif kind == HACKER_ATTACK:
            if self.hands[target]:
                self.stage = HACK_DELIVER
            else:
                self._event("no-effect", target)
                self._end_phase2()
        else:  # Crash!
            parts = [c for c in self.system[target] if IS_PART[CARD_KIND[c]]]
            if len(parts) > 1:
                self.stage = CRASH_CHOICE
            elif parts:
                self._lose(target, parts[0])
                self._end_phase2()
            else:
                self._event("no-effect", target)
                self._end_phase2()

    def _do_take(self, seat: int, action: Action) -> None:
        slot = action[1]
        self.hands[self.target].remove(slot)
        self.hands[seat].append(slot)
        self._event("take", seat, self.target, slot)
        self._end_phase2()

    def _do_take_none(self, seat: int, action: Action) -> None:
        self._event("take-none", seat, self.target)
        self._end_phase2()

    def _do_lose(self, seat: int, action: Action) -> None:
        self._lose(seat, action[1])
        self._end_phase2()

    def _do_discard(self, seat: int, action: Action) -> None:
        self._show_from_hand(seat, action, self.discard[seat])
        if len(self.hands[seat]) <= self.opts.hand_limit:
            self._end_turn()

    # -- the flow of a game ------------------------------------------------
    def _event(self, *event: Any) -> None:
        events = self.events
        events.append(event)
        if len(events) > 4 * EVENT_LOG:
            del events[:-EVENT_LOG]

    def _has_kind(self, seat: int, kind: int) -> bool:
        return any(CARD_KIND[card] == kind for card in self.system[seat])

    def _lose(self, seat: int, card: int) -> None:
        """Crash!: ``card`` goes from ``seat``'s System row to its Discard row."""
        self.system[seat].remove(card)
        self.discard[seat].append(card)
        self._event("crashed", seat, card)

    def _next_opening_deal(self) -> None:
        """Deal the opening hands one card at a time, clockwise from the first player."""
        n = self.n
        to_deal = self.to_deal
        for i in range(n):
            s = (self.deal_cursor + i) % n
            if to_deal[s] > 0:
                to_deal[s] -= 1
                self.deal_cursor = (s + 1) % n
                self._begin_draw(s, AFTER_DEAL)
                return
        self._event("dealt", self.opts.starting_hand)  # the opening is over: the next draw is a player's own
        self.round = 1
        self._start_turn(self._next_alive(self.first, inclusive=True))

    def _begin_draw(self, seat: int, after: int) -> None:
        """A draw is due (SL-3): from the deck, else after a reshuffle, else no card at all."""
        self.draw_seat = seat
        self.after = after
        if self.deck_top < self.deck_end or any(self.discard):
            self.stage = DRAW
            return
        if not self.exhausted:
            self._event("deck-exhausted", self.round)
        self.exhausted = True
        self._after_draw()

    def _after_draw(self) -> None:
        after = self.after
        self.draw_seat = -1
        if after == AFTER_PHASE1:
            self.stage = ACTION
        elif after == AFTER_ACTION:
            self._end_phase2()
        else:
            self._next_opening_deal()

    def _start_turn(self, seat: int) -> None:
        self.active = seat
        if self.skip[seat]:
            self.skip[seat] = False
            self._event("skipped", seat)
            self._end_turn()
            return
        self._begin_draw(seat, AFTER_PHASE1)

    def _end_phase2(self) -> None:
        """End of the active player's Phase 2: discard the event, check the win (SL-8), go to Phase 3."""
        active = self.active
        if self.in_play >= 0:
            self.discard[active].append(self.in_play)
            self.in_play = -1
        self.target = -1
        parts = protections = 0
        for card in self.system[active]:
            kind = CARD_KIND[card]
            if IS_PART[kind]:
                parts += 1
            elif IS_PROTECTION[kind]:
                protections += 1
        if parts >= self.opts.parts_to_win and protections >= self.opts.protections_to_win:
            self._finish((active,), "system launched")
            self._event("launched", active)
            return
        if len(self.hands[active]) > self.opts.hand_limit:
            self.stage = DISCARD
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Pass the turn clockwise; at the end of a round apply SL-9 and the round limit."""
        prev = self.active
        nxt = self._next_alive(prev, inclusive=False)
        first = self.first
        n = self.n
        if (nxt - first) % n <= (prev - first) % n:
            if self.exhausted:
                self._finish((), "deck exhausted")
                return
            if self.round >= self.opts.round_limit:
                self._finish((), "round limit")
                return
            self.round += 1
        self._start_turn(nxt)

    def _next_alive(self, seat: int, inclusive: bool) -> int:
        n = self.n
        for i in range(0 if inclusive else 1, n + 1):
            s = (seat + i) % n
            if self.alive[s]:
                return s
        raise AssertionError("no seat left")  # pragma: no cover - the game ends with one seat left

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        if self.in_play >= 0:
            self.discard[self.active].append(self.in_play)
            self.in_play = -1
        self.stage = OVER
        self.winners = winners
        self.reason = reason
        self.target = -1
        self.draw_seat = -1

    # -- leaving -----------------------------------------------------------
    def forfeit(self, seat: int) -> None:
        """``seat`` leaves: its hand is set aside face down, its System goes to its Discard row."""
        if not _is_int(seat) or not 0 <= seat < self.n:
            raise IllegalAction(f"no seat {seat!r}")
        if self.stage == OVER:
            raise IllegalAction("the game is over")
        if not self.alive[seat]:
            raise IllegalAction(f"seat {seat} has already left")
        self.alive[seat] = False
        self.out.extend(self.hands[seat])
        self.hands[seat] = []
        self.discard[seat].extend(self.system[seat])
        self.system[seat] = []
        self.skip[seat] = False
        self.to_deal[seat] = 0
        self._event("left", seat)
        self._pend = None
        left = [s for s in range(self.n) if self.alive[s]]
        if len(left) == 1:
            self._finish((left[0],), "last seat standing")
            return
        st = self.stage
        if st == SHUFFLE:
            return  # nothing dealt yet: the opening shuffle is simply run without the seat
        if self._before_first_action():
            self._redeal()
        elif seat == self.active:
            if self.in_play >= 0:
                self.discard[seat].append(self.in_play)
                self.in_play = -1
            self.target = -1
            self.draw_seat = -1
            self._end_turn()
        elif seat == self.target and st in (HACK_DELIVER, HACK_TAKE, CRASH_CHOICE):
            self._event("no-effect", seat)
            self._end_phase2()
        self._pend = None

    def _before_first_action(self) -> bool:
        """Whether the first player has not acted yet: the opening is still under way (SL-11).

        From the shuffled deck through the opening deal to the first player's Phase 1 draw and
        Phase 2 decision; any action of theirs (or what follows it) ends the opening.
        """
        st = self.stage
        if st == FIRST or (st == DRAW and self.after == AFTER_DEAL):
            return True
        if self.round != 1 or self.active != self.first:
            return False
        return st == ACTION or (st == DRAW and self.after == AFTER_PHASE1)

    def _redeal(self) -> None:
        """SL-11: gather every card and deal the opening again among the seats still in.

        Why: the deck was shuffled and locked with the departed seat's keys too; if it was
        declared gone they are lost with it and nothing more could be dealt.  So all 44 cards
        (the departed seat's hand included) go into a fresh secret shuffle, into slots never
        used before, and the first player is drawn again among the remaining seats.  Before
        the first action nothing is face up in a real game; rows are gathered all the same.
        """
        self._event("redeal", sum(self.alive))
        self.stage = SHUFFLE
        self.opening = self.next_slot
        self.deck_top = self.deck_end = self.next_slot
        self.hands = [[] for _ in range(self.n)]
        self.system = [[] for _ in range(self.n)]
        self.discard = [[] for _ in range(self.n)]
        self.face_up = [False] * DECK_SIZE
        self.skip = [False] * self.n
        self.exhausted = False
        self.out = []
        self.first = self.active = self.draw_seat = -1
        self.round = 0
        self.after = AFTER_DEAL
        self.to_deal = [0] * self.n
        self.deal_cursor = 0

    def set_aside(self, slots: tuple[int, ...]) -> None:  # noqa: C901 (tests/test_complexity.py)
        """Cards nobody can open any more go out of play face down (docs/rules/system-launch-engine.md §7).

        Why: a seat declared gone takes its card keys with it, so the slots it
        never unlocked can never be drawn or shown.  Deck slots must be a run at
        the top or the bottom of the deck (the deck is one run of slots, and a
        departed seat blocks a whole shuffle round, which is the whole deck); hand
        slots may be any.  Both go to ``out``, so every card stays in exactly one
        place.  If a draw is due and the deck is now empty, the draw starts again:
        a reshuffle of the Discard rows (SL-3), or no card at all and SL-9.
        Everything is checked before anything changes.
        """
        if type(slots) is not tuple or not slots or not all(_is_int(s) for s in slots):
            raise IllegalAction("set aside a non-empty tuple of integer slots")
        if len(set(slots)) != len(slots):
            raise IllegalAction("a slot is named twice")
        if self.stage == OVER:
            raise IllegalAction("the game is over")
        # Undrawn slots of an opening abandoned by a re-deal (SL-11) are out of play already:
        # their cards were gathered into the re-deal.  The protocol names them with the rest.
        slots = tuple(s for s in slots if not 0 <= s < self.opening)
        if not slots:
            return
        holder = {slot: seat for seat in range(self.n) for slot in self.hands[seat]}
        from_deck = sorted(s for s in slots if self.deck_top <= s < self.deck_end)
        from_hands = [s for s in slots if s in holder]
        stray = [s for s in slots if s not in holder and not self.deck_top <= s < self.deck_end]
        if stray:
            raise IllegalAction(f"slot {stray[0]} is neither in the deck nor in a hand")
        k = len(from_deck)
        at_top = from_deck == list(range(self.deck_top, self.deck_top + k))
        if k and not at_top and from_deck != list(range(self.deck_end - k, self.deck_end)):
            raise IllegalAction("deck slots are set aside as a run from the top or the bottom of the deck")
        if self.stage in (HACK_DELIVER, HACK_TAKE) and any(holder[s] == self.target for s in from_hands):
            raise IllegalAction("a hand being looked at by Hacker Attack! cannot lose cards until it is resolved")
        if k:
            if at_top:
                self.deck_top += k
            else:
                self.deck_end -= k
        for slot in from_hands:
            self.hands[holder[slot]].remove(slot)
        self.out.extend(sorted(slots))
        self._event("set-aside", len(slots))
        self._pend = None
        if self.stage == DRAW and self.deck_top == self.deck_end:
            self._begin_draw(self.draw_seat, self.after)
        elif self.stage == DISCARD and len(self.hands[self.active]) <= self.opts.hand_limit:
            self._end_turn()
        self._pend = None


def _arity(action: Action, size: int) -> None:
    if len(action) != size:
        raise IllegalAction(f"{action[0]!r} takes {size - 1} argument(s), not {len(action) - 1}")


def describe(pending: Pending) -> dict[str, Any]:
    """A pending item as plain data, for views and messages (never holds a hidden identity)."""
    if isinstance(pending, Decision):
        return {"kind": "decision", "seat": pending.seat, "what": pending.what}
    if isinstance(pending, Deal):
        return {"kind": "deal", "seat": pending.seat, "slot": pending.slot}
    if isinstance(pending, Chance):
        return {"kind": "chance", "chance": str(pending.kind), "what": pending.what, "cards": len(pending.cards)}
    if isinstance(pending, PrivateDelivery):
        return {"kind": "delivery", "source": pending.source, "target": pending.target, "what": pending.what}
    if isinstance(pending, GameOver):
        return {"kind": "over", "winners": list(pending.winners), "reason": pending.reason}
    return {"kind": type(pending).__name__}


_PROTECTION_AGAINST = {CRASH: ANTIVIRUS, HACKER_ATTACK: FIREWALL, PHISHING: PASSWORD}
_SHOWING = frozenset({"build", "play", "upgrade", "discard"})
_APPLY = {
    "shuffled": SystemLaunchState._do_shuffled,
    "chance": SystemLaunchState._do_chance,
    "deal": SystemLaunchState._do_deal,
    "delivered": SystemLaunchState._do_delivered,
    "build": SystemLaunchState._do_build,
    "upgrade": SystemLaunchState._do_upgrade,
    "pass": SystemLaunchState._do_pass,
    "play": SystemLaunchState._do_play,
    "take": SystemLaunchState._do_take,
    "take-none": SystemLaunchState._do_take_none,
    "lose": SystemLaunchState._do_lose,
    "discard": SystemLaunchState._do_discard,
}
