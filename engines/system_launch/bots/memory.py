"""``MemoryBot``: the System Launch bot that remembers what it has been shown and plays on it.

It scores its actions with the same code as :class:`~.greedy.GreedyBot`, fed by
a :class:`~.greedy.Recall` that keeps what its seat's person saw: its own hand,
the hand it looked at with its own Hacker Attack! (while those cards stay in
that hand), the card someone took from it, every card shown face up, and so
which cards a reshuffle put back into the deck.  It also reads the other
players' public plays as the greedy scoring would have made them
(:class:`~.reading.HandReading`): one that built a Protection while short of
Parts holds none of the Parts it lacks, one that attacked nobody while someone
was a card from launching holds no attack that player is open to, and so on.

Then it looks ahead on that memory.  When the scoring leaves more than one
different choice worth making (which card to build, whom to attack with what,
which card to take, whether to keep an attack card), it deals the cards it has
not seen -- and only those -- at random to the places it cannot see (the deck,
the hand cards it was not shown), each hand card a kind its reading allows,
and plays its best :data:`CANDIDATES` choices out to the end of the game in
every such deal, with every seat (its own included) playing the shared greedy
scoring and knowing who it has seen skipping.  The deals come in rounds
(:data:`SCHEDULE`): every candidate is played out on the first round's deals,
the better half of them on the next round's, and so on (successive halving:
the later deals go where the choice is still open).  It takes the choice that
won most often over all its deals; a tie goes to the one the scoring preferred
(itself a seeded draw between equal scores).  Every candidate of a round plays
the same deals with the same seeds, so they differ by the choice, not by luck.
The deals and the rollouts' own shuffles come from its seeded stream, so a
seed gives the same game, and what it was never shown cannot change a choice:
the deals are made from its memory and the public table alone, never from the
engine's hidden cards.  Budgets are counts, never time.

The candidates are the scoring's own worthwhile actions, so the rule against
locking a player out (no Phishing! on a player due to skip or seen skipping
lately) holds for it as for Greedy.
"""

from __future__ import annotations

from typing import Any

from engines.core.pending import GameOver
from engines.core.referee import Referee
from engines.core.state import Action, Knowledge
from engines.system_launch.bots.greedy import GreedyBot
from engines.system_launch.bots.reading import HandReading
from engines.system_launch.cards import CARD_KIND, PHISHING
from engines.system_launch.state import SystemLaunchState

#: Deals of the unseen cards in each round of successive halving: every candidate plays the first
#: round's deals, the better half of those left (at least two) each later round's.
SCHEDULE: tuple[int, ...] = (16, 32)
#: Different choices played out per decision (the scoring's best ones).
CANDIDATES = 4
#: A rollout still running after this many rounds counts as not won (played out greedily, a game ends
#: within a few rounds).
HORIZON = 12


class MemoryBot(GreedyBot):
    """A greedy scorer with a memory, which plays its best choices out on deals of what it has not seen."""

    STREAM = "memory"
    REMEMBERS = True

    def __init__(self, seat: int, seed: bytes = b"") -> None:
        super().__init__(seat, seed)
        self.reading = HandReading(seat)

    def observe(self, state: SystemLaunchState, knowledge: Knowledge) -> None:
        super().observe(state, knowledge)
        self.reading.observe(state)

    def _act(self, state: SystemLaunchState, legal: list[Action]) -> Action:
        scored = self.act_scores(state, legal)
        # The actions the scoring holds back (an attack card kept for later) are choices too, ranked last.
        kept = {id(a) for _, a in scored}
        scored.extend((-1, a) for a in legal if id(a) not in kept and a[0] == "play" and a[3] != self.seat
                      and not (CARD_KIND[a[2]] == PHISHING and self.locked_out(state, a[3])))
        return self.lookahead(state, scored)

    def _take(self, state: SystemLaunchState, legal: list[Action]) -> Action:
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

    def deal(self, state: SystemLaunchState) -> list[tuple[int, int]] | None:
        """The slots this seat cannot see, paired with a random order of the cards it has not seen.

        A hand slot gets a card of a kind the reading allows (:meth:`.reading.HandReading.deal`).

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
        return self.reading.deal(hidden, cards, self.rng)

    def lookahead(self, state: SystemLaunchState, scored: list[tuple[int, Action]]) -> Action:
        """The candidate that wins most often in rollouts, by successive halving over :data:`SCHEDULE`.

        Each round's deals are played out by every candidate still in (the same
        deal and seed for each); then the better half (at least two) goes on to
        the next round.  The most wins over all deals decides, a tie going to the
        scoring's order.  Equal deals for every candidate in every round would
        spend most of the budget on candidates already behind.
        """
        choices = self.candidates(scored)
        if len(choices) < 2:
            return choices[0]
        total = [0] * len(choices)
        base = self.rng.token(8)
        alive = list(range(len(choices)))
        i = 0
        for r, count in enumerate(SCHEDULE):
            if r:
                alive = sorted(alive, key=lambda j: (-total[j], j))[: max(2, (len(alive) + 1) // 2)]
            for _ in range(count):
                dealt = self.deal(state)
                if dealt is None:
                    return choices[0]
                cards = dict(self.recall.shown)
                cards.update(dealt)
                seed = base + i.to_bytes(2, "big")
                i += 1
                for j in alive:
                    total[j] += self.rollout(state, cards, choices[j], seed)
        best = min(alive, key=lambda j: (-total[j], j))
        return choices[best]

    def rollout(self, state: SystemLaunchState, cards: dict[int, int], action: Action, seed: bytes) -> int:
        """1 if this seat wins the game played out from ``action`` on the dealt ``cards``, else 0."""
        st = state.clone()
        referee = Referee(st, seed)
        truth = dict(cards)  # every seat may read it: greedy reads only its own hand and a hand it looks at
        referee.truth = Knowledge(None, truth)
        referee.seats = [Knowledge(s, truth) for s in range(st.n)]
        bots = [GreedyBot(s, seed) for s in range(st.n)]
        for bot in bots:  # a greedy player holds Phishing! back from a player it saw skipping lately
            bot.skipped_round = dict(self.skipped_round)
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
