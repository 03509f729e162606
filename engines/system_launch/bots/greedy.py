"""Bots for System Launch: one scoring of the actions, fed by what the bot remembers.

A bot sees exactly what its seat's person sees: the public state (which holds
no hidden identity) and its own :class:`~engines.core.state.Knowledge`.

Both levels score their actions with the same code (:meth:`GreedyBot._act`);
what differs is the :class:`Recall` they feed it.  ``GreedyBot`` remembers
nothing: at each decision it knows its own hand and the table as they are now.
``MemoryBot`` (:mod:`.memory`) keeps what it has been shown and also looks ahead
on it.  The scoring builds what the System lacks (the Protection against the
attacks most likely to come first), keeps its attack cards for a player close
to launching and then attacks the most threatening player with the event that
player is not protected against, steals with Hacker Attack! what it needs most,
and throws away what it cannot use.

Ties -- between targets as much as between equal actions -- are broken by the
bot's own seeded stream (:class:`~engines.core.seeded.SeededStream`), never by
seat number or by the order of the legal actions: a lowest-seat rule made every
bot gang up on seat 0, the seat a person takes in a local game.  The same seed
gives the same choices, so games stay reproducible.

No bot locks a player out: Phishing! does not stack (SL-6), so it is never
played on a player already due to skip, nor on one this bot has seen skipping
(or made to skip) within the last :data:`LOCKOUT_ROUNDS` rounds.  Without that,
one Phishing! cycling through a tiny discard pile kept the leader from playing
for some 190 rounds.  The bot learns this only from the public state at its own
decisions (the skip flags everyone sees) and from its own plays.
"""

from __future__ import annotations

from collections.abc import Collection

from engines.core.seeded import SeededStream
from engines.core.state import Action, GameState, Knowledge
from engines.system_launch.cards import (
    ANTIVIRUS,
    ATTACKS,
    CARD_KIND,
    CRASH,
    FIREWALL,
    HACKER_ATTACK,
    IS_PART,
    IS_PROTECTION,
    KIND_COUNTS,
    PASSWORD,
    PHISHING,
    PROTECTED_BY,
    UPGRADE,
)
from engines.system_launch.options import Options
from engines.system_launch.state import HACK_TAKE, SystemLaunchState

_GUARD = {CRASH: ANTIVIRUS, HACKER_ATTACK: FIREWALL, PHISHING: PASSWORD}
#: Which attack each Protection stops.
_STOPS = {guard: attack for attack, guard in PROTECTED_BY.items()}

#: A player seen skipping a turn is not made to skip again for this many rounds.
LOCKOUT_ROUNDS = 3
#: An attack card is kept unless its target is within this many cards of launching (or the hand is full).
HOLD_MARGIN = 2


def progress(state: SystemLaunchState, seat: int) -> int:
    """How close ``seat`` is to a win: distinct Parts (capped) plus Protections (capped)."""
    opts = state.opts
    parts = protections = 0
    for card in state.system[seat]:
        kind = CARD_KIND[card]
        if IS_PART[kind]:
            parts += 1
        elif IS_PROTECTION[kind]:
            protections += 1
    return min(parts, opts.parts_to_win) + min(protections, opts.protections_to_win)


def card_worth(kind: int, built: Collection[int], opts: Options, duplicate: bool) -> int:
    """What a card of ``kind`` is worth keeping to a player whose System row holds the kinds ``built``.

    ``duplicate``: another card of that kind is in the same hand, so this one is the spare.  The
    hand reading (:mod:`.reading`) reads discards by these same worths, so they live in one place.
    """
    if IS_PART[kind] or IS_PROTECTION[kind]:
        if kind in built:
            return 1  # cannot be built: junk, unless the built one is crashed
        if IS_PART[kind]:
            parts = sum(1 for k in built if IS_PART[k])
            value = 10 if parts < opts.parts_to_win else 4
        else:
            protections = sum(1 for k in built if IS_PROTECTION[k])
            value = 9 if protections < opts.protections_to_win else 5
        return value - 4 if duplicate else value
    if kind == CRASH:
        return 7
    if kind == UPGRADE:
        return 4
    return 6


class Recall:
    """What one seat knows of the hands: the cards it was shown, kept only by a remembering bot.

    Built only from what the seat's person saw, at the moments they saw it: its
    own hand at each of its decisions, the target's hand while it chooses what to
    take after its own Hacker Attack! (the private view of SL-5), and the card
    someone took from its hand (the take is public, the card was its own).  The
    knowledge object is read for nothing else, so secrets a knowledge object
    should not hold cannot change a choice.  A card stays known while it stays in
    the same hand slot (SL-10 moves a looked-at hand to fresh slots).
    """

    def __init__(self, seat: int, remember: bool) -> None:
        self.seat = seat
        self.remember = remember
        #: slot -> card for every hand card this seat knows.
        self.shown: dict[int, int] = {}
        #: identities seen in Discard rows that a reshuffle has since put back into the deck.
        self.reshuffled: set[int] = set()
        self._discards: set[int] = set()

    def observe(self, state: SystemLaunchState, knowledge: Knowledge) -> None:  # noqa: C901 (tests/test_complexity.py)
        me = self.seat
        known = knowledge.cards
        if not self.remember:
            self.shown = {}
        for slot in state.hands[me]:
            if slot in known:
                self.shown[slot] = known[slot]
        if state.stage == HACK_TAKE and state.active == me:
            for slot in state.hands[state.target]:
                if slot in known:
                    self.shown[slot] = known[slot]
        if not self.remember:
            return
        for event in state.events:  # a card taken from this hand: its slot is public, the card was its own
            if event[0] == "take" and event[2] == me and event[3] in known:
                self.shown.setdefault(event[3], known[event[3]])
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

    def held_by(self, state: SystemLaunchState, seat: int) -> list[int]:
        """The cards ``seat`` is known to hold."""
        return [self.shown[slot] for slot in state.hands[seat] if slot in self.shown]

    def unseen(self, state: SystemLaunchState) -> list[int]:
        """Per kind, how many cards are neither face up nor known to be in some hand."""
        counts = list(KIND_COUNTS)
        for card in self.unseen_cards(state, invert=True):
            counts[CARD_KIND[card]] -= 1
        return counts

    def unseen_cards(self, state: SystemLaunchState, invert: bool = False) -> list[int]:
        """The identities not face up and not known in a hand (``invert``: the ones that are)."""
        seen = [False] * len(CARD_KIND)
        for row in state.system:
            for card in row:
                seen[card] = True
        for row in state.discard:
            for card in row:
                seen[card] = True
        if state.in_play >= 0:
            seen[state.in_play] = True
        for hand in state.hands:
            for slot in hand:
                if slot in self.shown:
                    seen[self.shown[slot]] = True
        return [card for card, s in enumerate(seen) if s == invert]


class GreedyBot:
    """The one-ply scoring player (see the module docstring); it remembers nothing."""

    #: Names the bot's seeded stream, so that two kinds of bot at one seed draw differently.
    STREAM = "greedy"
    #: Whether the bot keeps the cards it was shown from one decision to the next.
    REMEMBERS = False

    def __init__(self, seat: int, seed: bytes = b"") -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"system-launch-bot/{self.STREAM}/{seat}")
        self.recall = Recall(seat, self.REMEMBERS)
        #: seat -> the latest round in which this bot saw it due to skip (or made it so).
        self.skipped_round: dict[int, int] = {}

    def pick(self, scored: list[tuple[int, Action]]) -> Action:
        """The action with the highest score; a tie is broken by the seeded stream."""
        top = max(score for score, _ in scored)
        best = [action for score, action in scored if score == top]
        return best[0] if len(best) == 1 else best[self.rng.below(len(best))]

    def observe(self, state: SystemLaunchState, knowledge: Knowledge) -> None:
        """Note what this decision shows: who is due to skip, and the hands (see :class:`Recall`)."""
        for t in range(state.n):
            if state.skip[t]:
                self.skipped_round[t] = state.round
        self.recall.observe(state, knowledge)

    def locked_out(self, state: SystemLaunchState, target: int) -> bool:
        """True if making ``target`` skip now would keep it from playing (see the module docstring)."""
        if state.skip[target]:
            return True
        seen = self.skipped_round.get(target)
        return seen is not None and state.round - seen <= LOCKOUT_ROUNDS

    def held_kinds(self, state: SystemLaunchState, seat: int) -> list[int]:
        return [CARD_KIND[c] for c in self.recall.held_by(state, seat)]

    def threat(self, state: SystemLaunchState, seat: int) -> int:
        """Built progress, plus one if ``seat`` is known to hold a card that adds to it."""
        built = {CARD_KIND[c] for c in state.system[seat]}
        parts = sum(1 for k in built if IS_PART[k])
        protections = len(built) - parts
        opts = state.opts
        for kind in set(self.held_kinds(state, seat)) - built:
            if (IS_PART[kind] and parts < opts.parts_to_win) or (
                IS_PROTECTION[kind] and protections < opts.protections_to_win
            ):
                return progress(state, seat) + 1
        return progress(state, seat)

    # -- how much a card in hand is worth keeping ------------------------------
    def _worth(self, state: SystemLaunchState, seat: int, card: int, hand_kinds: list[int]) -> int:
        kind = CARD_KIND[card]
        return card_worth(kind, [CARD_KIND[c] for c in state.system[seat]], state.opts, hand_kinds.count(kind) > 1)

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        assert isinstance(state, SystemLaunchState)  # the registry pairs this bot with this game only
        self.observe(state, knowledge)
        if len(legal) == 1:
            return legal[0]
        verb = legal[0][0]
        if verb == "discard":
            action = self._discard(state, legal)
        elif verb in ("take", "take-none"):
            action = self._take(state, legal)
        elif verb == "lose":
            action = self._lose(state, legal)
        else:
            action = self._act(state, legal)
        if action[0] == "play" and CARD_KIND[action[2]] == PHISHING:
            self.skipped_round[action[3]] = state.round
        return action

    def _discard(self, state: SystemLaunchState, legal: list[Action]) -> Action:
        kinds = self.held_kinds(state, self.seat)
        return self.pick([(-self._worth(state, self.seat, a[2], kinds), a) for a in legal])

    def take_scores(self, state: SystemLaunchState, legal: list[Action]) -> list[tuple[int, Action]]:
        """Hacker Attack!: each card of the target's hand by its worth to this bot; none is worth 0."""
        kinds = self.held_kinds(state, self.seat)
        known = self.recall.shown
        scored: list[tuple[int, Action]] = []
        for action in legal:
            if action[0] != "take":
                scored.append((0, action))
            elif action[1] in known:
                card = known[action[1]]
                scored.append((self._worth(state, self.seat, card, [*kinds, CARD_KIND[card]]), action))
        return scored

    def _take(self, state: SystemLaunchState, legal: list[Action]) -> Action:
        return self.pick(self.take_scores(state, legal))

    def _lose(self, state: SystemLaunchState, legal: list[Action]) -> Action:
        # Lose a Part we can rebuild from hand; else the one the deck is most likely to give back.
        mine = set(self.held_kinds(state, self.seat))
        unseen = self.recall.unseen(state)
        return self.pick([(100 * (CARD_KIND[a[1]] in mine) + unseen[CARD_KIND[a[1]]], a) for a in legal])

    def act_scores(self, state: SystemLaunchState, legal: list[Action]) -> list[tuple[int, Action]]:  # noqa: C901 (tests/test_complexity.py)
        """Phase 2: every worthwhile action with its score (pass scores 0), in the order of ``legal``."""
        seat = self.seat
        opts = state.opts
        need = opts.parts_to_win + opts.protections_to_win
        built = [CARD_KIND[c] for c in state.system[seat]]
        parts = sum(1 for k in built if IS_PART[k])
        protections = len(built) - parts
        mine = progress(state, seat)
        hand_full = len(state.hands[seat]) >= opts.hand_limit
        # Computed once, and only when an action needs them (rollouts score thousands of positions).
        threats: dict[int, int] = {}
        danger: dict[int, int] = {}
        my_kinds: list[int] | None = None

        def threat_of(target: int) -> int:
            if not threats:
                for t in range(state.n):
                    if t != seat and state.alive[t]:
                        threats[t] = self.threat(state, t)
            return threats[target]

        def danger_of(attack: int) -> int:
            if not danger:
                unseen = self.recall.unseen(state)
                danger.update({a: unseen[a] for a in ATTACKS})
                for t in range(state.n):
                    if t != seat and state.alive[t]:
                        for kind in self.held_kinds(state, t):
                            if kind in danger:
                                danger[kind] += 3
                for card in self.recall.reshuffled:  # known to be back in the deck: someone will draw it
                    if CARD_KIND[card] in danger:
                        danger[CARD_KIND[card]] += 1
            return danger[attack]

        scored: list[tuple[int, Action]] = [(0, ("pass",))]
        for action in legal:
            verb = action[0]
            score = 0
            if verb == "build":
                kind = CARD_KIND[action[2]]
                if IS_PART[kind]:
                    score = 100 if parts < opts.parts_to_win else 30
                else:
                    score = (95 if protections < opts.protections_to_win else 35) + danger_of(_STOPS[kind])
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
                    lead = threat_of(target)
                    held = self.held_kinds(state, target)
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
                    elif lead == max(threats.values()):
                        score += 10
                    if lead + HOLD_MARGIN < need and not hand_full:
                        score = 0  # keep it for the player about to launch
            elif verb == "upgrade":
                if my_kinds is None:
                    my_kinds = self.held_kinds(state, seat)
                worth = self._worth(state, seat, action[2], my_kinds)
                score = 20 if worth <= 1 else (8 if worth <= 6 else 0)
            if score > 0:
                scored.append((score, action))
        return scored

    def _act(self, state: SystemLaunchState, legal: list[Action]) -> Action:
        return self.pick(self.act_scores(state, legal))
