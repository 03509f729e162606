"""The end-of-game audit: open everything, re-check everything, replay with full knowledge.

Run by every peer once every remaining seat has published its secrets (and by
``python -m protocol verify`` on a saved game).  The answer is ``fair`` or the
earliest fault found: the seat, the entry it wrote, and why.

What is checked, in this order of evidence:

1. every seat's card secrets re-create every shuffle and lock pass it wrote, every
   key it published is its true lock key, every shown card is the slot's card
   (the card ledger's audit), and every private delivery, opened with the
   delivery key its sender published for it, holds the true keys;
2. every commitment to a sealed value opens with the published salt and value;
3. the whole game replays with full knowledge (every card, every sealed value):
   a rule that only a secret could decide, broken by its owner, is found here;
4. a seat declared gone for silence is named (it withheld an entry the game needed).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engines.core import TABLE, IllegalAction, Knowledge

from .cards import CardProtocolError, keys_from_body
from .crypto.commit import opens
from .crypto.private import SealError, delivery_context, open_with_delivery_key
from .events import FAIR, Verdict

if TYPE_CHECKING:
    from .table import Table

_ROUND = re.compile(r"round (\d+)")
_SLOT = re.compile(r"slot (\d+)")


def audit(table: Table) -> Verdict:
    """``FAIR`` or the earliest fault, as (seat, seq, reason)."""
    faults: list[Verdict] = []
    if table.abandoned is not None:
        faults = [
            Verdict(False, seat, seq, f"withheld entry {seq}: declared gone by every other seat")
            for seat, (reason, seq) in sorted(table.gone.items())
            if reason == "silent"
        ]
        return faults[0] if faults else Verdict(False, None, table.head, f"abandoned: {table.abandoned}")
    secrets = {seat: rounds for seat, rounds in table.card_secrets.items() if seat in table.published}
    missing = [s for s in range(table.n) if s not in table.published and s not in table.gone]
    deliveries, delivery_faults = _open_deliveries(table)
    faults += delivery_faults
    found = table.ledger.audit(secrets, [(src, keys) for _, src, keys in deliveries])
    if found is not None:
        faults.append(Verdict(False, found[0], _card_seq(table, found[0], found[1], deliveries), found[1]))
    faults += _commitments(table)
    if not missing and not faults and not table.ledger.gone():
        faults += _replay(table, table.ledger.cards_by_slot(secrets))
    for seat, (reason, seq) in sorted(table.gone.items()):
        if reason == "silent":
            faults.append(Verdict(False, seat, seq, f"withheld entry {seq}: declared gone by every other seat"))
    for seat in missing:
        if seat not in table.gone:
            seq = table.entries_of.get(("secrets", seat, 0), table.head)
            faults.append(Verdict(False, seat, seq, "did not publish its card secrets for every round"))
    if not faults:
        return FAIR
    return min(faults, key=lambda v: (v.seq if v.seq is not None else 1 << 40, v.seat))


def _open_deliveries(table: Table) -> tuple[list[tuple[int, int, dict[int, bytes]]], list[Verdict]]:
    from engines.core import decode

    out, faults = [], []
    for seq, source, target, box in table.deliveries:
        published = table.published.get(source)
        if published is None:
            continue
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


def _replay(table: Table, cards: dict[int, int]) -> list[Verdict]:
    """Replay every move with full knowledge; the first one the rules refuse is a fault."""
    state = table.spec.new_state(table.n, dict(table.options))
    knowledge = Knowledge(None, dict(cards), _sealed_values(table))
    for seq, seat, action in table.pushes:
        if action is None:
            state.forfeit(seat)
            continue
        try:
            state.check(seat, action, knowledge if seat != TABLE else None)
        except IllegalAction as exc:
            return [Verdict(False, seat, seq, f"illegal action with full knowledge: {exc}")]
        state.apply(seat, action)
    if state.hash() != table.state.hash():  # pragma: no cover - a replica bug, not a cheat
        return [Verdict(False, None, table.head, "the replay does not reach the final state")]
    return []
