"""The websocket protocol: JSON text messages, one object each, with a ``type``.

Client -> server::

    {"type": "action", "action": "12-5>t0", "version": 17}   # version: the view's version
    {"type": "ready"}                                         # done reading the round's end
    {"type": "ping"}
    {"type": "hint", "lang": "be"}                            # your seat's hint (hints.py),
                                                              # its why in "lang" (optional:
                                                              # the connection's language)

(``"seat"`` may be added to an action; it must be the connection's own seat.)

Server -> client::

    {"type": "state", "view": {...view without log...}, "log_start": 12, "events": [...],
     "table": {...}}        # after every change; events = the redacted log from log_start on
    {"type": "table", "table": {...}}          # seats joined/left, ready, pauses
                                               # table["turn"]: the turn timer, None or
                                               # {"seat": 2, "left": 13.5} (seconds; 0: time
                                               # is up and the stand-in bot plays the turn)
                                               # table["fairness"]: {"commitment", "scheme",
                                               # "seed_chosen"} (+ "seed", "nonce" once over)
                                               # table["notices"]: [{"type": "reinvited",
                                               # "seat": 2, "time": ...}]
                                               # table["paused"]: nobody is connected
                                               # table["next_table"]: "play again" (or None)
                                               # table["again"]: at a Play again table,
                                               # {"from", "by", "name", "left", "reserved",
                                               # "free_as"} (seats kept for their players)
    {"type": "again", "table": "NEXT_ID", "again": {...}}
                                     # someone pressed Play again at this finished table
                                     # (sent to every connection, on every node): "again"
                                     # as above; a seat in "reserved" is yours to take
                                     # with POST /api/tables/{id}/again within "left" s
    {"type": "error", "code": "stale", "reason": "stale_action", "params": {...},
     "message": "...", "version": 18}
                                     # reason + params: the exact message, for the
                                     # player's language (an "illegal" error's reason is
                                     # the engine's code); message: English
    {"type": "pong"}

The view is exactly ``Game.view(seat)`` (``None`` for a spectator) with its ``log``
split into ``log_start`` + ``events`` so a client receives each event once.  Error
codes: ``bad_json``, ``bad_message``, ``bad_token``, ``spectator``, ``wrong_seat``,
``stale``, ``illegal`` (the engine's reason), ``not_your_turn``, ``waiting``,
``game_over``, ``storage``, ``expired``, ``rate_limited`` (with ``retry_after``
seconds), ``too_many`` (connection caps), ``reinvited`` (the host re-invited this
seat: this device's seat secret is retired).  An error never changes the table and,
except for the last three and ``bad_token``, never closes the connection.

Authentication: a seat's secret comes from ``POST /api/tables/{id}/join``; a browser
sends it as the ``dh_seat_{id}`` cookie, other clients as the ``X-Seat-Token`` header
(``?token=`` still works but is kept out of the access log).  A handshake whose
``Origin`` is not the server's own (or one given with ``--allow-origin``) is refused.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import unicodedata
from typing import Any

MESSAGE_TYPES = ("action", "ready", "ping", "hint")   # hint: see server/hints.py
MAX_NAME = 24                   # display-name length, in characters after normalisation
MAX_MESSAGE = 64 * 1024         # bytes: websocket messages and request bodies


class Rejected(Exception):
    """A request the server refuses.

    ``code`` is the kind of refusal (the REST ``error``, the websocket ``code``);
    ``reason`` names the exact message for machines (the REST ``code``, the websocket
    ``reason``) and ``params`` holds its values, so each page says it in its player's
    language (``tError`` in ``js/i18n.js``; every reason has its English template in
    ``dominohall.i18n.errors.ERRORS``).  ``message`` is the English text, for the API:
    `message` is a template filled with `params` (``{name}`` placeholders), unless
    `filled` says it is final already (an engine error's own message)."""

    def __init__(self, code: str, message: str, status: int = 400, *,
                 reason: str | None = None, params: dict[str, Any] | None = None,
                 filled: bool = False, **extra: Any) -> None:
        self.params = dict(params or {})
        if not filled:
            message = fill(message, self.params)
        super().__init__(message)
        self.code = code
        self.reason = reason or code
        self.message = message
        self.status = status
        self.extra = {k: v for k, v in extra.items() if v is not None}

    @classmethod
    def engine(cls, code: str, err: Exception, status: int = 400, **extra: Any) -> Rejected:
        """An engine error (IllegalAction, BadOption, BadRecord) refused as `code`: its own
        code, params and English message."""
        return cls(code, str(err), status, reason=getattr(err, "code", None),
                   params=getattr(err, "params", None), filled=True, **extra)

    @classmethod
    def from_body(cls, body: dict[str, Any], status: int = 400) -> Rejected:
        """The refusal whose REST body is `body` (one relayed from another node)."""
        rest = dict(body)
        code, reason = rest.pop("error"), rest.pop("code", None)
        params, message = rest.pop("params", {}), rest.pop("message", "")
        return cls(code, message, status, reason=reason, params=params, filled=True, **rest)

    def body(self) -> dict[str, Any]:
        """The REST error body."""
        return {"error": self.code, "code": self.reason, "params": self.params,
                "message": self.message, **self.extra}

    def ws(self, version: int | None = None) -> str:
        """The websocket error message."""
        return error(self.code, self.message, version, reason=self.reason, params=self.params,
                     **self.extra)


def fill(template: str, params: dict[str, Any]) -> str:
    """`template` with its ``{name}`` placeholders replaced by `params` (others kept)."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]) if m.group(1) in params
                  else m.group(0), template)


def same_secret(stored: str | None, given: str | None) -> bool:
    """Constant-time comparison that never raises: any text (non-ASCII, NUL, a lone
    surrogate) that is not the stored secret is simply not it."""
    if not stored or not given or not isinstance(given, str):
        return False
    return secrets.compare_digest(stored.encode(), given.encode("utf-8", "surrogatepass"))


def clean_name(text: Any) -> str:
    r"""A display name as shown to everyone: NFC, without control, format (bidi overrides,
    zero-width), private-use, surrogate or unassigned characters, whitespace collapsed,
    at most MAX_NAME characters ("" if nothing is left).

    >>> clean_name("  Ann\u202e\u200b  Lee\x00 ")
    'Ann Lee'
    >>> clean_name("e\u0301")                   # NFC: one character
    '\xe9'
    >>> clean_name("\ud800\ue000")
    ''
    """
    if not isinstance(text, str):
        return ""
    text = unicodedata.normalize("NFC", text.encode("utf-8", "surrogatepass")
                                 .decode("utf-8", "replace"))
    kept = "".join(ch if unicodedata.category(ch)[0] != "C" or ch in "\t\n\r" else ""
                   for ch in text if ch != "\ufffd")
    kept = "".join(" " if unicodedata.category(ch) in ("Zl", "Zp") else ch for ch in kept)
    kept = "".join(" " if ch in BLANKS else ch for ch in kept)
    name = " ".join(kept.split())[:MAX_NAME].strip()
    return name if any(_visible(ch) for ch in name) else ""


#: characters that draw nothing though Unicode calls them letters or symbols (the Hangul
#: fillers, the blank Braille pattern, Khmer's inherent vowels, the combining grapheme
#: joiner, Mongolian's vowel separator, the Ogham space mark's lookalikes): taken as spaces
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180e"
                   "\u2028\u2029\u200b\u2060\ufeff\u1680")


def _visible(ch: str) -> bool:
    """A character that draws something by itself (a letter, digit, punctuation or
    symbol; not a space, a combining mark alone or one of the :data:`BLANKS`)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANKS


#: letters that look like the Latin ones of "Bot" (Cyrillic, Greek), and 0 for o
_LOOKALIKE = str.maketrans("авеорстхукмніοβτνı0", "abeopctxykmhiobtvio")


def _skeleton(text: str) -> str:
    """What a name looks like: NFKC, case folded, look-alike letters as Latin, only
    letters and digits kept."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_LOOKALIKE)
    return "".join(ch for ch in text if ch.isalnum())


@functools.cache
def _bot_words() -> frozenset[str]:
    """The skeletons of "Bot" in every language of the catalogs."""
    from ..i18n import LANGUAGES, translator
    words = {"bot"}
    for lang in LANGUAGES:
        label = translator(lang).gettext("Bot {n}")
        words.add(_skeleton(label.replace("{n}", "")))
    return frozenset(w for w in words if w)


def imitates_bot(name: str) -> bool:
    """A name that reads as a bot's label in some language ("Bot 1", "Бот 2", "B0T",
    "Вот 1" with Cyrillic letters): people must be able to tell the bots from players.

    >>> [imitates_bot(n) for n in ("Bot 1", "бот", "B0t  3", "Botond", "Ботагоз", "Ann")]
    [True, True, True, False, False, False]
    """
    skeleton = _skeleton(name)
    return any(skeleton == w or (skeleton.startswith(w) and skeleton[len(w)].isdigit())
               for w in _bot_words())


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """Decode and check one client message, or raise Rejected (bad_json / bad_message).

    >>> parse_client_message('{"type": "action", "action": "draw", "version": 3}')["version"]
    3
    >>> parse_client_message('nope')
    Traceback (most recent call last):
    ...
    dominohall.server.protocol.Rejected: malformed JSON: Expecting value: line 1 column 1 (char 0)
    """
    if len(raw) > MAX_MESSAGE:
        raise Rejected("bad_json", "a message is at most {n} bytes", reason="message_too_big",
                       params={"n": MAX_MESSAGE})
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise Rejected("bad_json", "malformed JSON: {error}", params={"error": str(err)}) \
            from None
    except RecursionError:
        raise Rejected("bad_json", "malformed JSON: nested too deeply", reason="json_too_deep") \
            from None
    if not isinstance(msg, dict):
        raise Rejected("bad_message", "a message must be a JSON object with a 'type'",
                       reason="message_not_object")
    kind = msg.get("type")
    if kind not in MESSAGE_TYPES:
        raise Rejected("bad_message", "unknown message type {type} (expected one of {types})",
                       reason="unknown_message", params={"type": repr(kind),
                                                         "types": ", ".join(MESSAGE_TYPES)})
    if kind == "action":
        check_action_fields(msg)
    return msg


def check_action_fields(msg: dict[str, Any]) -> None:
    """An action needs a text ``action`` and the int ``version`` it was chosen at."""
    if not isinstance(msg.get("action"), str) or not msg["action"].strip():
        raise Rejected("bad_message", "an action message needs 'action': the action text",
                       reason="action_needs_text")
    version = msg.get("version")
    if type(version) is not int:
        raise Rejected("bad_message",
                       "an action message needs 'version': the version of the view it was "
                       "chosen from (an integer)", reason="action_needs_version")
    seat = msg.get("seat")
    if seat is not None and type(seat) is not int:
        raise Rejected("bad_message", "'seat' must be an integer when given",
                       reason="seat_not_integer")


def error(code: str, message: str, version: int | None = None, **extra: Any) -> str:
    return dumps({"type": "error", "code": code, "message": message, "version": version,
                  **extra})


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))
