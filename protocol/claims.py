"""The record of two-seat claims: claims their target's own entry voided, and when a later claim is contested.

With two active seats a ``gone`` backed by its writer's vote alone is a *claim*, and the claimed
seat's own entry for that seq voids it (docs/protocol.md, the two-seat rule).  A voided claim is not
forgotten: its claimant published it on a notice topic of its own beside the log, every replica
keeps it (:class:`VoidedClaim`), and so does the saved game.  It matters when the seats' roles turn:
seat Y claimed X gone at entry n, X's own entry n voided that, and now X claims Y gone at m > n while
Y has written nothing since n.  Then the record holds two silences it cannot tell apart (Y left when
its claim stood, or X waited for Y to leave before it answered), so X's claim is *contested*: it
ends the game like a claim, and awards nobody.

Kept apart from the replica (:mod:`protocol.table`) and below the audit that reads it, so both use
one rule; :class:`Chain` is what it reads of a replica.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from protocol.envelope import Envelope, parse
from protocol.errors import ProtocolError
from protocol.seats import SeatInfo


@dataclass(frozen=True, slots=True)
class VoidedClaim:
    """``claimant`` claimed ``target`` gone at entry ``seq`` (``envelope``, signed by it), and that claim is void."""

    claimant: int
    target: int
    seq: int
    envelope: Envelope


class Chain(Protocol):
    """What the claim rules read of a replica (:class:`protocol.table.Table` is one)."""

    @property
    def room(self) -> str: ...
    @property
    def game_id(self) -> bytes: ...
    @property
    def seats(self) -> Sequence[SeatInfo]: ...
    @property
    def head(self) -> int: ...
    @property
    def log(self) -> Sequence[Envelope]: ...

    def active_at(self, seq: int) -> list[int]: ...


def claim_problem(chain: Chain, env: Envelope) -> str | None:
    """None if ``env`` is a two-seat claim at its seq, else why it is not.

    A claim: a ``gone`` of reason ``silent``, signed by its writer, chained to this log's entry before
    its seq, at a seq where exactly the writer and its target were active, backed by one proof, the
    writer's own vote for that seq, chained to the same entry and naming the same target.  (So a seat
    can put at most one claim per seq on the record: one chained where the log goes.)  Whether it is
    void is :func:`voided`.
    """
    body = env.body
    target = body.get("target")
    seats = chain.seats
    if env.type != "gone" or body.get("reason") != "silent" or not isinstance(target, int):
        return "it is no silent departure"
    if env.room != chain.room or env.game != chain.game_id or not 0 <= env.seat < len(seats):
        return "it is not of this game"
    if not 0 < env.seq <= chain.head + 1 or env.prev != chain.log[env.seq - 1].digest:
        return f"it does not follow this log's entry {env.seq - 1}"
    if not env.signed_by(seats[env.seat].sign):
        return f"it is not signed by seat {env.seat}"
    if sorted(chain.active_at(env.seq)) != sorted({env.seat, target}) or env.seat == target:
        return f"seats {env.seat} and {target} were not the two seats left at entry {env.seq}"
    proofs = body.get("proofs", ())
    if len(proofs) != 1:
        return "it is not backed by its writer's vote alone"
    try:
        vote = parse(proofs[0])
    except ProtocolError as exc:
        return f"its vote is malformed ({exc.reason})"
    same = (vote.room, vote.game, vote.seq, vote.prev, vote.seat) == (env.room, env.game, env.seq, env.prev, env.seat)
    if vote.type != "vote" or not same or vote.body.get("target") != target:
        return "its vote is not its writer's vote against that seat at that entry"
    if not vote.signed_by(seats[env.seat].sign):
        return f"its vote is not signed by seat {env.seat}"
    return None


def voided(chain: Chain, env: Envelope) -> bool:
    """Whether the log holds the claimed seat's own entry for the claim's seq, chained to the same entry."""
    if not 0 < env.seq <= chain.head:
        return False
    entry = chain.log[env.seq]
    return entry.seat == env.body.get("target") and entry.type != "gone" and entry.prev == env.prev


def voided_problem(chain: Chain, env: Envelope) -> str | None:
    """None if ``env`` is a two-seat claim that the log voids (what a saved game may keep), else why not."""
    problem = claim_problem(chain, env)
    if problem is None and not voided(chain, env):
        problem = f"the log does not hold seat {env.body['target']}'s own entry {env.seq} after the same entry"
    return problem


def contest(chain: Chain, record: Iterable[VoidedClaim], claimant: int, target: int, seq: int) -> VoidedClaim | None:
    """The voided claim that contests ``claimant``'s claim that ``target`` was gone at ``seq``, if one does.

    One of ``target``'s claims against ``claimant`` at an earlier seq n, voided by the log, while
    ``target`` wrote no entry between n and ``seq``: it has not spoken since its claim was voided,
    so the two silences cannot be told apart.  Had it written one, it was back and took the voiding
    entry, and the claim at ``seq`` is an ordinary claim.
    """
    for claim in record:
        if (claim.claimant, claim.target) != (target, claimant) or not claim.seq < seq:
            continue
        if voided(chain, claim.envelope) and all(e.seat != target for e in chain.log[claim.seq + 1 : seq]):
            return claim
    return None


def contested_reason(claimant: int, target: int, seq: int, by: VoidedClaim) -> str:
    """The verdict's words for a contested claim: both seats, both entries, and why nobody wins."""
    return (
        f"contested at entry {seq}: seat {claimant} claimed seat {target} gone at entry {seq}, but seat {target} "
        f"had claimed seat {claimant} gone at entry {by.seq}, a claim seat {claimant}'s own entry {by.seq} voided, "
        f"and wrote nothing since: the two silences cannot be told apart (no result for either seat)"
    )
