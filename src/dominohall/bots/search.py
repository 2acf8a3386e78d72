"""What the top bots of All Fives (`bots.allfives`) and Mexican Train (`bots.train`)
share: a determinized search over worlds sampled from the view, with a budget.

`WorldSearch.choose` samples a world (`dominohall.sample_world`: hand sizes, seen tiles,
proven voids), asks the game's `evaluate(world, candidates, seat, rng)` for one value
per candidate (higher is better for us), and repeats until the budget is spent; the
candidate with the best mean wins.  The budget is work by default: ``worlds=N`` (exactly N
worlds; the default is each bot's `DEFAULT_WORLDS`, calibrated once to its target cost),
so the same seed and view give the same move on any machine and under any load.  A time
limit is only a safety cap there: past ``cap_ms`` of this thread's CPU time (default
`CAP_MS`, many times the target cost) the search stops once `min_worlds` are done
(`capped` tells it happened).
A time budget stays an option: ``budget_ms=T`` without ``worlds`` stops sampling once
that much time has passed and `min_worlds` are done (``clock=cpu`` counts this process's
CPU time instead of wall time); then the move depends on the machine's speed and load.
Each world's values are computed for
every candidate with the same random numbers (common random numbers).  A move with one
legal action is returned without search.  With ``race=z`` (off by default) the search
races the candidates: after `race_after` worlds, a candidate behind the leader by more
than z standard errors of their paired difference gets no more rollouts, and the search
stops once one candidate is left, so the worlds go to the moves still in doubt.

`DeepBot` (registered as ``deep``) picks the top bot of each game: Block and Draw play
`bots.block.DeepBot`, All Fives plays `bots.allfives.AllFivesBot`, Mexican Train
`bots.train.TrainBot`; each gets the parameters its own signature takes.
"""

from __future__ import annotations

import inspect
import random
import time
from typing import Any

from ..engine import Action, Game, parse_action, sample_world
from .base import SeededBot, View

#: the safety cap of a work budget: a search stops past this many milliseconds of this
#: thread's CPU time (`CAP_CLOCK`: a loaded machine's other jobs do not count, so the cap
#: does not make the move depend on the load) once `min_worlds` are done
CAP_MS = 2000.0
CAP_CLOCK = time.thread_time


class WorldSearch(SeededBot):
    """Determinized search with a work (worlds) or time budget (see the module
    docstring)."""

    name = "search"
    #: worlds a move when neither ``worlds`` nor ``budget_ms`` is given
    DEFAULT_WORLDS = 8

    def __init__(self, seed: int = 0, budget_ms: float | None = None,
                 worlds: int | None = None, min_worlds: int = 2, clock: str = "wall",
                 race: float = 0.0, race_after: int = 8, cap_ms: float = CAP_MS) -> None:
        super().__init__(seed)
        if clock not in ("wall", "cpu"):
            raise TypeError(f"clock={clock!r}: choose wall or cpu")
        self.clock = time.process_time if clock == "cpu" else time.perf_counter
        if worlds is not None and int(worlds) < 1:
            raise TypeError(f"worlds={worlds!r}: at least 1")
        if worlds is None and budget_ms is None:
            worlds = self.DEFAULT_WORLDS
        self.worlds = None if worlds is None else int(worlds)
        self.budget_ms = None if budget_ms is None else float(budget_ms)
        if float(cap_ms) <= 0:
            raise TypeError(f"cap_ms={cap_ms!r}: a positive number of milliseconds")
        self.cap_ms = float(cap_ms)
        self.cap_clock = CAP_CLOCK
        #: whether the last `choose` stopped at the safety cap before its worlds were done
        self.capped = False
        self.min_worlds = max(1, int(min_worlds))
        if float(race) < 0:
            raise TypeError(f"race={race!r}: 0 (off) or a positive z")
        self.race = float(race)
        self.race_after = max(2, int(race_after))
        #: worlds searched by the last `choose` (for tests and benchmarks)
        self.searched = 0
        #: candidates still compared when the last `choose` stopped
        self.survivors = 0

    def candidates(self, view: View) -> list[Action]:
        """The actions worth comparing (all legal ones by default)."""
        return [parse_action(a) for a in view["legal_actions"]]

    def evaluate(self, world: Game, candidates: list[Action], seat: int,
                 rng: random.Random, deadline: float | None) -> list[float]:
        raise NotImplementedError

    def prepare(self, view: View) -> None:
        """Called once a move before the worlds are sampled (nothing by default)."""

    def sample(self, view: View) -> Game:
        """One world consistent with the view (`sample_world` by default)."""
        return sample_world(view, self.rng)

    def choose(self, view: View) -> str:
        candidates = self.candidates(view)
        if len(candidates) == 1:
            self.searched = 0
            self.survivors = 1
            return str(candidates[0])
        seat = view["seat"]
        fixed = self.worlds
        now = self.clock()
        # a work budget gives the rollouts no deadline (the same work under any load);
        # its safety cap is read between worlds only
        deadline = None if fixed is not None else now + (self.budget_ms or 0.0) / 1000.0
        cap = self.cap_clock() + self.cap_ms / 1000.0
        active = list(range(len(candidates)))
        values: list[list[float]] = [[] for _ in candidates]   # per candidate, per world
        done = 0
        self.prepare(view)
        self.capped = False
        while (done < fixed) if fixed is not None else \
                (done < self.min_worlds or self.clock() < deadline):  # type: ignore[operator]
            if fixed is not None and done >= self.min_worlds and self.cap_clock() >= cap:
                self.capped = True
                break
            world = self.sample(view)
            rng = random.Random(self.rng.randrange(2 ** 32))
            row = self.evaluate(world, [candidates[i] for i in active], seat, rng, deadline)
            for i, v in zip(active, row):
                values[i].append(v)
            done += 1
            if self.race and done >= self.race_after and len(active) > 1:
                active = _race(active, values, self.race)
                if len(active) == 1:
                    break
        self.searched = done
        self.survivors = len(active)
        best = max(active, key=lambda i: (sum(values[i]) / len(values[i]), -i))
        return str(candidates[best])


def _race(active: list[int], values: list[list[float]], z: float) -> list[int]:
    """The candidates still in the race: every one not behind the leader by more than
    `z` standard errors of their paired difference (the same worlds, the same luck).
    All active candidates have a value for every world so far."""
    k = len(values[active[0]])
    lead = max(active, key=lambda i: sum(values[i]))
    top = values[lead]
    keep = []
    for i in active:
        if i == lead:
            keep.append(i)
            continue
        d = [a - b for a, b in zip(top, values[i])]
        mean = sum(d) / k
        var = sum((x - mean) ** 2 for x in d) / (k - 1)
        if mean <= 0 or mean * mean * k <= z * z * var:
            keep.append(i)
    return keep


def _accepted(factory: Any, params: dict[str, Any]) -> dict[str, Any]:
    names = inspect.signature(factory).parameters
    return {k: v for k, v in params.items() if k in names}


class DeepBot:
    """``deep``: the top bot of whichever game the view is of (see the module docstring).
    A parameter none of the three takes is refused (TypeError) when the bot is made."""

    name = "deep"

    def __init__(self, seed: int = 0, **params: Any) -> None:
        from .allfives import AllFivesBot
        from .block import DeepBot as BlockDeepBot
        from .train import TrainBot
        self.factories: dict[str, Any] = {"line": BlockDeepBot, "all_fives": AllFivesBot,
                                          "mexican_train": TrainBot}
        known = set()
        for f in self.factories.values():
            known |= set(inspect.signature(f).parameters)
        unknown = sorted(set(params) - known)
        if unknown:
            raise TypeError(f"unexpected parameter {unknown[0]!r}")
        # made at once, so a bad value is refused when the bot is made, not mid-game
        self.bots = {key: f(seed=seed, **_accepted(f, params))
                     for key, f in self.factories.items()}

    def bot_for(self, game: str) -> Any:
        return self.bots[game if game in ("all_fives", "mexican_train") else "line"]

    def act(self, view: View) -> str:
        self.last = self.bot_for(view["game"])
        return str(self.last.act(view))

    def __getattr__(self, name: str) -> Any:
        """What the game's own bot tells of its last choice (``last_search``,
        ``searched``...), read through this one."""
        last = self.__dict__.get("last")
        if last is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(last, name)


__all__ = ["DeepBot", "WorldSearch"]
