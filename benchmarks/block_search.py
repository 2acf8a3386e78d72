"""Speed of the Block/Draw top bot's search (`deep`), pure against compiled, side by side.

    .venv/bin/python benchmarks/block_search.py                      # 3 rounds, both builds
    .venv/bin/python benchmarks/block_search.py --compiled-python .venv-compiled/bin/python
    git archive 10cd830 src | tar -x -C /tmp/old   # then, the older pure search as "base":
    .venv/bin/python benchmarks/block_search.py --baseline-src /tmp/old/src

Rows: 4-player partnership Block positions (random play from seeded deals up to the
row's tiles left in the hands), each searched by ``deep`` with a fixed number of worlds
(no clock, so every build does the same work) and the `dominoes` package's scoring:

* ``solve 18``: 18 tiles left, every world solved exactly by alpha-beta (`endgame.Solver`);
* ``rollouts 24``: 24 tiles left, every world valued by ``double`` rollouts.

Each build runs in its own worker process (benchmarks/builds.py), the rows interleaved
round by round; a row's time is the CPU time a move, the median over rounds; the ratio
is the median of the per-round ratios.  The moves' digest must be the same in every
build (the same search, only faster).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import time

import builds  # benchmarks/builds.py: the builds side by side

ROWS = {"solve 18": (18, 48), "rollouts 24": (24, 48)}     # tiles left, worlds a move


def _positions(tiles_left: int, count: int) -> list[dict[str, object]]:
    import dominohall

    out = []
    for k in range(count):
        g = dominohall.new_game("block", players=4, seed=1000 + k,
                                options={"teams": True, "hands": 1})
        rng = random.Random(k)
        while not g.is_over and sum(g.view(0)["hand_sizes"]) > tiles_left:
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            out.append(g.view(g.current_seat))
    return out


def _work(request: dict[str, object]) -> dict[str, object]:
    from dominohall import bots

    tiles, worlds = ROWS[str(request["row"])]
    views = _positions(tiles, int(request["positions"]))  # type: ignore[call-overload]
    bot = bots.make("deep", seed=1, game="block", worlds=worlds, scoring="all",
                    rollout="double", solve_tiles=18)
    digest = hashlib.sha256()
    start = time.process_time()
    for v in views:
        digest.update(bot.act(v).encode())
    ms = (time.process_time() - start) * 1000 / len(views)
    return {"ms": ms, "digest": digest.hexdigest()[:16]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--positions", type=int, default=40, help="positions a row (40)")
    builds.add_arguments(p)
    args = p.parse_args()
    if args.worker:
        return builds.serve(_work)
    workers = builds.start(__file__, args)
    times: dict[str, dict[str, list[float]]] = {r: {b: [] for b in workers} for r in ROWS}
    digests: dict[str, set[str]] = {r: set() for r in ROWS}
    for k in range(args.rounds):
        for row in ROWS:
            order = list(workers) if k % 2 == 0 else list(reversed(workers))
            for b in order:
                answer = workers[b].call(op="run", row=row, positions=args.positions)
                times[row][b].append(float(answer["ms"]))
                digests[row].add(str(answer["digest"]))
    for w in workers.values():
        w.close()
    print(f"Block deep search, CPU ms a move (median of {args.rounds} rounds, "
          f"{args.positions} positions a row, 48 worlds a move)")
    for row in ROWS:
        cells = [f"{b} {statistics.median(times[row][b]):.1f}" for b in workers]
        ratios = []
        for other in [b for b in workers if b != "compiled"]:
            if "compiled" in workers:
                per_round = [x / y for x, y in zip(times[row][other], times[row]["compiled"])]
                ratios.append(f"compiled is {statistics.median(per_round):.2f}x {other}")
        same = "same moves" if len(digests[row]) == 1 else "MOVES DIFFER"
        print(f"  {row:12s} {'  '.join(cells)}   {'; '.join(ratios)}   ({same})")
    return 0 if all(len(d) == 1 for d in digests.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
