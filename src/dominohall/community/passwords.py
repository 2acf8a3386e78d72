"""Password hashing: argon2id through argon2-cffi, with OWASP's minimum parameters
(19 MiB, 2 passes, 1 lane), so a login costs the server tens of milliseconds, not a
second, and a flood is stopped by the rate limits before it costs memory.

A hash made with other parameters still verifies and is upgraded at the next login
(:func:`needs_rehash`).  :func:`dummy_verify` spends the same time as a real check, for
an unknown name, so a wrong name and a wrong password cannot be told apart by timing.
"""

from __future__ import annotations

import functools

MIN_PASSWORD = 8
MAX_PASSWORD = 128


@functools.cache
def _hasher():  # type: ignore[no-untyped-def]
    from argon2 import PasswordHasher, Type

    return PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1, type=Type.ID)


@functools.cache
def _dummy() -> str:
    return str(_hasher().hash("not a password of anyone"))


def _bytes(password: str) -> bytes:
    return password.encode("utf-8", "surrogatepass")      # any text, even a lone surrogate


def hash_password(password: str) -> str:
    return str(_hasher().hash(_bytes(password)))


def verify(stored: str, password: str) -> bool:
    """The password matches the stored hash (never raises for a wrong or odd one)."""
    from argon2.exceptions import InvalidHashError, VerificationError

    if not stored:
        dummy_verify(password)
        return False
    try:
        return bool(_hasher().verify(stored, _bytes(password)))
    except (VerificationError, InvalidHashError):
        return False


def dummy_verify(password: str) -> None:
    verify(_dummy(), password)


def needs_rehash(stored: str) -> bool:
    return bool(_hasher().check_needs_rehash(stored))


def password_problem(password: object, name: str = "") -> str | None:
    """Why `password` is not acceptable (a reason code), or None."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        return "password_short"
    if len(password) > MAX_PASSWORD:
        return "password_long"
    if name and password.casefold() == name.casefold():
        return "password_is_name"
    return None
