"""Table chat (``/api/tables/{id}/chat``).

Short phrases are always on and reach every reader in their own language (a phrase is
stored as its code).  Free text is on by default only at private tables; the host can
turn it on or off; it gets the same Unicode clean-up as names, at most
:data:`MAX_TEXT` characters (a longer one is refused, never cut), and everyone's
messages are rate limited.  Players and spectators have separate channels: each reads
only its own, so a spectator cannot pass what they see to a player.  A reader mutes a
seat by leaving it out (``?mute=0,2``): muting is the reader's, nobody else's.

A message said is also pushed over the table's websocket (``{"type": "chat",
"message": ...}``) to the connections of its channel on this node, each in its reader's
language (:func:`deliver`), and on a cluster to every other node (the ``dh_tables``
notification ``{"k": "c"}``: :mod:`dominohall.server.cluster` calls :func:`deliver`).
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import LANGUAGES, N_, translator
from ..server.deps import TableDep, get_hub, is_host, seat_of
from ..server.protocol import Rejected, dumps
from .routes import AccountsDep, MaybeAccount, SameSite

#: code -> English text; each shown in its reader's language
PHRASES: dict[str, str] = {
    "good_game": N_("Good game"),
    "well_played": N_("Well played"),
    "thanks": N_("Thanks"),
    "hurry": N_("Hurry, please"),
    "oops": N_("Oops"),
    "have_to_go": N_("Sorry, I have to go"),
}
MAX_TEXT = 200
PER_MINUTE = 12             # messages per address and table
router = APIRouter(tags=["chat"])


def clean_text(text: str) -> str:
    """The names' clean-up without their length: NFC, no control, format, private-use
    or unassigned characters, whitespace collapsed."""
    text = unicodedata.normalize("NFC", text.encode("utf-8", "surrogatepass")
                                 .decode("utf-8", "replace"))
    kept = "".join(ch for ch in text if ch != "\ufffd"
                   and (unicodedata.category(ch)[0] != "C" or ch in "\t\n\r"))
    return " ".join(kept.split())


class Say(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str | None = Field(None, max_length=40, description="one of the phrases' codes")
    text: str | None = Field(None, max_length=1000, description="free text (if allowed)")


class FreeText(BaseModel):
    model_config = ConfigDict(extra="forbid")
    free_text: bool = Field(strict=True)


class Message(BaseModel):
    id: int
    seat: int | None
    name: str
    phrase: str | None = None
    text: str = Field(description="the phrase in the reader's language, or the free text")
    time: float


class Chat(BaseModel):
    channel: str = Field(description="players | spectators: the one you read and write")
    free_text: bool
    phrases: dict[str, str] = Field(description="code -> the phrase in your language")
    messages: list[Message]


def rendered(msg: dict[str, Any], lang: str) -> dict[str, Any]:
    """A stored message as a reader sees it: a phrase in the reader's language."""
    phrase = msg.get("phrase")
    text = translator(lang if lang in LANGUAGES else "en").gettext(PHRASES[phrase]) \
        if phrase in PHRASES else str(msg.get("text") or "")
    return {"id": int(msg["id"]), "seat": msg.get("seat"), "name": str(msg.get("name") or ""),
            "phrase": phrase if phrase in PHRASES else None, "text": text,
            "time": float(msg.get("time") or 0)}


def deliver(hub: Any, table_id: str, msg: dict[str, Any]) -> int:
    """Push `msg` (with its ``channel``) to this node's connections of that channel at
    `table_id`; the number of connections it went to."""
    audience = hub.audiences.get(table_id)
    if audience is None or not isinstance(msg, dict) or "id" not in msg:
        return 0
    players = msg.get("channel") == "players"
    by_lang: dict[str, str] = {}
    n = 0
    for conn in list(audience.conns):
        if (conn.seat is not None) != players:
            continue                    # a spectator never reads the players' channel
        text = by_lang.get(conn.lang)
        if text is None:
            text = by_lang[conn.lang] = dumps({"type": "chat",
                                               "message": rendered(msg, conn.lang)})
        conn.send(text)
        n += 1
    return n


def push(hub: Any, table_id: str, msg: dict[str, Any]) -> None:
    """Deliver here, and tell the cluster's other nodes to deliver to theirs."""
    deliver(hub, table_id, msg)
    cluster = getattr(hub, "cluster", None)
    if cluster is not None and hasattr(cluster, "publish"):
        cluster.publish({"k": "c", "t": table_id, "n": cluster.node, "m": msg})


def _free_text(table: Any, stored: bool | None) -> bool:
    return (not table.settings.public) if stored is None else stored


@router.get("/api/tables/{table_id}/chat", response_model=Chat)
async def read(request: Request, table: TableDep, accounts: AccountsDep,
               after: int = Query(0, ge=0, lt=2**31), lang: str = Query("en", max_length=10),
               mute: str = Query("", max_length=100,
                                 description="seats to leave out, e.g. 0,2")) -> dict[str, Any]:
    if not re.fullmatch(r"(\d{1,2}(,\d{1,2})*)?", mute):
        raise Rejected("bad_request", "mute: seat numbers, e.g. 0,2", 422, reason="chat_mute")
    muted = {int(x) for x in mute.split(",") if x}
    tr = translator(lang if lang in LANGUAGES else "en")
    channel = "players" if seat_of(request, table) is not None else "spectators"
    rows = await accounts.run_db(accounts.store.chat, table.id, channel, after)
    stored = await accounts.run_db(accounts.store.free_text, table.id)
    return {"channel": channel, "free_text": _free_text(table, stored),
            "phrases": {k: tr.gettext(v) for k, v in PHRASES.items()},
            "messages": [{"id": seq, "seat": seat, "name": name, "phrase": phrase,
                          "text": tr.gettext(PHRASES[phrase]) if phrase else text,
                          "time": created}
                         for seq, seat, name, phrase, text, created in rows
                         if seat is None or seat not in muted]}


@router.post("/api/tables/{table_id}/chat", status_code=201, dependencies=[SameSite])
async def say(request: Request, body: Say, table: TableDep, account: MaybeAccount,
              accounts: AccountsDep) -> dict[str, int]:
    wait = get_hub(request).limiter.check(f"chat:{table.id}",
                                          request.client.host if request.client else "",
                                          PER_MINUTE)
    if wait:
        after = max(1, round(wait + 0.5))
        raise Rejected("rate_limited", "Too many requests; try again in {seconds} s.", 429,
                       params={"seconds": after}, retry_after=after)
    if (body.phrase is None) == (body.text is None):
        raise Rejected("bad_request", "Send a phrase or a text.", 422, reason="chat_one")
    seat = seat_of(request, table)
    if seat is not None:
        channel, name = "players", table.seats[seat].name or f"{seat + 1}"
    else:
        channel, name = "spectators", account.name if account else "Guest"
    text = None
    if body.phrase is not None:
        if body.phrase not in PHRASES:
            raise Rejected("bad_request", "unknown phrase {phrase}", 422,
                           reason="chat_phrase", params={"phrase": repr(body.phrase[:40])})
    else:
        stored = await accounts.run_db(accounts.store.free_text, table.id)
        if not _free_text(table, stored):
            raise Rejected("forbidden", "Free text is off at this table; the phrases are on.",
                           403, reason="chat_free_text_off")
        text = clean_text(body.text or "")
        if not text:
            raise Rejected("bad_request", "Send a phrase or a text.", 422, reason="chat_one")
        if len(text) > MAX_TEXT:
            raise Rejected("bad_request", "A message has at most {n} characters.", 422,
                           reason="chat_too_long", params={"n": MAX_TEXT})
    seq = await accounts.run_db(accounts.store.say, table.id, channel, seat, name,
                                body.phrase, text)
    push(get_hub(request), table.id, {"id": seq, "channel": channel, "seat": seat,
                                      "name": name, "phrase": body.phrase, "text": text,
                                      "time": time.time()})
    return {"id": seq}


@router.post("/api/tables/{table_id}/chat/settings", dependencies=[SameSite])
async def settings(request: Request, body: FreeText, table: TableDep,
                   accounts: AccountsDep) -> dict[str, bool]:
    if not is_host(request, table):
        raise Rejected("forbidden", "Only the table's host can change this.", 403,
                       reason="chat_host_only")
    await accounts.run_db(accounts.store.set_free_text, table.id, body.free_text)
    return {"free_text": body.free_text}
