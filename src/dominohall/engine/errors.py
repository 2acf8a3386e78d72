"""Typed errors. Every error the engine raises is a :class:`DominohallError`."""

from __future__ import annotations


class DominohallError(Exception):
    """Base class of every error dominohall raises on purpose."""


class IllegalAction(DominohallError):
    """An action that is malformed or not legal now; the game is unchanged."""


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
