"""Bots for System Launch.

A bot sees exactly what its seat's person sees: the public state (which holds
no hidden identity) and its own :class:`~engines.core.state.Knowledge`.

``GreedyBot`` is a one-ply heuristic, cheap enough for fast self-play: it
builds what its System lacks, keeps a protection, attacks the player closest
to winning with the event that player is not protected against, and throws away
what it cannot use.  Ties -- between targets as much as between equal actions --
are broken by the bot's own seeded stream (:class:`~engines.core.seeded.SeededStream`),
never by seat number or by the order of the legal actions: a lowest-seat rule
made every bot gang up on seat 0, the seat a person takes in a local game.  The
same seed gives the same choices, so games stay reproducible.

No bot locks a player out: Phishing! does not stack (SL-6), so it is never
played on a player already due to skip, nor on one this bot has seen skipping
(or made to skip) within the last :data:`LOCKOUT_ROUNDS` rounds.  Without that,
one Phishing! cycling through a tiny discard pile kept the leader from playing
for some 190 rounds.  The bot learns this only from the public state at its own
decisions (the skip flags everyone sees) and from its own plays.

``MemoryBot`` (:mod:`.memory`) builds on this one and remembers the cards it
has been shown.
"""

from __future__ import annotations

from engines.core.seeded import SeededStream
from engines.core.state import Action, GameState, Knowledge

from .cards import (
    ANTIVIRUS,
    CARD_KIND,
    CRASH,
    FIREWALL,
    HACKER_ATTACK,
    IS_PART,
    IS_PROTECTION,
    PASSWORD,
    PHISHING,
    UPGRADE,
)
from .state import SystemLaunch

_GUARD = {CRASH: ANTIVIRUS, HACKER_ATTACK: FIREWALL, PHISHING: PASSWORD}

#: A player seen skipping a turn is not made to skip again for this many rounds.
LOCKOUT_ROUNDS = 3


def progress(state: SystemLaunch, seat: int) -> int:
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


class GreedyBot:
    """A sensible heuristic player (see the module docstring)."""

    #: Names the bot's seeded stream, so that two kinds of bot at one seed draw differently.
    STREAM = "greedy"

    def __init__(self, seat: int, seed: bytes = b"") -> None:
        self.seat = seat
        self.rng = SeededStream(seed, f"system-launch-bot/{self.STREAM}/{seat}")
        #: seat -> the latest round in which this bot saw it due to skip (or made it so).
        self.skipped_round: dict[int, int] = {}

    def pick(self, scored: list[tuple[int, Action]]) -> Action:
        """The action with the highest score; a tie is broken by the seeded stream."""
        top = max(score for score, _ in scored)
        best = [action for score, action in scored if score == top]
        return best[0] if len(best) == 1 else best[self.rng.below(len(best))]

    def observe(self, state: SystemLaunch, knowledge: Knowledge) -> None:
        """Note what the public state shows at this decision (who is due to skip)."""
        for t in range(state.n):
            if state.skip[t]:
                self.skipped_round[t] = state.round

    def locked_out(self, state: SystemLaunch, target: int) -> bool:
        """True if making ``target`` skip now would keep it from playing (see the module docstring)."""
        if state.skip[target]:
            return True
        seen = self.skipped_round.get(target)
        return seen is not None and state.round - seen <= LOCKOUT_ROUNDS

    # -- how much a card in hand is worth keeping ------------------------------
    def _worth(self, state: SystemLaunch, seat: int, card: int, hand_kinds: list[int]) -> int:
        kind = CARD_KIND[card]
        built = [CARD_KIND[c] for c in state.system[seat]]
        opts = state.opts
        if IS_PART[kind] or IS_PROTECTION[kind]:
            if kind in built:
                return 1  # cannot be built: junk, unless the built one is crashed
            dup = hand_kinds.count(kind) > 1
            if IS_PART[kind]:
                parts = sum(1 for k in built if IS_PART[k])
                value = 10 if parts < opts.parts_to_win else 4
            else:
                protections = sum(1 for k in built if IS_PROTECTION[k])
                value = 9 if protections < opts.protections_to_win else 5
            return value - 4 if dup else value
        if kind == CRASH:
            return 7
        if kind == UPGRADE:
            return 4
        return 6

    def choose(self, state: GameState, knowledge: Knowledge, legal: list[Action]) -> Action:
        assert isinstance(state, SystemLaunch)  # the registry pairs this bot with this game only
        self.observe(state, knowledge)
        if len(legal) == 1:
            return legal[0]
        verb = legal[0][0]
        if verb == "discard":
            return self._discard(state, knowledge, legal)
        if verb in ("take", "take-none"):
            return self._take(state, knowledge, legal)
        if verb == "lose":
            return self._lose(state, knowledge, legal)
        action = self._act(state, knowledge, legal, self.seat)
        if action[0] == "play" and CARD_KIND[action[2]] == PHISHING:
            self.skipped_round[action[3]] = state.round
        return action

    def _hand_kinds(self, state: SystemLaunch, knowledge: Knowledge, seat: int) -> list[int]:
        known = knowledge.cards
        return [CARD_KIND[known[s]] for s in state.hands[seat] if s in known]

    def _discard(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        kinds = self._hand_kinds(state, knowledge, self.seat)
        return self.pick([(-self._worth(state, self.seat, a[2], kinds), a) for a in legal])

    def _take(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        kinds = self._hand_kinds(state, knowledge, self.seat)
        known = knowledge.cards
        scored: list[tuple[int, Action]] = []
        for action in legal:
            if action[0] != "take":
                scored.append((0, action))
            elif action[1] in known:
                card = known[action[1]]
                scored.append((self._worth(state, self.seat, card, [*kinds, CARD_KIND[card]]), action))
        return self.pick(scored)

    def _lose(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        # Lose the Part whose kind we can rebuild from hand, else the one beyond what a win needs.
        kinds = self._hand_kinds(state, knowledge, self.seat)
        for action in legal:
            if CARD_KIND[action[1]] in kinds:
                return action
        return legal[-1]

    def _act(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action], seat: int) -> Action:
        opts = state.opts
        kinds = self._hand_kinds(state, knowledge, seat)
        built = [CARD_KIND[c] for c in state.system[seat]]
        parts = sum(1 for k in built if IS_PART[k])
        protections = len(built) - parts
        mine = progress(state, seat)
        need = opts.parts_to_win + opts.protections_to_win
        leaders = {t: progress(state, t) for t in range(state.n) if t != seat and state.alive[t]}
        top = max(leaders.values(), default=0)
        hand_size = len(state.hands[seat])
        scored: list[tuple[int, Action]] = [(0, ("pass",))]
        for action in legal:
            verb = action[0]
            score = 0
            if verb == "build":
                kind = CARD_KIND[action[2]]
                if IS_PART[kind]:
                    score = 100 if parts < opts.parts_to_win else 30
                else:
                    score = 95 if protections < opts.protections_to_win else 35
                    # Prefer the protection against what the others hold as threats: Antivirus first.
                    score += {ANTIVIRUS: 3, FIREWALL: 2, PASSWORD: 1}.get(kind, 0)
                if mine + 1 >= need and ((IS_PART[kind] and parts < opts.parts_to_win) or protections == 0):
                    score = 1000
            elif verb == "play":
                kind = CARD_KIND[action[2]]
                target = action[3]
                if kind == UPGRADE:
                    score = 25 if hand_size <= opts.hand_limit else 10
                elif state._has_kind(target, _GUARD[kind]) or (kind == PHISHING and self.locked_out(state, target)):
                    score = 0
                else:
                    lead = leaders[target]
                    if kind == CRASH:
                        has_parts = any(IS_PART[CARD_KIND[c]] for c in state.system[target])
                        score = 40 + 20 * lead if has_parts else 0
                    elif kind == PHISHING:
                        score = 30 + 15 * lead
                    else:  # Hacker Attack: worth more against a big hand
                        score = 20 + 8 * len(state.hands[target]) + 5 * lead
                    if lead == top:
                        score += 10
                    if lead + 1 >= need:
                        score += 200
            elif verb == "upgrade":
                worth = self._worth(state, seat, action[2], kinds)
                score = 20 if worth <= 1 else (8 if worth <= 6 else 0)
            if score > 0:
                scored.append((score, action))
        return self.pick(scored)
