"""A seat that leaves after a Hacker Attack took a card from it must not show that card.

Over the simulator (every peer a real session): in this seeded 3-seat game one seat attacks
another and takes a card; the target then leaves while the game goes on.  A leave notice that
published every card key the leaver had, its re-slotting key of the taken card included (and the
delivery key of the box it sent the attacker), would make the card now in the attacker's hand
readable by everyone.  So the notice publishes only the keys of the cards still to be dealt;
the leaver's hand stays face down (SL section 7), and its other secrets are escrowed with the
seats that stay, opening at the end for the audit.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from engines.core import SeededStream
from protocol.cards import CardProtocolError, keys_from_body
from protocol.cards.reslot import Reslot
from protocol.crypto.signing import SigningKey
from protocol.envelope import parse
from protocol.envelope import seal as seal_envelope
from protocol.errors import Misconduct
from protocol.session import PeerSession
from protocol.sim.network import play
from protocol.table import Table
from protocol.verify import verify_bytes
from tests.protocol.helpers import _byte_strings, _opens_with

SEED = b"leave-take/1"
SEATS = 3


class LeavesAfterTake(PeerSession):
    """An honest seat that leaves as soon as a Hacker Attack took a card from it."""

    def receive(self, data, now_ms):
        events = super().receive(data, now_ms)
        table = self.table
        if table is not None and not self.finished and not self.left and take_from(table, self.seat):
            events += self.leave()
        return events


def take_from(table, seat):
    """(seq, attacker, slot) of the first take from ``seat``, or None."""
    for seq, attacker, action in table.pushes:
        if action is not None and action[0] == "take":
            source = max((d for d in table.deliveries if d[0] < seq), key=lambda d: d[0])[1]
            if source == seat:
                return seq, attacker, action[1]
    return None


@lru_cache(maxsize=1)
def game():
    run = play("system-launch", SEATS, SEED, cheater=0, classes={s: LeavesAfterTake for s in range(SEATS)})
    gone = next(parse(d) for d in run.log if parse(d).type == "gone")
    return run, gone


@lru_cache(maxsize=4)
def replica(seat, upto):
    """``seat``'s own session, rebuilt from the log up to entry ``upto`` (what it knew then)."""
    room = parse(game()[0].log[0]).room
    key = SigningKey.generate(SeededStream(SEED, f"sign/{seat}").token(32))
    session = PeerSession.join(room, seat, key, SeededStream(SEED, f"secret/{seat}").token(32))
    for data in game()[0].log[: upto + 1]:
        session.receive(data, 0)
    while session.open_step():
        pass  # every card dealt to it opened
    return session


def finished(seat=0):
    return replica(seat, len(game()[0].log) - 1)


def test_after_the_leave_a_third_seat_cannot_read_the_taken_card():
    _run, gone = game()
    leaver = gone.body["target"]
    assert gone.body["reason"] == "left"
    final = finished().table
    seq, attacker, taken = take_from(final, leaver)
    third = next(s for s in range(SEATS) if s not in (leaver, attacker))
    assert seq < gone.seq
    third_seat = replica(third, gone.seq)
    table = third_seat.table
    ledger = table.ledger
    assert table.head == gone.seq and leaver in table.gone
    # The taken card stays hidden in the attacker's hand: no published key opens its slot ...
    assert ledger.deck_for(taken).public_card(taken) is None
    assert taken not in third_seat.knowledge.cards
    # ... nor the leaver's remaining hand (which, next to a hand seen before, would tell the take).
    hand = run_hand(table, leaver)
    assert hand and all(ledger.deck_for(slot).public_card(slot) is None for slot in hand)
    # What the notice published: no delivery key, and lock keys only of cards still to be dealt.
    notice = parse(gone.body["proofs"][0])
    assert notice.body["secrets"]["deliveries"] == {}
    for slot in keys_from_body(leaver, notice.body["secrets"]["cards"]):
        deck = ledger.deck_for(slot)
        assert not isinstance(deck, Reslot) and deck.dealt_to(slot) != leaver
    # Every 32-byte value the notice publishes in the clear, tried as the taken slot's key and as a
    # private key for every box the leaver sent (how a third seat would try): none opens anything.
    clear = {**notice.body, "escrow": {**notice.body["escrow"], "box": b""}}
    candidates = set(_byte_strings(clear))
    assert candidates
    for candidate in candidates:
        with pytest.raises(CardProtocolError):
            ledger.deck_for(taken).open_slot(taken, candidate)
        for delivery in (d for d in table.deliveries if d[1] == leaver):
            assert not _opens_with(candidate, delivery, table)
    # The attacker still reads its card; it is the card the end of the game shows in that slot.
    card = replica(attacker, gone.seq).knowledge.cards[taken]
    assert final.ledger.cards_by_slot(final.card_secrets)[taken] == card


def run_hand(table, seat):
    """The slots in ``seat``'s hand when its departure took effect (the public state replayed to there)."""
    state = table.spec.new_state(table.n, dict(table.options))
    for _seq, who, action in table.pushes:
        if action is None and who == seat:
            break
        if action is None:
            state.forfeit(who)
        elif action[0] == "set-aside":
            state.set_aside(action[1])
        else:
            state.apply(who, action)
    return list(state.hands[seat])


def test_the_audit_at_the_end_opens_the_leavers_escrow_and_checks_it():
    run, gone = game()
    leaver = gone.body["target"]
    assert run.agreed() == "fair", run.verdicts
    final = finished().table
    assert final.escrows == {}  # every share was published: the escrow opened
    assert leaver in final.card_secrets and final.ledger.withheld() == set()
    assert final.published[leaver]["deliveries"]  # the delivery key of the box it sent the attacker
    assert final.verdict.fair
    assert verify_bytes(run.honest_save).fair  # and offline, from the saved game alone


def test_a_seat_that_publishes_a_false_escrow_share_is_named_at_its_entry():
    run, gone = game()
    leaver = gone.body["target"]
    entries = [parse(d) for d in run.log]
    honest = next(e for e in entries if e.type == "secrets" and leaver in e.body["secrets"]["escrow"])
    secrets = dict(honest.body["secrets"])
    secrets["escrow"] = {leaver: bytes(b ^ 1 for b in secrets["escrow"][leaver])}
    key = SigningKey.generate(SeededStream(SEED, f"sign/{honest.seat}").token(32))
    table = Table(entries[0])
    for env in entries[1 : honest.seq]:
        table.apply(env)
    forged = seal_envelope(
        key,
        table.room,
        honest.seq,
        honest.prev,
        honest.seat,
        "secrets",
        {**honest.body, "secrets": secrets},
        game=table.game_id,
    )
    with pytest.raises(Misconduct) as err:
        table.apply(parse(forged.data))
    assert err.value.seat == honest.seat and "false escrow share" in err.value.reason


class FalseEscrow(LeavesAfterTake):
    """Leaves like the others, but escrows a false delivery key for the box it sent the attacker."""

    def _delivery_keys(self):
        return {seq: bytes([7]) * 32 for seq in super()._delivery_keys()}


def test_a_leaver_whose_escrow_opens_to_false_secrets_is_named_at_its_leave():
    leaver = game()[1].body["target"]
    classes = {s: LeavesAfterTake for s in range(SEATS)}
    classes[leaver] = FalseEscrow
    run = play("system-launch", SEATS, SEED, cheater=0, classes=classes)
    gone = next(parse(d) for d in run.log if parse(d).type == "gone")
    assert gone.body["target"] == leaver
    for seat, verdict in run.verdicts.items():
        if seat == leaver:
            continue
        assert verdict is not None and verdict.cheated and verdict.seat == leaver, (seat, verdict)
        assert verdict.seq == gone.seq and "escrow" in verdict.reason, verdict
