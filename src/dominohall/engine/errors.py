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
    """An unknown option, a bad value, or an impossible combination (names the field)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class BadRecord(DominohallError):
    """A game record that cannot be replayed."""
