"""The community's HTTP API (``/api/account...``).

The session secret travels only in the HttpOnly, SameSite=Strict cookie ``dh_session``;
every POST must come from a page of this server (its ``Origin``, else its
``Sec-Fetch-Site``; see :func:`same_site`), so another site cannot post with the cookie
(CSRF).  Logging in always starts a new session (a cookie planted before is never
promoted: no session fixation)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from ..server.deps import get_hub, rate, set_cookie
from ..server.protocol import Rejected
from ..server.security import origin_ok
from .accounts import AccountLimits, Accounts
from .store import Account, CommunityStore

SESSION_COOKIE = "dh_session"

router = APIRouter(tags=["accounts"])


def accounts_of(conn: HTTPConnection) -> Accounts:
    """The app's account service (made on first use, over the hub's store)."""
    state = conn.app.state
    service = getattr(state, "accounts", None)
    if service is None:
        hub = get_hub(conn)
        limits = getattr(state, "account_limits", None) or AccountLimits()
        service = state.accounts = Accounts(CommunityStore(hub.store), hub.run_db, limits)
    return service


AccountsDep = Annotated[Accounts, Depends(accounts_of)]


def same_site(request: Request) -> None:
    """Refuse a state-changing request that another site's page sent (CSRF)."""
    settings = request.app.state.settings
    if request.headers.get("origin") is not None:
        ok = origin_ok(request, settings)
    else:
        ok = request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    if not ok:
        raise Rejected("cross_site", "This request did not come from a page of this site.",
                       403, reason="cross_site")


SameSite = Depends(same_site)


async def current_account(request: Request, accounts: AccountsDep) -> Account | None:
    """The logged-in account (None for a guest or a stale cookie)."""
    if not hasattr(request.state, "account"):
        request.state.account = await accounts.session(request.cookies.get(SESSION_COOKIE))
    return request.state.account  # type: ignore[no-any-return]


MaybeAccount = Annotated[Account | None, Depends(current_account)]


async def logged_in(account: MaybeAccount) -> Account:
    if account is None:
        raise Rejected("not_logged_in", "Log in first.", 401, reason="not_logged_in")
    return account


AccountDep = Annotated[Account, Depends(logged_in)]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="the account's name (3-24 characters)")
    password: str = Field(max_length=1000, description="8-128 characters")


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Password(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000)


class Me(BaseModel):
    name: str | None = Field(description="the account's name; null for a guest")
    created: float | None = None


def me(account: Account | None) -> dict[str, Any]:
    if account is None:
        return {"name": None, "created": None}
    return {"name": account.name, "created": account.created}


def start_session(request: Request, response: Response, secret: str) -> None:
    set_cookie(request, response, SESSION_COOKIE, secret)


@router.get("/api/account", response_model=Me, summary="who is logged in (name null: a guest)")
async def whoami(account: MaybeAccount) -> dict[str, Any]:
    return me(account)


@router.post("/api/account/signup", status_code=201, response_model=Me,
             dependencies=[SameSite], summary="make an account and log in")
async def signup(request: Request, response: Response, body: Credentials,
                 accounts: AccountsDep) -> dict[str, Any]:
    rate(request, "signup", accounts.limits.signup_per_minute)
    account, secret = await accounts.signup(body.name, body.password)
    start_session(request, response, secret)
    return me(account)


@router.post("/api/account/login", response_model=Me, dependencies=[SameSite],
             summary="log in (a new session; the same answer for a wrong name or password)")
async def login(request: Request, response: Response, body: Credentials,
                accounts: AccountsDep) -> dict[str, Any]:
    rate(request, "login", accounts.limits.login_per_minute)
    old = request.cookies.get(SESSION_COOKIE)
    account, secret = await accounts.login(body.name, body.password)
    if old:
        await accounts.logout(old)
    start_session(request, response, secret)
    return me(account)


@router.post("/api/account/logout", status_code=204, dependencies=[SameSite],
             summary="end this session")
async def logout(request: Request, accounts: AccountsDep) -> Response:
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        await accounts.logout(secret)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/api/account/logout-everywhere", status_code=204, dependencies=[SameSite],
             summary="end every session of this account, on every device")
async def logout_everywhere(account: AccountDep, accounts: AccountsDep) -> Response:
    await accounts.logout_everywhere(account)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/api/account/password", response_model=Me, dependencies=[SameSite],
             summary="change the password (every other session ends)")
async def change_password(request: Request, response: Response, body: NewPassword,
                          account: AccountDep, accounts: AccountsDep) -> dict[str, Any]:
    rate(request, "login", accounts.limits.login_per_minute)
    secret = await accounts.change_password(account, body.old, body.new)
    start_session(request, response, secret)
    return me(account)


@router.post("/api/account/delete", status_code=204, dependencies=[SameSite],
             summary="delete the account (its name and password go; finished records stay, "
                     "anonymised)")
async def delete(request: Request, body: Password, account: AccountDep,
                 accounts: AccountsDep) -> Response:
    rate(request, "login", accounts.limits.login_per_minute)
    await accounts.delete(account, body.password)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response
