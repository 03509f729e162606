"""The end-of-game audit: open everything, re-check everything, replay with what is known.

Run by every peer once every remaining seat has published its secrets (and by
``python -m protocol verify`` on a saved game).  The answer is ``fair``, the
earliest cheat found (the seat, the entry it wrote, and why), or, with no cheat,
the earliest disconnection.

What is checked, in this order of evidence:

1. every seat's card secrets re-create every shuffle and lock pass it wrote, every
   key it published is its true lock key, every shown card is the slot's card
   (the card ledger's audit), and every private delivery, opened with the
   delivery key its sender published for it, holds the true keys;
2. every commitment to a sealed value opens with the published salt and value;
3. the whole game replays with all the knowledge there is (every card and sealed
   value that a published secret opens): each action whose author's secrets are
   known is checked with them, so a rule that only a secret could decide, broken
   by its owner, is found even when another seat is gone (a seat that never
   published its secrets cannot be checked: its actions are replayed as they are);
4. only then silence: a seat declared gone for silence is *disconnected* (it forfeits;
   silence is no proof of cheating), or, with two seats, the other seat *claimed* it gone
   alone (no proven result), or that claim is *contested* (the claimed seat's own claim against
   the claimant was voided and it has not spoken since: no result for either seat, see
   :mod:`protocol.claims`).  Any cheat found above comes first, whatever its entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engines.core import TABLE, Action, GameSpec, GameState, IllegalAction, Knowledge, decode
from protocol.cards import CardLedger, CardProtocolError, SeatSecrets, keys_from_body
from protocol.claims import VoidedClaim, contested_reason
from protocol.crypto.commit import opens
from protocol.crypto.private import SealError, delivery_context, open_with_delivery_key
from protocol.events import ABANDONED, CLAIMED, CONTESTED, DISCONNECTED, FAIR, Verdict
from protocol.seats import SeatInfo


class Table(Protocol):
    """What the audit reads of a finished replica (:class:`protocol.table.Table` is one).

    Named here, below the replica that runs the audit, so that the two do not import each
    other: the replica calls :func:`audit` with itself, and the audit reads only this.
    """

    @property
    def abandoned(self) -> str | None: ...
    @property
    def card_secrets(self) -> Mapping[int, Mapping[int, SeatSecrets]]: ...
    @property
    def claim(self) -> tuple[int, int, int, bool] | None: ...
    @property
    def contested(self) -> VoidedClaim | None: ...
    @property
    def commits(self) -> Mapping[int, tuple[int, bytes, int]]: ...
    @property
    def deliveries(self) -> Sequence[tuple[int, int, int, bytes]]: ...
    @property
    def escrows(self) -> Mapping[int, tuple[int, Mapping[str, Any]]]: ...
    @property
    def escrow_faults(self) -> Sequence[tuple[int, int, str]]: ...
    @property
    def entries_of(self) -> Mapping[tuple[str, int, int], int]: ...
    @property
    def gone(self) -> Mapping[int, tuple[str, int]]: ...
    @property
    def head(self) -> int: ...
    @property
    def ledger(self) -> CardLedger: ...
    @property
    def n(self) -> int: ...
    @property
    def opened(self) -> Mapping[int, tuple[bytes, Any]]: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def published(self) -> Mapping[int, Mapping[str, Any]]: ...
    @property
    def pushes(self) -> Sequence[tuple[int, int, Action | None]]: ...
    @property
    def room(self) -> str: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def spec(self) -> GameSpec: ...
    @property
    def state(self) -> GameState: ...


_ROUND = re.compile(r"round (\d+)")
_SLOT = re.compile(r"slot (\d+)")


def silence(table: Table) -> list[Verdict]:
    """Each seat declared gone for silence: disconnected (or claimed gone by the one other seat, or contested)."""
    out = []
    for seat, (reason, seq) in sorted(table.gone.items()):
        if reason != "silent":
            continue
        claim = table.claim
        contest = table.contested if claim is not None and claim[1:3] == (seat, seq) else None
        if claim is not None and contest is not None:  # two silences that cannot be told apart: nobody is named
            out.append(Verdict(False, None, seq, contested_reason(claim[0], seat, seq, contest), CONTESTED))
        elif claim is not None and claim[1:3] == (seat, seq):
            text = (
                f"disconnected at entry {seq}: a win claimed by seat {claim[0]} after disconnection "
                "(its own vote alone; not a proven result)"
            )
            out.append(Verdict(False, seat, seq, text, CLAIMED))
        else:
            text = f"disconnected at entry {seq}: declared gone by every other seat (silence, not proof of cheating)"
            out.append(Verdict(False, seat, seq, text, DISCONNECTED))
    return out


def audit(table: Table) -> Verdict:
    """``FAIR``, the earliest cheat, or (no cheat) the earliest disconnection, as (seat, seq, reason, kind)."""
    if table.abandoned is not None:
        gone = silence(table)
        return gone[0] if gone else Verdict(False, None, table.head, f"abandoned: {table.abandoned}", kind=ABANDONED)
    faults: list[Verdict] = []
    secrets = {seat: rounds for seat, rounds in table.card_secrets.items() if seat in table.published}
    claimant = table.claim[0] if table.claim is not None and table.claim[3] else None
    missing = [s for s in range(table.n) if s not in table.published and s not in table.gone and s != claimant]
    deliveries, delivery_faults = _open_deliveries(table)
    faults += delivery_faults
    faults += [Verdict(False, seat, seq, reason) for seat, seq, reason in table.escrow_faults]
    if claimant is None or claimant in table.published:  # a claimant keeps its secrets: no card audit
        found = table.ledger.audit(secrets, [(src, keys) for _, src, keys in deliveries])
        if found is not None:
            faults.append(Verdict(False, found[0], _card_seq(table, found[0], found[1], deliveries), found[1]))
    faults += _commitments(table)
    if not missing and not faults:
        faults += _replay(table, secrets)
    if faults:
        return min(faults, key=_order)
    quiet = silence(table)
    for seat in missing:
        seq = table.entries_of.get(("secrets", seat, 0), table.head)
        quiet.append(Verdict(False, seat, seq, "did not publish its card secrets for every round", DISCONNECTED))
    if not quiet:
        return FAIR
    return min(quiet, key=_order)


def _order(verdict: Verdict) -> tuple[int, int]:
    """The earliest entry first, then the lowest seat (a verdict that names no seat before the others)."""
    return (verdict.seq if verdict.seq is not None else 1 << 40, verdict.seat if verdict.seat is not None else -1)


def _open_deliveries(table: Table) -> tuple[list[tuple[int, int, dict[int, bytes]]], list[Verdict]]:
    out, faults = [], []
    for seq, source, target, box in table.deliveries:
        published = table.published.get(source)
        if published is None or source in table.escrows:
            continue  # gone silent, or left with its delivery keys in an escrow that never opened
        try:
            key = published["deliveries"].get(seq)  # the delivery key of that box only (crypto/private.py)
            if key is None:
                raise SealError("its delivery key was not published")
            context = delivery_context(table.room, source, target, seq)
            plain = open_with_delivery_key(key, table.seats[source].box, table.seats[target].box, context, box)
            keys = keys_from_body(source, decode(plain))
        except (SealError, CardProtocolError, ValueError, TypeError) as exc:
            faults.append(Verdict(False, source, seq, f"private delivery does not open to card keys ({exc})"))
            continue
        out.append((seq, source, keys))
    return out, faults


def _card_seq(table: Table, seat: int, reason: str, deliveries: list[tuple[int, int, dict[int, bytes]]]) -> int:
    """The entry a card fault is in, from what the ledger's reason names."""
    round_match = _ROUND.search(reason)
    slot_match = _SLOT.search(reason)
    if "shuffle pass" in reason and round_match:
        return table.entries_of.get(("shuffle", seat, int(round_match.group(1))), table.head)
    if "lock pass" in reason and round_match:
        return table.entries_of.get(("lock", seat, int(round_match.group(1))), table.head)
    if "delivered" in reason:
        return next((seq for seq, src, _ in deliveries if src == seat), table.head)
    if slot_match:
        slot = int(slot_match.group(1))
        for kind in ("key", "show"):
            if (kind, seat, slot) in table.entries_of:
                return table.entries_of[(kind, seat, slot)]
    return table.entries_of.get(("secrets", seat, 0), table.head)


def _commitments(table: Table) -> list[Verdict]:
    faults = []
    for secret, (seat, digest, seq) in sorted(table.commits.items()):
        if secret in table.opened:
            continue
        published = table.published.get(seat)
        if published is None:
            continue  # a seat gone silent: named below
        item = published["sealed"].get(secret)
        if item is None:
            faults.append(Verdict(False, seat, seq, f"did not open its sealed value {secret} at the end"))
            continue
        salt, value = item
        if not opens(digest, "sealed-value", table.room, seat, salt, value):
            faults.append(Verdict(False, seat, seq, f"false reveal: sealed value {secret} does not open at the end"))
    return faults


def _sealed_values(table: Table) -> dict[int, Any]:
    values = {secret: value for secret, (_, value) in table.opened.items()}
    for published in table.published.values():
        for secret, (_, value) in published["sealed"].items():
            values.setdefault(secret, value)
    return values


def _known_cards(table: Table, secrets: dict[int, Any]) -> tuple[dict[int, int], bool]:  # noqa: C901 (tests/test_complexity.py)
    """Every slot's card that the published secrets open, and whether that is every slot of every round.

    A round whose every participant's secrets are known gives all its cards; otherwise each slot
    shown, or dealt to a seat whose secrets are known (its key and the published ones open it).
    """
    cards: dict[int, int] = {}
    complete = True
    for deck in table.ledger.rounds:
        by_seat = {}
        for seat in deck.participants:
            rounds = secrets.get(seat) or table.ledger.departed.get(seat)
            if rounds is not None and deck.round in rounds:
                by_seat[seat] = rounds[deck.round]
        if len(by_seat) == len(deck.participants):
            try:  # in order: a re-slotting (SL-10) reads the cards of the slots it moved
                cards.update(deck.cards_by_slot(by_seat, cards))
                continue
            except KeyError:  # a re-slotting of slots whose cards are unknown: open what can be opened
                pass
        complete = False
        if deck.phase != "ready":
            continue
        for slot in deck.slots:
            try:
                card = deck.public_card(slot)
                owner = deck.dealt_to(slot)
                if card is None and owner in by_seat:
                    card = deck.open_slot(slot, by_seat[owner].keys[deck.position(slot)])
            except CardProtocolError:
                continue  # a slot that does not open: the card audit names who is at fault
            if card is not None:
                cards[slot] = card
    return cards, complete


def _replay(table: Table, secrets: dict[int, Any]) -> list[Verdict]:
    """Replay every move; the first one that its author's known secrets make illegal is a fault.

    With every secret known the check runs with full knowledge.  Otherwise an action is checked
    with what its author knew, when its author's secrets are known (published at the end or
    from its leave notice's escrow); the actions of a seat gone with its secrets are replayed unchecked.
    """
    cards, complete = _known_cards(table, secrets)
    sealed = _sealed_values(table)
    known = set(table.published) - set(table.escrows)  # a leaver whose escrow never opened: unknown
    full = complete and not (set(range(table.n)) - known)
    state = table.spec.new_state(table.n, dict(table.options))
    for seq, seat, action in table.pushes:
        if action is None:
            state.forfeit(seat)
            continue
        if seat == TABLE and action[0] == "set-aside":
            state.set_aside(action[1])
            continue
        if seat == TABLE or full or seat in known:
            knowledge = None if seat == TABLE else Knowledge(None if full else seat, dict(cards), dict(sealed))
            try:
                state.check(seat, action, knowledge)
            except IllegalAction as exc:
                return [Verdict(False, seat, seq, f"illegal action with full knowledge: {exc}")]
            except Exception:  # an engine that cannot judge with partial knowledge: stop here, blame no one
                return []
        state.apply(seat, action)
    if state.hash() != table.state.hash():  # pragma: no cover - a replica bug, not a cheat
        return [Verdict(False, None, table.head, "the replay does not reach the final state")]
    return []
