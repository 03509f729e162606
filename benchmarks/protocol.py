"""Protocol benchmarks: CPU per peer for the card ledger (and, later, the audit of a full game).

Run ``python3 benchmarks/protocol.py``.  Figures are CPU time (``time.process_time``)
charged to each peer for its own work on its own replica — making its passes
and keys, and checking everything it receives — with every seat simulated in
this one process by :class:`protocol.cards.rehearsal.Rehearsal`.  The median of
a few repetitions is printed; nothing here asserts a timing.

Targets (with the shuffle and lock proofs), 4 seats: shuffle and first deal at most
200 ms CPU per peer, the end-of-game audit at most 300 ms.  The ratios printed are to those
targets and to the figures measured before the proofs (``NO_PROOF_*``, docs/protocol-cards.md).
On a shared machine CPU time grows with the load, so the benchmark also counts each peer's
libsodium operations (which do not depend on it) and prices them at the fastest unit costs it
measures in the same run.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core import SeededStream
from protocol.cards.proofs import remember_verdicts
from protocol.cards.rehearsal import Rehearsal

# Every simulated peer checks every proof itself, as a real peer in its own process does
# (the per-process memo of proof verdicts would let only the first replica pay).
remember_verdicts(False)

CARDS = 44  # System Launch
HAND = 4  # the first deal: four cards to each seat
SHUFFLE_DEAL_TARGET_MS = 200.0
#: Shuffle + first deal and the ledger recheck per peer before the proofs (the table in docs/protocol-cards.md).
NO_PROOF_SHUFFLE_DEAL_MS = {2: 20.0, 4: 28.0, 6: 38.0}
NO_PROOF_RECHECK_MS = {2: 17.0, 4: 34.0, 6: 52.0}


def _one_run(seats: int, seed: int) -> dict[str, float]:
    table = Rehearsal(
        f"bench-{seats}-{seed}",
        seats,
        [SeededStream(seed, f"bench/{s}") for s in range(seats)],
        clock=time.process_time,
    )
    table.shuffle(list(range(CARDS)), list(range(CARDS)))
    shuffle = list(table.cpu)
    table.cpu = [0.0] * seats
    slot = 0
    for _ in range(HAND):
        for seat in range(seats):
            table.draw(slot, seat)
            slot += 1
    deal = list(table.cpu)
    secrets = table.publish_secrets()
    start = time.process_time()
    verdict = table.ledgers[0].audit(secrets)
    audit = time.process_time() - start
    if verdict is not None:
        raise RuntimeError(f"an honest benchmark game did not audit fair: {verdict}")
    return {
        "shuffle_ms": 1000 * max(shuffle),
        "deal_ms": 1000 * max(deal),
        "shuffle_and_deal_ms": 1000 * max(a + b for a, b in zip(shuffle, deal, strict=True)),
        "recheck_ms": 1000 * audit,
    }


def bench_cards(seats: int, repeats: int = 3) -> dict[str, float | int]:
    """CPU per peer (the busiest peer, median of ``repeats``) for shuffle, first deal and recheck."""
    runs = [_one_run(seats, seed) for seed in range(repeats)]
    out: dict[str, float | int] = {"seats": seats, "cards": CARDS}
    for key in runs[0]:
        out[key] = round(statistics.median(r[key] for r in runs), 2)
    return out


#: The libsodium calls the proofs spend their time in, by kind (nacl.bindings names).
OPERATIONS = {
    "mul": ("crypto_scalarmult_ed25519_noclamp",),
    "base": ("crypto_scalarmult_ed25519_base_noclamp",),
    "add": ("crypto_core_ed25519_add", "crypto_core_ed25519_sub"),
    "x25519": ("crypto_scalarmult",),
    "valid": ("crypto_core_ed25519_is_valid_point",),
}


def _counting_clock(kind: str):
    """Patch the libsodium calls of ``kind`` to count themselves; returns (clock, restore).

    Rehearsal charges ``clock()`` differences to the seat doing the work, so a clock that returns
    the running count charges each seat with the operations it did itself.
    """
    from nacl import bindings

    count = [0]
    saved = {name: getattr(bindings, name) for name in OPERATIONS[kind]}

    def wrap(function):
        def counted(*args):
            count[0] += 1
            return function(*args)

        return counted

    for name, function in saved.items():
        setattr(bindings, name, wrap(function))

    def restore() -> None:
        for name, function in saved.items():
            setattr(bindings, name, function)

    return (lambda: float(count[0])), restore


def count_operations(seats: int) -> dict[str, int]:
    """Per peer (the busiest), how many of each operation the shuffle and first deal take: independent of load."""
    out = {}
    for kind in OPERATIONS:
        clock, restore = _counting_clock(kind)
        try:
            table = Rehearsal(f"count-{seats}", seats, [SeededStream(0, f"count/{s}") for s in range(seats)], clock)
            table.shuffle(list(range(CARDS)), list(range(CARDS)))
            slot = 0
            for _ in range(HAND):
                for seat in range(seats):
                    table.draw(slot, seat)
                    slot += 1
        finally:
            restore()
        out[kind] = int(max(table.cpu))
    return out


def unit_costs(batches: int = 20, size: int = 40) -> dict[str, float]:
    """CPU microseconds of one operation of each kind: the fastest of several short batches.

    Other processes on a shared machine slow some batches down (cache, hyper-threads); the
    fastest batch is the closest to what the operation costs on a quiet machine.
    """
    from nacl import bindings

    from protocol.crypto.group import card_element, scalar_bytes

    p, q, k = card_element("unit", 1), card_element("unit", 2), scalar_bytes(2**200 + 12345)
    calls = {
        "mul": lambda: bindings.crypto_scalarmult_ed25519_noclamp(k, p),
        "base": lambda: bindings.crypto_scalarmult_ed25519_base_noclamp(k),
        "add": lambda: bindings.crypto_core_ed25519_add(p, q),
        "x25519": lambda: bindings.crypto_scalarmult(k, p),
        "valid": lambda: bindings.crypto_core_ed25519_is_valid_point(p),
    }
    out = {}
    for kind, call in calls.items():
        fastest = float("inf")
        for _ in range(batches):
            start = time.process_time()
            for _ in range(size):
                call()
            fastest = min(fastest, time.process_time() - start)
        out[kind] = round(1e6 * fastest / size, 1)
    return out


def print_counts() -> None:
    units = unit_costs()
    print(
        "operations per peer for shuffle + first deal (busiest peer; independent of load), and the CPU they"
        " take at the fastest unit costs seen (us: " + ", ".join(f"{kind} {cost}" for kind, cost in units.items()) + ")"
    )
    print(f"{'seats':>5} " + " ".join(f"{kind:>6}" for kind in OPERATIONS) + f" {'est. ms':>8} {'ratio':>6}")
    results = []
    for seats in (2, 4, 6):
        counts = count_operations(seats)
        estimate = sum(counts[kind] * units[kind] for kind in counts) / 1000
        results.append({"seats": seats, **counts, "estimate_ms": round(estimate, 1)})
        print(
            f"{seats:>5} "
            + " ".join(f"{counts[kind]:>6}" for kind in OPERATIONS)
            + f" {estimate:>8.1f} {estimate / SHUFFLE_DEAL_TARGET_MS:>6.2f}"
        )
    print(json.dumps({"operations": results, "unit_us": units}))


def main() -> None:
    print(
        f"card ledger with shuffle and lock proofs: {CARDS} cards, first deal {HAND} each;"
        " CPU ms per peer (busiest peer, median of 3)"
    )
    print(
        f"{'seats':>5} {'shuffle':>9} {'deal':>7} {'sh+deal':>9} {'target':>7} {'ratio':>6}"
        f" {'x no-proof':>10} {'recheck':>9} {'x no-proof':>10}"
    )
    results = []
    for seats in (2, 4, 6):
        r = bench_cards(seats)
        results.append(r)
        ratio = r["shuffle_and_deal_ms"] / SHUFFLE_DEAL_TARGET_MS
        versus = r["shuffle_and_deal_ms"] / NO_PROOF_SHUFFLE_DEAL_MS[seats]
        recheck = r["recheck_ms"] / NO_PROOF_RECHECK_MS[seats]
        print(
            f"{seats:>5} {r['shuffle_ms']:>9.1f} {r['deal_ms']:>7.1f} {r['shuffle_and_deal_ms']:>9.1f}"
            f" {SHUFFLE_DEAL_TARGET_MS:>7.0f} {ratio:>6.2f} {versus:>10.2f} {r['recheck_ms']:>9.1f} {recheck:>10.2f}"
        )
    print(json.dumps({"cards": results}))
    print_counts()
    print_audit()


AUDIT_TARGET_MS = 300.0


def bench_audit(seats: int, repeats: int = 3) -> dict[str, float | int]:
    """CPU per peer for the end-of-game audit of a whole System Launch game (median of ``repeats``).

    ``audit_ms`` is the audit itself (every pass, lock, key, delivery and commitment re-checked,
    then the full-knowledge replay); ``verify_ms`` is the offline verifier: replaying the whole
    signed log from scratch and then auditing (what ``python -m protocol verify`` does).
    """
    import time

    from protocol.audit import audit
    from protocol.session import PeerSession
    from protocol.sim.network import play
    from protocol.verify import dump, verify_bytes

    audits, verifies, entries = [], [], []
    for seed in range(repeats):
        run = play("system-launch", seats, f"bench-audit/{seed}".encode())
        from protocol.envelope import parse

        room = parse(run.log[0]).room
        watcher = PeerSession.observe(room)
        for data in run.log:
            watcher.receive(data, 0)
        table = watcher.table
        assert table is not None
        started = time.process_time()
        verdict = audit(table)
        audits.append((time.process_time() - started) * 1000)
        assert verdict.fair
        saved = dump(room, run.log)
        started = time.process_time()
        verify_bytes(saved)
        verifies.append((time.process_time() - started) * 1000)
        entries.append(len(run.log))
    return {
        "seats": seats,
        "entries": int(statistics.median(entries)),
        "audit_ms": round(statistics.median(audits), 2),
        "verify_ms": round(statistics.median(verifies), 2),
    }


def print_audit() -> None:
    print(
        f"end-of-game audit of a whole System Launch game; CPU ms per peer (median of 3); target {AUDIT_TARGET_MS:.0f}"
    )
    print(f"{'seats':>5} {'entries':>8} {'audit':>8} {'ratio':>6} {'verify':>8}")
    results = []
    for seats in (2, 4, 6):
        r = bench_audit(seats)
        results.append(r)
        print(
            f"{seats:>5} {r['entries']:>8} {r['audit_ms']:>8.1f} {r['audit_ms'] / AUDIT_TARGET_MS:>6.2f}"
            f" {r['verify_ms']:>8.1f}"
        )
    print(json.dumps({"audit": results}))


if __name__ == "__main__":
    main()
