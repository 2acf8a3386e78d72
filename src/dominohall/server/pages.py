"""Pages beside the lobby and the table: *How to play*, the replay viewer and its positions.

* ``GET /how-to-play`` renders the players' rules guide
  (:func:`dominohall.guide.rules_markdown`) as HTML on the server, so it reads without
  JavaScript and prints well.
* ``GET /replay`` is the replay viewer (``static/replay.html``): it loads a finished
  table's record (``?table=ID``) or a record file the player opens.
* ``POST /api/replay`` turns a game record into the positions the viewer steps through;
  ``GET /api/tables/{id}/replay`` does the same with a finished table's own record.
  The rules live only in the engine, so the viewer never re-plays a move itself: the
  server replays the record with :func:`dominohall.replay` and sends, for each move, the
  spectator's view of the position after it (``Game.view(None)``), the new log events
  and every hand.  Showing the hands reveals nothing new: whoever holds a record holds
  its seed, and a table's record is given out only once its match is over.  A match can
  run to thousands of moves, so the positions come one round at a time.
"""

from __future__ import annotations

import html
import json
import logging
import re
from functools import cache
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import HTMLResponse

from ..engine import replay
from ..engine.errors import DominohallError, described
from ..engine.views import events
from ..guide import guide_language, rules_markdown
from ..i18n import LANG_COOKIE, N_, request_language, translator
from ..i18n.html import translate_html
from .deps import find_table, get_hub, rate
from .protocol import MAX_MESSAGE, Rejected
from .tables.limits import BACKGROUND

log = logging.getLogger("dominohall.server")
router = APIRouter()

#: the largest record body accepted: the server's request limit (an 8-player double-12
#: match's record is about 13 kB); a table's own record is replayed without a round trip
MAX_RECORD_BYTES = MAX_MESSAGE
MAX_ACTIONS = 20_000
#: view keys a replay position does not need (sent once, or only for the seat to move)
_DROP = ("log", "options", "legal_actions", "seat", "hand", "version")


def lang_of(request: Request | WebSocket) -> str:
    """The requesting player's language: ``?lang=``, the language menu's choice (the
    ``dh_lang`` cookie), ``Accept-Language``, English."""
    return request_language(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                            request.headers.get("accept-language"))


def page_response(html_text: str, lang: str) -> HTMLResponse:
    """A page in `lang`; caches keep one copy per language and cookie."""
    return HTMLResponse(html_text, headers={"Content-Language": lang,
                                            "Vary": "Accept-Language, Cookie"})


@cache
def static_page(name: str) -> str:
    from .app import STATIC

    return (STATIC / name).read_text(encoding="utf-8")


def static_page_in(name: str, request: Request) -> HTMLResponse:
    """A static page (``static/<name>``) with its marked text in the player's language."""
    lang = lang_of(request)
    return page_response(translate_html(static_page(name), lang), lang)


@router.get("/how-to-play", include_in_schema=False)
async def how_to_play(request: Request) -> HTMLResponse:
    lang = lang_of(request)
    return page_response(guide_page(lang), lang)


@router.get("/replay", include_in_schema=False)
async def replay_page(request: Request) -> HTMLResponse:
    return static_page_in("replay.html", request)


@router.post("/api/replay", summary="the positions of a game record, one round at a time")
async def replay_positions(request: Request) -> dict[str, Any]:
    """Body ``{"record": <a dominohall record>, "round": 1}``; see :func:`positions`."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_RECORD_BYTES):
        raise Rejected("too_large", "a record may have at most {n} bytes", 413,
                       reason="record_too_large", params={"n": MAX_RECORD_BYTES})
    raw = await request.body()
    if len(raw) > MAX_RECORD_BYTES:
        raise Rejected("too_large", "a record may have at most {n} bytes", 413,
                       reason="record_too_large", params={"n": MAX_RECORD_BYTES})
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise Rejected("bad_json", "the body is not JSON", 400, reason="body_not_json") from None
    if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
        raise Rejected("bad_record", 'send {"record": {...}, "round": N}', 422,
                       reason="replay_body")
    round_no = body.get("round", 1)
    if type(round_no) is not int:
        raise Rejected("bad_record", "round: a whole number", 422, reason="replay_round")
    return await replayed(request, body["record"], round_no)


@router.get("/api/tables/{table_id}/replay",
            summary="a finished table's positions, one round at a time (see POST /api/replay)",
            responses={409: {"description": "the match is not over yet"}})
async def table_replay(request: Request, table_id: str, round: int = 1) -> dict[str, Any]:
    """The table's own record (``GET /api/tables/{id}/record``, published once the match is
    over) replayed here: its seed has 128 bits, more than a browser's numbers keep, so the
    record never makes a round trip through JavaScript."""
    table = await find_table(get_hub(request), table_id)
    record = table.record()             # Rejected 409 until the match is over
    return await replayed(request, record, round)


#: replays waiting for a worker at most; more is 429 (the queue never grows without bound)
MAX_REPLAYS_WAITING = 8


async def replayed(request: Request, record: dict[str, Any], round_no: int) -> dict[str, Any]:
    """:func:`positions` of `record`, worked out in the bot pool (a worker process on a
    real server) at background priority, after every bot move that is waiting: a
    replay (0.2-0.3 s of CPU for a long match) never runs on the event loop, never
    delays another table's bots, is rate limited per address, and waits in a bounded
    queue."""
    hub = get_hub(request)
    rate(request, "replay", hub.limits.replays_per_minute)
    if len(hub.bots.queue.waiting[BACKGROUND]) >= MAX_REPLAYS_WAITING:
        raise Rejected("rate_limited", "Too many requests; try again in {seconds} s.", 429,
                       params={"seconds": 2}, retry_after=2)
    result = await hub.bots.run(BACKGROUND, positions_job, record, round_no)
    if result[0] == "rejected":
        _, code, message, status, reason, params = result
        raise Rejected(code, message, status, reason=reason, params=params, filled=True)
    return result[1]  # type: ignore[no-any-return]


def positions_job(record: dict[str, Any], round_no: int) -> tuple[Any, ...]:
    """:func:`positions` in a worker: ("ok", positions) or ("rejected", ...the refusal's
    fields), which pickle (a Rejected does not)."""
    try:
        return ("ok", positions(record, round_no))
    except Rejected as err:
        return ("rejected", err.code, err.message, err.status, err.reason, err.params)


def positions(record: dict[str, Any], round_no: int = 1) -> dict[str, Any]:
    """Replay `record` and return the positions of its round `round_no`.

    ``steps`` counts the positions of the whole match: step 0 is the first deal, step k
    the position after the record's k-th move (a ``top`` chance entry is not a move).
    Each step belongs to the round its position shows, so the move that ends a round
    opens the next one: its events carry the ``round_end`` with every hand and the
    points.  ``rounds`` lists each round's first and last step; ``final`` is the end: the
    totals, the winners and every ``round_end`` event (for the match summary).
    """
    try:
        game = replay({**record, "actions": []})
    except DominohallError as err:
        raise Rejected.engine("bad_record", err, 422) from None
    except Exception as err:            # a record the engine could not even read: never a 500
        log.info("replay: unreadable record: %r", err)
        raise Rejected("bad_record", "not a dominohall game record", 422,
                       reason="not_a_record") from None
    actions = record.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS or \
            not all(isinstance(a, str) and len(a) <= 40 for a in actions):
        raise Rejected("bad_record", "actions: a list of at most {n} action texts", 422,
                       reason="replay_actions", params={"n": MAX_ACTIONS})
    rounds = [game.round]                               # the round each step shows
    plan: list[tuple[str, int | None]] = []             # (action, mover; None: chance)
    for k, text in enumerate(actions):                  # pass 1: check, and index the rounds
        try:
            if text.startswith("top "):
                game.put_on_top(text[4:])
                plan.append((text, None))
                continue
            seat = game.current_seat
            game.apply(text)
        except DominohallError as err:
            raise Rejected("bad_record", f"action #{k + 1} {text!r}: {err}", 422,
                           reason="replay_action", filled=True,
                           params={"k": k + 1, "action": repr(text), "error": described(err)}
                           ) from None
        plan.append((text, seat))
        rounds.append(game.round)
    final = {"scores": game.scores, "winners": game.winners, "is_over": game.is_over,
             "round": game.round,
             "round_ends": [e for e in events(game, None) if e["type"] == "round_end"]}
    index = []
    for r in sorted(set(rounds)):
        steps = [s for s, x in enumerate(rounds) if x == r]
        index.append({"round": r, "first": steps[0], "last": steps[-1]})
    wanted = next((x for x in index if x["round"] == round_no), None)
    if wanted is None:
        raise Rejected("bad_record", "round {round}: the record has rounds {first}..{last}",
                       422, reason="replay_no_round",
                       params={"round": round_no, "first": index[0]["round"],
                               "last": index[-1]["round"]})
    # pass 2: the views of the wanted round's steps (the record is known to be legal)
    game = replay({**record, "actions": []})
    options = game.view(None)["options"]
    out = [_position(game, 0, None, None, 0)] if wanted["first"] == 0 else []
    step = 0
    for text, seat in plan:
        if step >= wanted["last"]:
            break
        if seat is None:
            game.put_on_top(text[4:])
            continue
        before = len(game.state.log)
        game.apply(text)
        step += 1
        if step >= wanted["first"]:
            out.append(_position(game, step, seat, text, before))
    return {
        "game": game.name, "players": game.players, "options": options,
        "steps": len(rounds), "rounds": index, "round": round_no, "final": final,
        "positions": out,
    }


def _position(game: Any, step: int, seat: int | None, action: str | None,
              since: int) -> dict[str, Any]:
    view = game.view(None)
    pos = {k: v for k, v in view.items() if k not in _DROP}
    pos["step"] = step
    pos["mover"] = seat
    pos["action"] = action
    pos["events"] = events(game, None, since)
    pos["hands"] = [game.view(i)["hand"] for i in range(game.players)]
    return pos


# --- How to play ---------------------------------------------------------------------------

@cache
def guide_html(lang: str = "en") -> str:
    """The rules guide as HTML (headings carry ids; wide tables scroll on a phone; the
    wrappers' labels in `lang`)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.anchors import anchors_plugin

    md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
        ["table", "replacements", "smartquotes"])
    md.use(anchors_plugin, min_level=1, max_level=3)
    label = html.escape(translator(lang).gettext(N_("Table (scrolls sideways)")), quote=True)
    md.add_render_rule("table_open", lambda *a: f'<div class="table-wrap" tabindex="0" '
                                                f'role="region" aria-label="{label}"><table>\n')
    md.add_render_rule("table_close", lambda *a: "</table></div>\n")
    # HTML comments in the guide mark its generated parts (python -m dominohall.guide);
    # raw HTML is off, so they would show as text: drop them
    text = re.sub(r"<!--.*?-->\n?", "", rules_markdown(lang), flags=re.S)
    return str(md.render(text))


def guide_headings(lang: str = "en") -> list[tuple[int, str, str]]:
    """(level, id, text) of the guide's headings down to level 2, for the contents list."""
    return [(int(m[1]), m[2], html.unescape(re.sub(r"<[^>]+>", "", m[3])))
            for m in re.finditer(r'<h([12]) id="([^"]+)">(.*?)</h\1>', guide_html(lang))]


#: the How to play page's own words (outside its f-string: Babel's extractor cannot see
#: inside one, and these were missing from the catalogs, so the page's title and skip
#: link stayed English)
GUIDE_TITLE, GUIDE_SKIP, GUIDE_SITE, GUIDE_CONTENTS = (
    N_("How to play — dominohall"), N_("Skip to the rules"), N_("Site"), N_("Contents"))
GUIDE_NAV = (N_("Lobby"), N_("How to play"), N_("Replays"), N_("Leaderboards"), N_("Friends"),
             N_("Account"))


def guide_page(lang: str = "en") -> str:
    """The How to play page in `lang`.  Its chrome is said in `lang` and marked
    ``data-i18n`` with the English source, so the menu can switch it in place
    (i18n.js); the guide itself is its translation into `lang` (`rules_markdown`), or the
    English guide where there is none (its ``lang`` says which); the menu reloads this
    page, so the guide follows a new choice too."""
    e = html.escape
    tr = translator(lang)

    def say(text: str, tag: str, attrs: str = "") -> str:
        return f'<{tag}{attrs} data-i18n="{e(text)}">{e(tr.gettext(text))}</{tag}>'

    contents = "".join(f'<li><a href="#{e(i)}">{e(text)}</a></li>'
                       for level, i, text in guide_headings(lang) if level == 2)
    toc = (f'<nav class="toc" aria-labelledby="toc-h">{say(GUIDE_CONTENTS, "h2", " id=toc-h")}'
           f"<ol>{contents}</ol></nav>") if contents else ""
    return f"""<!doctype html>
<html lang="{tr.lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  {say(GUIDE_TITLE, "title")}
  <link rel="stylesheet" href="/static/style.css">
  <link rel="stylesheet" href="/static/pages.css">
  <link rel="icon" href="data:,">
</head>
<body class="page guide-page">
  {say(GUIDE_SKIP, "a", ' class="skip" href="#guide"')}
  <header class="top">
    <h1><a href="/">dominohall</a></h1>
    <nav class="top-nav" aria-label="{e(tr.gettext(GUIDE_SITE))}" data-i18n-attr="aria-label"
         data-i18n-src-aria-label="Site">
      {say(GUIDE_NAV[0], "a", ' href="/"')}
      {say(GUIDE_NAV[1], "a", ' href="/how-to-play" aria-current="page"')}
      {say(GUIDE_NAV[2], "a", ' href="/replay"')}
      {say(GUIDE_NAV[3], "a", ' href="/players"')}
      {say(GUIDE_NAV[4], "a", ' href="/friends"')}
      {say(GUIDE_NAV[5], "a", ' href="/account"')}
    </nav>
  </header>
  <main class="guide-main">
    {toc}
    <article id="guide" class="card guide" lang="{guide_language(tr.lang)}">
{guide_html(lang)}
    </article>
  </main>
  <script type="module" src="/static/js/guide.js"></script>
</body>
</html>
"""
