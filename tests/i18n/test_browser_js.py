"""js/i18n.js under Node: the browser says exactly what Python says, from the same JSON.

Plural forms from the catalog's own expression, the log from event fields (tEvent) and
engine errors from code + params (tError), compared message by message with Python."""

from __future__ import annotations

import gettext
import re

import pytest

from dominohall import IllegalAction, bots, new_game, replay
from dominohall.engine.errors import BadRecord
from dominohall.engine.views import events
from dominohall.i18n import LANGUAGES, catalog_json, translator
from dominohall.i18n.errors import error_text
from dominohall.i18n.log import event_text

LANGS = list(LANGUAGES)


def test_languages_match_python(node):
    assert node("return I.LANGUAGES;", None) == LANGUAGES
    assert node("return data.map(I.normalize);", ["pt-BR", "RU", "xx", "", "be_BY.UTF-8"]) \
        == ["pt", "ru", None, None, "be"]


def test_plural_forms_agree_with_gettext(node):
    bodies = {lang: catalog_json(lang) for lang in LANGS}
    got = node("const out = {}; for (const [l, b] of Object.entries(data)) {"
               " const f = I.pluralRule(b.plural); out[l] = [];"
               " for (let n = 0; n < 1000; n++) out[l].push(f(n)); } return out;", bodies)
    for lang, body in bodies.items():
        f = gettext.c2py(body["plural"])
        assert got[lang] == [f(n) for n in range(1000)], lang


def test_bad_plural_expression_is_refused(node):
    got = node("return data.map((e) => I.pluralRule(e)(5));",
               ["alert(1)", "n; fetch('x')", "", None, "(n != 1)"])
    assert got == [1, 1, 1, 1, 1]          # the English rule, never the injected code


def test_t_and_tn_translate_and_fall_back(node):
    body = catalog_json("ru")
    got = node("I.useCatalog(data); return ["
               " I.t('Your turn'), I.t('no such message {x}', {x: 1}),"
               " I.t('{name} has one tile left', {name: 'Ana'}),"
               " [1, 2, 5, 21].map((n) => I.tn('{n} tile', '{n} tiles', n)),"
               " I.tn('one {n} thing', 'many {n} things', 3), I.currentLanguage()];", body)
    assert got == ["Ваш ход", "no such message 1", "Ana: осталась одна костяшка",
                   ["1 костяшка", "2 костяшки", "5 костяшек", "21 костяшка"],
                   "many 3 things", "ru"]


def _games():
    out = []
    for game, players, opts in (("mexican_train", 3, {"set_max": 6, "hand_size": 5}),
                                ("all_fives", 2, {}), ("all_fives", 4, {"teams": True})):
        g = new_game(game, players=players, seed=4, options=opts)
        seats = [bots.make("greedy", seed=s, game=game) for s in range(players)]
        while not g.is_over:
            s = g.current_seat
            g.apply(seats[s].act(g.view(s)), seat=s)
        out.append(g)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_log_lines_match_python(node, lang):
    cases = []
    for g in _games():
        for seat in (None, 0, 1):
            cases += [[e, seat, g.name] for e in events(g, seat, 0)]
    got = node("I.useCatalog(data.catalog); return data.cases.map(([e, seat, game]) =>"
               " I.tEvent(e, { seat, game }));",
               {"catalog": catalog_json(lang), "cases": cases})
    want = [event_text(e, seat, lang, game=game) for e, seat, game in cases]
    assert len({e["type"] for e, _, _ in cases}) >= 7
    assert got == want
    # words, never the engine's values: no Python lists, seat indexes or target codes
    for line in want:
        assert not re.search(r"\[|\]|\bt\d\b|\bon (L|R|U|D|mx)\b|\bseat\b", line), line
    if lang == "en":
        assert any("on the Mexican train" in w or "'s train" in w for w in want)
        assert any(w.startswith("Hand ") for w in want)            # All Fives plays hands
        assert any(w.startswith("Match over: ") for w in want)


def test_english_log_names_players(node):
    e = {"type": "play", "seat": 1, "tile": "6-4", "target": "L", "count": 10, "points": 10}
    assert event_text(e, 0, "en", names=["Ana", "Bo"]) == \
        "Bo played 6-4 on the left end (count 10: 10 points)"
    got = node("I.useCatalog(data.c); return I.tEvent(data.e, { seat: 1, nameOf: (s) => 'X' });",
               {"c": catalog_json("es"), "e": e})
    assert got == event_text(e, 1, "es")


@pytest.mark.parametrize("lang", ["en", "be", "pt"])
def test_errors_match_python(node, lang):
    g = new_game("mexican_train", players=3, seed=2, options={"set_max": 6, "hand_size": 5})
    errs = []
    for a in ["draw", "pass", "end", "6-6>mx", "9-9", "zz", "5-5>t2", "1-0", "6-6>t9"]:
        try:
            g.apply(a)
        except IllegalAction as err:
            errs.append({"code": err.code, "params": err.params, "message": str(err)})
    errs.append({"code": "nope", "params": {}, "message": "raw english"})
    # the server's refusals: a REST body (code), a websocket error (reason), a nested error
    record = g.to_record()
    for bad in ({**record, "version": 99}, {**record, "actions": ["zz"]},
                {**record, "options": {"double_blank": 3}}):
        try:
            replay(bad)
        except BadRecord as err:
            errs.append({"error": "bad_record", "code": err.code, "params": err.params,
                         "message": str(err)})
    errs.append({"type": "error", "code": "stale", "reason": "player_is_back", "params": {},
                 "message": "the player is back"})
    errs.append({"type": "error", "code": "rate_limited", "reason": "rate_limited_connect",
                 "params": {"seconds": 3}, "message": "Too many connections; try again in 3 s."})
    got = node("I.useCatalog(data.c); return data.errs.map(I.tError);",
               {"c": catalog_json(lang), "errs": errs})
    assert got == [error_text(e, lang, words=True) for e in errs]
    assert len(errs) >= 11
    if lang != "en":
        assert all(g != e["message"] for g, e in zip(got[-5:], errs[-5:], strict=True)), got


def test_bot_levels_in_words_js_match_python(node):
    """The table's badge names a bot's level as the lobby does ("bot · Greedy (easy)")."""
    from dominohall.i18n.labels import BOT_NAMES

    assert node("return W.BOT_LEVELS;", None) == BOT_NAMES
    got = node("I.useCatalog(data); return [W.botLevel('greedy'), W.botLevel('mine')];",
               catalog_json("ru"))
    assert got == [catalog_json("ru")["messages"]["Greedy (easy)"], "mine"]


def _first_turn_refusals() -> list[dict]:
    """A first turn's refusals: drawing with a play in hand, drawing in the middle of the
    first-turn chain, playing on another train; and a hand size the set cannot deal."""
    from dominohall.engine.errors import BadOption

    out = []

    def refuse(g, action):
        try:
            g.apply(action)
        except (IllegalAction, BadOption) as err:
            out.append({"code": err.code, "params": err.params, "message": str(err)})
            return
        raise AssertionError(f"{action} was legal")

    for seed in range(50):
        g = new_game("mexican_train", players=3, seed=seed, options={"set_max": 6,
                                                                      "hand_size": 5})
        mine = f"t{g.current_seat}"
        own = [a for a in g.legal_actions() if a.endswith(">" + mine)]
        if own and "draw" not in g.legal_actions():
            refuse(g, "draw")                               # a play in hand: must play
            tile = own[0].split(">")[0]
            break
    else:
        raise AssertionError("no deal with a first-turn play")
    other_train = f"t{(g.current_seat + 1) % 3}"
    refuse(g, f"{tile}>{other_train}")                      # not on your own train
    g.apply(own[0])
    if "draw" not in g.legal_actions() and not g.is_over and "end" in g.legal_actions():
        refuse(g, "draw")                                   # in the first-turn chain
    try:
        new_game("mexican_train", players=4, options={"set_max": 6, "hand_size": 9})
    except Exception as err:                                # noqa: BLE001 - its code is checked
        out.append({"code": err.code, "params": err.params, "message": str(err)})
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_in_the_page_name_no_codes(node, lang):
    """The page says a refused first-turn move and a bad hand size in words: the button's
    name ("Draw: ..."), no engine code ('draw', 'end', 't1', must_play, hand_size)."""
    errs = _first_turn_refusals()
    assert len(errs) >= 3 and errs[-1]["code"] == "hand_size_too_big"
    got = node("I.useCatalog(data.c); return data.errs.map(I.tError);",
               {"c": catalog_json(lang), "errs": errs})
    assert got == [error_text(e, lang, words=True) for e in errs]
    say = translator(lang).gettext
    assert got[0].startswith(say("Draw") + ": "), got[0]
    assert got[-1].startswith(say("Tiles per player") + ": "), got[-1]
    for text in got:
        assert not re.search(r"\bdraw:|'end'|\bt\d\b|must_play|hand_size|max_doubles", text), \
            (lang, text)


def test_with_lang_keeps_the_address_language(node):
    """withLang: a page opened with ?lang=kk leads to pages in Kazakh (same site only; an
    address naming its own language, or a page without ?lang=, is left alone)."""
    got = node("""globalThis.location = new URL("http://h:1/t/abc?invite=x&lang=kk#top");
        const out = [I.withLang("/t/new"), I.withLang("/replay?table=q#s"),
                     I.withLang("/?lang=bg"), I.withLang("https://elsewhere.org/x")];
        globalThis.location = new URL("http://h:1/");
        out.push(I.withLang("/t/new"));
        return out;""", None)
    assert got == ["/t/new?lang=kk", "/replay?table=q&lang=kk#s", "/?lang=bg",
                   "https://elsewhere.org/x", "/t/new"]
