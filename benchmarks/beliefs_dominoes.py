"""Belief quality in the `dominoes` package's partnership game, against its players:
how well our sampled worlds place the hidden tiles at our seats' decisions, under
several play models (`dominohall.bots.inference.PlayHistory`).

    .venv/bin/python benchmarks/beliefs_dominoes.py --deals 40
    .venv/bin/python benchmarks/beliefs_dominoes.py --models "beta=0;beta=0.25;beta=0.5:lapse=0.2"

The hands are played as `vs_dominoes.py` plays them (the same bridge, deals and seats:
our `--ours` bot in one partnership, the package's `--peer` in the other, each deal in
both seatings).  Before each of our choices with more than one play, the seat samples
`--worlds` worlds from its view (`sample_hands`: sizes, seen tiles, shown voids) and
every model weighs the same worlds, so the models are compared on the same worlds
(paired).  A model is ``key=value`` settings joined by ``:`` (``beta``, ``double``,
``lapse``, ``partner_beta``, as `PlayHistory` takes them); ``beta=0`` is today's
sampler, unweighted, and comes first.  Measures as in `beliefs.py` (right-hand share,
log-likelihood of the true hidden hands under the per-tile marginals), per deal-and-
seating, with bootstrap 95% intervals and the paired difference to ``beta=0``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from typing import Any

from beliefs import print_table, quality, truth_of  # beside this script
from vs_dominoes import play_game

from dominohall.arena.seeds import derive
from dominohall.bots.inference import PlayHistory
from dominohall.engine.sampling import sample_hands

DEFAULT_OURS = ("deep:clock=cpu:budget_ms=150:early_ms=35:solve_tiles=18:max_worlds=96:"
                "scoring=all:rollout=double")
KEYS = ("beta", "double", "lapse", "partner_beta")


def parse_model(text: str) -> dict[str, float]:
    """``beta=0.5:lapse=0.1`` -> PlayHistory's keyword arguments."""
    out: dict[str, float] = {}
    for part in filter(None, text.split(":")):
        key, sep, value = part.partition("=")
        if not sep or key not in KEYS:
            raise SystemExit(f"model {text!r}: use key=value with keys {', '.join(KEYS)}")
        try:
            out[key] = float(value)
        except ValueError:
            raise SystemExit(f"model {text!r}: {key}={value!r} is not a number") from None
    return out


class Recorder:
    """Measures every model's beliefs at each of our decisions in one hand."""

    def __init__(self, models: dict[str, dict[str, float]], worlds: int,
                 rng: random.Random) -> None:
        self.models = models
        self.worlds = worlds
        self.rng = rng
        self.rows: dict[str, list[tuple[float, float]]] = {m: [] for m in models}

    def __call__(self, g: Any, seat: int) -> None:
        view = g.view(seat)
        if len(view["legal_actions"]) < 2 or not view["layout"]["ends"]:
            return
        truth, places = truth_of(g, seat)
        samples = [sample_hands(view, self.rng) for _ in range(self.worlds)]
        for label, kw in self.models.items():
            if kw.get("beta", 0.25) == 0 and len(kw) <= 1:
                lw = [0.0] * len(samples)           # today's sampler, unweighted
            else:
                hist = PlayHistory(view, **kw)
                lw = [hist.log_weight(h, seat) for h, _ in samples]
            right, loglik, _ = quality(truth, places, g.state.n, samples, lw)
            self.rows[label].append((right, loglik))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ours", default=DEFAULT_OURS, help="our bot (the top Block setting)")
    p.add_argument("--peer", default="pab", help="the package's player (vs_dominoes.py)")
    p.add_argument("--deals", type=int, default=30)
    p.add_argument("--first-deal", type=int, default=0)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--models", default="beta=0;beta=0.25;beta=0.5;beta=0.25:lapse=0.2",
                   help="play models separated by ';' (the first is the baseline)")
    args = p.parse_args()
    labels = [m.strip() for m in args.models.split(";") if m.strip() and m.strip() != "beta=0"]
    labels.insert(0, "beta=0")
    models = {label: parse_model(label) for label in labels}
    per_game: dict[str, list[tuple[float, float]]] = {m: [] for m in labels}
    decisions = 0
    for deal in range(args.first_deal, args.first_deal + args.deals):
        for seating in (0, 1):
            rec = Recorder(models, args.worlds,
                           random.Random(derive(args.seed, "beliefs_dominoes", deal, seating)))
            play_game(args.seed, deal, seating, args.ours, args.peer, observe=rec)
            decisions += len(rec.rows[labels[0]])
            if rec.rows[labels[0]]:
                for m in labels:
                    per_game[m].append((statistics.fmean(r[0] for r in rec.rows[m]),
                                        statistics.fmean(r[1] for r in rec.rows[m])))
            print(f"deal {deal} seating {seating}: {decisions} decisions", file=sys.stderr)
    print(f"block 4p partnership vs the dominoes package's {args.peer}, our {args.ours}; "
          f"deals {args.first_deal}-{args.first_deal + args.deals - 1} x 2 seatings "
          f"({len(per_game[labels[0]])} hands), {decisions} decisions, "
          f"{args.worlds} worlds each")
    print_table(per_game, labels, heading="model")


if __name__ == "__main__":
    main()
