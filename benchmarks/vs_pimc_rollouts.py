"""Mexican Train rollout policies played as players: the top bot's `TrainRollout`
(`bots.train`) against `pimc`'s `PlannerRollout` (`bots.mexican`), 4 players, whole
13-round matches, duplicate deals (new policy in seats 0 and 2, then in 1 and 3).

Both policies read only what their seat may know (its own hand, the hand sizes, the
table), so this is a fair match, and a cheap one: it measures the rollouts' knowledge
(owed doubles, markers, the Mexican train, dumping pips) on thousands of moves a second,
apart from the search that uses them.  Points: pimc policy's mean penalty total minus
the new policy's (positive: the new one keeps fewer pips), mean over deals with a
bootstrap 95% interval.

    python benchmarks/vs_pimc_rollouts.py --deals 300 --seed 5000
"""

from __future__ import annotations

import argparse
import json
import random

import dominohall
from dominohall.arena.stats import bootstrap_mean
from dominohall.bots.mexican import PlannerRollout
from dominohall.bots.train import TrainRollout


def play(seed: int, seating: int, dump_at: int) -> tuple[float, float]:
    g = dominohall.new_game("mexican_train", players=4, seed=seed)
    st = g.state
    rng = random.Random(seed)
    new, old, current = TrainRollout(dump_at), PlannerRollout(), st.round
    while not st.over:
        if st.round != current:            # plans are per round
            new, old, current = TrainRollout(dump_at), PlannerRollout(), st.round
        if (st.current + seating) % 2 == 0:
            g.apply_unchecked(new(st, rng))
        else:
            g.apply_unchecked(old(g, rng))
    scores, winners = g.scores, g.winners
    ours = [s for s in range(4) if (s + seating) % 2 == 0]
    theirs = [s for s in range(4) if (s + seating) % 2 == 1]
    points = sum(scores[s] for s in theirs) / 2 - sum(scores[s] for s in ours) / 2
    win = sum(1 for s in winners if s in ours) / len(winners)
    return points, win


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seed", type=int, default=5000, help="first deal's game seed (5000)")
    p.add_argument("--dump-at", type=int, default=2)
    args = p.parse_args()
    points, wins = [], []
    for d in range(args.deals):
        both = [play(args.seed + d, s, args.dump_at) for s in (0, 1)]
        points.append(sum(x[0] for x in both) / 2)
        wins.append(sum(x[1] for x in both) / 2)
    print(json.dumps({"deals": args.deals, "points": sum(points) / len(points),
                      "points_ci": bootstrap_mean(points, 1),
                      "win": sum(wins) / len(wins), "win_ci": bootstrap_mean(wins, 1)}))


if __name__ == "__main__":
    main()
