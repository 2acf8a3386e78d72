"""Names a player reads for the engine's codes: games and bot levels."""

from __future__ import annotations

from . import N_, translator

GAME_NAMES: dict[str, str] = {
    "mexican_train": N_("Mexican Train"),
    "all_fives": N_("All Fives"),
    "draw": N_("Draw dominoes"),
    "block": N_("Block dominoes"),
}

#: bot names (``bots.names()``) as levels a player can choose from
BOT_NAMES: dict[str, str] = {
    "random": N_("Random (beginner)"),
    "greedy": N_("Greedy (easy)"),
    "doubles": N_("Doubles first (easy)"),
    "planner": N_("Planner (medium)"),
    "scorer": N_("Scorer (medium)"),
    "fives": N_("Fives hunter (medium)"),
    "blocker": N_("Blocker (medium)"),
    "pimc": N_("Expert (strong)"),
    "deep": N_("Deep search (strongest)"),
}


def game_name(code: str, lang: str | None = None) -> str:
    """A game's name in `lang` (the code itself for an unknown game)."""
    name = GAME_NAMES.get(code)
    return code if name is None else translator(lang).gettext(name)


def bot_name(code: str, lang: str | None = None) -> str:
    """A bot level's name in `lang` (the code itself for a user's own bot)."""
    name = BOT_NAMES.get(code)
    return code if name is None else translator(lang).gettext(name)


#: the engine's option values as a player reads them (the codes stay in the API, records
#: and ``--option``); by option, since one code means different things ("none" spinners,
#: "none" drawing)
OPTION_VALUES: dict[str, dict[str, str]] = {
    "hand_size": {"table": N_("by the number of players"),
                  "puremco": N_("as in the Puremco box (15/12/10/8)")},
    "engine": {"holder": N_("placed by its holder"), "set_aside": N_("set aside before the deal")},
    "first_turn": {"chain": N_("a chain on your own train"),
                   "single": N_("one tile on your own train"), "free": N_("a normal turn")},
    "first_turn_double_owed": {"after_first_turns": N_("after everyone's first turn"),
                               "at_once": N_("at once")},
    "after_double": {"anywhere": N_("anywhere open"), "on_double": N_("only on that double")},
    "double_order": {"played": N_("in the order played"), "reverse": N_("latest first")},
    "max_doubles_per_turn": {"unlimited": N_("no limit")},
    "scoring": {"penalty": N_("pips left count against you (lowest wins)"),
                "positive": N_("the round's winner scores the others' pips (highest wins)")},
    "game": {code: name for code, name in GAME_NAMES.items()},
    "next_leader": {"rotate": N_("the next player"), "winner": N_("the hand's winner")},
    "spinner": {"first_double": N_("the first double"), "none": N_("no spinner"),
                "every_double": N_("every double")},
    "draw": {"until_playable": N_("until a tile fits"), "one": N_("one tile"),
             "none": N_("no drawing: pass")},
    "block_tie": {"nobody": N_("nobody scores"), "all_tied_share": N_("the tied players share")},
    "end_at": {"immediately": N_("the moment the target is reached"),
               "end_of_hand": N_("at the end of that hand")},
}
YES, NO, AUTOMATIC = N_("yes"), N_("no"), N_("automatic")


def value_name(option: str, value: object, lang: str | None = None) -> str:
    """An option's value in words in `lang` ("placed by its holder" for engine=holder;
    yes/no; a number as it is)."""
    g = translator(lang).gettext
    if value is True:
        return g(YES)
    if value is False:
        return g(NO)
    if value is None:
        return g(AUTOMATIC)
    label = OPTION_VALUES.get(option, {}).get(str(value))
    return g(label) if label else str(value)
