"""``MemoryBot``: the System Launch bot that remembers what it has been shown.

It plays like :class:`~.bots.GreedyBot` but keeps a memory built only from
what its seat's person saw, at the moments they saw it:

* its own hand at each of its decisions (so a card later taken from it by a
  Hacker Attack! is still known to be in the taker's hand);
* the target's hand while it chooses what to take after its own Hacker Attack!
  (the private view of SL-5) -- those cards stay known while they stay in that
  hand;
* every card shown face up (System rows, Discard rows, the card in play), and
  so, after a reshuffle, which identities went back into the deck.

It reads its :class:`~engines.core.state.Knowledge` only for its own hand and,
during its Hacker Attack! choice, for the target's hand -- never for anything
else, so extra secrets in a knowledge object cannot change what it does.

How it plays on the memory:

* **Threat** of an opponent = built progress plus the cards it is known to hold
  that would complete its System; the most threatening player is attacked
  first, and a player known to hold a card that wins next turn is stopped.
* **Protection choice**: the Protection against the attack most likely to come
  (attack cards known in opponents' hands, then attack cards not yet seen face
  up) is built first.
* **Crash!** is not wasted on a player known to hold a spare of a built Part.
* **Hacker Attack!** goes to the player known to hold what it needs most.
* Attack cards are **kept** while no opponent is a real threat (they are the
  only answer to a player about to launch), unless the hand is full.
"""

from __future__ import annotations

from engines.core.state import Action, Knowledge

from .bots import _GUARD, GreedyBot, progress
from .cards import (
    ATTACKS,
    CARD_KIND,
    CRASH,
    IS_PART,
    IS_PROTECTION,
    KIND_COUNTS,
    PHISHING,
    PROTECTED_BY,
    UPGRADE,
)
from .state import HACK_TAKE, SystemLaunch

#: Which attack each Protection stops.
_STOPS = {guard: attack for attack, guard in PROTECTED_BY.items()}
#: An attack card is kept unless its target is within this many cards of launching (or the hand is full).
HOLD_MARGIN = 2


class MemoryBot(GreedyBot):
    """A greedy player with a memory of every card it was shown (see the module docstring)."""

    STREAM = "memory"

    def __init__(self, seat: int, seed: bytes = b"") -> None:
        super().__init__(seat, seed)
        #: slot -> card for every hand card it was shown (its own, or seen by its Hacker Attack!).
        self.shown: dict[int, int] = {}
        #: identities seen in Discard rows that a reshuffle has since put back into the deck.
        self.reshuffled: set[int] = set()
        self._discards: set[int] = set()

    # -- memory -----------------------------------------------------------
    def observe(self, state: SystemLaunch, knowledge: Knowledge) -> None:
        super().observe(state, knowledge)
        known = knowledge.cards
        for slot in state.hands[self.seat]:
            if slot in known:
                self.shown[slot] = known[slot]
        if state.stage == HACK_TAKE and state.active == self.seat:
            for slot in state.hands[state.target]:
                if slot in known:
                    self.shown[slot] = known[slot]
        discards = {card for row in state.discard for card in row}
        gone = self._discards - discards
        if gone:  # a reshuffle: what lay in the Discard rows is in the deck now
            face_up = {card for row in state.system for card in row}
            self.reshuffled |= gone - face_up
        self.reshuffled -= discards
        self._discards = discards
        held = {slot for hand in state.hands for slot in hand}
        for slot in [s for s in self.shown if s not in held]:
            del self.shown[slot]  # shown, discarded or reshuffled: no longer a hand card

    def held_by(self, state: SystemLaunch, seat: int) -> list[int]:
        """The cards ``seat`` is known (from this bot's memory) to hold."""
        return [self.shown[slot] for slot in state.hands[seat] if slot in self.shown]

    def unseen(self, state: SystemLaunch) -> list[int]:
        """Per kind, how many cards are neither face up nor known to be in some hand."""
        counts = list(KIND_COUNTS)
        seen: set[int] = {card for row in state.system for card in row}
        seen.update(card for row in state.discard for card in row)
        if state.in_play >= 0:
            seen.add(state.in_play)
        for seat in range(state.n):
            seen.update(self.held_by(state, seat))
        for card in seen:
            counts[CARD_KIND[card]] -= 1
        return counts

    def threat(self, state: SystemLaunch, seat: int) -> int:
        """Built progress, plus one if ``seat`` is known to hold a card that adds to it."""
        built = {CARD_KIND[c] for c in state.system[seat]}
        parts = sum(1 for k in built if IS_PART[k])
        protections = len(built) - parts
        opts = state.opts
        for kind in {CARD_KIND[c] for c in self.held_by(state, seat)} - built:
            if (IS_PART[kind] and parts < opts.parts_to_win) or (
                IS_PROTECTION[kind] and protections < opts.protections_to_win
            ):
                return progress(state, seat) + 1
        return progress(state, seat)

    # -- decisions --------------------------------------------------------
    def _act(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action], seat: int) -> Action:
        opts = state.opts
        need = opts.parts_to_win + opts.protections_to_win
        built = [CARD_KIND[c] for c in state.system[seat]]
        parts = sum(1 for k in built if IS_PART[k])
        protections = len(built) - parts
        mine = progress(state, seat)
        others = [t for t in range(state.n) if t != seat and state.alive[t]]
        threats = {t: self.threat(state, t) for t in others}
        top = max(threats.values(), default=0)
        unseen = self.unseen(state)
        danger = {attack: unseen[attack] for attack in ATTACKS}
        for t in others:
            for card in self.held_by(state, t):
                if CARD_KIND[card] in danger:
                    danger[CARD_KIND[card]] += 3
        for card in self.reshuffled:  # known to be back in the deck: someone will draw it
            if CARD_KIND[card] in danger:
                danger[CARD_KIND[card]] += 1
        my_kinds = [CARD_KIND[self.shown[s]] for s in state.hands[seat] if s in self.shown]
        hand_full = len(state.hands[seat]) >= opts.hand_limit
        scored: list[tuple[int, Action]] = [(0, ("pass",))]
        for action in legal:
            verb = action[0]
            score = 0
            if verb == "build":
                kind = CARD_KIND[action[2]]
                if IS_PART[kind]:
                    score = 100 if parts < opts.parts_to_win else 30
                else:
                    score = (95 if protections < opts.protections_to_win else 35) + danger[_STOPS[kind]]
                if mine + 1 >= need and ((IS_PART[kind] and parts < opts.parts_to_win) or protections == 0):
                    score = 1000  # it launches now
            elif verb == "play":
                kind = CARD_KIND[action[2]]
                target = action[3]
                if kind == UPGRADE:
                    score = 25 if hand_full else 10
                elif state._has_kind(target, _GUARD[kind]) or (kind == PHISHING and self.locked_out(state, target)):
                    score = 0
                else:
                    lead = threats[target]
                    held = [CARD_KIND[c] for c in self.held_by(state, target)]
                    if kind == CRASH:
                        target_parts = [CARD_KIND[c] for c in state.system[target] if IS_PART[CARD_KIND[c]]]
                        spare = any(k in held for k in target_parts)
                        score = 0 if not target_parts else (40 + 20 * lead) // (3 if spare else 1)
                    elif kind == PHISHING:
                        score = 30 + 15 * lead
                    else:  # Hacker Attack: a known card we need is worth the most
                        wanted = sum(1 for k in held if (IS_PART[k] or IS_PROTECTION[k]) and k not in built)
                        score = 20 + 8 * len(state.hands[target]) + 5 * lead + 25 * wanted
                    if progress(state, target) + 1 >= need:
                        score += 200
                    elif lead + 1 >= need:
                        score += 100
                    elif lead == top:
                        score += 10
                    if lead + HOLD_MARGIN < need and not hand_full:
                        score = 0  # keep it for the player about to launch
            elif verb == "upgrade":
                worth = self._worth(state, seat, action[2], my_kinds)
                score = 20 if worth <= 1 else (8 if worth <= 6 else 0)
            if score > 0:
                scored.append((score, action))
        return self.pick(scored)

    def _lose(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        # Lose a Part we can rebuild from hand; else the one the deck is most likely to give back.
        mine = {CARD_KIND[self.shown[s]] for s in state.hands[self.seat] if s in self.shown}
        unseen = self.unseen(state)
        return self.pick([(100 * (CARD_KIND[a[1]] in mine) + unseen[CARD_KIND[a[1]]], a) for a in legal])
