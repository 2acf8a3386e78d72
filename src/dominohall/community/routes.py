"""The community's HTTP API (``/api/account...``).

The session secret travels only in the HttpOnly, SameSite=Strict cookie ``dh_session``;
every POST must come from a page of this server (its ``Origin``, else its
``Sec-Fetch-Site``; see :func:`same_site`), so another site cannot post with the cookie
(CSRF).  Logging in always starts a new session (a cookie planted before is never
promoted: no session fixation)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from ..server.deps import get_hub, rate, set_cookie
from ..server.protocol import Rejected
from ..server.security import origin_ok
from .accounts import AccountLimits, Accounts
from .store import Account, CommunityStore

SESSION_COOKIE = "dh_session"
PRESENCE_EVERY = 20.0       # seconds: a session's "seen" is written at most this often
ONLINE_SECONDS = 90.0       # seen this recently: online

router = APIRouter(tags=["accounts"])


def accounts_of(conn: HTTPConnection) -> Accounts:
    """The app's account service (made on first use, over the hub's store)."""
    state = conn.app.state
    service = getattr(state, "accounts", None)
    if service is None:
        hub = get_hub(conn)
        limits = getattr(state, "account_limits", None) or AccountLimits()
        service = state.accounts = Accounts(CommunityStore(hub.store), hub.run_db, limits)
    elif getattr(state, "account_limits", None) is not None:
        service.limits = state.account_limits           # set after the start (tests)
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
        secret = request.cookies.get(SESSION_COOKIE)
        request.state.account = await accounts.session(secret)
        if request.state.account is not None and secret:       # presence: seen now
            await accounts.run_db(accounts.store.touch_session, secret, PRESENCE_EVERY)
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


# ---------------------------------------------------------------- ratings
class RatingOut(BaseModel):
    game: str
    rating: int = Field(description="40 x mu: a new player has 1000")
    mu: float
    sigma: float
    provisional: bool = Field(description="uncertain still: too few rated matches")
    matches: int
    wins: int
    average_points: float | None = Field(description="mean final total per match")
    rounds: int = Field(description="rounds (hands) played in rated matches")
    rounds_out: int = Field(description="of them, the rounds this player went out in")


class Leader(BaseModel):
    place: int
    name: str
    rating: int
    provisional: bool
    matches: int
    wins: int


class Played(BaseModel):
    game: str
    table: str
    replay: str = Field(description="the finished match's replay page")
    place: int
    players: int
    score: int
    rating: int = Field(description="the rating after this match")
    provisional: bool
    time: float
    rounds: int
    rounds_out: int


class PlayerOut(BaseModel):
    name: str
    since: float
    ratings: list[RatingOut]
    history: list[Played] = Field(description="rated matches, newest first (finished only)")


def check_game(game: str) -> str:
    from .ratings import GAMES

    if game not in GAMES:
        raise Rejected("no_such_game", "unknown game {game} (choose from {games})", 404,
                       params={"game": repr(game[:40]), "games": ", ".join(GAMES)})
    return game


@router.get("/api/leaderboard/{game}", response_model=list[Leader], tags=["ratings"],
            summary="the best rated players of a game (settled ratings first)")
async def leaderboard(game: str, accounts: AccountsDep,
                      limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
    from .ratings import PROVISIONAL_SIGMA, Rating

    check_game(game)
    rows = await accounts.run_db(accounts.store.leaderboard, game, limit, PROVISIONAL_SIGMA)
    out = []
    for i, (name, mu, sigma, matches, wins) in enumerate(rows):
        r = Rating(mu, sigma, matches)
        out.append({"place": i + 1, "name": name, "rating": r.shown,
                    "provisional": r.provisional, "matches": matches, "wins": wins})
    return out


@router.get("/api/players/{name}", response_model=PlayerOut, tags=["ratings"],
            summary="a player's ratings, statistics and rated matches")
async def player(name: str, accounts: AccountsDep,
                 limit: Annotated[int, Query(ge=1, le=500)] = 100) -> dict[str, Any]:
    from .names import name_key
    from .ratings import Rating

    account = await accounts.run_db(accounts.store.account_by_key, name_key(name[:200]))
    if account is None:
        raise Rejected("no_player", "No player is called {name}.", 404,
                       params={"name": repr(name[:40])})
    ratings = []
    for game, mu, sigma, matches, wins, points, rounds, outs in await accounts.run_db(
            accounts.store.ratings_of, account.id):
        r = Rating(mu, sigma, matches)
        ratings.append({"game": game, "rating": r.shown, "mu": mu, "sigma": sigma,
                        "provisional": r.provisional, "matches": matches, "wins": wins,
                        "average_points": round(points / matches, 1) if matches else None,
                        "rounds": rounds, "rounds_out": outs})
    history = []
    for game, table, mu, sigma, place, score, players, created, rounds, outs in \
            await accounts.run_db(accounts.store.history_of, account.id, limit):
        r = Rating(mu, sigma)
        history.append({"game": game, "table": table, "replay": f"/replay?table={table}",
                        "place": place, "players": players, "score": score,
                        "rating": r.shown, "provisional": r.provisional, "time": created,
                        "rounds": rounds, "rounds_out": outs})
    return {"name": account.name, "since": account.created, "ratings": ratings,
            "history": history}
