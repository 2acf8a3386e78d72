"""The one SQL schema of both stores, and the one list of migrations that builds it.

Both SQLite and PostgreSQL run :data:`MIGRATIONS` in order at every start, each step
idempotent (a table or index ``IF NOT EXISTS``, a column added only when it is missing),
so a database of any age, or one whose tables a test dropped, ends up the same.  Each
step is written once with the dialect's words as placeholders:

* ``{t}``: the table-name prefix (``""`` in SQLite, ``dh_`` in PostgreSQL);
* ``{json}``: ``TEXT`` (SQLite) or ``JSONB``; ``{real}``: ``REAL`` or ``DOUBLE PRECISION``.

The highest step applied is kept in ``{t}meta`` (``schema_version``), for tools and for
steps that someday cannot be repeated.  Add a step at the end; never edit an old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Dialect:
    name: str
    prefix: str
    json: str
    real: str

    def sql(self, text: str) -> str:
        return text.replace("{t}", self.prefix).replace("{json}", self.json) \
            .replace("{real}", self.real)


SQLITE = Dialect("sqlite", "", "TEXT", "REAL")
POSTGRES = Dialect("postgresql", "dh_", "JSONB", "DOUBLE PRECISION")


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    def execute(self, sql: str, args: Any = ...) -> Cursor: ...


@dataclass(frozen=True)
class Create:
    """A table (or index) created if it does not exist."""

    sql: str


@dataclass(frozen=True)
class AddColumn:
    """A column added when the table lacks it, then `then` run once (a data fix)."""

    table: str
    column: str
    definition: str
    then: str = ""


Step = Create | AddColumn

MIGRATIONS: list[Step] = [
    # 1-3: the first schema: a table's record and settings, its seats, its action log
    Create("""CREATE TABLE IF NOT EXISTS {t}tables (
        id       TEXT PRIMARY KEY,
        record   {json} NOT NULL,
        settings {json} NOT NULL,
        created  {real} NOT NULL)"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}seats (
        table_id TEXT NOT NULL REFERENCES {t}tables(id),
        seat     INTEGER NOT NULL,
        kind     TEXT NOT NULL,
        bot      TEXT,
        token    TEXT NOT NULL,
        name     TEXT,
        PRIMARY KEY (table_id, seat))"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}actions (
        table_id TEXT NOT NULL REFERENCES {t}tables(id),
        seq      INTEGER NOT NULL,
        seat     INTEGER,
        action   TEXT NOT NULL,
        created  {real} NOT NULL,
        PRIMARY KEY (table_id, seq))"""),
    # 4: live | over | expired: only live tables are rebuilt at start
    AddColumn("tables", "state", "TEXT NOT NULL DEFAULT 'live'"),
    # 5: seat secrets: before them a taken seat's invite token was its credential; it
    # becomes the seat's secret (old cookies keep working; an old invite link renames)
    AddColumn("seats", "secret", "TEXT",
              then="UPDATE {t}seats SET secret = token, token = '' "
                   "WHERE kind = 'human' AND name IS NOT NULL AND secret IS NULL"),
    # 6
    Create("CREATE INDEX IF NOT EXISTS {t}tables_state ON {t}tables(state)"),
    # 7: the client address that created a table: per-address caps count from here, the
    # same on every node (and after a restart)
    AddColumn("tables", "creator", "TEXT NOT NULL DEFAULT ''"),
    # 8-12: the cluster (PostgreSQL; SQLite has them too and leaves them empty).  Nodes:
    # each holds a session advisory lock on (NODE_LOCK, key) while it runs; seen: its
    # last heartbeat (the database's clock).
    Create("""CREATE TABLE IF NOT EXISTS {t}nodes (
        name     TEXT PRIMARY KEY,
        key      INTEGER NOT NULL UNIQUE,
        started  {real} NOT NULL,
        seen     {real} NOT NULL)"""),
    # a live table's lease: the node that owns it, and the epoch its writes are fenced by
    Create("""CREATE TABLE IF NOT EXISTS {t}owners (
        table_id TEXT PRIMARY KEY,
        node     TEXT NOT NULL,
        epoch    INTEGER NOT NULL,
        since    {real} NOT NULL)"""),
    # a public table as the lobby lists it (its owner keeps it current); seen: when its
    # owner last let go of it (an orphan's idle clock)
    AddColumn("tables", "listing", "{json}"),
    AddColumn("tables", "seen", "{real} NOT NULL DEFAULT 0"),
    # hints worked out on any node, for every node (a position's hint does not change)
    Create("""CREATE TABLE IF NOT EXISTS {t}hints (
        table_id TEXT NOT NULL,
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        lang     TEXT NOT NULL,
        action   TEXT NOT NULL,
        why      TEXT NOT NULL,
        created  {real} NOT NULL,
        PRIMARY KEY (table_id, version, seat, lang))"""),
    # cluster messages too long for a NOTIFY payload: the notification carries the id
    Create("""CREATE TABLE IF NOT EXISTS {t}mail (
        id       TEXT PRIMARY KEY,
        payload  TEXT NOT NULL,
        created  {real} NOT NULL)"""),
    # 14-17: accounts (dominohall.community): a name unique after case folding (name_key)
    # and after look-alikes are folded (skeleton); a deleted account keeps its id for
    # finished records, its name and hash gone
    Create("""CREATE TABLE IF NOT EXISTS {t}accounts (
        id       TEXT PRIMARY KEY,
        name     TEXT,
        name_key TEXT UNIQUE,
        skeleton TEXT UNIQUE,
        hash     TEXT NOT NULL,
        created  {real} NOT NULL,
        deleted  {real})"""),
    # a login session: the sha256 of the cookie's secret, never the secret itself
    Create("""CREATE TABLE IF NOT EXISTS {t}sessions (
        hash       TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES {t}accounts(id),
        created    {real} NOT NULL,
        seen       {real} NOT NULL)"""),
    # failed logins per name key, whether or not an account has it (the per-account limit,
    # the same on every node, that says nothing about which names exist)
    Create("""CREATE TABLE IF NOT EXISTS {t}login_failures (
        name_key TEXT NOT NULL,
        at       {real} NOT NULL)"""),
    Create("CREATE INDEX IF NOT EXISTS {t}login_failures_key "
           "ON {t}login_failures(name_key, at)"),
    # 18-21: ratings (dominohall.community.ratings): a match is rated once, whichever
    # node sees it end; a rating per account and game; each rated match's result
    Create("""CREATE TABLE IF NOT EXISTS {t}rated_matches (
        table_id TEXT PRIMARY KEY,
        game     TEXT NOT NULL,
        created  {real} NOT NULL)"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}ratings (
        account_id TEXT NOT NULL REFERENCES {t}accounts(id),
        game       TEXT NOT NULL,
        mu         {real} NOT NULL,
        sigma      {real} NOT NULL,
        matches    INTEGER NOT NULL,
        wins       INTEGER NOT NULL,
        points     INTEGER NOT NULL,
        updated    {real} NOT NULL,
        PRIMARY KEY (account_id, game))"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}rating_history (
        account_id TEXT NOT NULL REFERENCES {t}accounts(id),
        game       TEXT NOT NULL,
        table_id   TEXT NOT NULL,
        mu         {real} NOT NULL,
        sigma      {real} NOT NULL,
        place      INTEGER NOT NULL,
        score      INTEGER NOT NULL,
        players    INTEGER NOT NULL,
        created    {real} NOT NULL,
        PRIMARY KEY (account_id, table_id))"""),
    Create("CREATE INDEX IF NOT EXISTS {t}ratings_game ON {t}ratings(game, mu)"),
    # 22-24: quick play (dominohall.community.queue): one entry per account or device,
    # cluster-wide; table_id: the table it was matched into (or a node's claim token
    # while that table is being made)
    Create("""CREATE TABLE IF NOT EXISTS {t}queue (
        id         TEXT PRIMARY KEY,
        account_id TEXT UNIQUE,
        device     TEXT NOT NULL UNIQUE,
        address    TEXT NOT NULL,
        game       TEXT NOT NULL,
        players    INTEGER NOT NULL,
        rated      INTEGER NOT NULL,
        mu         {real} NOT NULL,
        joined     {real} NOT NULL,
        seen       {real} NOT NULL,
        bots       INTEGER NOT NULL,
        name       TEXT NOT NULL,
        table_id   TEXT,
        seat       INTEGER,
        invite     TEXT)"""),
    Create("CREATE INDEX IF NOT EXISTS {t}queue_waiting ON {t}queue(table_id, game, rated)"),
    # who sits where at a table made by quick play, and whether it is rated
    Create("""CREATE TABLE IF NOT EXISTS {t}queue_tables (
        table_id TEXT PRIMARY KEY,
        game     TEXT NOT NULL,
        rated    INTEGER NOT NULL,
        seats    {json} NOT NULL,
        created  {real} NOT NULL)"""),
    # a finished match's post-game analysis (dominohall.server.analysis), worked out once
    Create("""CREATE TABLE IF NOT EXISTS {t}analyses (
        table_id TEXT PRIMARY KEY,
        result   {json} NOT NULL,
        created  {real} NOT NULL)"""),
    # friends (dominohall.community.store): who added whom, and invitations to a table
    # waiting in the invited friend's lobby
    Create("""CREATE TABLE IF NOT EXISTS {t}friends (
        account_id TEXT NOT NULL REFERENCES {t}accounts(id),
        friend_id  TEXT NOT NULL REFERENCES {t}accounts(id),
        created    {real} NOT NULL,
        PRIMARY KEY (account_id, friend_id))"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}table_invites (
        from_id  TEXT NOT NULL,
        to_id    TEXT NOT NULL,
        table_id TEXT NOT NULL,
        url      TEXT NOT NULL,
        created  {real} NOT NULL,
        PRIMARY KEY (to_id, from_id, table_id))"""),
    # table chat (dominohall.community.chat): players' and spectators' channels apart; a
    # phrase is stored as its code (each reader sees it in their language)
    Create("""CREATE TABLE IF NOT EXISTS {t}chat (
        table_id TEXT NOT NULL,
        seq      INTEGER NOT NULL,
        channel  TEXT NOT NULL,
        seat     INTEGER,
        name     TEXT NOT NULL,
        phrase   TEXT,
        text     TEXT,
        created  {real} NOT NULL,
        PRIMARY KEY (table_id, seq))"""),
    Create("""CREATE TABLE IF NOT EXISTS {t}chat_settings (
        table_id  TEXT PRIMARY KEY,
        free_text INTEGER NOT NULL)"""),
    # a player's page (dominohall.community.web): rounds played and rounds gone out
    AddColumn("ratings", "rounds", "INTEGER NOT NULL DEFAULT 0"),
    AddColumn("ratings", "outs", "INTEGER NOT NULL DEFAULT 0"),
    AddColumn("rating_history", "rounds", "INTEGER NOT NULL DEFAULT 0"),
    AddColumn("rating_history", "outs", "INTEGER NOT NULL DEFAULT 0"),
    # seats claimed while logged in (dominohall.community.seats): the account returns to
    # them from any device while the seat's secret is still the one it claimed
    Create("""CREATE TABLE IF NOT EXISTS {t}account_seats (
        account_id  TEXT NOT NULL,
        table_id    TEXT NOT NULL,
        seat        INTEGER NOT NULL,
        secret_hash TEXT NOT NULL,
        game        TEXT NOT NULL,
        public      INTEGER NOT NULL,
        created     {real} NOT NULL,
        PRIMARY KEY (account_id, table_id, seat))"""),
    Create("CREATE INDEX IF NOT EXISTS {t}account_seats_table ON {t}account_seats(table_id)"),
]


def column_names(db: Connection, dialect: Dialect, table: str) -> set[str]:
    if dialect is SQLITE:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})").fetchall()}
    rows = db.execute("SELECT column_name FROM information_schema.columns "
                      "WHERE table_schema = current_schema() AND table_name = %s",
                      (dialect.prefix + table,)).fetchall()
    return {row[0] for row in rows}


def migrate(db: Connection, dialect: Dialect) -> int:
    """Bring the database `db` (inside one transaction) to the newest schema; returns the
    schema version."""
    for step in MIGRATIONS:
        if isinstance(step, Create):
            db.execute(dialect.sql(step.sql))
        elif step.column not in column_names(db, dialect, step.table):
            db.execute(dialect.sql(f"ALTER TABLE {{t}}{step.table} "
                                   f"ADD COLUMN {step.column} {step.definition}"))
            if step.then:
                db.execute(dialect.sql(step.then))
    db.execute(dialect.sql("CREATE TABLE IF NOT EXISTS {t}meta "
                           "(key TEXT PRIMARY KEY, value TEXT NOT NULL)"))
    version = str(len(MIGRATIONS))
    p = "?" if dialect is SQLITE else "%s"
    db.execute(dialect.sql(f"INSERT INTO {{t}}meta (key, value) VALUES ('schema_version', {p}) "
                           "ON CONFLICT (key) DO UPDATE SET value = excluded.value"), (version,))
    return len(MIGRATIONS)
