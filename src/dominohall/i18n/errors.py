"""Engine errors in the player's language, from their ``code`` and ``params``.

The engine raises :class:`~dominohall.engine.errors.IllegalAction` with an English
message (unchanged, for the API) plus a machine-readable ``code`` and ``params``. Here
each code has its English template (a catalog message); :func:`error_text` fills it in
the chosen language. The browser gets the same templates from the catalog JSON and
renders ``{code, params}`` with ``tError()`` in ``js/i18n.js``.

``not_legal_now`` carries the engine's English ``reason`` (from ``explain``); the
reasons below are catalog messages too, matched back to their template so that the
reason is translated as well. A reason not listed stays in English.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from . import N_, get_language, translator

#: code -> English template (placeholders are the error's params).
ERRORS: dict[str, str] = {
    "illegal_action": N_("that move is not legal now"),
    "not_an_action": N_("{text} is not an action"),
    "not_a_target": N_("{target} is not a target (use t0..t9 or mx for trains, "
                       "L/R/U/D for line ends)"),
    "not_a_tile": N_("{text} is not a tile (write it like '12-5')"),
    "not_in_set": N_("{tile} is not in the double-{set_max} set"),
    "match_over": N_("the match is over"),
    "not_a_seat": N_("{seat} is not a seat (a whole number, or None)"),
    "not_your_turn": N_("it is seat {current}'s turn, not seat {seat}'s"),
    "not_legal_now": N_("{action}: {reason}"),
    "not_in_boneyard": N_("{tile} is not in the boneyard"),
}

#: BadOption and BadRecord codes (the engine's; ``str(err)`` is the template filled).
ENGINE_SETUP: dict[str, str] = {
    "bad_option": N_("{field}: {message}"),
    "unknown_game": N_("game: unknown game {game} (choose from {games})"),
    "options_not_mapping": N_("options: {options} is not a mapping of option names to values"),
    "bad_seed": N_("seed: {seed} is not a whole number or a string"),
    "no_leader": N_("leader: Mexican Train has no leader: the engine decides who starts"),
    "bad_leader": N_("leader: {leader} is not a seat (0..{last})"),
    "hands_needed": N_("hands: a stacked boneyard needs the hands too"),
    "hands_per_seat": N_("hands: give one list of tiles per seat ({n} lists)"),
    "tiles_not_list": N_("{field}: give a list of tile strings, not one string"),
    "tiles_not_a_list": N_("{field}: {texts} is not a list of tile strings"),
    "tile_twice": N_("{field}: {tile} appears more than once"),
    "tile_is_engine": N_("{field}: {tile} is the engine, set aside before the deal"),
    "hand_wrong_size": N_("hands: seat {seat} has {n} tiles, but hand_size is {size}"),
    "tiles_missing": N_("boneyard: {n} tiles of the set are missing: {tiles}"),
    "not_allowed": N_("{field}: {value} is not allowed (allowed: {choices})"),
    "not_allowed_or_range": N_("{field}: {value} is not allowed (allowed: {choices} | "
                               "a whole number {lo}..{hi})"),
    "players_keyword": N_("players: give the number of players as new_game(players=...)"),
    "bad_players": N_("players: {players} is not allowed ({game} takes {lo} to {hi})"),
    "unknown_preset": N_("preset: unknown preset {preset} (choose from {presets})"),
    "unknown_option": N_("{field}: unknown option for {game} (options: {options})"),
    "hand_size_too_big": N_("hand_size: {players} players x {hand_size} tiles = {total}, but "
                            "the double-{set_max} set has only {available} tiles to deal"),
    "hand_size_too_big_line": N_("hand_size: {players} players x {hand_size} tiles = {total}, "
                                 "but the double-{set_max} set has only {available} tiles"),
    "too_many_rounds": N_("rounds: {rounds} rounds is more than the {engines} engines of the "
                          "double-{set_max} set"),
    "teams_need_four": N_("teams: teams need 4 players, not {players}"),
    "bad_record": N_("{message}"),
    "not_a_record": N_("not a dominohall game record"),
    "record_version": N_("record version {version} is not supported (this dominohall reads "
                         "versions 1 to {latest})"),
    "record_deck": N_("the record's deck {deck} is not a mapping of hands and boneyard"),
    "record_actions": N_("the record's actions {actions} are not a list"),
    "record_missing": N_("the record has no {key}"),
    "record_setup": N_("the record's setup is invalid: {error}"),
    "record_action": N_("action #{k} {action} is illegal: {error}"),
    "world_record": N_("a world made by sample_world has no record of its own"),
}

#: The server's refusals: the reason code of every ``Rejected`` (REST ``code``, websocket
#: ``reason``) -> its English template (the ``message``, filled with ``params``).
SERVER: dict[str, str] = {
    # tables and seats
    "not_found": N_("no table {table}"),
    "rate_limited": N_("Too many requests; try again in {seconds} s."),
    "rate_limited_connect": N_("Too many connections; try again in {seconds} s."),
    "too_many_connections": N_("Too many connections to this table or from your address."),
    "too_large": N_("A request is at most {n} bytes."),
    "not_host": N_("Only the table's creator can re-invite a seat."),
    "token_other_seat": N_("your token is for seat {seat}, not seat {asked}"),
    "token_not_valid": N_("this seat token is not valid for this table"),
    "take_seat": N_("take_seat must be one of the human seats"),
    "name_to_take_seat": N_("name: your display name, to take a seat"),
    "spectators_cannot_play": N_("spectators cannot play"),
    "wrong_seat": N_("this connection plays seat {seat}, not seat {asked}"),
    "table_not_saved": N_("The table could not be saved; try again."),
    "record_not_ready": N_("The record is published when the match is over."),
    "analysis_not_ready": N_("The analysis is available when the match is over."),
    "analysis_busy": N_("Other matches are being analysed; try again in a minute."),
    "name_needed": N_("A display name is needed to take a seat (letters, digits or symbols)."),
    "match_is_over": N_("The match is over."),
    "the_match_is_over": N_("the match is over"),
    "bad_seat": N_("Only a player's seat can be re-invited."),
    "again_not_over": N_("Play again once the match is over."),
    "again_players_only": N_("Only the table's players can play again."),
    "server_full": N_("This server has as many tables as it can host; try again later."),
    "no_such_game": N_("unknown game {game} (choose from {games})"),
    "seat_count": N_("players: {game} takes {lo} to {hi} seats, not {n}"),
    "options_too_many": N_("options: too many or too long"),
    "seed_not_allowed": N_("seed: a chosen seed would let you know every hand; it is allowed "
                           "only at a table with no other human seat"),
    "tables_per_address": N_("You already have {n} tables going; finish or leave some first."),
    "seed_chosen_no_reinvite": N_("This table's deal was chosen by its creator, so its "
                                  "seat cannot be handed to anyone else."),
    "unknown_away_bot": N_("away_bot: unknown bot {bot}"),
    "expired": N_("This table expired: nobody was connected."),
    "waiting": N_("waiting for every invited player to take their seat"),
    "stale": N_("stale action: it was chosen at version {version} but the table is at "
                "version {now}; look again"),
    "player_is_back": N_("the player is back"),
    "taken": N_("Seat {seat} of the new table is taken."),
    "again_seat_reserved": N_("This seat at the new table is kept for the player who held it."),
    "again_seat_freed": N_("The countdown ran out: your seat at the new table went to "
                           "someone else."),
    "option_too_big": N_("{option}: at most {most} on this server"),
    "bot_tables": N_("You already have {n} bot-only tables going."),
    "strong_bots": N_("At most {n} {bots} seats at once from one address."),
    "setting_range": N_("{option}: a whole number {lo}..{hi}"),
    "invite_not_valid": N_("This invite link is not valid for this table (it may have been "
                           "used already)."),
    "action_not_saved": N_("the action could not be saved ({error}); try again"),
    "unknown_bot": N_("seat {seat}: unknown bot {bot} (choose from {bots})"),
    "seat_kind": N_("seat {seat}: kind must be 'human' or 'bot'"),
    "name_invisible": N_("seat {seat}: the name has no visible characters"),
    "name_like_bot": N_("A player's name cannot look like a bot's label ({name})."),
    "reinvited": N_("The host re-invited seat {seat}: this device no longer holds it."),
    "unknown_language": N_("no catalog for {lang}; languages: {languages}"),
    "http_error": N_("The server answered {status}."),
    # accounts (dominohall.community)
    "account_name_short": N_("A name has at least {n} characters, with a letter or a digit."),
    "account_name_long": N_("A name has at most {n} characters."),
    "name_taken": N_("This name, or one that looks like it, is taken."),
    "password_short": N_("A password has at least {n} characters."),
    "password_long": N_("A password has at most {n} characters."),
    "password_is_name": N_("The password may not be the name."),
    "wrong_login": N_("Wrong name or password."),
    "login_locked": N_("Too many failed logins with this name; try again in {minutes} min."),
    "wrong_password": N_("That is not your password."),
    "not_logged_in": N_("Log in first."),
    "cross_site": N_("This request did not come from a page of this site."),
    "json_body_needed": N_("Send this request as JSON (Content-Type: application/json)."),
    "no_player": N_("No player is called {name}."),
    "rated_needs_account": N_("Rated play needs an account: log in first."),
    "queue_address": N_("At most {n} players from one address can wait at once."),
    "not_queued": N_("You are not waiting for a game."),
    "bots_rated": N_("Bots never play rated games."),
    "friend_self": N_("You cannot add yourself."),
    "not_mutual": N_("You can invite only a friend who added you too."),
    "not_at_table": N_("Only a player at this table can invite to it."),
    "not_your_seat": N_("You have no seat at this table."),
    "chat_mute": N_("mute: seat numbers, e.g. 0,2"),
    "chat_one": N_("Send a phrase or a text."),
    "chat_phrase": N_("unknown phrase {phrase}"),
    "chat_free_text_off": N_("Free text is off at this table; the phrases are on."),
    "chat_too_long": N_("A message has at most {n} characters."),
    "chat_host_only": N_("Only the table's host can change this."),
    # hints
    "hints_bool": N_("hints: true or false"),
    "hints_spectator": N_("spectators get no hints"),
    "hints_off": N_("hints are off at this table"),
    "hint_own_turn": N_("a hint is for your own turn"),
    "busy": N_("a hint is already being worked out"),
    "hint_failed": N_("no hint could be worked out; try again"),
    # replays
    "record_too_large": N_("a record may have at most {n} bytes"),
    "replay_body": N_('send {"record": {...}, "round": N}'),
    "replay_round": N_("round: a whole number"),
    "replay_actions": N_("actions: a list of at most {n} action texts"),
    "replay_no_round": N_("round {round}: the record has rounds {first}..{last}"),
    "replay_action": N_("action #{k} {action}: {error}"),
    "body_not_json": N_("the body is not JSON"),
    # the websocket's messages
    "message_too_big": N_("a message is at most {n} bytes"),
    "message_not_object": N_("a message must be a JSON object with a 'type'"),
    "unknown_message": N_("unknown message type {type} (expected one of {types})"),
    "action_needs_text": N_("an action message needs 'action': the action text"),
    "action_needs_version": N_("an action message needs 'version': the version of the view "
                               "it was chosen from (an integer)"),
    "seat_not_integer": N_("'seat' must be an integer when given"),
    "bad_json": N_("malformed JSON: {error}"),
    "json_too_deep": N_("malformed JSON: nested too deeply"),
    # request validation (FastAPI's 422: the first problem; pydantic's type -> code)
    "invalid_request": N_("invalid request"),
    "field_missing": N_("{field}: this field is required"),
    "field_too_long": N_("{field}: at most {max_length} characters"),
    "field_too_many": N_("{field}: at most {max_length} items"),
    "field_text": N_("{field}: should be text"),
    "field_integer": N_("{field}: should be a whole number"),
    "field_bool": N_("{field}: should be true or false"),
    "field_at_least": N_("{field}: should be at least {ge}"),
    "field_more_than": N_("{field}: should be more than {gt}"),
    "field_less_than": N_("{field}: should be less than {lt}"),
    "field_at_most": N_("{field}: should be at most {le}"),
    "field_one_of": N_("{field}: should be {expected}"),
    "field_invalid": N_("{field}: not a valid value"),
}

ERRORS.update(ENGINE_SETUP)
ERRORS.update(SERVER)

#: The engine's reasons (``explain``) for an illegal move, as templates.
REASONS: tuple[str, ...] = (
    N_("the match is over"),
    N_("there is no drawing in this game"),
    N_("the boneyard has no tile left to draw"),
    N_("you already drew your one tile this turn"),
    N_("you have a legal play and must play"),
    N_("you can still play, so you may not pass"),
    N_("you can still draw, so you may not pass"),
    N_("'end' is not an action in this game"),
    N_("{tile} is not in the double-{set_max} set"),
    N_("{tile} is not in your hand"),
    N_("lead a tile without a target, e.g. '{tile}'"),
    N_("say which end: e.g. '{tile}>L' or '{tile}>R'"),
    N_("the spinner side {target} is not open"),
    N_("there is no open end {target}"),
    N_("{tile} does not match the open end {value} at {target}"),
    N_("you are laying your first-turn chain: play on your train or 'end'"),
    N_("the boneyard is empty"),
    N_("you already drew this turn"),
    N_("you have a legal play and must play (must_play is on)"),
    N_("you are laying your first-turn chain: 'end' finishes it"),
    N_("'end' only finishes a first-turn chain"),
    N_("say which train: e.g. '{tile}>t{seat}' or '{tile}>mx'"),
    N_("there is no train {target} (trains: t0..t{last}, mx)"),
    N_("after drawing you may only play the tile you drew ({tile})"),
    N_("a double is owed on {train}: cover {tile} first"),
    N_("the tile after a double must go on that double ({train})"),
    N_("on your first turn you may only play on your own train (t{seat})"),
    N_("{target} is closed (it has no marker)"),
    N_("only one uncovered double per turn (max_doubles_per_turn is 1)"),
    N_("{tile} does not match the open end {value} of {target}"),
    N_("that move is not legal now"),
)



#: reasons that name a train ("t0"), an action ('end') or an option by its code: said to a
#: player without it
PLAIN_REASONS: dict[str, str] = {
    "on your first turn you may only play on your own train (t{seat})":
        N_("on your first turn you may only play on your own train"),
    "you are laying your first-turn chain: play on your train or 'end'":
        N_("you are laying your first-turn chain: play on your train or end your turn"),
    "you have a legal play and must play (must_play is on)":
        N_("you have a legal play and must play"),
    "only one uncovered double per turn (max_doubles_per_turn is 1)":
        N_("only one uncovered double per turn"),
}

#: the action a refusal is about, as the table's buttons say it (a play: its tile)
ACTION_WORDS: dict[str, str] = {"draw": N_("Draw"), "pass": N_("Pass"), "end": N_("End turn")}
_TILE = re.compile(r"^(\d{1,2}-\d{1,2})")


@functools.cache
def option_labels() -> dict[str, str]:
    """Option name -> its label (a catalog message): "Tiles per player: ...", never the
    engine's "hand_size: ..."."""
    from ..engine.options import LINE_GAME_SPECS, MEXICAN_TRAIN_SPECS

    return {spec.name: spec.label for spec in MEXICAN_TRAIN_SPECS + LINE_GAME_SPECS}


def _action_words(action: str, lang: str | None) -> str:
    if action in ACTION_WORDS:
        return translator(lang).gettext(ACTION_WORDS[action])
    tile = _TILE.match(action)
    return tile.group(1) if tile else action


def _label_first(text: str, lang: str | None) -> str:
    m = re.match(r"([a-z_]+): ", text)
    label = option_labels().get(m.group(1)) if m else None
    return f"{translator(lang).gettext(label)}: {text[m.end():]}" if m and label else text


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    out = []
    seen: set[str] = set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>.+?)")
    return re.compile("^" + "".join(out) + "$")


def match_reason(reason: str) -> tuple[str, dict[str, str]] | None:
    """The template an English reason was made from, with its values; None if unknown."""
    for template in REASONS:
        m = _pattern(template).match(reason)
        if m:
            return template, m.groupdict()
    return None


def _fill(template: str, params: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), template)


def reason_text(reason: str, lang: str | None, plain: bool = False) -> str:
    tr = translator(lang)
    found = match_reason(reason)
    if found is None:
        return reason
    template, values = found
    if plain and template in PLAIN_REASONS:
        return tr.gettext(PLAIN_REASONS[template])
    return _fill(tr.gettext(template), values)


def error_text(err: Any, lang: str | None = None, *, words: bool = False) -> str:
    """`err` (an engine error, or a dict with ``code``/``params``/``message`` as the server
    sends it: a websocket error's exact code is its ``reason``) in `lang`.

    A param that is an error itself (``{"code", "params", "message"}``) is said the same
    way; an unknown code falls back to the error's English message. `lang` None: the
    current language (the terminal's, or this context's: :func:`use_language`).

    `words`: as the pages say it (js/i18n.js tError): the action by its button's name
    ("Draw: ...") and an option by its label ("Tiles per player: ..."), where the command
    line keeps what its user typed ("draw", "hand_size")."""
    lang = lang or get_language()
    if isinstance(err, dict):
        code = err.get("reason") if err.get("reason") in ERRORS else err.get("code")
        params, message = err.get("params") or {}, err.get("message")
    else:
        code = getattr(err, "code", None)
        params = getattr(err, "params", None) or {}
        message = str(err)
    template = ERRORS.get(str(code))
    if template is None or not isinstance(params, dict):
        return str(message if message is not None else "")
    values = {k: error_text(v, lang, words=words) if isinstance(v, dict) and "code" in v
              else v for k, v in params.items()}
    if code == "not_legal_now" and isinstance(values.get("reason"), str):
        values["reason"] = reason_text(values["reason"], lang, plain=words)
    if not words:
        return _fill(translator(lang).gettext(template), values)
    if code == "not_legal_now" and isinstance(values.get("action"), str):
        values["action"] = _action_words(values["action"], lang)
    if isinstance(values.get("field"), str) and values["field"] in option_labels():
        values["field"] = translator(lang).gettext(option_labels()[values["field"]])
    return _label_first(_fill(translator(lang).gettext(template), values), lang)
