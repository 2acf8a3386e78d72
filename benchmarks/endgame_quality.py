"""Decision quality late in a hand, against the exact value in the true deal.

    .venv/bin/python benchmarks/endgame_quality.py
    .venv/bin/python benchmarks/endgame_quality.py --bots deep:worlds=20,blocker --games 30

4-player partnership Block hands are played by `--players-bot` (default `fives`).  At every
decision with a choice while 10 to 18 tiles are left in the hands, each bot of `--bots`
is asked what it would play (from the view only), and the referee values every play
exactly in the *true* deal (`dominohall.bots.endgame.solve`, our side's points minus the
other side's).  Reported per bot: the share of decisions where it chose a play of the
best true value, and the mean points lost against the best play, with bootstrap 95%
intervals over games.  Bots with a clock are given fixed world counts here
(``deep:worlds=N``, ``pimc:samples=N:min_samples=N``), so the run does not depend on the
machine's load.
"""

from __future__ import annotations

import argparse
import statistics

import dominohall
from dominohall import bots
from dominohall.arena.match import make_bot
from dominohall.arena.seeds import derive
from dominohall.arena.stats import bootstrap_mean
from dominohall.bots.block import _candidates
from dominohall.bots.endgame import LineHand, solve
from dominohall.engine.actions import parse_action


def _truth(g: dominohall.Game) -> LineHand:
    st = g.state
    a, b = (st.end_values[0], st.end_values[1]) if st.lead >= 0 else (-1, -1)
    return LineHand(st.opts, st.hands[:], a, b, st.current, [], [0] * st.n, st.scores[:], True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bots", default="deep:worlds=20,deep:worlds=20:weights=false,"
                   "pimc:samples=64:min_samples=64:budget_ms=1e9,blocker,fives")
    p.add_argument("--players-bot", default="fives", help="who plays the hands (fives)")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    entries = args.bots.split(",")
    per_game: dict[str, list[tuple[float, float]]] = {e: [] for e in entries}
    decisions = 0
    for k in range(args.games):
        g = dominohall.new_game("block", players=4, seed=derive(args.seed, "eq", k),
                                options={"teams": True, "hands": 1})
        players = [bots.make(args.players_bot, seed=s) for s in range(4)]
        rows: dict[str, list[tuple[float, float]]] = {e: [] for e in entries}
        while not g.is_over:
            s = g.current_seat
            view = g.view(s)
            plays = _candidates(view)
            if len(plays) > 1 and 10 <= sum(view["hand_sizes"]) <= 18:
                cands = list(plays)
                values = solve(_truth(g), cands, s)
                best = max(values)
                decisions += 1
                for e in entries:
                    text = make_bot(e, derive(args.seed, "bot", k, decisions), "block").act(view)
                    key = next((c for c, t in plays.items() if t == text), None)
                    if key is None:            # ">R" where both ends are equal
                        key = (parse_action(text).tile, 0)
                    v = values[cands.index(key)]
                    rows[e].append((1.0 if v == best else 0.0, best - v))
            g.apply(players[s].act(view), seat=s)
        for e in entries:
            if rows[e]:
                per_game[e].append((statistics.fmean(r[0] for r in rows[e]),
                                    statistics.fmean(r[1] for r in rows[e])))
    print(f"block 4p teams, {args.players_bot} play, {args.games} games, {decisions} decisions")
    for e in entries:
        best = [r[0] for r in per_game[e]]
        loss = [r[1] for r in per_game[e]]
        cb = bootstrap_mean(best, 1) or (0.0, 0.0)
        cl = bootstrap_mean(loss, 2) or (0.0, 0.0)
        print(f"  {e:50} best play {statistics.fmean(best):.3f} [{cb[0]:.3f}, {cb[1]:.3f}]"
              f"  points lost {statistics.fmean(loss):.2f} [{cl[0]:.2f}, {cl[1]:.2f}]")


if __name__ == "__main__":
    main()
