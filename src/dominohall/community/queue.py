"""Quick play: queues of players waiting for a game, matched into tables.

An entry waits for one game, a number of players (or any: 0) and rated or casual play.
The queues are rows in the server's database (:mod:`.store`), so every node of a
cluster sees one queue; each node runs a matcher (:class:`Matcher`) that claims the
entries of a group with one conditional UPDATE (an entry another node has claimed is
not taken twice), makes the table and hands each entry its seat's invite.

Matching (:func:`groups`), for each (game, rated) queue, oldest entry first:

* a group is the oldest waiting entry plus others that accept the same number of
  players (an "any" entry accepts every size of the game; a group only of "any"
  entries starts at the game's usual size, or at two once the oldest waited
  :data:`ANY_WAIT` seconds);
* rated: every member's rating (mu) within the oldest entry's band, which widens with
  its wait (:func:`band`), and no two members with one address or device;
* casual: an entry that accepted bots and waited :data:`BOT_WAIT` seconds gets a table
  at once, bots in the seats nobody took.

Rated play uses each game's standard rules (:data:`RATED_PRESET`), and no bots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: every game's sizes and usual size (the lobby's)
SIZES = {"mexican_train": (2, 8, 4), "all_fives": (2, 4, 2), "block": (2, 4, 2),
         "draw": (2, 4, 2)}
#: the named standard rules of rated play: the game's defaults (RULES.md's standard)
RATED_PRESET = "standard"
ANY_WAIT = 5.0          # seconds before "any" entries alone start a two-player table
BOT_WAIT = 10.0         # seconds before a casual entry may be given bots
STALE = 30.0            # an entry nobody asked about for this long has left
BOT = "greedy"


def band(waited: float) -> float:
    """How far (in mu; 40 rating points each) a rated opponent may be after `waited` s."""
    return 3.0 + 0.5 * max(0.0, waited)


@dataclass(frozen=True)
class Entry:
    id: str
    game: str
    players: int            # 0: any
    rated: bool
    mu: float
    joined: float
    bots: bool = False      # casual: accepts bots for empty seats
    address: str = ""
    device: str = ""
    account: str | None = None


@dataclass(frozen=True)
class Group:
    game: str
    rated: bool
    entries: tuple[Entry, ...]
    bots: int = 0           # bot seats after the entries' seats

    @property
    def size(self) -> int:
        return len(self.entries) + self.bots


def _accepts(e: Entry, n: int) -> bool:
    return e.players in (0, n)


def _same_person(a: Entry, b: Entry) -> bool:
    return bool((a.address and a.address == b.address) or (a.device and a.device == b.device)
                or (a.account and a.account == b.account))


def _pick(oldest: Entry, others: Sequence[Entry], n: int, now: float) -> list[Entry] | None:
    if not _accepts(oldest, n):
        return None
    chosen = [oldest]
    for e in others:
        if len(chosen) == n:
            break
        if not _accepts(e, n):
            continue
        if oldest.rated:
            if abs(e.mu - oldest.mu) > band(now - oldest.joined):
                continue
            if any(_same_person(e, c) for c in chosen):
                continue
        chosen.append(e)
    if len(chosen) < n:
        return None
    if all(c.players == 0 for c in chosen) and n != SIZES[oldest.game][2] \
            and now - oldest.joined < ANY_WAIT:
        return None
    return chosen


def groups(entries: Sequence[Entry], now: float) -> list[Group]:
    """The tables to make now from the waiting `entries` (each entry in one at most)."""
    out: list[Group] = []
    used: set[str] = set()
    by_queue: dict[tuple[str, bool], list[Entry]] = {}
    for e in sorted(entries, key=lambda e: (e.joined, e.id)):
        if e.game in SIZES:
            by_queue.setdefault((e.game, e.rated), []).append(e)
    for (game, rated), queue in by_queue.items():
        lo, hi, usual = SIZES[game]
        for oldest in queue:
            if oldest.id in used:
                continue
            others = [e for e in queue if e.id not in used and e.id != oldest.id]
            sizes = [oldest.players] if oldest.players else \
                [usual, *range(hi, lo - 1, -1)]
            picked = None
            for n in dict.fromkeys(sizes):
                picked = _pick(oldest, others, n, now)
                if picked:
                    break
            if picked:
                out.append(Group(game, rated, tuple(picked)))
            elif not rated and oldest.bots and now - oldest.joined >= BOT_WAIT:
                n = oldest.players or usual
                people = [oldest] + [e for e in others if _accepts(e, n)][:n - 1]
                out.append(Group(game, rated, tuple(people), bots=n - len(people)))
            else:
                continue
            used.update(e.id for e in out[-1].entries)
    return out
