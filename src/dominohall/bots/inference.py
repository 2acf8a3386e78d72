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

from ..engine.tiles import HIGH, LOW, TEXT, parse_tile, set_size
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
