"""What an account can do: sign up, log in and out (here or everywhere), change its
password, delete itself.  Every refusal is a :class:`~dominohall.server.protocol.Rejected`
with a reason code (its English template is in :mod:`dominohall.i18n.errors`).

Logging in answers the same ``wrong_login`` for an unknown name and a wrong password,
after the same work (a dummy argon2 check for an unknown name); failed logins are
counted per name key (existing or not) in the database, so the per-account lock says
nothing about which names exist and holds on every node.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from ..server.protocol import MAX_NAME, Rejected
from . import names, passwords
from .store import Account, CommunityStore, NameTaken

SESSION_SECONDS = 60 * 60 * 24 * 60


@dataclass
class AccountLimits:
    """Rates per client address (a minute, as a burst too) and the per-name lock."""

    signup_per_minute: int = 5
    login_per_minute: int = 20
    failures_per_name: int = 10          # failed logins of one name within failure_window
    failure_window: float = 15 * 60


async def _cpu(fn: Any, *args: Any) -> Any:
    """argon2 off the event loop."""
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def check_name(text: object) -> str:
    problem = names.name_problem(text)
    if problem == "account_name_long":
        raise Rejected("bad_name", "A name has at most {n} characters.", 422,
                       reason="account_name_long", params={"n": MAX_NAME})
    if problem:
        raise Rejected("bad_name", "A name has at least {n} characters, with a letter or a "
                       "digit.", 422, reason="account_name_short", params={"n": names.MIN_NAME})
    return names.display_name(text)


def check_password(password: object, name: str = "") -> str:
    problem = passwords.password_problem(password, name)
    if problem == "password_short":
        raise Rejected("bad_password", "A password has at least {n} characters.", 422,
                       reason="password_short", params={"n": passwords.MIN_PASSWORD})
    if problem == "password_long":
        raise Rejected("bad_password", "A password has at most {n} characters.", 422,
                       reason="password_long", params={"n": passwords.MAX_PASSWORD})
    if problem:
        raise Rejected("bad_password", "The password may not be the name.", 422,
                       reason="password_is_name")
    assert isinstance(password, str)
    return password


class Accounts:
    """The account operations over a community store; `run_db` runs a store call on the
    server's database threads."""

    def __init__(self, store: CommunityStore, run_db: Any,
                 limits: AccountLimits | None = None) -> None:
        self.store = store
        self.run_db = run_db
        self.limits = limits or AccountLimits()

    async def signup(self, name: object, password: object) -> tuple[Account, str]:
        """A new account and its first session's secret."""
        shown = check_name(name)
        secret = check_password(password, shown)
        key, skeleton = names.name_key(shown), names.skeleton(shown)
        if await self.run_db(self.store.name_in_use, key, skeleton):
            raise name_taken()
        hashed = await _cpu(passwords.hash_password, secret)
        try:
            account = await self.run_db(self.store.create_account, shown, key, skeleton, hashed)
        except NameTaken:
            raise name_taken() from None        # taken meanwhile (maybe on another node)
        return account, await self.run_db(self.store.new_session, account.id)

    async def login(self, name: object, password: object) -> tuple[Account, str]:
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong_login()
        key = names.name_key(name)
        since = time.time() - self.limits.failure_window
        if await self.run_db(self.store.count_failures, key, since) \
                >= self.limits.failures_per_name:
            wait = max(1, round(self.limits.failure_window / 60))
            raise Rejected("rate_limited", "Too many failed logins with this name; try again "
                           "in {minutes} min.", 429, reason="login_locked",
                           params={"minutes": wait}, retry_after=wait * 60)
        account = await self.run_db(self.store.account_by_key, key) if key else None
        ok = await _cpu(passwords.verify, account.hash if account else "", password)
        if account is None or not ok:
            await self.run_db(self.store.add_failure, key)
            raise wrong_login()
        await self.run_db(self.store.clear_failures, key)
        if await _cpu(passwords.needs_rehash, account.hash):
            await self.run_db(self.store.set_hash, account.id,
                              await _cpu(passwords.hash_password, password))
        return account, await self.run_db(self.store.new_session, account.id)

    async def session(self, secret: str | None) -> Account | None:
        if not secret:
            return None
        return await self.run_db(self.store.session_account, secret,  # type: ignore[no-any-return]
                                 SESSION_SECONDS)

    async def logout(self, secret: str) -> None:
        await self.run_db(self.store.end_session, secret)

    async def logout_everywhere(self, account: Account) -> None:
        await self.run_db(self.store.end_sessions, account.id)

    async def _check_own(self, account: Account, password: object) -> None:
        if not isinstance(password, str) or not await _cpu(passwords.verify, account.hash,
                                                           password):
            raise Rejected("wrong_password", "That is not your password.", 403,
                           reason="wrong_password")

    async def change_password(self, account: Account, old: object, new: object) -> str:
        """The new hash is stored, every session ends; returns a fresh session's secret."""
        await self._check_own(account, old)
        secret = check_password(new, account.name)
        await self.run_db(self.store.set_hash, account.id,
                          await _cpu(passwords.hash_password, secret))
        await self.run_db(self.store.end_sessions, account.id)
        return await self.run_db(self.store.new_session, account.id)  # type: ignore[no-any-return]

    async def delete(self, account: Account, password: object) -> None:
        await self._check_own(account, password)
        await self.run_db(self.store.delete_account, account.id)


def name_taken() -> Rejected:
    return Rejected("name_taken", "This name, or one that looks like it, is taken.", 409,
                    reason="name_taken")


def wrong_login() -> Rejected:
    return Rejected("wrong_login", "Wrong name or password.", 401, reason="wrong_login")
