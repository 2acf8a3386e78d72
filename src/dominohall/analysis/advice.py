"""The advice behind a hint: the strongest bot's move for one seat and why, as codes.

`advise(view)` is everything a hint knows: it reads the asking seat's view alone (its
hand and what is public), never a game with the real hidden hands, so the same view
always gets the same advice, whatever the other seats really hold.  The bot searches
worlds sampled from that view with a fixed amount of work (`HINT_SETTINGS`, no clock)
seeded from the view itself (`view_seed`): the same position gets the same hint on any
machine, under any load, in both builds.

The answer is an :class:`Advice`: the action, the bot's name and the reasons as
:class:`Reason` codes with their parameters (numbers, tiles, seats, train and end ids).
Nothing here is worded: the terminal (``tui/hint.py``) and the server
(``server/hints.py``) say the codes in their player's language with
:func:`dominohall.i18n.advice.advice_text`.

Reasons, in order (see ``i18n/advice.py`` for their English words):

* no play: ``draw``, ``pass``/``pass_marker`` (Mexican Train) or ``end_chain``;
* Mexican Train: where it goes (``covers_owed``, ``starts_own``, ``extends_own``,
  ``starts_mexican``, ``extends_mexican``, ``open_train``), the pips shed
  (``sheds``/``sheds_most``) and ``double_again``;
* line games: ``leads`` or ``on_end``; in All Fives the count it makes (``count_scores``,
  ``count_no_score``: the count's points only, read off the layout), ``goes_out`` when it
  is the seat's last tile (the hand's points then are the pips left in the others'
  hands, which this seat cannot see, so no number is given), the best reply it leaves
  the next opponent over every tile that seat may hold (``best_reply``, ``no_reply``) and
  the reply a bigger score now would hand them (``would_give``); then the pips shed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import bots
from ..bots.inference import can_hold
from ..engine import Game, sample_world
from ..engine.actions import PLAY, parse_action
from ..engine.tiles import BIT, HIGH, LOW, PIPS, TEXT, parse_tile

View = Mapping[str, Any]

#: the bot that gives hints, and the work it may spend (worlds searched: no clock, so a
#: hint does not depend on the machine's load).  About 0.1-0.3 s of one core compiled.
HINT_BOT = "deep"
HINT_SETTINGS: dict[str, dict[str, Any]] = {
    "mexican_train": {"worlds": 24},
    "all_fives": {"worlds": 48},
    "draw": {"worlds": 64},
    "block": {"worlds": 64},
}


@dataclass(frozen=True)
class Reason:
    """One reason, as a code and its parameters (JSON values: text and whole numbers)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Advice:
    """The hinted action (empty when it is not the seat's turn), the bot that chose it,
    and the reasons."""

    action: str
    bot: str
    reasons: tuple[Reason, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "bot": self.bot,
                "reasons": [r.as_dict() for r in self.reasons]}


NOT_YOUR_TURN = Advice("", HINT_BOT, (Reason("not_your_turn"),))


def view_seed(view: View, salt: int | str = 0) -> int:
    """A seed that is a function of the view alone (and `salt`): a digest of its JSON."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(f"{salt}:{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hint_bot(view: View) -> Any:
    """The hint's bot for this view: `HINT_BOT` with the game's `HINT_SETTINGS`,
    seeded from the view."""
    game = view["game"]
    return bots.make(HINT_BOT, seed=view_seed(view), game=game, **HINT_SETTINGS[game])


def advise(view: View) -> Advice:
    """The hint for the seat whose view this is (see the module docstring)."""
    if view.get("seat") is None or not view["legal_actions"]:
        return NOT_YOUR_TURN
    action = str(hint_bot(view).act(dict(view)))
    return Advice(action, HINT_BOT, tuple(reasons(action, view)))


# ---- reasons -----------------------------------------------------------------------------

def reasons(action: str, view: View) -> list[Reason]:
    """Why `action`, from what `view` shows."""
    legal = [str(a) for a in view["legal_actions"]]
    mexican = view["game"] == "mexican_train"
    if action == "draw":
        return [Reason("draw")]
    if action == "pass":
        return [Reason("pass_marker" if mexican else "pass")]
    if action == "end":
        return [Reason("end_chain")]
    act = parse_action(action)
    if act.kind != PLAY:
        return []
    tile = act.tile
    pips = PIPS[tile]
    most = all(PIPS[parse_action(x).tile] <= pips for x in legal if "-" in x)
    shed = Reason("sheds_most" if most else "sheds", {"n": pips})
    if mexican:
        out = [_train_reason(act.target, view), shed]
        # a double lets you play again, unless it was your last tile (the round is over)
        hand = view.get("hand")
        if HIGH[tile] == LOW[tile] and (hand is None or len(hand) > 1):
            out.append(Reason("double_again"))
        return out
    where = (Reason("leads", {"tile": TEXT[tile]}) if act.target is None
             else Reason("on_end", {"end": act.target}))
    if view["game"] == "all_fives" or view["options"].get("count_scoring"):
        return [where, *_fives_reasons(action, view), shed]
    out = [where]
    if len(view["hand"]) == 1:
        out.append(Reason("goes_out"))
    return [*out, shed]


def _train_reason(target: str | None, view: View) -> Reason:
    train = next(t for t in view["trains"] if t["id"] == target)
    if target in view["owed"]:
        return Reason("covers_owed", {"train": target})
    if train["owner"] is None:
        return Reason("extends_mexican" if train["started"] else "starts_mexican")
    if train["owner"] == view["seat"]:
        return Reason("extends_own" if train["started"] else "starts_own")
    return Reason("open_train", {"seat": train["owner"]})


def _world(view: View) -> Game:
    """One world consistent with the view, the same one for the same view: its hidden
    hands are a guess, so only public facts may be read off it (the layout's count)."""
    return sample_world(dict(view), random.Random(view_seed(view, "world")))


def count_of(world: Game, action: str) -> tuple[int, int]:
    """(count, the count's points) that `action` would make in `world`, read off the
    layout by the engine (`count_after`): public facts only.  A domino's points, the pips
    left in the others' hands, are the hand's end, not the count's."""
    act = parse_action(action)
    st: Any = world.state
    count = int(st.count_after(act.tile, -1 if act.target is None
                               else st.end_index(act.target)))
    return count, int(st.count_points(count))


def best_reply(view: View, action: str, world: Game | None = None) -> tuple[int | None, int]:
    """(seat, points): the next opponent's best count score in reply to `action`, over every
    tile that seat may hold as far as `view` tells; (None, 0) when no opponent replies (the
    hand ends, or a partner plays next)."""
    seat = view["seat"]
    world = _world(view) if world is None else world
    after = world.clone()
    act = parse_action(action)
    after.apply_unchecked(act)
    replier = after.current_seat
    if after.is_over or after.round != world.round or replier is None:
        return None, 0
    st: Any = after.state
    if st.side(replier) == st.side(seat):
        return None, 0
    tiles = can_hold(dict(view), replier) - {TEXT[act.tile]}
    # The replier holds, for this one question, every tile it may hold: the engine then
    # lists each reply it could make, and its count scores them; no rule is written here.
    hands = st.hands[:]
    hands[replier] = sum(BIT[parse_tile(t)] for t in tiles)
    st.set_hands(hands)
    best = 0
    for reply in after.legal_actions():
        if reply.kind == PLAY:
            best = max(best, count_of(after, str(reply))[1])
    return replier, best


def _fives_reasons(action: str, view: View) -> list[Reason]:
    """The count `action` makes and what it scores, going out, the reply it leaves the
    next opponent, and the reply a bigger score now would have handed them."""
    world = _world(view)
    count, points = count_of(world, action)
    out = [Reason("count_scores", {"count": count, "points": points}) if points
           else Reason("count_no_score", {"count": count})]
    if len(view["hand"]) == 1:
        out.append(Reason("goes_out"))
    replier, reply = best_reply(view, action, world)
    if replier is None:
        return out
    out.append(Reason("best_reply", {"seat": replier, "points": reply}) if reply
               else Reason("no_reply", {"seat": replier}))
    # The reply it denies: a play that scores at least as much now but leaves more.
    others = []
    for alt in view["legal_actions"]:
        alt = str(alt)
        if alt == action or "-" not in alt:
            continue
        alt_points = count_of(world, alt)[1]
        if alt_points >= points:
            alt_replier, alt_reply = best_reply(view, alt, world)
            if alt_replier is not None and alt_reply > reply:
                others.append((alt_points - alt_reply, alt_points, alt_reply, alt))
    if others:
        _net, alt_points, alt_reply, alt = max(others)
        out.append(Reason("would_give", {"play": alt, "points": alt_points, "seat": replier,
                                         "reply": alt_reply}))
    return out


__all__ = ["HINT_BOT", "HINT_SETTINGS", "Advice", "Reason", "advise", "best_reply",
           "count_of", "hint_bot", "reasons", "view_seed"]
