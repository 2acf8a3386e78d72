"""Speed of dominohall.solver.longest_train_ids: median and p99 per call, in ms.

    .venv/bin/python benchmarks/solver.py            # 1,000 hands per row
    .venv/bin/python benchmarks/solver.py --quick    # 200 hands per row

Rows (each for both objectives, with a random open end from the hand's numbers):

* ``20 of double-12``: 20 tiles drawn from the 91-tile double-12 set.
* ``18 of pips 0-5``: 18 of the 21 tiles with pips 0..5, the dense worst case.

Targets for the 20-tile row: median <= 0.5 ms, p99 <= 5 ms. Hands are seeded, so
every run times the same hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dominohall.engine.tiles import set_size
from dominohall.solver import longest_train_ids

ROWS = [("20 of double-12", 12, 20), ("18 of pips 0-5", 5, 18)]


def time_row(set_max: int, n: int, objective: str, hands: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    pool = list(range(set_size(set_max)))
    cases = [(sum(1 << t for t in rng.sample(pool, n)), rng.randint(0, set_max))
             for _ in range(hands)]
    out = []
    for mask, open_end in cases:
        t0 = time.perf_counter()
        longest_train_ids(mask, open_end, objective)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 hands per row")
    ap.add_argument("--hands", type=int, default=None, help="hands per row (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    hands = args.hands or (200 if args.quick else 1000)
    print(f"{'hands':<18}{'objective':<10}{'n':>6}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
    for label, set_max, n in ROWS:
        for objective in ("tiles", "pips"):
            ms = sorted(time_row(set_max, n, objective, hands, args.seed))
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(f"{label:<18}{objective:<10}{len(ms):>6}{statistics.median(ms):>11.3f}"
                  f"{p99:>9.3f}{ms[-1]:>9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
