"""What the other players' public plays tell about their hidden hand cards, read as the greedy scoring plays.

:class:`~.memory.MemoryBot` plays its choices out on deals of the cards it has
not seen.  A uniform deal ignores what the table showed: a player who scores
its moves like :class:`~.greedy.GreedyBot` builds a Part it lacks before anything
else, so one that built a Protection while short of Parts holds none of the
Parts it lacks; one that passed holds only attack cards; one that threw away a
card kept none it values less.  :class:`HandReading` turns each such public
play into kinds that the cards then in that hand cannot be, per hand slot, for
the deal to respect (:meth:`HandReading.deal`).

It reads only the public state: the display log of plays (``state.events``),
the hand slots, the System rows.  It learns nothing from a hand card's
identity, so what a seat was never shown cannot change a deal.  A slot's
reading lasts while the card stays in that slot (a Hacker Attack! moves a
looked-at hand to fresh slots, SL-10, and the reading is then dropped).  When
the log cannot be lined up with what was read before, nothing new is read.
For a player who does not score like the greedy bot, a reading may be wrong:
if the readings leave no deal at all, the deal ignores them.
"""

from __future__ import annotations

from typing import Any

from engines.core.seeded import SeededStream
from engines.system_launch.bots.greedy import card_worth
from engines.system_launch.cards import (
    ANTIVIRUS,
    CARD_KIND,
    CRASH,
    FIREWALL,
    HACKER_ATTACK,
    IS_PART,
    IS_PROTECTION,
    PARTS,
    PHISHING,
    PROTECTIONS,
    UPGRADE,
)
from engines.system_launch.options import Options
from engines.system_launch.state import SystemLaunchState

#: How many of the latest log entries line up one reading of the log with the next.
TAIL = 8
_BUILDABLE = PARTS | PROTECTIONS
_PHASE_2 = ("build", "upgrade", "pass", "play")


class HandReading:
    """Per hand slot of the other players, the kinds its card cannot be (see the module docstring)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: slot -> kinds the card in that slot is read not to be.
        self.forbidden: dict[int, frozenset[int]] = {}
        self._tail: list[tuple[Any, ...]] | None = None
        self._hands: list[list[int]] | None = None

    def observe(self, state: SystemLaunchState) -> None:
        """Read the plays logged since the last call (at this seat's decisions)."""
        new = self._new_events(state.events)
        if new is not None:
            for seat in range(state.n):
                if seat != self.seat:
                    self._read_seat(state, seat, new)
        self._tail = list(state.events[-TAIL:])
        self._hands = [list(hand) for hand in state.hands]
        held = {slot for seat, hand in enumerate(state.hands) if seat != self.seat for slot in hand}
        for slot in [s for s in self.forbidden if s not in held]:
            del self.forbidden[slot]

    def _new_events(self, events: list[tuple[Any, ...]]) -> list[tuple[Any, ...]] | None:
        """The log entries after the ones read last time; None if the two cannot be lined up."""
        tail = self._tail
        if tail is None:
            return list(events)
        m = len(tail)
        for end in range(len(events), m - 1, -1):
            if events[end - m : end] == tail:
                return list(events[end:])
        return None

    def _forbid(self, slots: list[int], kinds: set[int]) -> None:
        if kinds:
            for slot in slots:
                self.forbidden[slot] = self.forbidden.get(slot, frozenset()) | kinds

    def _read_seat(self, state: SystemLaunchState, seat: int, new: list[tuple[Any, ...]]) -> None:  # noqa: C901 (tests/test_complexity.py)
        plays = [i for i, e in enumerate(new) if e[0] in _PHASE_2 and e[1] == seat]
        if len(plays) != 1:
            return  # no turn of theirs since (or two: then which card came when is not clear)
        play, after = new[plays[0]], new[plays[0] + 1 :]
        if any(e[0] == "play" and e[3] == seat and CARD_KIND[e[2]] == HACKER_ATTACK for e in after):
            return  # the hand may have moved to fresh slots (SL-10)
        opts = state.opts
        hand = state.hands[seat]
        # The System row after its play: as now, plus what a Crash! took since.
        system = {CARD_KIND[c] for c in state.system[seat]}
        system |= {CARD_KIND[e[2]] for e in after if e[0] == "crashed" and e[1] == seat}
        verb = play[0]
        kind = CARD_KIND[play[2]] if verb in ("build", "upgrade", "play") else -1
        before = system - {kind} if verb == "build" else system  # the row when it decided
        parts = sum(1 for k in before if IS_PART[k])
        missing = _BUILDABLE - before
        kinds: set[int] = set()
        if verb == "pass":
            kinds = set(_BUILDABLE) | {UPGRADE}  # anything buildable or Upgrade! scores above passing
        elif verb == "build" and IS_PROTECTION[kind] and parts < opts.parts_to_win:
            kinds = {k for k in missing if IS_PART[k]}  # a Part it lacks scores above any Protection
        elif verb == "upgrade" or (verb == "play" and kind == UPGRADE):
            kinds = set(missing)  # every build scores above upgrading
        slots = list(hand)
        if verb == "upgrade" or (verb == "play" and kind == UPGRADE):
            # The card drawn after the play was not in the hand then: the later of the two drawn this turn.
            drawn = sorted(set(hand) - set(self._hands[seat])) if self._hands is not None else []
            if len(drawn) == 2:
                slots.remove(drawn[1])
            else:
                slots = [s for s in hand if self._hands is not None and s in self._hands[seat]]
        protections = sum(1 for k in before if IS_PROTECTION[k])
        close = min(parts, opts.parts_to_win) + min(protections, opts.protections_to_win) + 1 >= _need(opts)
        if not close and not (verb == "play" and kind != UPGRADE):  # (close to launching, any build scores 1000)
            kinds |= self._attacks_held_back(state, seat, after)
        self._forbid(slots, kinds)
        # Phase 3 threw away the card worth least to it: the cards it kept are worth no less.
        for e in after:
            if e[0] == "discard" and e[1] == seat:
                worth = card_worth(CARD_KIND[e[2]], system, opts, duplicate=True)  # its least: as a spare
                below: set[int] = set()
                if worth > 1:
                    below |= system & _BUILDABLE  # a card of a kind already built is worth 1
                if worth > 4:
                    below.add(UPGRADE)
                if worth > 6:
                    below |= {HACKER_ATTACK, PHISHING}
                if worth > 7:
                    below.add(CRASH)
                self._forbid(list(hand), below)

    def _attacks_held_back(self, state: SystemLaunchState, seat: int, after: list[tuple[Any, ...]]) -> set[int]:
        """Attack kinds ``seat`` cannot hold: it attacked nobody while someone was one card from launching.

        The greedy scoring plays an attack on a player that close to launching
        above anything short of launching itself (Phishing! aside: whether it is
        held back for a lock-out depends on what that player saw), so holding a
        Crash! or Hacker Attack! that player is not protected against, it would
        have played it.
        """
        opts = state.opts
        need = _need(opts)
        kinds: set[int] = set()
        for target in range(state.n):
            if target == seat or not state.alive[target]:
                continue
            # The target's System row when ``seat`` decided: less what it built since, plus what it lost since.
            row = [CARD_KIND[c] for c in state.system[target]]
            for e in reversed(after):
                if e[0] == "build" and e[1] == target and CARD_KIND[e[2]] in row:
                    row.remove(CARD_KIND[e[2]])
                elif e[0] == "crashed" and e[1] == target:
                    row.append(CARD_KIND[e[2]])
            parts = len({k for k in row if IS_PART[k]})
            protections = sum(1 for k in row if IS_PROTECTION[k])
            if min(parts, opts.parts_to_win) + min(protections, opts.protections_to_win) + 1 < need:
                continue
            if parts and ANTIVIRUS not in row:
                kinds.add(CRASH)
            if FIREWALL not in row:
                kinds.add(HACKER_ATTACK)
        return kinds

    def deal(self, slots: list[int], cards: list[int], rng: SeededStream) -> list[tuple[int, int]]:
        """``cards`` dealt at random to ``slots``, every read slot getting a card of a kind it can hold.

        The read slots are dealt first, each a random card among those left that
        it can hold; the rest in a random order.  If some read slot can hold none
        of the cards left, the readings are ignored for this deal.
        """
        pool = list(cards)
        rng.shuffle(pool)
        forbidden = self.forbidden
        read = [s for s in slots if s in forbidden]
        if not read:
            return list(zip(slots, pool, strict=True))
        out: list[tuple[int, int]] = []
        for slot in read:
            banned = forbidden[slot]
            fits = [i for i, c in enumerate(pool) if CARD_KIND[c] not in banned]
            if not fits:  # a player who does not score like the greedy bot: deal as if nothing was read
                pool = list(cards)
                rng.shuffle(pool)
                return list(zip(slots, pool, strict=True))
            out.append((slot, pool.pop(fits[rng.below(len(fits))])))
        out.extend(zip([s for s in slots if s not in forbidden], pool, strict=True))
        return out


def _need(opts: Options) -> int:
    return opts.parts_to_win + opts.protections_to_win
