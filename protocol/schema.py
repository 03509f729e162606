"""The body of every entry and notice type, checked by shape before anything else.

Each type has a fixed set of fields with a checker each; a body with a missing,
extra or ill-typed field is malformed.  Content checks that need the game (is this
action legal, does this key open that slot) come later, in the session.

Entry types (written into the log, one per sequence number):

``genesis``        seat 0 fixes game, options, seats and their keys, a nonce, the timeout,
                   and optionally ``relays``: the room's relay and its fallbacks, in order
``seed-commit``    a seat commits to its share of the joint seed
``seed-reveal``    ... and opens it once every seat has committed
``action``         a seat's decision: the public action, commitments to sealed values,
                   the seat's own keys for cards the action shows, a memo sealed to itself
``reveal``         a seat opens a sealed value the game needs now
``chance-commit``  interactive chance (dice): a seat commits to a fresh share
``chance-reveal``  ... and opens it once every seat has committed
``shuffle``        a mental-poker shuffle pass
``lock``           a mental-poker lock pass
``keys``           a seat's keys for card slots being dealt to others
``deliver``        a seat's own keys for its hand, sealed to one other seat (Hacker Attack)
``gone``           a designated seat records that a seat left, or that every other seat voted it gone
``secrets``        the end of the game: a seat publishes its salts, card secrets and the delivery
                   key of each private delivery it sent (never its agreement key)

Notice types (signed like entries, but outside the log):

``vote``           "seat ``target`` owes entry ``seq`` and has been silent too long"
``leave``          "I leave"; carries what play needs to go on without the leaver (its keys of
                   the undrawn cards, its sealed values) and, escrowed with the seats that stay,
                   its end-of-game secrets, which open at the end (its hand stays face down)

Types are exact: an integer field takes an ``int`` and never a ``bool`` (``True`` is an
``int`` to Python and hashes apart from ``1`` in the canonical encoding, so a checker
that let it through would let one value have two encodings); text is ``str``, bytes are
``bytes`` of the stated size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Checker = Callable[[Any], str | None]

#: The silence timeout a host may choose: at least 30 s, so that nobody is voted
#: gone for stopping to think, and at most 7 days.  A joiner refuses a genesis outside this
#: range (``PeerSession``), unless it was given that very value as an explicit test/dev
#: override (``dev_timeout_ms``), which the program's own join never passes.
MIN_TIMEOUT_MS = 30_000
MAX_TIMEOUT_MS = 7 * 24 * 3600 * 1000


def _bytes(n: int) -> Checker:
    def check(v: Any) -> str | None:
        return None if type(v) is bytes and len(v) == n else f"must be {n} bytes"

    return check


def _blob(limit: int) -> Checker:
    def check(v: Any) -> str | None:
        return None if type(v) is bytes and len(v) <= limit else f"must be bytes of at most {limit}"

    return check


def _int(lo: int, hi: int) -> Checker:
    def check(v: Any) -> str | None:
        return None if type(v) is int and lo <= v <= hi else f"must be an integer in {lo}..{hi}"

    return check


def _text(limit: int) -> Checker:
    def check(v: Any) -> str | None:
        return None if type(v) is str and len(v) <= limit else f"must be text of at most {limit}"

    return check


def _plain(v: Any) -> str | None:
    """Anything canonically encodable (the envelope already checked that)."""
    return None


def _map(key: Checker, value: Checker, limit: int) -> Checker:
    def check(v: Any) -> str | None:
        if type(v) is not dict or len(v) > limit:
            return f"must be a map of at most {limit}"
        for k, x in v.items():
            problem = key(k) or value(x)
            if problem:
                return f"item {k!r}: {problem}"
        return None

    return check


def _array(item: Checker, lo: int, hi: int) -> Checker:
    def check(v: Any) -> str | None:
        if type(v) is not tuple or not lo <= len(v) <= hi:
            return f"must be an array of {lo}..{hi}"
        for i, x in enumerate(v):
            problem = item(x)
            if problem:
                return f"item {i}: {problem}"
        return None

    return check


def _action(v: Any) -> str | None:
    if type(v) is not tuple or not 1 <= len(v) <= 32 or type(v[0]) is not str:
        return "must be an array starting with a verb"
    return None


def _fields(optional: dict[str, Checker] | None = None, **spec: Checker) -> Checker:
    """A map with exactly the fields of ``spec``, plus any of ``optional`` (fields added to a type
    later: a body without them keeps its meaning and its hash, so older logs stay valid)."""
    extra_ok = dict(optional or {})

    def check(v: Any) -> str | None:
        if type(v) is not dict:
            return "must be a map"
        keys = set(v) - {k for k in extra_ok if k in v}
        if keys != set(spec):
            missing = sorted(set(spec) - keys)
            extra = sorted(str(k) for k in keys - set(spec))
            return f"fields wrong: missing {missing}, unexpected {extra}"
        for name, checker in [*spec.items(), *((k, c) for k, c in extra_ok.items() if k in v)]:
            problem = checker(v[name])
            if problem:
                return f"{name} {problem}"
        return None

    return check


def _one_of(*values: str) -> Checker:
    def check(v: Any) -> str | None:
        return None if type(v) is str and v in values else f"must be one of {values}"

    return check


#: Relays a genesis may name (the room's relay first, then its fallbacks; see relay/transport/failover.py).
MAX_RELAYS = 8
RELAY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:/[]%~")


def _relay_address(v: Any) -> str | None:
    """A relay address as the relay layer writes it (``host:port``, ``mqtts://host``, ``wss://host/path``).

    The protocol does not connect anywhere; it only refuses what cannot be an address or could
    carry a secret: no login (``@``), no spaces or control characters, at most 200 characters.
    """
    if type(v) is not str or not 1 <= len(v) <= 200:
        return "must be text of 1..200"
    if not set(v) <= RELAY_CHARS:
        return "must be a relay address (letters, digits and .-_:/[]%~ only; never a login)"
    return None


def relays_problem(v: Any) -> str | None:
    """None if ``v`` may be a genesis's ``relays`` (a tuple of 1..8 distinct addresses), else why not."""
    problem = _array(_relay_address, 1, MAX_RELAYS)(v)
    if problem is None and len(set(v)) != len(v):
        return "must not name a relay twice"
    return problem


B32 = _bytes(32)
SLOT = _int(0, 1 << 20)
SEAT_INFO = _fields(name=_text(40), sign=B32, box=B32)


def _salted(v: Any) -> str | None:
    """``[salt, value]``: a 32-byte salt and the value it seals."""
    if type(v) is not tuple or len(v) != 2:
        return "must be a [salt, value] pair"
    problem = B32(v[0])
    return None if problem is None else f"salt {problem}"


#: What a seat publishes at the end (and a leaver on leaving): card secrets as the card
#: ledger encodes them, every sealed value with its salt, and the delivery key of each
#: private delivery it sent (entry seq -> key).  Never the agreement key: that would open
#: the deliveries the seat *received* (protocol/crypto/private.py).
SECRETS = _fields(
    cards=_plain,
    sealed=_map(_int(0, 1 << 30), _salted, 4096),
    deliveries=_map(_int(1, (1 << 32) - 1), B32, 4096),
    escrow=_map(_int(0, 63), B32, 16),
)
#: A leaver's end-of-game secrets, encrypted, with one sealed XOR share of the key per seat
#: that stays and the digest of each share (protocol/escrow.py).  ``escrow`` in SECRETS: the
#: shares this seat holds of earlier leavers' escrows, published at the end (or on leaving).
ESCROW = _fields(
    box=_blob(60000),  # never more than a gone record's proof can carry
    shares=_map(_int(0, 63), _fields(box=_blob(1024), digest=B32), 16),
)

BODIES: dict[str, Checker] = {
    "genesis": _fields(
        game=_text(40),
        options=_map(_text(40), _plain, 64),
        seats=_array(SEAT_INFO, 1, 16),
        nonce=B32,
        timeout_ms=_int(1, MAX_TIMEOUT_MS),
        # The relays the game may move to, in order (optional: a genesis without them stays valid).
        optional={"relays": relays_problem},
    ),
    "seed-commit": _fields(c=B32, hash=B32),
    "seed-reveal": _fields(share=B32, hash=B32),
    "action": _fields(
        action=_action,
        commits=_map(_int(0, 1 << 30), B32, 64),
        keys=_map(SLOT, B32, 64),
        memo=_blob(8192),
        hash=B32,
    ),
    "reveal": _fields(secret=_int(0, 1 << 30), value=_plain, salt=B32, hash=B32),
    "chance-commit": _fields(c=B32, hash=B32),
    "chance-reveal": _fields(share=B32, hash=B32),
    "shuffle": _fields(passed=_plain, hash=B32),
    "lock": _fields(passed=_plain, hash=B32),
    "keys": _fields(keys=_map(SLOT, B32, 256), hash=B32),
    "deliver": _fields(box=_blob(16384), passed=_plain, hash=B32),
    "gone": _fields(target=_int(0, 63), reason=_one_of("silent", "left"), proofs=_array(_blob(60000), 1, 16), hash=B32),
    "secrets": _fields(secrets=SECRETS, hash=B32),
}
NOTICES: dict[str, Checker] = {
    "vote": _fields(target=_int(0, 63)),
    "leave": _fields(secrets=SECRETS, escrow=ESCROW),
}
ENTRY_TYPES = frozenset(BODIES)
NOTICE_TYPES = frozenset(NOTICES)


def check_body(type_: str, body: Any) -> str | None:
    """None if ``body`` has the shape of a ``type_`` body, else what is wrong."""
    checker = BODIES.get(type_) or NOTICES.get(type_)
    if checker is None:
        return f"unknown type {type_!r}"
    return checker(body)
