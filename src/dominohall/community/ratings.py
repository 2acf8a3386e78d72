"""Ratings: OpenSkill's Plackett-Luce model (the arena's), one rating per account and
game family, for rated matches only.

A match is ranked by its final totals: in Mexican Train (penalty scoring) the lowest
total wins; in All Fives, Draw and Block the highest.  Partners (All Fives teams) are
rated as one team: the team's score is the partners' shared total.  Equal totals tie.

A rating is *provisional* while its uncertainty is high (``sigma`` above
:data:`PROVISIONAL_SIGMA`; a new one starts at 25/3 ~ 8.3): it is shown so, and the
leaderboard lists settled players first.  The number shown is ``40 * mu`` (a new
player: 1000); the leaderboard orders by the cautious ``mu - 3 sigma``.

Nobody is rated against themselves: a match whose players share an account, an address
or a device is not rated (:func:`same_player`), so a second account cannot feed the
first one wins.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GAMES = ("mexican_train", "all_fives", "block", "draw")
PROVISIONAL_SIGMA = 6.0
MU, SIGMA = 25.0, 25.0 / 3


@functools.cache
def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        """The number players see."""
        return round(40 * self.mu)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Player:
    """One seat of a finished rated match."""

    account: str
    score: int                  # the seat's final match total (a team's for partners)
    team: int | None = None     # partners share a team number
    address: str = ""
    device: str = ""
    rounds: int = 0             # rounds (hands) the match had
    outs: int = 0               # of them, the rounds this seat went out (dominoed)


def lower_is_better(game: str, scoring: str = "penalty") -> bool:
    """Mexican Train's penalty totals: the lowest wins; every other total: the highest."""
    return game == "mexican_train" and scoring == "penalty"


def same_player(players: Sequence[Player]) -> bool:
    """Two seats of one person: the same account, address or device."""
    for attr in ("account", "address", "device"):
        values = [getattr(p, attr) for p in players if getattr(p, attr)]
        if len(values) != len(set(values)):
            return True
    return False


def places(players: Sequence[Player], lower: bool) -> list[int]:
    """Each seat's place (1 = best; equal totals share a place)."""
    scores = [p.score for p in players]
    return [1 + sum(1 for s in scores if (s < mine if lower else s > mine)) for mine in scores]


def rate(current: dict[str, Rating], players: Sequence[Player], lower: bool) -> dict[str, Rating]:
    """The new rating of every player after one match (`current`: their ratings before,
    a missing one is new)."""
    m = model()
    groups: dict[Any, list[int]] = {}
    for i, p in enumerate(players):
        groups.setdefault(p.team if p.team is not None else ("seat", i), []).append(i)
    teams = list(groups.values())
    if len(teams) < 2:
        raise ValueError("a rated match needs at least two sides")
    old = {p.account: current.get(p.account, Rating()) for p in players}
    rated = [[m.rating(mu=old[players[i].account].mu, sigma=old[players[i].account].sigma)
              for i in team] for team in teams]
    sign = 1 if lower else -1
    ranks = [sign * float(players[team[0]].score) for team in teams]
    new = m.rate(rated, ranks=ranks)
    out: dict[str, Rating] = {}
    for team, after in zip(teams, new):
        for i, r in zip(team, after):
            account = players[i].account
            out[account] = Rating(r.mu, r.sigma, old[account].matches + 1)
    return out
