"""Belief quality: how well sampled worlds place the hidden tiles, with and without
weighting them by the play history (`dominohall.bots.inference.PlayHistory`).

    .venv/bin/python benchmarks/beliefs.py                        # 4p partnership Block
    .venv/bin/python benchmarks/beliefs.py --games 60 --bots greedy --betas 0,0.25,0.5

Games are played by `--bots` (one name for every seat, default `blocker`).  At every
decision with a choice, the seat to move samples `--worlds` worlds from its view with
today's sampler (`dominohall.engine.sampling.sample_hands`: sizes, seen tiles, shown
voids) and weighs them by ``exp(log_weight)`` under the play model with sharpness beta
(beta 0 is today's sampler, unweighted).  For every tile hidden from it, with its true
place (a seat or the boneyard):

* **right-hand share**: the weighted share of worlds that put the tile in its true place;
* **log-likelihood**: log of the tile's estimated probability of its true place (the
  worlds' weighted share, smoothed by one pseudo-world spread over the possible places),
  summed over the hidden tiles: the log-likelihood of the true hidden hands under the
  product of per-tile marginals (the joint probability of one exact deal is too small
  to estimate from a few hundred worlds).

Each is averaged over a game's decisions, then over games, with a bootstrap 95% interval
over games; the paired difference to beta 0 is reported with its own interval.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dominohall import bots, new_game
from dominohall.arena.match import ArenaError, parse_bot
from dominohall.arena.seeds import derive
from dominohall.arena.stats import bootstrap_mean
from dominohall.bots.inference import PlayHistory
from dominohall.engine.sampling import sample_hands
from dominohall.engine.tiles import BIT


def truth_of(game, seat: int) -> tuple[dict[int, int], list[int]]:
    """Every tile hidden from `seat` -> its true place (a seat, or n: the boneyard)."""
    st = game.state
    n = st.n
    truth: dict[int, int] = {}
    for q in range(n):
        if q == seat:
            continue
        h = st.hands[q]
        while h:
            low = h & -h
            truth[low.bit_length() - 1] = q
            h ^= low
    for t in st.boneyard:
        truth[t] = n
    places = [q for q in range(n) if q != seat] + ([n] if st.boneyard else [])
    return truth, places


def quality(truth: dict[int, int], places: list[int], n: int,
            samples: list[tuple[list[int], list[int]]], lw: list[float]
            ) -> tuple[float, float, float]:
    """Right-hand share, log-likelihood of the true places, effective worlds."""
    top = max(lw)
    w = [math.exp(x - top) for x in lw]
    total = sum(w)
    k = len(samples)
    right = loglik = 0.0
    for t, place in truth.items():
        bit = BIT[t]
        share = 0.0
        for (hands, boneyard), wk in zip(samples, w):
            inside = (t in boneyard) if place == n else bool(hands[place] & bit)
            if inside:
                share += wk
        share /= total
        right += share
        loglik += math.log((share * k + 1.0 / len(places)) / (k + 1.0))
    ess = total * total / sum(x * x for x in w)
    return right / len(truth), loglik, ess


def make_seats(spec: str, game: str, seed: int, k: int, players: int) -> list[Any]:
    """Game `k`'s bots, one a seat, from an arena entry (``name:key=value``)."""
    try:
        name, params = parse_bot(spec)
        return [bots.make(name, seed=derive(seed, "bot", k, s), game=game, **params)
                for s in range(players)]
    except (ValueError, ArenaError) as err:
        raise SystemExit(f"--bots {spec!r}: {err}") from None


def play_measured(g: Any, seats: Sequence[Any], every: int,
                  measure: Callable[[Any, int, dict[str, Any]], None]) -> None:
    """Play `g` out with `seats`' bots, calling ``measure(g, seat, view)`` before every
    `every`-th move (counting all moves) that has a choice."""
    step = 0
    while not g.is_over:
        s = g.current_seat
        view = g.view(s)
        if len(view["legal_actions"]) > 1 and step % every == 0:
            measure(g, s, view)
        step += 1
        g.apply(seats[s].act(view), seat=s)


def add_game_means(per_game: dict[Any, list[tuple[float, ...]]],
                   rows: Mapping[Any, Sequence[tuple[float, ...]]]) -> None:
    """Append each model's means over one game's decisions (games with none add none)."""
    for b, r in rows.items():
        if r:
            per_game[b].append(tuple(statistics.fmean(x[i] for x in r)
                                     for i in range(len(r[0]))))


def measure_decision(game, seat: int, worlds: int, betas: list[float],
                     rng: random.Random) -> dict[float, tuple[float, float]]:
    view = game.view(seat)
    truth, places = truth_of(game, seat)
    samples = [sample_hands(view, rng) for _ in range(worlds)]
    out = {}
    for beta in betas:
        hist = PlayHistory(view, beta)
        lw = [hist.log_weight(h, seat) if beta else 0.0 for h, _ in samples]
        right, loglik, _ = quality(truth, places, game.state.n, samples, lw)
        out[beta] = (right, loglik)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="block")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--teams", action="store_true", default=True)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--worlds", type=int, default=200)
    p.add_argument("--bots", default="blocker", help="the bot every seat plays (blocker)")
    p.add_argument("--betas", default="0,0.1,0.25,0.5")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    betas = [float(x) for x in args.betas.split(",")]
    if 0.0 not in betas:
        betas.insert(0, 0.0)
    options = {"hands": 1, **({"teams": True} if args.teams and args.players == 4 else {})}
    per_game: dict[float, list[tuple[float, float]]] = {b: [] for b in betas}
    decisions = 0
    for k in range(args.games):
        g = new_game(args.game, players=args.players, seed=derive(args.seed, "beliefs", k),
                     options=options)
        seats = [bots.make(args.bots, seed=derive(args.seed, "bot", k, s), game=args.game)
                 for s in range(args.players)]
        rng = random.Random(derive(args.seed, "worlds", k))
        rows: dict[float, list[tuple[float, float]]] = {b: [] for b in betas}
        while not g.is_over:
            s = g.current_seat
            view = g.view(s)
            if len(view["legal_actions"]) > 1 and view["layout"]["ends"]:
                for b, r in measure_decision(g, s, args.worlds, betas, rng).items():
                    rows[b].append(r)
                decisions += 1
            g.apply(seats[s].act(view), seat=s)
        for b in betas:
            if rows[b]:
                per_game[b].append((statistics.fmean(r[0] for r in rows[b]),
                                    statistics.fmean(r[1] for r in rows[b])))
    print(f"{args.game} {args.players}p, {args.bots} play, {len(per_game[0.0])} games, "
          f"{decisions} decisions, {args.worlds} worlds each")
    print_table(per_game, betas)


def print_table(per_game: Mapping[Any, Sequence[tuple[float, ...]]], betas: Sequence[Any],
                extra: tuple[str, str] | None = None, heading: str = "beta") -> None:
    """Each model's right-hand share and log-likelihood of the true hands (means over
    games with 95% intervals), and their differences from the first model (beta 0, today's
    sampler) on the same games; `betas` are the models' keys, printed as they are; `extra` =
    (heading, format) adds a third column per game, e.g. the effective number of worlds."""
    width = max(5, *(len(str(b)) for b in betas))
    head = f"{heading:>{width}}  {'right-hand share':>28}  {'log-likelihood of true hands':>32}"
    print(head + (f"  {extra[0]:>16}" if extra else ""))
    first = betas[0]
    base = per_game[first]
    for b in betas:
        rows = per_game[b]
        share = [r[0] for r in rows]
        ll = [r[1] for r in rows]
        ci_s = bootstrap_mean(share, 1) or (math.nan, math.nan)
        ci_l = bootstrap_mean(ll, 2) or (math.nan, math.nan)
        line = (f"{str(b):>{width}}  {statistics.fmean(share):.4f} [{ci_s[0]:.4f}, "
                f"{ci_s[1]:.4f}]  {statistics.fmean(ll):8.3f} [{ci_l[0]:.3f}, {ci_l[1]:.3f}]")
        if extra:
            line += f"  {statistics.fmean(r[2] for r in rows):{extra[1]}}"
        if b != first:
            ds = [r[0] - q[0] for r, q in zip(rows, base)]
            dl = [r[1] - q[1] for r, q in zip(rows, base)]
            cs = bootstrap_mean(ds, 3) or (math.nan, math.nan)
            cl = bootstrap_mean(dl, 4) or (math.nan, math.nan)
            line += (f"   vs {heading} {first}: share {statistics.fmean(ds):+.4f} [{cs[0]:+.4f}, "
                     f"{cs[1]:+.4f}], loglik {statistics.fmean(dl):+.3f} "
                     f"[{cl[0]:+.3f}, {cl[1]:+.3f}]")
        print(line)


if __name__ == "__main__":
    main()
