"""/api/i18n/{lang}.json serves the catalogs; anything else is a 404 in JSON, never a 500."""

from __future__ import annotations

import pytest

from dominohall.i18n import LANGUAGES

from .conftest import in_process_app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with in_process_app(tmp_path_factory.mktemp("db")) as c:
        yield c


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_catalog(client, lang):
    r = client.get(f"/api/i18n/{lang}.json")
    assert r.status_code == 200
    body = r.json()
    assert body["lang"] == lang and body["name"] == LANGUAGES[lang]
    assert body["languages"] == LANGUAGES
    assert "not_in_boneyard" in body["errors"]
    if lang == "en":
        assert body["messages"] == {} and body["plural"] == "(n != 1)"
    else:
        assert len(body["messages"]) > 350
        assert all(isinstance(v, (str, list)) and v for v in body["messages"].values())


def test_plural_messages_are_lists(client):
    body = client.get("/api/i18n/be.json").json()
    assert body["nplurals"] == 3
    assert body["messages"]["{n} tile"] == ["{n} костка", "{n} косткі", "{n} костак"]


@pytest.mark.parametrize("lang", ["xx", "pt-BR", "..%2F..%2Fetc%2Fpasswd", "en.json",
                                  "%00", "ру", "a" * 5000, "be%20", "null"])
def test_unknown_language_is_404_json(client, lang):
    r = client.get(f"/api/i18n/{lang}.json")
    assert r.status_code == 404
    body = r.json()
    assert body.get("error") == "unknown_language" or "detail" in body
    assert len(r.text) < 400


def test_languages_and_accept_language(client):
    r = client.get("/api/i18n", headers={"Accept-Language": "de, kk-KZ;q=0.8, ru;q=0.5"})
    assert r.json() == {"languages": LANGUAGES, "preferred": "kk"}
    r = client.get("/api/i18n", headers={"Accept-Language": ("\u00ff" * 300).encode("latin-1")})
    assert r.status_code == 200 and r.json()["preferred"] == "en"


def test_language_code_case_is_forgiven(client):
    assert client.get("/api/i18n/RU.json").json()["lang"] == "ru"
