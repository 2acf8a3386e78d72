"""The game log in the player's language, built from each event's fields.

The engine's events carry their structure (``type``, ``seat``, ``tile``, ``target``,
``points``...) next to an English ``text``; :func:`event_text` says the event again
from the fields, so no English is parsed. ``js/i18n.js`` has the same messages for the
browser (``tEvent``). Who did it is "you" for the viewer's own seat (its own messages,
since verbs agree with the subject in most of our languages), else the player's name
("Player 3" for seat 2 when nobody named it: people are numbered from 1). Trains and
ends are said the way the board says them ("on Ana's train", "on the left end"); a
round's or match's end says who won and everyone's points by name. The line games
(All Fives, Draw, Block) say "hand" for what Mexican Train calls a round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from . import N_, translator

PLAYER = N_("Player {n}")

# (message for another player, message for the viewer) per event kind
_BY_KIND: dict[str, tuple[str, str]] = {
    "engine": (N_("{name} placed the engine {tile}"), N_("you placed the engine {tile}")),
    "draw": (N_("{name} drew a tile"), N_("you drew {tile}")),
    "draw_search": (N_("{name} drew a tile looking for the engine"),
                    N_("you drew {tile} looking for the engine")),
    "play": (N_("{name} played {tile}"), N_("you played {tile}")),
    "play_on": (N_("{name} played {tile} {where}"), N_("you played {tile} {where}")),
    "pass": (N_("{name} passed"), N_("you passed")),
    "end": (N_("{name} ended the first-turn chain"), N_("you ended the first-turn chain")),
    "last_tile": (N_("{name} has one tile left"), N_("you have one tile left")),
}
ENGINE_SET = N_("the engine {tile} is set in the centre")

#: where a tile went, said whole (the preposition goes with its noun's case)
WHERE_FIXED = {
    "mx": N_("on the Mexican train"),
    "L": N_("on the left end"),
    "R": N_("on the right end"),
    "U": N_("on the spinner's upper arm"),
    "D": N_("on the spinner's lower arm"),
}
WHERE_YOUR_TRAIN = N_("on your train")
WHERE_OWN_TRAIN = N_("on their own train")
WHERE_TRAIN = N_("on {owner}'s train")
WHERE_ARM = {"U": N_("on the upper arm of spinner {n}"), "D": N_("on the lower arm of spinner {n}")}

# a round's end (All Fives: a hand's): (another player went out, you went out)
WENT_OUT = {
    "round": (N_("Round {round} over: {name} went out."), N_("Round {round} over: you went out.")),
    "hand": (N_("Hand {round} over: {name} went out."), N_("Hand {round} over: you went out.")),
}
BLOCKED_YOU = {"round": N_("Round {round} blocked: you won it."),
               "hand": N_("Hand {round} blocked: you won it.")}
# (one winner, several: "Ana and Ben", "you and Ben"; verbs agree with each)
BLOCKED_WON = {"round": (N_("Round {round} blocked: {name} won it."),
                         N_("Round {round} blocked: {names} won it together.")),
               "hand": (N_("Hand {round} blocked: {name} won it."),
                        N_("Hand {round} blocked: {names} won it together."))}
BLOCKED_NOBODY = {"round": N_("Round {round} blocked: nobody won it."),
                  "hand": N_("Hand {round} blocked: nobody won it.")}
TARGET = {"round": N_("Round {round} over: the target is reached."),
          "hand": N_("Hand {round} over: the target is reached.")}
POINTS = N_("Points: {points}. Totals: {totals}.")
SCORE = N_("{name} {n}")
MATCH_YOU = N_("Match over: you won!")
MATCH_WON = (N_("Match over: {name} won."), N_("Match over: {names} won together."))
FINAL = N_("Final scores: {scores}.")
YOU = N_("you")

_ARM = re.compile(r"^([UD])(\d+)$")

#: what a player calls a target, said alone (js/words.js targetName has the same messages)
TARGET_NOUN = {"mx": N_("the Mexican train"), "L": N_("the left end"),
               "R": N_("the right end"), "U": N_("the spinner's upper arm"),
               "D": N_("the spinner's lower arm"), "lead": N_("the lead")}
TARGET_YOUR_TRAIN = N_("your train")
TARGET_TRAIN = N_("{name}'s train")
TARGET_ARM = {"U": N_("the upper arm of spinner {n}"), "D": N_("the lower arm of spinner {n}")}


def where_phrase(target: str, viewer: int | None, mover: int | None,
                 name: Callable[[int], str], lang: str | None = None) -> str:
    """Where a tile went, said whole: "on your train", "on their own train" (the mover's),
    "on Ana's train", "on the Mexican train", "on the left end"."""
    g = translator(lang).gettext
    if target in WHERE_FIXED:
        return g(WHERE_FIXED[target])
    if re.fullmatch(r"t\d+", target):
        owner = int(target[1:])
        if owner == viewer:
            return g(WHERE_YOUR_TRAIN)
        if owner == mover:
            return g(WHERE_OWN_TRAIN)
        return g(WHERE_TRAIN).format(owner=name(owner))
    m = _ARM.match(target)
    if m:
        return g(WHERE_ARM[m[1]]).format(n=m[2])
    return target


def target_noun(target: str | None, viewer: int | None, name: Callable[[int], str],
                lang: str | None = None) -> str:
    """A target as a player names it: "your train" (the viewer's), "Ana's train", "the
    Mexican train", "the left end", "the spinner's upper arm", "the lead"."""
    g = translator(lang).gettext
    if target is None:
        return g(TARGET_NOUN["lead"])
    if target in TARGET_NOUN:
        return g(TARGET_NOUN[target])
    if re.fullmatch(r"t\d+", target):
        owner = int(target[1:])
        return g(TARGET_YOUR_TRAIN) if owner == viewer else g(TARGET_TRAIN).format(
            name=name(owner))
    m = _ARM.match(target)
    if m:
        return g(TARGET_ARM[m[1]]).format(n=m[2])
    return target


def player_name(seat: int, lang: str | None = None) -> str:
    """A seat's name when nobody gave one: "Player 3" for seat 2."""
    return translator(lang).gettext(PLAYER).format(n=seat + 1)


def list_and(items: Sequence[str], lang: str | None) -> str:
    """"A, B and C" in `lang`."""
    from babel.lists import format_list

    if not items:
        return ""
    try:
        return str(format_list(list(items), style="standard", locale=lang or "en"))
    except (ValueError, LookupError):
        return ", ".join(items)


def unit(game: str | None) -> str:
    """What the game calls one deal: Mexican Train plays rounds, the line games (All
    Fives, Draw, Block) hands, as the terminal's score sheet says."""
    return "hand" if game and game != "mexican_train" else "round"


def event_text(e: dict[str, Any], seat: int | None = None, lang: str | None = None,
               names: Sequence[str] | Callable[[int], str] | None = None,
               game: str | None = None) -> str:
    """One line of the log for a (redacted) event, as `seat` sees it, in `lang`.

    `names` gives players' names (a list by seat or a function); default "Player N"
    (1-based). `game` (the view's ``game``) says "hand" in the line games."""
    tr = translator(lang)
    g = tr.gettext

    def name(s: int) -> str:
        if callable(names):
            return names(s)
        if names is not None and 0 <= s < len(names) and names[s]:
            return names[s]
        return g(PLAYER).format(n=s + 1)

    def who(s: int) -> str:
        return g(YOU) if s == seat else name(s)

    def said(kind: str, **values: Any) -> str:
        s = e.get("seat")
        other, mine = _BY_KIND[kind]
        if s is not None and s == seat:
            return g(mine).format(**values)
        return g(other).format(name=name(s) if s is not None else "", **values)

    def where(target: str) -> str:
        return where_phrase(target, seat, e.get("seat"), name, tr.lang)

    def scores_of(values: Sequence[int]) -> str:
        return ", ".join(g(SCORE).format(name=who(s), n=v) for s, v in enumerate(values))

    def winners_text(winners: list[int], alone_you: str, won: tuple[str, str],
                     **values: Any) -> str:
        if winners == [seat]:
            return g(alone_you).format(**values)
        if len(winners) == 1:
            return g(won[0]).format(name=name(winners[0]), **values)
        # the viewer first among several winners ("you and Ana")
        ordered = sorted(winners, key=lambda s: s != seat)
        return g(won[1]).format(names=list_and([who(s) for s in ordered], tr.lang), **values)

    kind = e.get("type")
    word = unit(game)
    if kind == "deal":
        n = (e.get("hand_sizes") or [0])[0]
        if word == "hand":
            return tr.ngettext("hand {round}: {n} tile each, {boneyard} in the boneyard",
                               "hand {round}: {n} tiles each, {boneyard} in the boneyard",
                               n).format(round=e.get("round"), n=n, boneyard=e.get("boneyard"))
        return tr.ngettext("round {round}: {n} tile each, {boneyard} in the boneyard",
                           "round {round}: {n} tiles each, {boneyard} in the boneyard",
                           n).format(round=e.get("round"), n=n, boneyard=e.get("boneyard"))
    if kind == "engine":
        if e.get("seat") is None:
            return g(ENGINE_SET).format(tile=e.get("tile"))
        return said("engine", tile=e.get("tile"))
    if kind == "draw":
        search = "draw_search" if e.get("search") else "draw"
        return said(search, tile=e.get("tile", ""))
    if kind == "play":
        target = e.get("target")
        if target is None or target == "lead":
            text = said("play", tile=e.get("tile"))
        else:
            text = said("play_on", tile=e.get("tile"), where=where(str(target)))
        if e.get("points"):
            n = int(e["points"])
            text += " " + tr.ngettext("(count {count}: {n} point)",
                                      "(count {count}: {n} points)", n).format(
                count=e.get("count"), n=n)
        return text
    if kind in ("pass", "end", "last_tile"):
        return said(kind)
    if kind == "round_end":
        return round_end_text(e, seat, game, tr, who, winners_text) + " " + g(POINTS).format(
            points=scores_of(e.get("points") or []), totals=scores_of(e.get("scores") or []))
    if kind == "game_end":
        return winners_text(list(e.get("winners") or []), MATCH_YOU, MATCH_WON) + " " + g(
            FINAL).format(scores=scores_of(e.get("scores") or []))
    return str(e.get("text", kind))


def round_winners(e: dict[str, Any], game: str | None) -> list[int]:
    """Who won a blocked round: in Mexican Train the lightest hands (points there are
    penalties), in the line games whoever scored its points."""
    points = list(e.get("points") or [])
    pips = list(e.get("pips") or [])
    # a game not named: Mexican Train's penalty points are the hands' pips
    if game == "mexican_train" or (game is None and pips and points == pips):
        if not pips:
            return []
        low = min(pips)
        return [s for s, p in enumerate(pips) if p == low]
    return [s for s, p in enumerate(points) if p > 0]


def round_end_text(e: dict[str, Any], seat: int | None, game: str | None, tr: Any,
                   who: Callable[[int], str], winners_text: Callable[..., str]) -> str:
    """How a round (All Fives: a hand) ended: who went out, or who won the blocked one."""
    g = tr.gettext
    word = unit(game)
    r = e.get("round")
    reason = e.get("reason")
    if reason == "domino" and e.get("seat") is not None:
        other, mine = WENT_OUT[word]
        if e["seat"] == seat:
            return g(mine).format(round=r)
        return g(other).format(round=r, name=who(e["seat"]))
    if reason == "target":
        return g(TARGET[word]).format(round=r)
    winners = round_winners(e, game)
    if not winners:
        return g(BLOCKED_NOBODY[word]).format(round=r)
    return winners_text(winners, BLOCKED_YOU[word], BLOCKED_WON[word], round=r)
