"""Bots for System Launch.

A bot sees exactly what its seat's person sees: the public state (which holds
no hidden identity) and its own :class:`~engines.core.state.Knowledge`.

``GreedyBot`` is a one-ply heuristic, cheap enough for fast self-play: it
builds what its System lacks, keeps a protection, attacks the player closest
to winning with the event that player is not protected against, and throws away
what it cannot use.  Ties are broken by the stable order of the legal actions,
so it is deterministic.
"""

from __future__ import annotations

from engines.core.state import Action, Knowledge

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

    def __init__(self, seat: int, seed: bytes = b"") -> None:
        self.seat = seat

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

    def choose(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        verb = legal[0][0]
        if verb == "discard":
            return self._discard(state, knowledge, legal)
        if verb in ("take", "take-none"):
            return self._take(state, knowledge, legal)
        if verb == "lose":
            return self._lose(state, knowledge, legal)
        return self._act(state, knowledge, legal, self.seat)

    def _hand_kinds(self, state: SystemLaunch, knowledge: Knowledge, seat: int) -> list[int]:
        known = knowledge.cards
        return [CARD_KIND[known[s]] for s in state.hands[seat] if s in known]

    def _discard(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        kinds = self._hand_kinds(state, knowledge, self.seat)
        return min(legal, key=lambda a: self._worth(state, self.seat, a[2], kinds))

    def _take(self, state: SystemLaunch, knowledge: Knowledge, legal: list[Action]) -> Action:
        kinds = self._hand_kinds(state, knowledge, self.seat)
        best, best_value = legal[-1], 0
        known = knowledge.cards
        for action in legal:
            if action[0] != "take" or action[1] not in known:
                continue
            card = known[action[1]]
            value = self._worth(state, self.seat, card, [*kinds, CARD_KIND[card]])
            if value > best_value:
                best, best_value = action, value
        return best

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
        best: Action = legal[-1]
        best_score = 0
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
                elif state._has_kind(target, _GUARD[kind]):
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
            if score > best_score:
                best, best_score = action, score
        return best
