"""Load check for quick play's queues and matcher (not a timed test).

Simulated players arrive at a steady rate and join the queues as ``POST /api/queue``
does (a row each, through the store); one node's real :class:`Matcher` (the server's
own, making real tables through the hub, bots off) matches them.  For every matched
entry the wait is counted from the moment its match became *possible* (the last
member of its group arrived) to the moment the matcher handed it a seat, so a wait
the rules impose (a rated band, "any" waiting for the usual size, bots only after a
wait) is not counted against the matcher.  Games and sizes are drawn at random:
fixed sizes, "any", casual and rated (new players, so every rated band already
admits them).

    python benchmarks/quickplay_load.py --players 1000 --seconds 20
    python benchmarks/quickplay_load.py --db postgresql://postgres@127.0.0.1:55432/x

Prints p50 / p99 / max of that wait, how many were matched, and how long one match
round took.  Bounded: at most 5000 players and 300 seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import statistics
import sys
import tempfile
import time
from typing import Any


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run(players: int, seconds: float, db: str, seed: int) -> dict[str, Any]:
    from dominohall.community import queue as Q
    from dominohall.community.quickplay import Matcher
    from dominohall.community.ratings import MU
    from dominohall.community.store import CommunityStore
    from dominohall.server.store import open_store
    from dominohall.server.tables import Hub, Limits

    store = open_store(db)
    limits = Limits(max_tables=players + 10)      # every match gets its table
    hub = Hub(store, bot_delay=0, bot_processes=False, limits=limits)
    await hub.start()
    community = CommunityStore(store)
    # a running server has made tables before: the first table of each game (imports,
    # the engine's first deal) is made here, outside the measurement
    for game in Q.SIZES:
        await hub.create_table({"game": game, "seats": [{"kind": "human", "name": "W"}] * 2})
    matcher = Matcher(hub, community)
    rounds: list[float] = []

    async def timed_matcher() -> None:
        while True:
            t0 = time.perf_counter()
            await matcher.match_once()
            rounds.append(time.perf_counter() - t0)
            await asyncio.sleep(matcher.interval)

    task = asyncio.create_task(timed_matcher())
    rng = random.Random(seed)
    games = [("mexican_train", [0, 2, 3, 4]), ("all_fives", [0, 2, 4]), ("block", [0, 2]),
             ("draw", [0, 2, 3])]
    gap = seconds / players
    start = time.monotonic()
    for i in range(players):
        game, sizes = rng.choice(games)
        rated = rng.random() < 0.4
        await hub.run_db(functools.partial(
            community.join_queue, account_id=None, device=f"device-{i}",
            address=f"10.{i // 250}.{i % 250}.1", game=game, players=rng.choice(sizes),
            rated=rated, mu=MU, name=f"P{i}", cap=4))
        # keep everyone "seen", as a polling page does
        if i % 50 == 0:
            await hub.run_db(lambda: community._exec("UPDATE {t}queue SET seen = {p} "
                                                     "WHERE table_id IS NULL",
                                                     (time.time(),)))
        delay = start + (i + 1) * gap - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
    await asyncio.sleep(Q.ANY_WAIT + 2.0)          # the last "any" entries' wait
    task.cancel()
    rows = await hub.run_db(community._rows,
                            "SELECT table_id, joined, seen FROM {t}queue "
                            "WHERE table_id IS NOT NULL AND table_id NOT LIKE {p}", ("claim:%",))
    await hub.stop()
    tables: dict[str, list[tuple[float, float]]] = {}
    for table, joined, seen in rows:
        tables.setdefault(table, []).append((float(joined), float(seen)))
    waits = []
    for members in tables.values():
        possible = max(j for j, _ in members)
        waits += [max(0.0, s - possible) for _, s in members]
    return {"players": players, "seconds": seconds, "matched": len(waits),
            "tables": len(tables), "p50": percentile(waits, 0.5),
            "p99": percentile(waits, 0.99), "max": max(waits, default=float("nan")),
            "round_p50": statistics.median(rounds) if rounds else float("nan"),
            "round_max": max(rounds, default=float("nan"))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=1000, help="simulated players (<= 5000)")
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="over how long they arrive (<= 300)")
    ap.add_argument("--db", default=None, help="a postgresql:// URL (default: a temporary "
                                               "SQLite file)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not 1 <= args.players <= 5000 or not 1 <= args.seconds <= 300:
        ap.error("--players 1..5000 and --seconds 1..300")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"{tmp}/queue.sqlite3"
        r = asyncio.run(run(args.players, args.seconds, db, args.seed))
    print(f"quick play load: {r['players']} players over {r['seconds']:g} s "
          f"({'PostgreSQL' if args.db else 'SQLite'})")
    print(f"  matched {r['matched']} into {r['tables']} tables")
    print(f"  wait once a match was possible: p50 {r['p50']:.3f} s, p99 {r['p99']:.3f} s, "
          f"max {r['max']:.3f} s")
    print(f"  one matcher round: median {r['round_p50'] * 1000:.1f} ms, "
          f"max {r['round_max'] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
