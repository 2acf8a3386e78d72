"""Options are data: every house rule of RULES.md is a field of a frozen dataclass.

``resolve_options(game, players, given)`` turns a user's dict (option names from
RULES.md, plus ``preset``) into a frozen options object, or raises
:class:`BadOption` naming the field.  Presets are named bundles of options and are
applied first; any option can still be overridden.  The engine branches on
fields, never on a preset name.

Each option is described by an :class:`OptionSpec` (name, default, allowed values,
a short ``label`` and a one-line ``help``) so the CLI, the web lobby and the rules
guide (``python -m dominohall.guide``) are built from :data:`MEXICAN_TRAIN_SPECS` and
:data:`LINE_GAME_SPECS`; :data:`PRESET_LABELS` names and describes each preset, and
:data:`PLAYERS` gives each game's number of players.  Labels and help texts are
marked with ``N_`` for translation (the engine imports only the standard library, so
``N_`` here is its own identity function, the same keyword as ``dominohall.i18n.N_``).

A preset bundles only values a user can also set.  That is why ``hand_size`` has a
third named value, ``puremco``: the puremco preset's deal (A2: 15 tiles for 2-4
players, 12 for 5-6, 10 for 7-8, 8 for 9-10), which ``-o hand_size=puremco`` selects
with any other rules, as the preset does.

Interpretations where RULES.md is silent:

* ``hand_size`` is resolved to a number: ``"table"`` gives the A2 table,
  ``"puremco"`` the puremco table.
* ``rounds`` defaults to ``set_max + 1`` and may be set from 1 to ``set_max + 1``.
* Line games accept exactly the values RULES.md lists (``target``, ``hand_size``,
  ``boneyard_reserve``, ``round_to``); ``hands`` is 0 or any positive number.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadOption
from .tiles import set_size

GAMES = ("mexican_train", "all_fives", "draw", "block")
LINE_GAMES = ("all_fives", "draw", "block")

#: A1/B1: the number of players each game takes (lowest, highest).
PLAYERS: dict[str, tuple[int, int]] = {
    "mexican_train": (2, 10), "all_fives": (2, 4), "draw": (2, 4), "block": (2, 4)}

#: A2 table: tiles per player by number of players.
HAND_SIZE_TABLE = {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}
#: A2: the puremco preset's deal (``hand_size=puremco``).
PUREMCO_HAND_SIZE = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}


def N_(message: str) -> str:
    """Mark a text for translation (``dominohall.i18n.N_``; the engine imports only the
    standard library, so it has its own)."""
    return message


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, default, allowed values, a short label (a form's field
    name, e.g. "Tiles per player") and a one-line explanation (``help``).

    ``choices`` lists the allowed values; ``int_range`` (lo, hi) additionally
    allows any int in that range (hi None = no upper bound).  ``label`` and ``help``
    are English source texts, translated where they are shown.
    """

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str
    int_range: tuple[int, int | None] | None = None
    label: str = ""

    def check(self, value: Any) -> Any:
        value = _coerce(value, self)
        if value in self.choices and type(value) is type(_first_of_type(self.choices, value)):
            return value
        if self.int_range is not None and type(value) is int:
            lo, hi = self.int_range
            if value >= lo and (hi is None or value <= hi):
                return value
        allowed = " | ".join(_show(c) for c in self.choices)
        if self.int_range is not None:
            lo, hi = self.int_range
            allowed += f" | a whole number {lo}..{'' if hi is None else hi}"
        raise BadOption(self.name, f"{_show(value)} is not allowed (allowed: {allowed})",
                        "not_allowed" if self.int_range is None else "not_allowed_or_range",
                        {"value": _show(value),
                         "choices": " | ".join(_show(c) for c in self.choices),
                         **({} if self.int_range is None else
                            {"lo": self.int_range[0],
                             "hi": "" if self.int_range[1] is None else self.int_range[1]})})


def _first_of_type(choices: tuple[Any, ...], value: Any) -> Any:
    for c in choices:
        if c == value and type(c) is type(value):
            return c
    return object()


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _coerce(value: Any, spec: OptionSpec) -> Any:
    """Accept the text forms a command line or a web form sends ("true", "25")."""
    if not isinstance(value, str):
        return value
    low = value.strip().lower()
    if any(isinstance(c, bool) for c in spec.choices) and low in ("true", "false", "yes", "no"):
        return low in ("true", "yes")
    if low.lstrip("-").isdigit() and (
        spec.int_range is not None
        or any(type(c) is int for c in spec.choices)
    ):
        return int(low)
    return low


MEXICAN_TRAIN_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("set_max", 12, (12, 6, 9, 15, 18),
               N_("highest double of the set (double-12 = 91 tiles)"),
               label=N_("Set")),
    OptionSpec("hand_size", "table", ("table", "puremco"),
               N_("tiles dealt to each player: table (by the number of players, 16 down to "
                  "8), puremco (15/12/10/8) or a number"), (1, None),
               label=N_("Tiles per player")),
    OptionSpec("engine", "holder", ("holder", "set_aside"),
               N_("holder: the player holding the round's double places it; set_aside: it "
                  "is removed before the deal"),
               label=N_("Engine double")),
    OptionSpec("first_turn", "chain", ("chain", "single", "free"),
               N_("first turn: a chain on your own train, a single tile there, or a normal "
                  "turn"),
               label=N_("First turn")),
    OptionSpec("first_turn_double_owed", "after_first_turns", ("after_first_turns", "at_once"),
               N_("a double ending a first-turn chain must be covered once everyone has had "
                  "a first turn, or at once"),
               label=N_("Double ending a first chain")),
    OptionSpec("must_play", True, (True, False),
               N_("a player who can play must play (no drawing)"),
               label=N_("Must play")),
    OptionSpec("draw_until_playable", False, (False, True),
               N_("keep drawing until a tile fits or the boneyard is empty"),
               label=N_("Draw until a tile fits")),
    OptionSpec("after_double", "anywhere", ("anywhere", "on_double"),
               N_("the tile after a double may go anywhere open, or only on that double"),
               label=N_("Tile after a double")),
    OptionSpec("double_order", "played", ("played", "reverse"),
               N_("several uncovered doubles are covered in the order played, or latest "
                  "first"),
               label=N_("Order of owed doubles")),
    OptionSpec("max_doubles_per_turn", "unlimited", ("unlimited", 1),
               N_("how many uncovered doubles one turn may leave"),
               label=N_("Doubles per turn")),
    OptionSpec("double_blank", 0, (0, 25, 50),
               N_("points for a 0-0 left in hand (its pips everywhere in the scoring)"),
               label=N_("Double blank worth")),
    OptionSpec("scoring", "penalty", ("penalty", "positive"),
               N_("penalty: pips left count against you, lowest wins; positive: the winner "
                  "of a round scores the others' pips, highest wins"),
               label=N_("Scoring")),
    OptionSpec("rounds", None, (None,),
               N_("rounds in the match (default: one for each double of the set, "
                  "from the highest down to 0-0)"),
               (1, 19), label=N_("Rounds")),
)

LINE_GAME_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("game", "all_fives", LINE_GAMES,
               N_("all_fives scores multiples of five; draw and block score only the "
                  "hand's end"),
               label=N_("Game")),
    OptionSpec("set_max", 6, (6, 9), N_("highest double of the set (double-6 = 28 tiles)"),
               label=N_("Set")),
    OptionSpec("teams", False, (False, True),
               N_("4 players: seats 0+2 against 1+3, one score a team"),
               label=N_("Partners")),
    OptionSpec("hand_size", 7, (7, 5), N_("tiles dealt to each player"),
               label=N_("Tiles per player")),
    OptionSpec("next_leader", "rotate", ("rotate", "winner"),
               N_("who leads the next hand: the next seat clockwise, or the hand's winner"),
               label=N_("Next hand's leader")),
    OptionSpec("spinner", "first_double", ("first_double", "none", "every_double"),
               N_("which doubles can be played off all four sides"),
               label=N_("Spinner")),
    OptionSpec("spinner_sides_after_ends", True, (True, False),
               N_("the spinner's long sides open only after both its ends have a tile"),
               label=N_("Spinner sides after its ends")),
    OptionSpec("fives_and_threes", False, (False, True),
               N_("count scores count/5 for a multiple of 5 plus count/3 for a multiple "
                  "of 3"),
               label=N_("Fives and threes")),
    OptionSpec("must_play", True, (True, False),
               N_("a player who can play must play; otherwise they may draw instead (a "
                  "pass stays only for a player who can neither play nor draw)"),
               label=N_("Must play")),
    OptionSpec("boneyard_reserve", 0, (0, 2),
               N_("tiles in the boneyard that may never be drawn"),
               label=N_("Boneyard reserve")),
    OptionSpec("draw", "until_playable", ("until_playable", "one", "none"),
               N_("a player who cannot play draws until a tile fits, draws one, or just "
                  "passes"),
               label=N_("Drawing")),
    OptionSpec("round_to", 5, (5, 1),
               N_("end-of-hand points are rounded to the nearest multiple"),
               label=N_("Round hand points to")),
    OptionSpec("block_tie", "nobody", ("nobody", "all_tied_share"),
               N_("a blocked hand tied for fewest pips: nobody scores, or the tied share "
                  "the points"),
               label=N_("Tie after a block")),
    OptionSpec("target", 250, (250, 100, 150, 200, 500), N_("points that win the match"),
               label=N_("Target score")),
    OptionSpec("end_at", "immediately", ("immediately", "end_of_hand"),
               N_("the match ends the moment the target is reached, or at the end of that "
                  "hand"),
               label=N_("Match ends")),
    OptionSpec("hands", 0, (0,), N_("0: play to the target; N: exactly N hands"), (1, None),
               label=N_("Number of hands")),
)

LINE_GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "all_fives": {},
    "draw": {"spinner": "none", "round_to": 1, "target": 100},
    "block": {"spinner": "none", "round_to": 1, "target": 100, "draw": "none"},
}

PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "mexican_train": {
        "seed": {},
        "puremco": {"engine": "set_aside", "hand_size": "puremco", "first_turn": "chain",
                    "after_double": "on_double"},
        "casual": {"engine": "set_aside", "first_turn": "free", "max_doubles_per_turn": 1,
                   "double_blank": 50},
    },
    "all_fives": {"seed": {}},
    "draw": {"seed": {}},
    "block": {"seed": {}},
}

#: A12: what a player reads about each preset: a short label and one line.
PRESET_LABELS: dict[str, dict[str, dict[str, str]]] = {
    "mexican_train": {
        "seed": {"label": N_("Standard rules"),
                 "description": N_("The rules of the original Mexican Train texts: the "
                                   "holder of the round's double places it, a first-turn "
                                   "chain, every house option at its default.")},
        "puremco": {"label": N_("Puremco"),
                    "description": N_("The boxed-set rules: the engine set aside, 15/12/10/8 "
                                      "tiles, a first-turn chain, the tile after a double "
                                      "goes on that double.")},
        "casual": {"label": N_("Casual"),
                   "description": N_("Quicker and friendlier: the engine set aside, a free "
                                     "first turn, one uncovered double per turn, a double "
                                     "blank left in hand costs 50.")},
    },
    "all_fives": {"seed": {"label": N_("Standard rules"),
                           "description": N_("All Fives as the original text plays it: "
                                             "double-6, a spinner, multiples of five score, "
                                             "first to 250.")}},
    "draw": {"seed": {"label": N_("Standard rules"),
                      "description": N_("The plain draw game: a line with two ends, no count "
                                        "scoring, the hand's winner scores the others' pips, "
                                        "first to 100.")}},
    "block": {"seed": {"label": N_("Standard rules"),
                       "description": N_("The plain block game: as Draw, but nobody draws; a "
                                         "player who cannot play passes.")}},
}


@dataclass(frozen=True, slots=True)
class MexicanTrainOptions:
    """Resolved Mexican Train options (RULES.md Part A)."""

    players: int
    set_max: int
    hand_size: int
    engine: str
    first_turn: str
    first_turn_double_owed: str
    must_play: bool
    draw_until_playable: bool
    after_double: str
    double_order: str
    max_doubles_per_turn: str | int
    double_blank: int
    scoring: str
    rounds: int

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class LineGameOptions:
    """Resolved All Fives / Draw / Block options (RULES.md Part B)."""

    players: int
    game: str
    set_max: int
    teams: bool
    hand_size: int
    next_leader: str
    spinner: str
    spinner_sides_after_ends: bool
    fives_and_threes: bool
    must_play: bool
    boneyard_reserve: int
    draw: str
    round_to: int
    block_tie: str
    target: int
    end_at: str
    hands: int

    @property
    def count_scoring(self) -> bool:
        """B4 count scoring is on only in All Fives."""
        return self.game == "all_fives"

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


Options = MexicanTrainOptions | LineGameOptions


def specs_for(game: str) -> tuple[OptionSpec, ...]:
    """The option definitions of a game (for forms and --help)."""
    if game == "mexican_train":
        return MEXICAN_TRAIN_SPECS
    if game in LINE_GAMES:
        return LINE_GAME_SPECS
    raise BadOption("game", f"unknown game {game!r} (choose from {', '.join(GAMES)})",
                    "unknown_game", {"game": repr(game), "games": ", ".join(GAMES)})


def resolve_options(game: str, players: Any, given: Mapping[str, Any] | None = None) -> Options:
    """Validate a user's options for `game` and return the frozen options object.

    >>> resolve_options("mexican_train", 4, {"preset": "puremco"}).hand_size
    15
    """
    # The types are part of the key: True == 1 == 1.0 hash alike, but only one of them may
    # be a valid value.  The items keep the caller's order (a cache key, not a canonical
    # form).  No comprehension: in Python 3.11 each one is a function call.
    if given:
        key: tuple[Any, ...] = (game, players.__class__, players, tuple(given.items()),
                                tuple(map(type, given.values())))
    else:
        key = (game, players.__class__, players)
    try:
        return _resolve_cached(key)
    except TypeError:                       # unhashable values: let _resolve explain them
        return _resolve(game, players, dict(given or {}))


@functools.lru_cache(maxsize=256)
def _resolve_cached(key: tuple[Any, ...]) -> Options:
    return _resolve(key[0], key[2], dict(key[3]) if len(key) > 3 else {})


def _resolve(game: str, players: Any, given: dict[str, Any]) -> Options:
    specs = specs_for(game)
    if "players" in given and given.pop("players") != players:
        raise BadOption("players", "give the number of players as new_game(players=...)",
                        "players_keyword")
    lo, hi = PLAYERS[game]
    if type(players) is not int or not lo <= players <= hi:
        raise BadOption("players", f"{players!r} is not allowed ({game} takes {lo} to {hi})",
                        "bad_players", {"players": repr(players), "game": game, "lo": lo,
                                        "hi": hi})
    preset = given.pop("preset", "seed")
    presets = PRESETS[game]
    if not isinstance(preset, str) or preset not in presets:
        raise BadOption("preset", f"unknown preset {preset!r} (choose from {', '.join(presets)})",
                        "unknown_preset", {"preset": repr(preset),
                                           "presets": ", ".join(presets)})
    by_name = {s.name: s for s in specs}
    for name in given:
        if name not in by_name:
            raise BadOption(name, f"unknown option for {game} (options: {', '.join(by_name)})",
                            "unknown_option", {"game": game, "options": ", ".join(by_name)})
    values: dict[str, Any] = {s.name: s.default for s in specs}
    if game in LINE_GAMES:
        values["game"] = game
        values.update(LINE_GAME_DEFAULTS[game])
    values.update(presets[preset])
    for name, raw in given.items():
        values[name] = by_name[name].check(raw)
    if game == "mexican_train":
        return _resolve_mexican_train(players, values)
    return _resolve_line_game(players, values)


def _resolve_mexican_train(players: int, v: dict[str, Any]) -> MexicanTrainOptions:
    set_max = v["set_max"]
    if v["hand_size"] == "table":
        v["hand_size"] = HAND_SIZE_TABLE[players]
    elif v["hand_size"] == "puremco":
        v["hand_size"] = PUREMCO_HAND_SIZE[players]
    available = set_size(set_max) - (1 if v["engine"] == "set_aside" else 0)
    if players * v["hand_size"] > available:
        raise BadOption(
            "hand_size",
            f"{players} players x {v['hand_size']} tiles = {players * v['hand_size']}, but the "
            f"double-{set_max} set has only {available} tiles to deal",
            "hand_size_too_big", {"players": players, "hand_size": v["hand_size"],
                                  "total": players * v["hand_size"], "set_max": set_max,
                                  "available": available},
        )
    if v["rounds"] is None:
        v["rounds"] = set_max + 1
    elif v["rounds"] > set_max + 1:
        raise BadOption("rounds", f"{v['rounds']} rounds is more than the {set_max + 1} engines "
                                  f"of the double-{set_max} set", "too_many_rounds",
                        {"rounds": v["rounds"], "engines": set_max + 1, "set_max": set_max})
    return MexicanTrainOptions(players=players, **v)


def _resolve_line_game(players: int, v: dict[str, Any]) -> LineGameOptions:
    if v["teams"] and players != 4:
        raise BadOption("teams", f"teams need 4 players, not {players}", "teams_need_four",
                        {"players": players})
    total = set_size(v["set_max"])
    if players * v["hand_size"] > total:
        raise BadOption(
            "hand_size",
            f"{players} players x {v['hand_size']} tiles = {players * v['hand_size']}, but the "
            f"double-{v['set_max']} set has only {total} tiles",
            "hand_size_too_big_line", {"players": players, "hand_size": v["hand_size"],
                                  "total": players * v["hand_size"], "set_max": v["set_max"],
                                  "available": total},
        )
    return LineGameOptions(players=players, **v)
