"""Typed errors. Every error the engine raises is a :class:`DominohallError`."""

from __future__ import annotations


class DominohallError(Exception):
    """Base class of every error dominohall raises on purpose."""


class IllegalAction(DominohallError):
    """An action that is malformed or not legal now; the game is unchanged.

    ``str(err)`` is the English message (unchanged, for the API and the logs);
    ``err.code`` names the reason for machines and ``err.params`` holds its values, so
    every interface can say it in the player's language (``dominohall.i18n.error_text``).
    """

    code: str = "illegal_action"
    params: dict[str, object] = {}      # never mutated; an error with params has its own

    def __init__(self, message: str, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        if code is not None:            # else the class's code (a subclass may set its own)
            self.code = code
        if params is not None:
            self.params = dict(params)

    def __reduce__(self) -> tuple[object, ...]:     # keep code and params across processes
        return (type(self), (str(self), self.code, self.params))


class NotYourTurn(IllegalAction):
    """An action sent for a seat whose turn it is not."""


class GameOver(IllegalAction):
    """An action sent after the match has ended."""


class BadOption(DominohallError):
    """An unknown option, a bad value, or an impossible combination (names the field).

    ``str(err)`` is ``"field: message"`` in English (unchanged, for the API); ``code`` and
    ``params`` say it for machines, as on :class:`IllegalAction` (``params`` always holds
    ``field``)."""

    code: str = "bad_option"

    def __init__(self, field: str, message: str, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, object] = {"field": field, **(params or {})}
        if self.code == "bad_option":
            self.params.setdefault("message", message)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.field, self.message, self.code, self.params))


class BadRecord(DominohallError):
    """A game record that cannot be replayed (``code`` and ``params`` as on IllegalAction)."""

    code: str = "bad_record"

    def __init__(self, message: str, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, object] = dict(params or {})
        if self.code == "bad_record":
            self.params.setdefault("message", message)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (str(self), self.code, self.params))


def described(err: BaseException) -> dict[str, object]:
    """An error as data, to nest in another error's params: its code, params and English
    message (an error without a code is only its message)."""
    return {"code": getattr(err, "code", None), "params": dict(getattr(err, "params", {})),
            "message": str(err)}
