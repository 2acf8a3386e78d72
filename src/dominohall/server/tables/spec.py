"""What the lobby's form is built from (:func:`lobby_catalogue`) and what it sends back:
a create request checked field by field into a :class:`TableSpec` (:func:`validate`), or
a :class:`~dominohall.server.protocol.Rejected` naming the field."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ... import bots
from ...engine import GAMES, BadOption, Game, new_game
from ...engine.options import PLAYERS, PRESET_LABELS, PRESETS, specs_for
from ...i18n.labels import BOT_NAMES, OPTION_VALUES
from .. import fair, hints
from ..protocol import Rejected, clean_name, imitates_bot
from .state import SETTINGS_RANGES, Seat, TableSettings

DEFAULT_PLAYERS = {"mexican_train": 4, "all_fives": 2, "draw": 2, "block": 2}
GAME_LABELS = {"mexican_train": "Mexican Train", "all_fives": "All Fives",
               "draw": "Draw dominoes", "block": "Block dominoes"}
MAX_OPEN_INT = 100      # an option without an upper bound (hands, hand_size) stops here
#: what a bot seat costs the server, in searching-bot units (pimc with the server's
#: 300 ms budget is 1; deep searches as long): the strong-bot cap per address
#: (``strong_bots_per_address``) counts these.  The rule-based bots cost nothing worth
#: counting; a bot not in this table (a new one) counts 1 until measured.
BOT_COST: dict[str, int] = {"random": 0, "greedy": 0, "doubles": 0, "planner": 0,
                            "scorer": 0, "fives": 0, "blocker": 0, "pimc": 1, "deep": 1}
STRONG_BOTS = tuple(name for name, cost in BOT_COST.items() if cost)  # the searching bots


def bot_cost(name: str | None) -> int:
    """A bot seat's cost (see :data:`BOT_COST`); 0 for a human seat (None)."""
    return 0 if name is None else BOT_COST.get(name, 1)
SETTINGS_DEFAULTS = {f: getattr(TableSettings(), f) for f in (*SETTINGS_RANGES, "away_bot")}


def lobby_catalogue() -> list[dict[str, Any]]:
    """What the lobby form is built from: games, players, options, presets, bot levels."""
    out = []
    for name in GAMES:
        lo, hi = PLAYERS[name]
        out.append({
            "name": name, "label": GAME_LABELS[name],
            "players": {"min": lo, "max": hi, "default": DEFAULT_PLAYERS[name]},
            "presets": {k: dict(v) for k, v in PRESETS[name].items()},
            "preset_labels": {k: dict(v) for k, v in PRESET_LABELS[name].items()},
            "bots": bots.names(name),
            "bot_labels": {b: BOT_NAMES.get(b, b) for b in bots.names(name)},
            "options": [{"name": s.name, "default": s.default, "choices": list(s.choices),
                         "label": s.label, "help": s.help, "int_range": bounded(s.int_range),
                         # English source texts of the values (the page says them with t())
                         "choice_labels": {str(c): OPTION_VALUES[s.name][str(c)]
                                           for c in s.choices
                                           if str(c) in OPTION_VALUES.get(s.name, {})}}
                        for s in specs_for(name) if s.name != "game"],
        })
    return out


def bounded(int_range: tuple[int, int | None] | None) -> tuple[int, int] | None:
    """An option's whole-number range as the server accepts it (no unbounded matches)."""
    if int_range is None:
        return None
    lo, hi = int_range
    return (lo, MAX_OPEN_INT if hi is None else min(hi, MAX_OPEN_INT))


@dataclass
class TableSpec:
    """A checked create request: the game as dealt, its seats and settings."""

    game: Game
    seats: list[Seat]
    settings: TableSettings
    take_seat: int | None

    @property
    def bot_only(self) -> bool:
        return not any(s.human for s in self.seats)

    @property
    def strong_bots(self) -> int:
        return sum(bot_cost(s.bot) for s in self.seats if s.kind == "bot")


def validate(spec: dict[str, Any]) -> TableSpec:
    """Check a lobby request (see app's ``CreateTable``); raises Rejected naming the field.

    `spec["take_seat"]`: the creator's own seat (claimed at once, with a fresh secret); a
    chosen ``seed`` is refused when any other human seat exists (they could not trust it).
    """
    game_name = spec.get("game")
    if game_name not in GAMES:
        raise Rejected("bad_message", "unknown game {game} (choose from {games})", 422,
                       reason="no_such_game", params={"game": repr(game_name),
                                                      "games": ", ".join(GAMES)})
    seats_in = spec.get("seats") or []
    lo, hi = PLAYERS[game_name]
    if not lo <= len(seats_in) <= hi:
        raise Rejected("bad_option", "players: {game} takes {lo} to {hi} seats, not {n}", 422,
                       reason="seat_count", params={"game": game_name, "lo": lo, "hi": hi,
                                                    "n": len(seats_in)})
    take = spec.get("take_seat")
    options = {k: v for k, v in (spec.get("options") or {}).items()
               if v is not None and v != ""}
    if len(options) > 64 or any(isinstance(v, str) and len(v) > 100
                                for v in options.values()):
        raise Rejected("bad_option", "options: too many or too long", 422,
                       reason="options_too_many")
    if spec.get("preset"):
        options["preset"] = spec["preset"]
    others = [i for i, s in enumerate(seats_in) if s.get("kind") == "human" and i != take]
    seed = spec.get("seed")
    chosen = seed is not None
    if chosen and others:
        raise Rejected("bad_option", "seed: a chosen seed would let you know every "
                                      "hand; it is allowed only at a table with no "
                                      "other human seat", 422, reason="seed_not_allowed")
    if seed is None:
        seed = fair.new_seed()
    try:
        game = new_game(game_name, players=len(seats_in), seed=seed, options=options)
    except BadOption as err:
        raise Rejected.engine("bad_option", err, 422) from None
    chosen_options = game.options.as_dict()
    for option in specs_for(game_name):
        value, bound = chosen_options.get(option.name), bounded(option.int_range)
        if bound is not None and type(value) is int and value > bound[1]:
            raise Rejected("bad_option", "{option}: at most {most} on this server", 422,
                           reason="option_too_big",
                           params={"option": option.name, "most": bound[1]})
    seats = [_seat(i, s, game_name) for i, s in enumerate(seats_in)]
    settings = TableSettings(admin=secrets.token_urlsafe(18), nonce=fair.new_nonce(),
                             seed_chosen=chosen)
    for key, (lo_, hi_) in SETTINGS_RANGES.items():
        value = spec.get(key, SETTINGS_DEFAULTS[key])
        if type(value) is not int or not lo_ <= value <= hi_:
            raise Rejected("bad_option", "{option}: a whole number {lo}..{hi}", 422,
                           reason="setting_range",
                           params={"option": key, "lo": lo_, "hi": hi_})
        setattr(settings, key, value)
    away_bot = spec.get("away_bot") or SETTINGS_DEFAULTS["away_bot"]
    if away_bot not in _ladder(game_name):
        raise Rejected("bad_option", "away_bot: unknown bot {bot}", 422,
                       reason="unknown_away_bot", params={"bot": repr(away_bot)})
    settings.away_bot = away_bot
    settings.hints = hints.table_setting(spec.get("hints"), seats)
    settings.public = spec.get("public") is True        # unlisted unless asked for
    settings.host_seat = take
    if take is not None:                # the creator claims their seat at once
        seats[take].token, seats[take].secret = "", secrets.token_urlsafe(24)
    return TableSpec(game, seats, settings, take)


def _ladder(game_name: str) -> set[str]:
    return set(bots.names(game_name)) | set(bots.names(None))


def _seat(i: int, s: dict[str, Any], game_name: str) -> Seat:
    kind = s.get("kind")
    if kind == "bot":
        if s.get("bot") not in _ladder(game_name):
            raise Rejected("bad_option", "seat {seat}: unknown bot {bot} (choose from {bots})",
                           422, reason="unknown_bot",
                           params={"seat": i, "bot": repr(s.get("bot")),
                                   "bots": ", ".join(bots.names(game_name))})
        return Seat("bot", bot=s["bot"], name=f"Bot {i}")
    if kind == "human":
        raw = s.get("name")
        name = clean_name(raw) or None
        if raw not in (None, "") and name is None:
            raise Rejected("bad_name", "seat {seat}: the name has no visible characters",
                           422, reason="name_invisible", params={"seat": i})
        if name is not None and imitates_bot(name):
            raise Rejected("bad_name", "A player's name cannot look like a bot's label "
                                         "({name}).", 422, reason="name_like_bot",
                           params={"name": name})
        return Seat("human", name=name, token=secrets.token_urlsafe(18))
    raise Rejected("bad_option", "seat {seat}: kind must be 'human' or 'bot'", 422,
                   reason="seat_kind", params={"seat": i})
