"""The storage interface, the same contract on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import pytest

from dominohall import new_game, replay
from dominohall.server.store import StoredTable, StoreError, describe, open_store


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = open_store(tmp_path / "t.sqlite3")
    else:
        s = open_store(request.getfixturevalue("pg_url"))
    yield s
    s.close()


def table(tid: str) -> tuple[StoredTable, list[str]]:
    g = new_game("all_fives", players=2, seed=9)
    record = g.to_record()
    record.pop("actions")
    moves = []
    for _ in range(6):
        a = str(g.legal_actions()[0])
        g.apply(a)
        moves.append(a)
    seats = [{"kind": "human", "bot": None, "token": f"tok-{tid}", "name": None},
             {"kind": "bot", "bot": "fives", "token": "b", "name": "Bot 1"}]
    return StoredTable(tid, record, {"away_seconds": 5, "admin": "a"}, seats), moves


def test_tables_and_actions_round_trip_and_rebuild_the_game(store):
    t, moves = table("one")
    store.create_table(t)
    for i, a in enumerate(moves, 1):
        store.append_action("one", i, i % 2, a)
    store.set_seat_name("one", 0, "Ann")
    [back] = store.load_tables()
    assert back.id == "one" and back.actions == moves and back.settings["away_seconds"] == 5
    assert back.seats[0]["name"] == "Ann" and back.seats[1]["bot"] == "fives"
    g = replay({**back.record, "actions": back.actions})
    assert g.actions == moves


def test_actions_are_append_only(store):
    t, moves = table("two")
    store.create_table(t)
    store.append_action("two", 1, 0, moves[0])
    with pytest.raises(StoreError):
        store.append_action("two", 1, 0, moves[1])         # the same number again
    with pytest.raises(StoreError):
        store.create_table(t)
    assert store.load_tables()[0].actions == moves[:1]


def test_describe_hides_a_password():
    assert describe("postgresql://me:secret@db:5432/x") == "postgresql://me@db:5432/x"
    assert describe("/tmp/x.sqlite3") == "/tmp/x.sqlite3"


def test_sqlite_uses_wal(tmp_path):
    s = open_store(tmp_path / "w.sqlite3")
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s.close()


def test_serve_reports_a_database_it_cannot_open(capsys):
    """A bad --db is one clear line and exit code 1, never a traceback from inside uvicorn."""
    import pytest

    from dominohall.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["serve", "--db", "/nonexistent/dir/x.sqlite", "--port", "1"])
    assert "cannot open the database /nonexistent/dir/x.sqlite" in str(stop.value)


def test_a_database_from_before_seat_secrets_keeps_its_taken_seats(tmp_path, request):
    """Upgrading: a taken seat's old token becomes its secret (old cookies still work)."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, record TEXT NOT NULL, settings TEXT NOT NULL,
                             created REAL NOT NULL);
        CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
                            bot TEXT, token TEXT NOT NULL, name TEXT, PRIMARY KEY (table_id, seat));
        CREATE TABLE actions (table_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER,
                              action TEXT NOT NULL, created REAL NOT NULL,
                              PRIMARY KEY (table_id, seq));
        INSERT INTO tables VALUES ('t', '{"game": "draw"}', '{}', 1.0);
        INSERT INTO seats VALUES ('t', 0, 'human', NULL, 'taken', 'Ann');
        INSERT INTO seats VALUES ('t', 1, 'human', NULL, 'open', NULL);
    """)
    db.commit()
    db.close()
    s = open_store(path)
    [t] = s.load_tables(live_only=True)
    assert t.state == "live"
    assert [(x["token"], x["secret"]) for x in t.seats] == [("", "taken"), ("open", None)]
    s.close()
