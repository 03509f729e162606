"""Departures: seats that leave, seats voted gone, silence and its timeouts, and the two-seat claim.

A seat may leave (a signed notice), or fall silent: once it is late by the genesis's timeout
every other remaining seat votes it gone, and the designated seat records it ``gone`` with the
votes as proof.  With two seats left the only voter is the seat that gains, so its record is a
*claim* (a win claimed after disconnection), never a result: the claimed seat's own entry for
that seq voids it (the two-seat rule, docs/protocol.md).  A leaver's end-of-game secrets are
escrowed with the seats that stay and open at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.crypto.private import SealError, delivery_context
from protocol.envelope import Envelope, Header, parse
from protocol.errors import ProtocolError
from protocol.escrow import make_escrow, share_digest
from protocol.schema import MAX_TIMEOUT_MS, MIN_TIMEOUT_MS
from protocol.session.buffer import MAX_AHEAD
from protocol.session.secrets import OwnSecrets
from protocol.table import Expect, Table

DEFAULT_TIMEOUT_MS = 120_000
#: How a share is sealed to its holder: ``seal(holder, seq, share)``.
Sealer = Callable[[int, int, bytes], bytes]


def timeout_problem(timeout_ms: int, dev_timeout_ms: int | None = None) -> str | None:
    """None if a genesis may fix ``timeout_ms`` as its silence timeout, else why not.

    The host chooses within MIN_TIMEOUT_MS..MAX_TIMEOUT_MS (30 s .. 7 days): shorter, and
    honest seats' automatic votes eject whoever stops to think; a 1 ms genesis would let
    its host eject anyone.  Tests and demos run short games through ``dev_timeout_ms``:
    the one value outside the range this session was told, explicitly, to accept.  The
    program's own lobby and join never pass it, so a joiner of a real game refuses such
    a genesis (``Rejected`` with code ``genesis``) instead of accepting it silently.
    """
    if MIN_TIMEOUT_MS <= timeout_ms <= MAX_TIMEOUT_MS or timeout_ms == dev_timeout_ms:
        return None
    return f"timeout of {timeout_ms} ms is outside {MIN_TIMEOUT_MS // 1000} s .. {MAX_TIMEOUT_MS // 86_400_000} days"


class Departures:
    """Who left, who is voted gone, and how long the room has waited: one owner for judging absence.

    It owns the leave notices and the votes received, the votes and acknowledgements this seat
    cast, whether this seat left, and the silence clock: since when the next entry is awaited,
    whether the relay is lost (nobody is judged then), and which seqs were reported overdue or
    had their wait restarted because this replica was behind.  Absence is judged on this clock
    alone, so every rule that may end a seat's game by its silence is here.
    """

    def __init__(self) -> None:
        self._leaves: dict[int, Envelope] = {}
        self._votes: dict[tuple[int, int], dict[int, Envelope]] = {}
        self._voted: set[tuple[int, int]] = set()
        self._acked: set[int] = set()
        self._overdue: set[int] = set()
        self._caught_up: set[int] = set()  # seqs for which the wait restarted because this replica was behind
        self.left = False
        #: Since when (ms) the next entry is awaited.
        self.since = 0
        #: The clock stands still while this peer cannot reach the relay.
        self.offline = False

    # -- notices -----------------------------------------------------------------------------
    def take_vote(self, table: Table | None, env: Envelope, me: int | None) -> Envelope | None:
        """Keep a vote; the applied entry it stands against, if this seat should say it built on it.

        A vote against an entry I already applied: its voter holds that entry back until a
        remaining seat builds on it; I tell it I did (the votes against it cannot complete).
        """
        head = table.head if table is not None else 0
        if head < env.seq <= head + MAX_AHEAD:
            self._votes.setdefault((env.seq, env.body["target"]), {})[env.seat] = env
        elif 0 < env.seq <= head and table is not None:
            applied = table.log[env.seq]
            target = env.body["target"]
            against = target == applied.seat and target not in (env.seat, me)
            if against and applied.type != "gone" and applied.prev == env.prev:
                return applied
        return None

    def take_leave(self, env: Envelope) -> None:
        """Keep a seat's leave notice (its first)."""
        self._leaves.setdefault(env.seat, env)

    def first_ack(self, seq: int) -> bool:
        """Whether this seat has not yet said it built on entry ``seq`` (it says so once)."""
        if seq in self._acked:
            return False
        self._acked.add(seq)
        return True

    # -- votes -------------------------------------------------------------------------------
    def cast(self, seq: int, target: int) -> bool:
        """Record this seat's vote that ``target`` is gone at ``seq``; False if it voted so already."""
        if (seq, target) in self._voted:
            return False
        self._voted.add((seq, target))
        return True

    def has_voted(self, seq: int, target: int) -> bool:
        return (seq, target) in self._voted

    def vote_stands(self, seq: int, target: int, two_seats: bool) -> bool:
        """Whether my vote against ``target`` at ``seq`` holds its late entry back.

        With two seats my vote alone never outweighs its entry: it is dropped.
        """
        if two_seats:
            self._voted.discard((seq, target))
        return (seq, target) in self._voted

    def drop_vote(self, seq: int, target: int) -> None:
        """Another remaining seat built on the late entry: the votes can never complete."""
        self._voted.discard((seq, target))

    def voted_against(self, entry: Envelope, me: int | None) -> bool:
        """Whether a seat other than me and ``entry``'s author voted against that author, on its chain."""
        votes = self._votes.get((entry.seq, entry.seat), {}).values()
        return any(v.seat not in (me, entry.seat) and v.prev == entry.prev for v in votes)

    def vote_chained(self, seq: int, tips: set[bytes], seats: set[int]) -> bool:
        """Whether one of ``seats`` cast a vote about ``seq`` chained to one of ``tips``."""
        return any(
            vote_seq == seq and any(v.prev in tips and v.seat in seats for v in votes.values())
            for (vote_seq, _), votes in self._votes.items()
        )

    def votes_beyond(self, seq: int) -> bool:
        """Whether a vote about a seq after ``seq`` came (the chain went on past it somewhere)."""
        return any(later > seq for later, _ in self._votes)

    def gone_body(self, table: Table, exp: Expect) -> dict[str, Any] | None:
        """The ``gone`` record of ``exp.writer`` this seat may write as the designated seat, if it may now.

        A leave notice is proof from the seq it names on; otherwise every other remaining seat's
        vote, chained to the head.
        """
        probe = table.state.clone()
        if table.result is None and not probe.is_over() and not table.departure_waits():
            probe.forfeit(exp.writer)
        leave = self._leaves.get(exp.writer)
        if leave is not None and exp.seq >= leave.seq:  # not before the entries the leaver wrote before it
            return {"target": exp.writer, "reason": "left", "proofs": [leave.data], "hash": probe.hash()}
        votes = self._votes.get((exp.seq, exp.writer), {})
        valid = {s: v for s, v in votes.items() if v.prev == table.head_digest}
        if all(s in valid for s in table.active() if s != exp.writer):
            proofs = [valid[s].data for s in sorted(valid) if s in table.active() and s != exp.writer]
            return {"target": exp.writer, "reason": "silent", "proofs": proofs, "hash": probe.hash()}
        return None

    # -- silence -----------------------------------------------------------------------------
    def restart_wait(self, now: int) -> None:
        """An entry was applied (or the replica rebuilt): the wait for the next one starts now."""
        self.since = now

    def wait_from(self, when: int) -> None:
        """The wait starts no earlier than ``when`` (a reconnection's grace, a catch-up)."""
        self.since = max(self.since, when)

    def catch_up(self, seq: int, now: int) -> bool:
        """Restart the wait for ``seq`` because this replica is behind, once per seq; whether it did.

        The entry missing here reached someone; once per seq, so an entry far ahead, which
        anyone can sign for itself, cannot hold every vote off for ever.
        """
        if seq in self._caught_up:
            return False
        self._caught_up.add(seq)
        self.wait_from(now)
        return True

    def silent_too_long(self, now: int, timeout_ms: int) -> bool:
        return now - self.since >= timeout_ms

    def first_overdue(self, seq: int) -> bool:
        """Whether entry ``seq`` is reported overdue for the first time (it is reported once)."""
        if seq in self._overdue:
            return False
        self._overdue.add(seq)
        return True

    def forget_from(self, seq: int) -> None:
        """The replica is rebuilt to before ``seq``: my votes and reports from ``seq`` on are void."""
        self._voted = {(s, t) for s, t in self._voted if s < seq}
        self._overdue = {s for s in self._overdue if s < seq}


# -- the two-seat rule ---------------------------------------------------------------------------
def is_claim_against(table: Table | None, env: Envelope, target: int) -> bool:
    """Whether ``env`` is a two-seat claim: a silent-``gone`` of ``target`` backed by its writer's vote alone."""
    if env.type != "gone" or env.body.get("target") != target or env.body.get("reason") != "silent":
        return False
    if table is None or len(table.active_at(env.seq)) != 2 or len(env.body.get("proofs", ())) != 1:
        return False  # two seats when that entry was due (a claim read back late finds the game gone on)
    try:
        return parse(env.body["proofs"][0]).seat == env.seat
    except ProtocolError:
        return False


def claim_takes(table: Table | None, env: Envelope | Header) -> bool:
    """A game ended by a claim still takes the claimed seat's own entry for the claim's seq and what
    follows it; a finished game with a claim, the claimed seat's claims before it.

    The entries after that seq may come before the entry that voids the claim: they wait for it.
    The claimed seat's earlier claim against the claimant, voided by the claimant's entry, may
    contest the claim (:mod:`protocol.claims`): it is read, however late it comes, if it is a
    ``gone`` where two seats were left, chained where the log's entry for that seq is.
    """
    if table is None or table.claim is None or env.is_notice:
        return False
    _, target, seq, ended = table.claim
    if env.seat == target and env.type == "gone" and 0 < env.seq < seq:
        return len(table.active_at(env.seq)) == 2 and env.prev == table.log[env.seq].prev
    return ended and (env.seq > seq or (env.seat == target and env.seq == seq))


# -- a leaver's escrow ---------------------------------------------------------------------------
def escrow_shares(table: Table, secrets: OwnSecrets) -> dict[int, bytes]:
    """My share of each leaver's escrow (published at the end, or when I leave in turn)."""
    seat = secrets.seat
    assert secrets.box is not None and seat is not None
    out = {}
    for leaver, (notice_seq, escrow) in table.escrows.items():
        entry = escrow["shares"].get(seat)
        if entry is None:
            continue
        try:
            context = delivery_context(secrets.room, leaver, seat, notice_seq)
            share = secrets.open_from(table, leaver, context, entry["box"])
        except SealError:
            continue  # a box that does not open: the escrow stays closed (the leaver's doing)
        if share_digest(table.game_id, leaver, seat, share) == entry["digest"]:
            out[leaver] = share
    return out


def escrow(table: Table, seat: int, seq: int, late: bytes, secrets: OwnSecrets, seal: Sealer) -> dict[str, Any]:
    """A leaver's escrow of ``late`` (its secrets for the end), one share sealed to each seat that stays.

    ``seal(holder, seq, share)`` seals a share to its holder (the session's own sealing).
    """
    holders = [s for s in table.active() if s != seat]
    randomness = secrets.stream(f"escrow/{seq}").token(32)
    box, shares = make_escrow(table.game_id, seat, holders, late, randomness)
    return {
        "box": box,
        "shares": {
            holder: {"box": seal(holder, seq, share), "digest": share_digest(table.game_id, seat, holder, share)}
            for holder, share in shares.items()
        },
    }
