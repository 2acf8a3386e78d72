"""Belief quality in All Fives: how well sampled worlds place the hidden tiles, with and
without weighting them by the play history under the scorer's model of play
(`dominohall.bots.line_beliefs.FivesHistory`, a line with spinners).

    cd benchmarks
    python beliefs_lines.py --games 12 --bots pimc:samples=16:budget_ms=1e9 \\
        --betas 0,0.15,0.3,0.6 > results/fives_beliefs.txt

Matches (4 players in partnerships, to 250, unless ``--players``) are played by `--bots`
(one entry for every seat).  At every decision with a choice, the seat to move samples
`--worlds` deals from its view with today's sampler
(`dominohall.engine.sampling.sample_hands`: sizes, seen tiles, shown voids) and weighs
them by ``exp(log_weight)`` under the play model with sharpness beta (beta 0 is today's
sampler, unweighted).  For every tile hidden from it, with its true place (a seat or the
boneyard):

* **right-hand share**: the weighted share of worlds that put the tile in its true place;
* **log-likelihood**: log of the tile's estimated probability of its true place (the
  weighted share, smoothed by one pseudo-world spread over the possible places), summed
  over the hidden tiles: the log-likelihood of the true hidden hands under the product
  of per-tile marginals;
* **effective worlds**: (sum w)^2 / sum w^2 of the weights (how many equal worlds the
  weighted ones are worth).

Each is averaged over a match's decisions, then over matches, with a bootstrap 95%
interval over matches; the paired difference to beta 0 has its own interval.  Also
reported: the CPU ms one `log_weight` takes (the history is extended move by move).
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
from dominohall.bots.line_beliefs import GAMMA, FivesHistory
from dominohall.engine.sampling import sample_hands


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--bots", default="pimc:samples=16:budget_ms=1e9",
                   help="the bot every seat plays")
    p.add_argument("--betas", default="0,0.15,0.3,0.6")
    p.add_argument("--gamma", type=float, default=GAMMA)
    p.add_argument("--every", type=int, default=2, help="measure every k-th decision (2)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    betas = [float(x) for x in args.betas.split(",")]
    if 0.0 not in betas:
        betas.insert(0, 0.0)
    options = {"teams": True} if args.players == 4 else {}
    make_seats(args.bots, "all_fives", args.seed, 0, 1)   # a bad entry stops here
    per_game: dict[float, list[tuple[float, float, float]]] = {b: [] for b in betas}
    decisions = 0
    cpu = 0.0
    calls = 0
    for k in range(args.games):
        g = new_game("all_fives", players=args.players, seed=derive(args.seed, "fives", k),
                     options=options)
        seats = make_seats(args.bots, "all_fives", args.seed, k, args.players)
        histories = {b: [FivesHistory(b, args.gamma) for _ in range(args.players)]
                     for b in betas}
        rng = random.Random(derive(args.seed, "worlds", k))
        rows: dict[float, list[tuple[float, float, float]]] = {b: [] for b in betas}

        def measure(g: Any, s: int, view: dict[str, Any], rng: random.Random = rng,
                    histories: Any = histories, rows: Any = rows) -> None:
            nonlocal decisions, cpu, calls
            truth, places = truth_of(g, s)
            if not truth:
                return
            samples = [sample_hands(view, rng) for _ in range(args.worlds)]
            for b in betas:
                h = histories[b][s].update(view)
                c0 = time.process_time()
                lw = [h.log_weight(hands, s) for hands, _ in samples]
                if b:
                    cpu += time.process_time() - c0
                    calls += len(samples)
                rows[b].append(quality(truth, places, g.state.n, samples, lw))
            decisions += 1

        play_measured(g, seats, args.every, measure)
        add_game_means(per_game, rows)
    print(f"all_fives {args.players}p, {args.bots} play, {len(per_game[0.0])} matches, "
          f"{decisions} decisions, {args.worlds} worlds each, gamma {args.gamma}")
    print(f"log_weight: {1000 * cpu / max(1, calls):.3f} ms CPU a world")
    print_table(per_game, betas, ("effective worlds", "16.1f"))

if __name__ == "__main__":
    main()
