"""What a seat's own log (client/store/seat_log.py) costs: an entry kept on the disk before it goes out.

    python3 benchmarks/seat_log.py [--games 3] [--dir /path/on/the/disk/to/measure]

A whole System Launch game (four seats, random bots, played in memory) gives real signed entries.
Each is appended to a fresh seat log as the transport does it: synced to the disk for an entry the
seat signed (``sync=True``: one ``fsync`` each), flushed only for one it took from the others
(``sync=False``).  Printed: the time per entry of each (median and 95th percentile), set against
the time the session takes to check and apply one received entry (the work it does anyway for
each entry), and the time to open and check a whole game's log on resume.  The disk is the one
``--dir`` is on (the system's temporary folder by default): on a laptop SSD an ``fsync`` is a
fraction of a millisecond, on a spinning disk or a network file system several milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.store.seat_log import SeatLog, check
from protocol.envelope import parse
from protocol.session import PeerSession
from protocol.sim.network import play


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.3f} ms"


def _percentile(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    synced: list[int] = []
    flushed: list[int] = []
    applied: list[int] = []
    opened: list[int] = []
    entries_total = 0
    for game in range(args.games):
        seed = f"seat-log bench {game}".encode()
        log = [bytes(e) for e in play("system-launch", 4, seed).log]
        entries_total += len(log)
        with tempfile.TemporaryDirectory(dir=args.dir) as folder:
            seat_log = SeatLog.open(Path(folder))
            for seq, data in enumerate(log):
                start = time.perf_counter_ns()
                seat_log.keep(f"log/{seq}", data, sync=seq % 2 == 0)
                (synced if seq % 2 == 0 else flushed).append(time.perf_counter_ns() - start)
            seat_log.close()
            start = time.perf_counter_ns()
            again = SeatLog.open(Path(folder))
            check(again.records, parse(log[0]).room, b"", again.path)
            opened.append(time.perf_counter_ns() - start)
            again.close()
        observer = PeerSession.observe(parse(log[0]).room)
        for data in log:
            start = time.perf_counter_ns()
            observer.receive(data, 0)
            applied.append(time.perf_counter_ns() - start)
    apply_median = statistics.median(applied)
    print(f"{args.games} games, {entries_total} entries; disk of {args.dir or tempfile.gettempdir()}")
    for name, values in (("kept and synced (own entry)", synced), ("kept, flushed (another's)", flushed)):
        median = statistics.median(values)
        print(
            f"  {name:30} median {_ms(median)}, p95 {_ms(_percentile(values, 0.95))}"
            f"  = {median / apply_median:.2f} x checking and applying one entry"
        )
    print(f"  {'checking and applying an entry':30} median {_ms(apply_median)}")
    print(f"  {'opening and checking a log':30} median {_ms(statistics.median(opened))} per game")


if __name__ == "__main__":
    main()
