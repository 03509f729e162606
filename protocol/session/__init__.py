"""``PeerSession``: one seat's (or an observer's) view of a room, sans-I/O.

Bytes and the time in milliseconds come in (:meth:`PeerSession.receive`,
:meth:`PeerSession.tick`), events come back, and the bytes this seat wants
published wait in :meth:`PeerSession.take_outgoing` (log entries) and
:meth:`PeerSession.take_notices` (votes, leave notices).  No socket, no clock,
no global randomness: every secret of the seat (shares, salts, card secrets,
the per-game agreement key, nonces) is derived from the one 32-byte ``secret``
the caller gives, so a restarted peer with the same secret rebuilds itself from
the log alone (its sealed values come back from the memo it sealed to itself).

What the session writes by itself (auto-entries): seed and chance shares,
shuffle and lock passes, keys for cards dealt to others, owed reveals, private
deliveries, the end-of-game secrets, and — when it is the designated seat — the
record of a seat that left or was voted gone.  What it never writes by itself:
a decision.  That is :meth:`PeerSession.submit`, after a :class:`YourTurn`.

The session is composed of parts, each the one owner of its state:
:mod:`.buffer` (what came in and is not applied yet, with its bounds and the
screening of wire bytes), :mod:`.departures` (leaving, votes, silence and the
two-seat claim), :mod:`.writer` (signing, the queues, publish-first) and
:mod:`.secrets` (everything derived from the seat's secret); :mod:`.peer`
holds the session itself and the order in which the parts act.
"""

from protocol.session.buffer import MAX_AHEAD, MAX_EARLY, MAX_EARLY_BYTES, MAX_FORKS, MAX_SUSPECTS
from protocol.session.departures import DEFAULT_TIMEOUT_MS, timeout_problem
from protocol.session.peer import PeerSession
from protocol.session.secrets import agreement_key
from protocol.session.writer import REQUEST_TAG

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "MAX_AHEAD",
    "MAX_EARLY",
    "MAX_EARLY_BYTES",
    "MAX_FORKS",
    "MAX_SUSPECTS",
    "REQUEST_TAG",
    "PeerSession",
    "agreement_key",
    "timeout_problem",
]
