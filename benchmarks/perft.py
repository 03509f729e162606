"""Classic Collective Conflict perft from the start position (CC-21), with speed figures.

``python3 benchmarks/perft.py [--depth D]`` prints the node count of every
depth, whether it matches the published base-game numbers, and nodes per
second against the target of 250,000 at depth 5 on one core.  Figures only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and a sibling module named
# ``engines.py`` would shadow the ``engines`` package: put the repository root first.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from engines.collective_conflict.perft import PUBLISHED, perft_counts  # noqa: E402

TARGET = 250_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    counts = perft_counts(args.depth)
    seconds = time.perf_counter() - started
    for d in range(1, args.depth + 1):
        published = PUBLISHED.get(d)
        if published is None:
            mark = ""
        elif published == counts[d]:
            mark = "  (published: match)"
        else:
            mark = f"  (published {published}: MISMATCH)"
        print(f"depth {d}: {counts[d]}{mark}")
    nps = int(counts[args.depth] / seconds) if seconds else 0
    print(
        json.dumps(
            {
                "depth": args.depth,
                "nodes": counts[args.depth],
                "seconds": round(seconds, 4),
                "nodes_per_second": nps,
                "target_nodes_per_second": TARGET,
                "ratio_to_target": round(nps / TARGET, 2),
            },
            sort_keys=True,
        )
    )


if __name__ == "__main__":
    main()
