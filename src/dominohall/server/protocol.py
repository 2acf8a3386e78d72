"""The websocket protocol: JSON text messages, one object each, with a ``type``.

Client -> server::

    {"type": "action", "action": "12-5>t0", "version": 17}   # version: the view's version
    {"type": "ready"}                                         # done reading the round's end
    {"type": "ping"}
    {"type": "hint"}                                          # your seat's hint (hints.py)

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
    {"type": "error", "code": "stale", "message": "...", "version": 18}
                                     # "illegal" errors may add the engine's "reason"
                                     # (a stable code) and its "params"
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

import json
import secrets
import unicodedata
from typing import Any

MESSAGE_TYPES = ("action", "ready", "ping", "hint")   # hint: see server/hints.py
MAX_NAME = 24                   # display-name length, in characters after normalisation
MAX_MESSAGE = 64 * 1024         # bytes: websocket messages and request bodies


class Rejected(Exception):
    """A request the server refuses; `code` is machine-readable, the text is for people."""

    def __init__(self, code: str, message: str, status: int = 400,
                 **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = {k: v for k, v in extra.items() if v is not None}


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
    return " ".join(kept.split())[:MAX_NAME].strip()


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
        raise Rejected("bad_json", f"a message is at most {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise Rejected("bad_json", f"malformed JSON: {err}") from None
    except RecursionError:
        raise Rejected("bad_json", "malformed JSON: nested too deeply") from None
    if not isinstance(msg, dict):
        raise Rejected("bad_message", "a message must be a JSON object with a 'type'")
    kind = msg.get("type")
    if kind not in MESSAGE_TYPES:
        expected = ", ".join(MESSAGE_TYPES)
        raise Rejected("bad_message", f"unknown message type {kind!r} (expected one of {expected})")
    if kind == "action":
        check_action_fields(msg)
    return msg


def check_action_fields(msg: dict[str, Any]) -> None:
    """An action needs a text ``action`` and the int ``version`` it was chosen at."""
    if not isinstance(msg.get("action"), str) or not msg["action"].strip():
        raise Rejected("bad_message", "an action message needs 'action': the action text")
    version = msg.get("version")
    if type(version) is not int:
        raise Rejected("bad_message",
                       "an action message needs 'version': the version of the view it was "
                       "chosen from (an integer)")
    seat = msg.get("seat")
    if seat is not None and type(seat) is not int:
        raise Rejected("bad_message", "'seat' must be an integer when given")


def error(code: str, message: str, version: int | None = None, **extra: Any) -> str:
    return dumps({"type": "error", "code": code, "message": message, "version": version,
                  **extra})


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))
