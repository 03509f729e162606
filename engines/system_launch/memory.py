"""``MemoryBot``: the System Launch bot that remembers what it has been shown and plays on it.

It scores its actions with the same code as :class:`~.bots.GreedyBot`, fed by
a :class:`~.bots.Recall` that keeps what its seat's person saw: its own hand,
the hand it looked at with its own Hacker Attack! (while those cards stay in
that hand), the card someone took from it, every card shown face up, and so
which cards a reshuffle put back into the deck.

Then it looks ahead on that memory.  When the scoring leaves more than one
different choice worth making (which card to build, whom to attack with what,
which card to take, whether to keep an attack card), it deals the cards it has
not seen -- and only those -- at random to the places it cannot see (the deck,
the hand cards it was not shown), :data:`SAMPLES` times, and plays each of its
best :data:`CANDIDATES` choices out to the end of the game in every such deal,
with every seat (its own included) playing the shared greedy scoring.  It takes
the choice that won most often; a tie goes to the one the scoring preferred
(itself a seeded draw between equal scores).  The deals and the rollouts' own
shuffles come from its seeded stream, so a seed gives the same game, and what
it was never shown cannot change a choice: the deals are made from its memory
alone, never from the engine's hidden cards.  Budgets are counts, never time.

The candidates are the scoring's own worthwhile actions, so the rule against
locking a player out (no Phishing! on a player due to skip or seen skipping
lately) holds for it as for Greedy.
"""

from __future__ import annotations

from typing import Any

from engines.core.pending import GameOver
from engines.core.referee import Referee
from engines.core.state import Action, Knowledge

from .bots import GreedyBot
from .cards import CARD_KIND, PHISHING
from .state import SystemLaunch

#: Deals of the unseen cards per decision.
SAMPLES = 16
#: Different choices played out per decision (the scoring's best ones).
CANDIDATES = 4
#: A rollout still running after this many rounds counts as not won.
HORIZON = 12


class MemoryBot(GreedyBot):
    """A greedy scorer with a memory, which plays its best choices out on deals of what it has not seen."""

    STREAM = "memory"
    REMEMBERS = True

    def _act(self, state: SystemLaunch, legal: list[Action]) -> Action:
        scored = self.act_scores(state, legal)
        # The actions the scoring holds back (an attack card kept for later) are choices too, ranked last.
        kept = {id(a) for _, a in scored}
        scored.extend((-1, a) for a in legal if id(a) not in kept and a[0] == "play" and a[3] != self.seat
                      and not (CARD_KIND[a[2]] == PHISHING and self.locked_out(state, a[3])))
        return self.lookahead(state, scored)

    def _take(self, state: SystemLaunch, legal: list[Action]) -> Action:
        return self.lookahead(state, self.take_scores(state, legal))

    # -- looking ahead ----------------------------------------------------
    def _what(self, action: Action) -> tuple[Any, ...]:
        """What an action does, whichever copy of a card it uses: two such actions are one choice."""
        verb = action[0]
        if verb in ("build", "upgrade", "discard"):
            return (verb, CARD_KIND[action[2]])
        if verb == "play":
            return (verb, CARD_KIND[action[2]], action[3])
        if verb == "take":
            return (verb, CARD_KIND[self.recall.shown[action[1]]]) if action[1] in self.recall.shown else action
        return (verb,)

    def _contested(self, action: Action) -> bool:
        """Whether a choice touches another player: an attack, or a card taken from a hand."""
        return bool(action[0] == "take" or (action[0] == "play" and action[3] != self.seat))

    def candidates(self, scored: list[tuple[int, Action]]) -> list[Action]:
        """The scoring's pick first, then its best other different choices, at most :data:`CANDIDATES`."""
        first = self.pick(scored)
        out = [first]
        seen = {self._what(first)}
        for _, action in sorted(scored, key=lambda t: -t[0]):  # stable: equal scores keep their order
            what = self._what(action)
            if what not in seen and len(out) < CANDIDATES:
                seen.add(what)
                out.append(action)
        return out

    def deal(self, state: SystemLaunch) -> list[tuple[int, int]] | None:
        """The slots this seat cannot see, paired with a random order of the cards it has not seen.

        None if the two do not match in number (a state the memory cannot account
        for): then the bot simply follows its scoring.
        """
        shown = self.recall.shown
        hidden = list(range(state.deck_top, state.deck_end))
        for hand in state.hands:
            hidden.extend(slot for slot in hand if slot not in shown)
        hidden.extend(state.out)
        cards = self.recall.unseen_cards(state)
        if len(cards) != len(hidden):
            return None
        self.rng.shuffle(cards)
        return list(zip(hidden, cards, strict=True))

    def lookahead(self, state: SystemLaunch, scored: list[tuple[int, Action]]) -> Action:
        choices = self.candidates(scored)
        if len(choices) < 2:
            return choices[0]
        won = [0] * len(choices)
        base = self.rng.token(8)
        for i in range(SAMPLES):
            dealt = self.deal(state)
            if dealt is None:
                return choices[0]
            cards = dict(self.recall.shown)
            cards.update(dealt)
            seed = base + i.to_bytes(2, "big")
            for j, action in enumerate(choices):
                won[j] += self.rollout(state, cards, action, seed)
        best = max(range(len(choices)), key=lambda j: (won[j], -j))
        return choices[best]

    def rollout(self, state: SystemLaunch, cards: dict[int, int], action: Action, seed: bytes) -> int:
        """1 if this seat wins the game played out from ``action`` on the dealt ``cards``, else 0."""
        st = state.clone()
        referee = Referee(st, seed)
        truth = dict(cards)  # every seat may read it: greedy reads only its own hand and a hand it looks at
        referee.truth = Knowledge(None, truth)
        referee.seats = [Knowledge(s, truth) for s in range(st.n)]
        bots = [GreedyBot(s, seed) for s in range(st.n)]
        end = st.round + HORIZON
        referee.decide(self.seat, action)
        while True:
            pending = referee.run_table()
            if isinstance(pending, GameOver):
                return 1 if self.seat in pending.winners else 0
            if st.round > end:
                return 0
            seat = pending.seat
            knowledge = referee.seats[seat]
            referee.decide(seat, bots[seat].choose(st, knowledge, st.legal_actions(seat, knowledge)))
