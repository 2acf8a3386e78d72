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
