"""`?` in the terminal game: what the strongest bot would play, and a one-line why.

The why is read from the human's view (which train, pips shed, an owed double,
the count a line-game play would make), never from another seat's hand.  In All
Fives it says the count the play scores and the reply it denies: the best score the
next opponent could answer with, over every tile that seat may hold as far as your
view tells (the tiles you cannot see, less the numbers it has shown it lacks).
"""

from __future__ import annotations

import random
from typing import Any

from .. import bots
from ..bots.inference import can_hold
from ..engine import Game, sample_world
from ..engine.actions import PLAY, parse_action
from ..engine.tiles import BIT, parse_tile
from ..i18n import _, ngettext
from .render import halves, split_action

View = dict[str, Any]


def strongest_bot(game: str) -> str:
    """The last (strongest) of bots.names(game)."""
    return bots.names(game)[-1]


def hint(game: Game, seat: int) -> tuple[str, str]:
    """(action, why) for `seat`, whose turn it must be."""
    view = game.view(seat)
    if not view["legal_actions"]:
        return "", _("it is not your turn")
    action = suggest(view)
    return action, f"{strongest_bot(game.name)}: {why(action, view, game)}"


def suggest(view: View) -> str:
    """The strongest bot's action for this view (may take a while: run it off the UI thread)."""
    name = strongest_bot(view["game"])
    return bots.make(name, seed=view["version"], game=view["game"]).act(view)


def why(action: str, view: View, game: Game | None = None) -> str:
    """One line explaining `action` from what `view` shows."""
    legal = [str(a) for a in view["legal_actions"]]
    if action == "draw":
        return _("nothing in your hand fits an open end: draw a tile")
    if action == "pass":
        if view["game"] == "mexican_train":
            return _("the drawn tile does not fit: pass (a marker goes on your train)")
        return _("nothing fits and you cannot draw: pass")
    if action == "end":
        return _("stop the first-turn chain here and keep the rest for later")
    tile, target = split_action(action)
    if tile is None:
        return action
    a, b = halves(tile)
    pips = a + b
    plays = [x for x in legal if "-" in x]
    most = all(sum(halves(split_action(x)[0] or "0-0")) <= pips for x in plays)
    shed = (ngettext("sheds {n} pip (the most you can)", "sheds {n} pips (the most you can)",
                     pips) if most else ngettext("sheds {n} pip", "sheds {n} pips", pips))
    shed = shed.format(n=pips)
    if view["game"] == "mexican_train":
        parts = [_train_reason(target, view), shed]
        if a == b:
            parts.append(_("a double: you play again"))
        return "; ".join(parts)
    if target is None:
        where = _("leads {tile}").format(tile=tile)
    else:
        where = _("on the {end} end").format(end=target)
    if view["game"] == "all_fives" and game is not None:
        return "; ".join([where, *_fives_reasons(action, view, game), shed])
    return f"{where}; {shed}"


def _train_reason(target: str | None, view: View) -> str:
    train = next(t for t in view["trains"] if t["id"] == target)
    if target in view["owed"]:
        return _("covers the owed double on {train}").format(train=target)
    if train["owner"] is None:
        return (_("extends the Mexican train") if train["started"]
                else _("starts the Mexican train"))
    if train["owner"] == view["seat"]:
        return _("extends your train") if train["started"] else _("starts your train")
    return _("plays on seat {n}'s open train (it carries a marker)").format(n=train["owner"])


def _score_now(game: Game, action: str, seat: int) -> tuple[int, int, Game]:
    """(count, points) the engine gives `action` for `seat`, and the game after it."""
    trial = game.clone()
    before = trial.scores[seat]
    trial.apply(action, seat=seat)
    event: dict[str, Any] = next(
        (e for e in reversed(trial.view(seat)["log"]) if e["type"] == "play"), {})
    return int(event.get("count", 0)), trial.scores[seat] - before, trial


def best_reply(view: View, action: str) -> tuple[int | None, int]:
    """(seat, points): the next opponent's best score in reply to `action`, over every
    tile that seat may hold as far as `view` tells; (None, 0) when no opponent replies
    (the hand ends, or a partner plays next)."""
    seat = view["seat"]
    world = sample_world(view, random.Random(view["version"]))   # public facts + our hand
    after = world.clone()
    after.apply(action, seat=seat)
    replier = after.current_seat
    if after.is_over or after.round != world.round or replier is None:
        return None, 0
    st: Any = after.state
    if st.side(replier) == st.side(seat):
        return None, 0
    tiles = can_hold(view, replier) - {split_action(action)[0]}
    # The replier holds, for this one question, every tile it may hold: the engine then
    # lists each reply it could make, and scores them; no rule is written here.
    hands = st.hands[:]
    hands[replier] = sum(BIT[parse_tile(t)] for t in tiles)
    st.set_hands(hands)
    best = 0
    for reply in after.legal_actions():
        act = parse_action(str(reply))
        if act.kind == PLAY:
            c = after.clone()
            c.apply_unchecked(act)
            best = max(best, c.scores[replier] - after.scores[replier])
    return replier, best


def _fives_reasons(action: str, view: View, game: Game) -> list[str]:
    """The count `action` makes and what it scores, the reply it leaves the next
    opponent, and the reply a bigger score now would have handed them."""
    seat = view["seat"]
    count, points, _after = _score_now(game, action, seat)
    out = [_("count {count}: scores {points}").format(count=count, points=points) if points
           else _("count {count}: no score").format(count=count)]
    replier, reply = best_reply(view, action)
    if replier is None:
        return out
    who = _("seat {n}").format(n=replier)
    if reply:
        out.append(_("the best reply {player} could make scores {points}").format(
            player=who, points=reply))
    else:
        out.append(_("{player} cannot score after it with any tile you cannot see").format(
            player=who))
    # The reply it denies: a play that scores at least as much now but leaves more.
    others = []
    for alt in view["legal_actions"]:
        alt = str(alt)
        if alt == action or "-" not in alt:
            continue
        _c, alt_points, _g = _score_now(game, alt, seat)
        if alt_points >= points:
            alt_replier, alt_reply = best_reply(view, alt)
            if alt_replier is not None and alt_reply > reply:
                others.append((alt_points - alt_reply, alt_points, alt_reply, alt))
    if others:
        _net, alt_points, alt_reply, alt = max(others)
        out.append(_("{play} would score {points} but could give {player} {reply}").format(
            play=alt, points=alt_points, player=who, reply=alt_reply))
    return out
