"""The rate limiter's cost per check once 100,001 addresses are known, each seen twice
(the issue 25 case: a table of that size made the old limiter rebuild itself on every
check).  Prints microseconds per check; run with ``nice -n 15``."""

from __future__ import annotations

import time

from dominohall.server.tables import RateLimiter


def main(known: int = 100_001, checks: int = 2000) -> None:
    limiter = RateLimiter()
    for i in range(known):
        address = f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}"
        limiter.check("join", address, 60)
        limiter.check("join", address, 60)
    start = time.perf_counter()
    for i in range(checks):
        limiter.check("join", f"172.16.{(i >> 8) & 255}.{i & 255}", 60)
    per = (time.perf_counter() - start) / checks * 1e6
    print(f"{known} addresses known: {per:.1f} us per check, {len(limiter.buckets)} buckets")


if __name__ == "__main__":
    main()
