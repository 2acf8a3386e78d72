"""The leaderboard and a player's page over HTTP: what rated matches leave behind (a
rating per game, its history with replay links, statistics), each match rated once,
deleted accounts gone from the board, odd names and games refused with a 4xx."""

from __future__ import annotations

import pytest

from dominohall.community.ratings import Player, lower_is_better
from dominohall.community.routes import accounts_of

from .conftest import another_browser, in_process_app

PW = "correct horse battery"


@pytest.fixture()
def client(tmp_path):
    with in_process_app(tmp_path) as c:
        yield c


def account(client, name):
    other = another_browser(client)
    r = other.post("/api/account/signup", json={"name": name, "password": PW})
    assert r.status_code == 201, r.text
    store = accounts_of(client).store
    return store.account_by_key(name.casefold()).id, other


def record(client, table, game, players, when):
    store = accounts_of(client).store
    return store.record_match(table, game, players, lower_is_better(game), when=when)


def test_rated_matches_reach_the_board_and_the_player_page(client):
    ann, ann_browser = account(client, "Ann")
    ben, _ = account(client, "Ben")
    cat, _ = account(client, "Cat")
    assert client.get("/api/leaderboard/mexican_train").json() == []
    for i in range(3):
        assert record(client, f"t{i}", "mexican_train",
                      [Player(ann, 10 + i), Player(ben, 50), Player(cat, 90)], 1000.0 + i)
    assert record(client, "t1", "mexican_train",          # the same match again: ignored
                  [Player(ann, 500), Player(ben, 0), Player(cat, 0)], 2000.0) is None
    board = client.get("/api/leaderboard/mexican_train").json()
    assert [row["name"] for row in board] == ["Ann", "Ben", "Cat"]
    assert [row["place"] for row in board] == [1, 2, 3]
    assert board[0]["rating"] > 1000 > board[2]["rating"]
    assert all(row["provisional"] and row["matches"] == 3 for row in board)
    assert board[0]["wins"] == 3 and board[1]["wins"] == 0

    page = client.get("/api/players/ann").json()          # found case-folded
    assert page["name"] == "Ann"
    [mt] = page["ratings"]
    assert mt["game"] == "mexican_train" and mt["matches"] == 3 and mt["wins"] == 3
    assert mt["average_points"] == 11.0 and mt["rating"] == board[0]["rating"]
    assert [h["table"] for h in page["history"]] == ["t2", "t1", "t0"]
    assert page["history"][0]["replay"] == "/replay?table=t2"
    assert [h["place"] for h in page["history"]] == [1, 1, 1]
    ratings = [h["rating"] for h in reversed(page["history"])]
    assert ratings == sorted(ratings) and ratings[-1] == mt["rating"]   # the graph rises
    assert client.get("/api/leaderboard/all_fives").json() == []

    # a deleted account leaves the board; its finished matches stay, anonymised
    assert ann_browser.post("/api/account/delete", json={"password": PW}).status_code == 204
    assert [row["name"] for row in client.get("/api/leaderboard/mexican_train").json()] \
        == ["Ben", "Cat"]
    assert client.get("/api/players/Ann").status_code == 404
    assert len(client.get("/api/players/Ben").json()["history"]) == 3


def test_teams_in_all_fives(client):
    ids = [account(client, n)[0] for n in ("Ann", "Ben", "Cat", "Dan")]
    record(client, "af", "all_fives",
           [Player(ids[0], 250, 0), Player(ids[1], 140, 1), Player(ids[2], 250, 0),
            Player(ids[3], 140, 1)], 1.0)
    board = client.get("/api/leaderboard/all_fives").json()
    assert {r["name"] for r in board[:2]} == {"Ann", "Cat"}
    assert board[0]["rating"] == board[1]["rating"] > 1000 > board[3]["rating"]


@pytest.mark.parametrize("path,status", [
    ("/api/leaderboard/chess", 404), ("/api/leaderboard/" + "x" * 5000, 404),
    ("/api/leaderboard/mexican_train?limit=0", 422),
    ("/api/leaderboard/mexican_train?limit=99999", 422),
    ("/api/leaderboard/mexican_train?limit=abc", 422),
    ("/api/players/nobody", 404), ("/api/players/" + "x" * 5000, 404),
    ("/api/players/%F0%9F%90%8D%00", 404), ("/api/players/%ED%A0%80", 404),
    ("/api/players/Ann?limit=-1", 422),
])
def test_odd_requests_are_4xx(client, path, status):
    account(client, "Ann")
    r = client.get(path)
    assert r.status_code == status, r.text
    assert "code" in r.json()
