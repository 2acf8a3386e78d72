"""What each hidden hand can hold, read from a view (public information only).

* `unseen(view)`: tiles neither in our hand nor on the table: the others' hands and
  the boneyard together.
* `lacks(view)`: per seat, the numbers that seat has proved it does not hold.  With
  ``must_play`` on, a draw or a pass carries the open-end numbers the player could
  not match (the engine's ``void`` field).  A pass's proof lasts until that player
  draws again; a draw's proof is about the hand before the drawn tile, so this
  summary leaves it to the sampler, which counts the draws made since.
* `can_hold(view, seat)`: the unseen tiles that seat may hold.

The sampler behind the search bots (`dominohall.sample_world`) applies the same
facts, counting draws made since each proof.

>>> import dominohall
>>> g = dominohall.new_game("block", players=2, seed=1)
>>> len(unseen(g.view(0))) == 28 - 7
True
"""

from __future__ import annotations

import math

from ..engine.tiles import BIT, HIGH, IS_DOUBLE, LOW, PIPS, TEXT, WITH_HALF, parse_tile, set_size
from .base import View


def _round_log(view: View) -> list[dict[str, object]]:
    log = view["log"]
    start = max(i for i, e in enumerate(log) if e["type"] == "deal")
    return list(log[start:])


def seen(view: View) -> set[str]:
    """Tiles this seat has seen this round: its hand and everything on the table."""
    out = set(view["hand"] or [])
    if view["game"] == "mexican_train":
        out |= {t for train in view["trains"] for t in train["tiles"]}
        out.add(view["engine"])
    else:
        out |= {str(e["tile"]) for e in _round_log(view) if e["type"] == "play"}
    return out


def unseen(view: View) -> set[str]:
    """Tiles in the other hands or the boneyard, as far as this seat can tell."""
    known = seen(view)
    return {TEXT[t] for t in range(set_size(view["options"]["set_max"]))} - known


def lacks(view: View) -> dict[int, set[int]]:
    """Per seat: numbers it has proved it lacks, since its last draw."""
    out: dict[int, set[int]] = {s: set() for s in range(view["players"])}
    closed: set[int] = set()          # seats that drew after a later proof was read
    for e in reversed(_round_log(view)):
        seat = e.get("seat")
        if not isinstance(seat, int) or seat in closed:
            continue
        if e["type"] == "draw" and not e.get("search"):
            closed.add(seat)            # the drawn tile may bring a number back
        elif e["type"] == "pass" and "void" in e:
            out[seat] |= set(e["void"])  # type: ignore[call-overload]
    return out


def can_hold(view: View, seat: int) -> set[str]:
    """Unseen tiles `seat` may hold, given the numbers it lacks."""
    numbers = lacks(view)[seat]
    out = set()
    for text in unseen(view):
        t = parse_tile(text)
        if HIGH[t] not in numbers and LOW[t] not in numbers:
            out.add(text)
    return out


# ---------------------------------------------------------------- beliefs from play

#: the play model's default sharpness (see `PlayHistory`); fitted with
#: benchmarks/beliefs.py on bot play
BETA = 0.25
#: what a double adds to a tile's weight in the play model, in pips
DOUBLE_BONUS = 4.0


class PlayHistory:
    """What each seat played this hand, and on which open ends, for weighting sampled
    worlds by how likely each player's choices were (line games with two ends).

    The model of play: a seat picks among the tiles it could play with probability
    proportional to ``exp(beta * weight)``, where a tile's weight is its pips plus
    `double` (default 4) for a double (players shed heavy tiles and doubles first).
    With ``lapse=e`` a seat plays any of those tiles at random with probability `e`
    instead (choices made for reasons the model does not see, a search's, cost a world
    at most ``log e``, not ``beta`` times a pip gap).  `partner_beta` (default: `beta`)
    is the sharpness for the viewer's partner, whose play may follow another rule than
    the rivals'.  A world's hands fix what every seat held at each of its plays (its hand
    now and the tiles it played since; plays before a seat's last draw are left out, as
    its hand then is unknown), so each world gets the likelihood of the plays actually
    seen.  Worlds that explain the history well (the light tile was played because no
    heavy one fitted) weigh more.

    >>> import dominohall, random
    >>> g = dominohall.new_game("block", players=2, seed=3)
    >>> PlayHistory(g.view(0)).log_weight([0, 0], 0)
    0.0
    """

    def __init__(self, view: View, beta: float = BETA, double: float = DOUBLE_BONUS,
                 lapse: float = 0.0, partner_beta: float | None = None) -> None:
        if not 0.0 <= lapse < 1.0:
            raise ValueError(f"lapse={lapse}: from 0 up to (not including) 1")
        self.beta = beta
        self.lapse = lapse
        n = view["players"]
        plays: list[tuple[int, int, int, int]] = []          # seat, tile, end a, end b
        a = b = -1
        ends = {"L": 0, "R": 1}
        for e in _round_log(view):
            if e["type"] == "play":
                t = parse_tile(str(e["tile"]))
                seat = int(e["seat"])  # type: ignore[call-overload]
                plays.append((seat, t, a, b))
                if a < 0:
                    a, b = HIGH[t], LOW[t]
                elif ends.get(str(e["target"])) == 0:
                    a = PIPS[t] - a
                else:
                    b = PIPS[t] - b
            elif e["type"] == "draw":
                seat = int(e["seat"])  # type: ignore[call-overload]
                plays = [p for p in plays if p[0] != seat]   # its earlier hands are unknown
        # per play: the tiles that seat played after it (its hand then = now | later)
        later = [0] * n
        self.events: list[tuple[int, int, int, int]] = []    # seat, tile, later, ends mask
        for seat, t, a, b in reversed(plays):
            fit = -1 if a < 0 else WITH_HALF[a] | WITH_HALF[b]
            self.events.append((seat, t, later[seat], fit))
            later[seat] |= BIT[t]
        self.viewer = view["seat"]
        self.usable = view["game"] != "mexican_train" and view["options"].get("spinner") == "none"
        # per seat: exp(beta * weight) of every tile id, and beta * weight (the log)
        size = len(PIPS)
        self.partner = (self.viewer + 2) % n if view["options"].get("teams") and n == 4 \
            else -1
        self._exp: list[list[float]] = []
        self._log: list[list[float]] = []
        for seat in range(n):
            bs = beta if seat != self.partner or partner_beta is None else partner_beta
            logs = [bs * (PIPS[x] + (double if IS_DOUBLE[x] else 0.0)) for x in range(size)]
            self._log.append(logs)
            self._exp.append([math.exp(v) for v in logs])

    def log_weight(self, hands: list[int], skip: int | None = None) -> float:
        """log P(the seen plays | hands), over every seat but `skip` (the viewer)."""
        if not self.usable:
            return 0.0
        lapse = self.lapse
        total = 0.0
        for seat, t, later, fit in self.events:
            if seat == skip:
                continue
            held = (hands[seat] | later | BIT[t]) & fit
            exps = self._exp[seat]
            norm = 0.0
            count = 0
            while held:
                low = held & -held
                norm += exps[low.bit_length() - 1]
                count += 1
                held ^= low
            if lapse:
                total += math.log((1.0 - lapse) * exps[t] / norm + lapse / count)
            else:
                total += self._log[seat][t] - math.log(norm)
        return total
