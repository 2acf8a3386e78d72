"""The community's pages: the account page (sign up, log in, the account's settings),
the leaderboards, a player's page and the friends page.  Each is a static page
(``static/<name>.html``) whose marked text the server says in the player's language; its
script builds the rest from the community API (:mod:`.routes`, :mod:`.friends`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..server.pages import static_page_in

router = APIRouter(include_in_schema=False)


@router.get("/account")
async def account_page(request: Request) -> HTMLResponse:
    return static_page_in("account.html", request)


@router.get("/players")
async def leaderboard_page(request: Request) -> HTMLResponse:
    return static_page_in("leaderboard.html", request)


@router.get("/players/{name}")
async def player_page(request: Request, name: str) -> HTMLResponse:
    return static_page_in("player.html", request)


@router.get("/friends")
async def friends_page(request: Request) -> HTMLResponse:
    return static_page_in("friends.html", request)
