"""Load does not matter: the default Mexican Train and Block bots on the same deals,
once as the machine is and once with busy processes beside them (issue 26).

    cd benchmarks
    export PYTHONPATH=$(python -c 'import builds; print(builds.compiled_tree())')/src
    nice -n 19 python load_independence.py --mt-deals 6 --block-deals 30 \\
        --out results/load_independence

plays every deal twice, the same seeds both times, each run in a fresh process (no cache
warmed by the other): first as is (``_idle.jsonl``), then with ``--busy`` processes
spinning (``python -c 'while True: pass'``, at nice 0, each in a session of its own,
ended at the end, ``_busy.jsonl``), and writes the per-deal comparison to ``.txt``.
Mexican Train: the default ``deep`` against ``longest``, 2 players, 4 rounds; Block: the
default ``deep`` with a ``blocker`` partner against two ``blocker``s, 4 players in
partnerships, one hand; seats rotated, our bot in every seat
(`vs_sparring.play_seating`). A seating is the same when its move digest and every
round's scores are the same; the wall / CPU time ratio of our moves shows how much the
load was felt (a wall-clock budget would have searched that much less).

    python load_independence.py --compare A.jsonl B.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from vs_sparring import format_summary, load_rows, play_seating, summarise

GAMES = {   # name -> players, options, ours, others
    "mexican_train": (2, {"rounds": 4}, "deep", ["longest"]),
    "block": (4, {"teams": True, "hands": 1}, "deep", ["blocker"]),
}


def start_busy(n: int) -> list[subprocess.Popen[bytes]]:
    """`n` spinning processes at nice 0, each in a session of its own (so that with the
    kernel's autogroups each weighs on the cores as another program would)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                             start_new_session=True,
                             preexec_fn=lambda: os.setpriority(os.PRIO_PROCESS, 0, 0))
            for _ in range(n)]


def stop_busy(spinners: list[subprocess.Popen[bytes]]) -> None:
    for p in spinners:
        p.send_signal(signal.SIGTERM)
    for p in spinners:
        p.wait()


def play_run(out: Path, mt_deals: int, block_deals: int, seed: int, run: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("")
    for game, deals in (("mexican_train", mt_deals), ("block", block_deals)):
        players, options, ours, others = GAMES[game]
        for k in range(deals):
            rows = [play_seating(ours, others, players, options, seed, k, r, game=game)
                    for r in range(players)]
            with out.open("a") as f:
                for r in rows:
                    f.write(json.dumps({"label": game, "run": run, **r}) + "\n")
            print(f"  {run} {game} deal {k} done, load {os.getloadavg()[0]:.1f}",
                  file=sys.stderr, flush=True)


def _key(r: dict[str, Any]) -> tuple[str, int, int]:
    return (r["label"], r["deal"], r["rotation"])


def compare(a: Path, b: Path) -> str:
    ra = {_key(r): r for r in load_rows(a, None)}
    rb = {_key(r): r for r in load_rows(b, None)}
    lines = [f"# {a.name} against {b.name}: per deal, our seat's totals in each "
             "rotation (A | B), and whether every seating played the same moves",
             f"{'game':14} {'deal':>4}  {'A totals (ours)':24} {'B totals (ours)':24} same"]
    same_all = 0
    both = sorted(set(ra) & set(rb))
    deals = sorted({(g, d) for g, d, _ in both})
    for g, d in deals:
        keys = [k for k in both if k[:2] == (g, d)]
        ta = [ra[k]["totals"][ra[k]["ours"]] for k in keys]
        tb = [rb[k]["totals"][rb[k]["ours"]] for k in keys]
        same = all(ra[k]["digest"] == rb[k]["digest"] and ra[k]["rounds"] == rb[k]["rounds"]
                   for k in keys)
        same_all += sum(1 for k in keys if ra[k]["digest"] == rb[k]["digest"]
                        and ra[k]["rounds"] == rb[k]["rounds"])
        lines.append(f"{g:14} {d:4d}  {str(ta):24} {str(tb):24} {'yes' if same else 'NO'}")
    lines.append(f"{same_all} of {len(both)} seatings identical (moves and every round's "
                 "scores)")
    for path, rows in ((a, ra), (b, rb)):
        for g in GAMES:
            rs = [r for k, r in rows.items() if k[0] == g and k in both]
            if not rs:
                continue
            cpu = sum(r["ms_sum"] for r in rs)
            wall = sum(r.get("wall_ms_sum", 0.0) for r in rs)
            moves = sum(r["moves"] for r in rs)
            loads = [r["load"] for r in rs]
            lines.append(f"{path.name} {g}: {moves} moves of ours, CPU {cpu / moves:.2f} ms "
                         f"a move, wall {wall / moves:.2f} ms (wall/CPU {wall / cpu:.2f}), "
                         f"load average {min(loads)}-{max(loads)} "
                         f"(mean {statistics.fmean(loads):.1f})")
    mt = [r for k, r in ra.items() if k[0] == "mexican_train" and k in both]
    if mt:
        lines.append(format_summary(summarise(mt, GAMES["mexican_train"][0]),
                                    f"{a.name} mexican_train deep vs longest"))
        mtb = [rb[_key(r)] for r in mt]
        lines.append(format_summary(summarise(mtb, GAMES["mexican_train"][0]),
                                    f"{b.name} mexican_train deep vs longest"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mt-deals", type=int, default=3)
    p.add_argument("--block-deals", type=int, default=10)
    p.add_argument("--busy", type=int, default=4, help="spinning processes (4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="benchmarks/results/load_independence",
                   help="prefix: _idle.jsonl, _busy.jsonl, .txt")
    p.add_argument("--compare", nargs=2, metavar="FILE")
    p.add_argument("--run", help=argparse.SUPPRESS)   # one run, in a fresh process
    a = p.parse_args(argv)
    if a.compare:
        print(compare(Path(a.compare[0]), Path(a.compare[1])))
        return 0
    if a.run:
        play_run(Path(f"{a.out}_{a.run}.jsonl"), a.mt_deals, a.block_deals, a.seed, a.run)
        return 0
    idle, busy = Path(a.out + "_idle.jsonl"), Path(a.out + "_busy.jsonl")

    def run(name: str) -> None:   # a fresh process each: no cache warmed by the other run
        subprocess.run([sys.executable, __file__, "--run", name, "--out", a.out,
                        "--mt-deals", str(a.mt_deals), "--block-deals", str(a.block_deals),
                        "--seed", str(a.seed)], check=True)
    run("idle")
    spinners = start_busy(a.busy)
    try:
        time.sleep(5.0 if spinners else 0.0)      # let the load average climb
        run("busy")
    finally:
        stop_busy(spinners)
    text = (f"# {' '.join(sys.argv)}\n# busy processes: {a.busy} at nice 0\n"
            + compare(idle, busy))
    Path(a.out + ".txt").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
