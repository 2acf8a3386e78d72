"""Sparring partners for Mexican Train: rule-based players written from strong players'
advice, outside our own ladder, so that `deep` is tuned and measured against a
population and not one bot.  Each reads only its view.

* ``longest``, the longest-chain planner: its train is the exact longest chain of its own
  hand from the train's open end (most tiles, then most pips; `mexican.plan_train`),
  replanned every move.  Chain tiles go on its own train only; every other tile is shed
  on the other trains, heaviest first by *true pips* (the 0-0 counts ``blank``, default
  50: the tile a player most wants out of the hand).  It builds its own train first while
  the train carries a marker, on a first turn and before the train is started, and when
  nothing off the chain fits anywhere.
* ``dumper``, "dump heavy tiles": always the playable tile with the most true pips,
  wherever it fits (its own train first on a tie).
* ``private``, "keep the train private": plays on its own train whenever anything fits it
  (the next tile of its longest chain if it can, else the heaviest), so a marker never
  stays on it; elsewhere only when nothing fits its own train, heaviest first.
* ``mexfirst``, "Mexican train first": the heaviest tile that fits the Mexican train; then
  its own train's longest chain; then the heaviest tile anywhere.

All four keep playing a first-turn chain while a tile fits (``end`` only when nothing
does), and draw or pass only when the rules leave nothing else.
"""

from __future__ import annotations

from ..engine import Action
from ..engine.actions import END, PLAY, parse_action
from ..engine.tiles import IS_DOUBLE, PIPS
from .base import SeededBot, View, hand_mask
from .mexican import plan_train

#: the 0-0's weight when a sparring partner counts pips (strong players' advice: get the
#: double blank out, it may cost 50)
BLANK = 50


def true_pips(tile: int, blank: int = BLANK) -> int:
    """A tile's pips as the sparring partners count them: the 0-0 is worth `blank`."""
    return blank if IS_DOUBLE[tile] and PIPS[tile] == 0 else PIPS[tile]


class _Facts:
    """What the rules need from a view, read once."""

    def __init__(self, view: View) -> None:
        self.legal = [parse_action(a) for a in view["legal_actions"]]
        self.plays = [a for a in self.legal if a.kind == PLAY]
        self.hand = hand_mask(view)
        self.own = f"t{view['seat']}"
        train = next(t for t in view["trains"] if t["id"] == self.own)
        self.own_end = int(train["open_end"])
        self.marker = bool(train["marker"])
        self.started = bool(train["started"])
        self.in_chain = bool(view["turn"]["chain"])

    def plan(self) -> list[int]:
        return plan_train(self.hand, self.own_end)

    def end_or_first(self) -> Action:
        """No play: end a chain if that is allowed, else the first legal action (draw or
        pass)."""
        ends = [a for a in self.legal if a.kind == END]
        return ends[0] if ends else self.legal[0]


class _SparringBot(SeededBot):
    """A rule on `_Facts`; answers at once when there is no choice."""

    def __init__(self, seed: int = 0, blank: int = BLANK) -> None:
        super().__init__(seed)
        if isinstance(blank, bool) or not isinstance(blank, int) or not 0 <= blank <= 100:
            raise TypeError(f"blank={blank!r}: the 0-0's pips, 0 to 100")
        self.blank = blank

    def heaviest(self, plays: list[Action], prefer: str | None = None) -> Action:
        return max(plays, key=lambda a: (true_pips(a.tile, self.blank),
                                         1 if a.target == prefer else 0, self.rng.random()))

    def choose(self, view: View) -> str:
        f = _Facts(view)
        if not f.plays:
            return str(f.end_or_first())
        return str(self.rule(f))

    def rule(self, f: _Facts) -> Action:
        raise NotImplementedError


class LongestChainBot(_SparringBot):
    """``longest``: the longest-chain planner (see the module docstring)."""

    name = "longest"

    def rule(self, f: _Facts) -> Action:
        chain = f.plan()
        plan = set(chain)
        nxt = [a for a in f.plays if chain and a.tile == chain[0] and a.target == f.own]
        if nxt and (f.marker or f.in_chain or not f.started):
            return nxt[0]
        off = [a for a in f.plays if a.tile not in plan and a.target != f.own]
        if off:
            return self.heaviest(off)
        if nxt:
            return nxt[0]
        # only plan tiles or own-train plays are left: spend the chain from its far end
        position = {t: i for i, t in enumerate(chain)}
        return max(f.plays, key=lambda a: (a.tile not in plan, position.get(a.tile, -1),
                                           true_pips(a.tile, self.blank)))


class DumperBot(_SparringBot):
    """``dumper``: the heaviest playable tile, anywhere."""

    name = "dumper"

    def rule(self, f: _Facts) -> Action:
        return self.heaviest(f.plays, prefer=f.own)


class PrivateBot(_SparringBot):
    """``private``: its own train whenever anything fits it."""

    name = "private"

    def rule(self, f: _Facts) -> Action:
        mine = [a for a in f.plays if a.target == f.own]
        if not mine:
            return self.heaviest(f.plays)
        chain = f.plan()
        nxt = [a for a in mine if chain and a.tile == chain[0]]
        return nxt[0] if nxt else self.heaviest(mine)


class MexicanFirstBot(_SparringBot):
    """``mexfirst``: the Mexican train first, then its own train's plan."""

    name = "mexfirst"

    def rule(self, f: _Facts) -> Action:
        mx = [a for a in f.plays if a.target == "mx"]
        if mx:
            return self.heaviest(mx)
        chain = f.plan()
        nxt = [a for a in f.plays if chain and a.tile == chain[0] and a.target == f.own]
        if nxt:
            return nxt[0]
        return self.heaviest(f.plays, prefer=f.own)


#: the sparring partners by name (`bots.make` knows them in Mexican Train; they are not
#: rungs of the ladder `bots.names` lists)
SPARRING = {"longest": LongestChainBot, "dumper": DumperBot, "private": PrivateBot,
            "mexfirst": MexicanFirstBot}

__all__ = ["BLANK", "SPARRING", "DumperBot", "LongestChainBot", "MexicanFirstBot",
           "PrivateBot", "true_pips"]
