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
    {"type": "error", "code": "stale", "message": "...", "version": 18}
    {"type": "pong"}

The view is exactly ``Game.view(seat)`` (``None`` for a spectator) with its ``log``
split into ``log_start`` + ``events`` so a client receives each event once.  Error
codes: ``bad_json``, ``bad_message``, ``bad_token``, ``spectator``, ``wrong_seat``,
``stale``, ``illegal`` (the engine's reason), ``not_your_turn``, ``waiting``,
``game_over``, ``storage``.  An error never changes the table.
"""

from __future__ import annotations

import json
from typing import Any

MESSAGE_TYPES = ("action", "ready", "ping", "hint")   # hint: see server/hints.py


class Rejected(Exception):
    """A request the server refuses; `code` is machine-readable, the text is for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def parse_client_message(raw: str | bytes) -> dict[str, Any]:
    """Decode and check one client message, or raise Rejected (bad_json / bad_message).

    >>> parse_client_message('{"type": "action", "action": "draw", "version": 3}')["version"]
    3
    >>> parse_client_message('nope')
    Traceback (most recent call last):
    ...
    dominohall.server.protocol.Rejected: malformed JSON: Expecting value: line 1 column 1 (char 0)
    """
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise Rejected("bad_json", f"malformed JSON: {err}") from None
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


def error(code: str, message: str, version: int | None = None) -> str:
    return dumps({"type": "error", "code": code, "message": message, "version": version})


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))
