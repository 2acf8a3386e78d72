"""Belief quality in Mexican Train: how well sampled worlds place the hidden tiles, with
and without weighting them by the play history (`dominohall.bots.train_beliefs`).

    cd benchmarks
    python beliefs_train.py --games 6 --bots planner --betas 0,0.1,0.25,0.5
    python beliefs_train.py --games 6 --bots deep:worlds=4 --betas 0,0.1,0.25,0.5

Matches (4 players, the default options: 13 rounds) are played by `--bots`, one entry
for every seat.  At every `--every`-th decision with a choice, the seat to move draws
`--worlds` deals from today's sampler (`engine.sampling.sample_hands`: sizes, seen
tiles, shown voids) and scores them with the measures `beliefs.py` defines and
`beliefs_lines.py` shares (`truth_of`, `quality`, `print_table`): the weighted share of
worlds that put each hidden tile in its true place (a seat or the boneyard), the
log-likelihood of the true hidden hands under the smoothed per-tile marginals, and the
effective number of worlds; per match, then over matches with bootstrap 95% intervals,
and paired differences to beta 0 (today's sampler, unweighted).

Row beta > 0 weighs the deals by ``exp(log_weight)`` under `TrainHistory` with that
sharpness (``--bonus``: the double bonus; ``--end``: the log weight of ending a
first-turn chain; ``--own``: plays on the own train read as choices too).  With
``--end-voids`` those rows draw their deals from the sampler told the voids that the
others' choices show (`TrainHistory.sampling_view`) instead, and row -1 is those deals
unweighted.  Also reported: the CPU ms one `log_weight` takes.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

# beliefs.py, beside this script
from beliefs import add_game_means, make_seats, play_measured, print_table, quality, truth_of

from dominohall import new_game
from dominohall.arena.seeds import derive
from dominohall.bots.train_beliefs import DOUBLE_BONUS, END_WEIGHT, TrainHistory
from dominohall.engine.sampling import sample_hands


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--bots", default="planner", help="the bot every seat plays (planner)")
    p.add_argument("--betas", default="0,0.1,0.25,0.5")
    p.add_argument("--bonus", type=float, default=DOUBLE_BONUS, help="the double bonus")
    p.add_argument("--end", type=float, default=END_WEIGHT,
                   help="the log weight of ending a first-turn chain")
    p.add_argument("--end-voids", action="store_true",
                   help="the model's worlds come from the sampler told the voids that "
                        "ended chains show (TrainHistory.sampling_view), and an ended "
                        "chain is not weighed; adds row -1: those worlds unweighted")
    p.add_argument("--own", action="store_true",
                   help="read plays on a seat's own train as choices too")
    p.add_argument("--every", type=int, default=3, help="measure every k-th decision (3)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    betas = [float(x) for x in args.betas.split(",")]
    if 0.0 not in betas:
        betas.insert(0, 0.0)
    if args.end_voids and -1.0 not in betas:
        betas.insert(1, -1.0)
    end = None if args.end_voids else args.end
    make_seats(args.bots, "mexican_train", args.seed, 0, 1)   # a bad entry stops here
    per_game: dict[float, list[tuple[float, float, float]]] = {b: [] for b in betas}
    decisions = 0
    cpu = 0.0
    calls = 0
    for k in range(args.games):
        g = new_game("mexican_train", players=args.players, seed=derive(args.seed, "train", k))
        seats = make_seats(args.bots, "mexican_train", args.seed, k, args.players)
        histories = {b: [TrainHistory(max(b, 0.0), args.bonus, end, args.own)
                         for _ in range(args.players)] for b in betas if b}
        rng = random.Random(derive(args.seed, "worlds", k))
        rows: dict[float, list[tuple[float, float, float]]] = {b: [] for b in betas}

        def measure(g: Any, s: int, view: dict[str, Any], rng: random.Random = rng,
                    histories: Any = histories, rows: Any = rows) -> None:
            nonlocal decisions, cpu, calls
            truth, places = truth_of(g, s)
            today = [sample_hands(view, rng) for _ in range(args.worlds)]
            voided = today
            if args.end_voids:
                v2 = histories[-1.0][s].update(view).sampling_view(view)
                voided = [sample_hands(v2, rng) for _ in range(args.worlds)]
            for b in betas:
                samples = today if b == 0 else voided
                if b > 0:
                    h = histories[b][s].update(view)
                    c0 = time.process_time()
                    lw = [h.log_weight(hands, s) for hands, _ in samples]
                    cpu += time.process_time() - c0
                    calls += len(samples)
                else:
                    lw = [0.0] * len(samples)
                rows[b].append(quality(truth, places, g.state.n, samples, lw))
            decisions += 1

        play_measured(g, seats, args.every, measure)
        add_game_means(per_game, rows)
    print(f"mexican_train {args.players}p, {args.bots} play, {len(per_game[0.0])} matches, "
          f"{decisions} decisions, {args.worlds} worlds each, double bonus {args.bonus}, "
          f"end weight {args.end}, own-train plays {'read' if args.own else 'not read'}")
    print(f"log_weight: {1000 * cpu / max(1, calls):.3f} ms CPU a world")
    if args.end_voids:
        print("beta -1: the sampler told the ended chains' voids, unweighted; beta > 0: "
              "those worlds weighted by the model")
    print_table(per_game, betas, ("effective worlds", "16.1f"))


if __name__ == "__main__":
    main()
