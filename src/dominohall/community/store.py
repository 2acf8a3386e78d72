"""The community's rows in the server's own database (SQLite or PostgreSQL), through the
server store's connections, so every node of a cluster sees the same accounts and
sessions.  The tables are created by the server's one migration list
(:mod:`dominohall.server.store.schema`).

Synchronous and thread-safe like the store; the routes call it through the hub's
database threads."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from ..server.store import StoreError


class NameTaken(StoreError):
    """Another account has this name, or one that looks the same."""


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    hash: str
    created: float


def session_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class CommunityStore:
    """Accounts, sessions and failed logins over the server's SQL store."""

    def __init__(self, store: Any) -> None:
        self.store = store

    # ---------------------------------------------------------------- plumbing
    def _run(self, fn: Any, *args: Any) -> Any:
        retrying = getattr(self.store, "_retrying", None)    # PostgreSQL: a lost connection
        return retrying(fn, *args) if retrying else fn(*args)

    def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        def once() -> int:
            with self.store._tx() as db:
                cur = db.execute(self.store._sql(sql), args)
                return int(cur.rowcount or 0)
        return int(self._run(once))

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self.store._rows(sql, args))

    # ---------------------------------------------------------------- accounts
    def create_account(self, name: str, key: str, skeleton: str, hash_: str) -> Account:
        account = Account(secrets.token_urlsafe(12), name, hash_, time.time())
        integrity = self.store.integrity_error

        def once() -> None:
            try:
                with self.store._tx() as db:
                    db.execute(self.store._sql(
                        "INSERT INTO {t}accounts (id, name, name_key, skeleton, hash, created) "
                        "VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
                        (account.id, name, key, skeleton, hash_, account.created))
            except integrity:
                raise NameTaken(name) from None
        self._run(once)
        return account

    def _account(self, where: str, args: tuple[Any, ...]) -> Account | None:
        rows = self._rows("SELECT id, name, hash, created FROM {t}accounts "
                          "WHERE deleted IS NULL AND " + where, args)
        return Account(*rows[0]) if rows else None

    def account_by_key(self, key: str) -> Account | None:
        return self._account("name_key = {p}", (key,))

    def account_by_id(self, account_id: str) -> Account | None:
        return self._account("id = {p}", (account_id,))

    def name_in_use(self, key: str, skeleton: str) -> bool:
        return bool(self._rows("SELECT 1 FROM {t}accounts WHERE name_key = {p} "
                               "OR skeleton = {p}", (key, skeleton)))

    def set_hash(self, account_id: str, hash_: str) -> None:
        self._exec("UPDATE {t}accounts SET hash = {p} WHERE id = {p}", (hash_, account_id))

    def delete_account(self, account_id: str) -> None:
        """Personal data goes (name, password hash, sessions, friends, seats); the id
        stays so finished records keep a player, anonymised."""
        def once() -> None:
            with self.store._tx() as db:
                sql = self.store._sql
                db.execute(sql("DELETE FROM {t}sessions WHERE account_id = {p}"), (account_id,))
                db.execute(sql("DELETE FROM {t}friends WHERE account_id = {p} OR friend_id = {p}"),
                           (account_id, account_id))
                db.execute(sql("DELETE FROM {t}table_invites WHERE from_id = {p} OR to_id = {p}"),
                           (account_id, account_id))
                db.execute(sql("DELETE FROM {t}account_seats WHERE account_id = {p}"),
                           (account_id,))
                db.execute(sql("UPDATE {t}accounts SET name = NULL, name_key = NULL, "
                               "skeleton = NULL, hash = '', deleted = {p} WHERE id = {p}"),
                           (time.time(), account_id))
        self._run(once)

    # ---------------------------------------------------------------- sessions
    def new_session(self, account_id: str) -> str:
        """A fresh session; returns its secret (only its hash is stored)."""
        secret = secrets.token_urlsafe(32)
        now = time.time()
        self._exec("INSERT INTO {t}sessions (hash, account_id, created, seen) "
                   "VALUES ({p}, {p}, {p}, {p})", (session_hash(secret), account_id, now, now))
        return secret

    def session_account(self, secret: str, max_age: float) -> Account | None:
        """The account of a live session (None: unknown, expired, or the account is gone)."""
        if not secret or len(secret) > 100:
            return None
        rows = self._rows(
            "SELECT a.id, a.name, a.hash, a.created FROM {t}sessions s "
            "JOIN {t}accounts a ON a.id = s.account_id "
            "WHERE s.hash = {p} AND s.created > {p} AND a.deleted IS NULL",
            (session_hash(secret), time.time() - max_age))
        return Account(*rows[0]) if rows else None

    def end_session(self, secret: str) -> None:
        self._exec("DELETE FROM {t}sessions WHERE hash = {p}", (session_hash(secret),))

    def end_sessions(self, account_id: str, but: str | None = None) -> int:
        """End every session of an account (except the one whose secret is `but`)."""
        keep = session_hash(but) if but else ""
        return self._exec("DELETE FROM {t}sessions WHERE account_id = {p} AND hash <> {p}",
                          (account_id, keep))

    # ---------------------------------------------------------------- failed logins
    def count_failures(self, key: str, since: float) -> int:
        rows = self._rows("SELECT count(*) FROM {t}login_failures WHERE name_key = {p} "
                          "AND at > {p}", (key, since))
        return int(rows[0][0])

    def add_failure(self, key: str) -> None:
        now = time.time()
        self._exec("INSERT INTO {t}login_failures (name_key, at) VALUES ({p}, {p})",
                   (key, now))
        self._exec("DELETE FROM {t}login_failures WHERE at < {p}", (now - 86400,))

    def clear_failures(self, key: str) -> None:
        self._exec("DELETE FROM {t}login_failures WHERE name_key = {p}", (key,))

    # ---------------------------------------------------------------- ratings
    def record_match(self, table_id: str, game: str, players: list[Any], lower: bool,
                     when: float | None = None) -> dict[str, Any] | None:
        """Rate one finished match, once (a second call, from any node, does nothing and
        returns None); returns account -> its new Rating.  One transaction: the match,
        every player's rating and history row."""
        from . import ratings as R

        when = time.time() if when is None else when
        places = R.places(players, lower)
        lock = " FOR UPDATE" if self.store.prefix else ""      # PostgreSQL: row locks
        integrity = self.store.integrity_error

        def once() -> dict[str, Any] | None:
            sql = self.store._sql
            try:
                with self.store._tx() as db:
                    db.execute(sql("INSERT INTO {t}rated_matches (table_id, game, created) "
                                   "VALUES ({p}, {p}, {p})"), (table_id, game, when))
                    current = {}
                    for p in players:
                        row = db.execute(sql("SELECT mu, sigma, matches FROM {t}ratings "
                                             "WHERE account_id = {p} AND game = {p}" + lock),
                                         (p.account, game)).fetchone()
                        if row:
                            current[p.account] = R.Rating(float(row[0]), float(row[1]),
                                                          int(row[2]))
                    new = R.rate(current, players, lower)
                    for p, place in zip(players, places):
                        r = new[p.account]
                        won = 1 if place == 1 else 0
                        if p.account in current:
                            db.execute(sql(
                                "UPDATE {t}ratings SET mu = {p}, sigma = {p}, matches = {p}, "
                                "wins = wins + {p}, points = points + {p}, updated = {p}, "
                                "rounds = rounds + {p}, outs = outs + {p} "
                                "WHERE account_id = {p} AND game = {p}"),
                                (r.mu, r.sigma, r.matches, won, p.score, when, p.rounds,
                                 p.outs, p.account, game))
                        else:
                            db.execute(sql(
                                "INSERT INTO {t}ratings (account_id, game, mu, sigma, matches, "
                                "wins, points, updated, rounds, outs) VALUES ({p}, {p}, {p}, "
                                "{p}, {p}, {p}, {p}, {p}, {p}, {p})"),
                                (p.account, game, r.mu, r.sigma, r.matches, won, p.score, when,
                                 p.rounds, p.outs))
                        db.execute(sql(
                            "INSERT INTO {t}rating_history (account_id, game, table_id, mu, "
                            "sigma, place, score, players, created, rounds, outs) VALUES ({p}, "
                            "{p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"),
                            (p.account, game, table_id, r.mu, r.sigma, place, p.score,
                             len(players), when, p.rounds, p.outs))
                    return new
            except integrity:
                return None             # rated already, or a new player's first rating
                #                         row made meanwhile by another match: see below

        for _ in range(5):
            result = self._run(once)
            if result is not None or self._rows(
                    "SELECT 1 FROM {t}rated_matches WHERE table_id = {p}", (table_id,)):
                return result  # type: ignore[no-any-return]
        raise StoreError(f"match {table_id}: could not be rated")

    def ratings_of(self, account_id: str) -> list[tuple[Any, ...]]:
        """(game, mu, sigma, matches, wins, points, rounds, outs) per game the account is
        rated in."""
        return self._rows("SELECT game, mu, sigma, matches, wins, points, rounds, outs "
                          "FROM {t}ratings "
                          "WHERE account_id = {p} ORDER BY game", (account_id,))

    def history_of(self, account_id: str, limit: int) -> list[tuple[Any, ...]]:
        """(game, table_id, mu, sigma, place, score, players, created, rounds, outs),
        newest first."""
        return self._rows("SELECT game, table_id, mu, sigma, place, score, players, created, "
                          "rounds, outs "
                          "FROM {t}rating_history WHERE account_id = {p} "
                          "ORDER BY created DESC, table_id LIMIT {p}", (account_id, limit))

    def leaderboard(self, game: str, limit: int, provisional_sigma: float
                    ) -> list[tuple[Any, ...]]:
        """(name, mu, sigma, matches, wins) of the best living accounts in `game`: settled
        ratings first, each group by mu - 3 sigma."""
        return self._rows(
            "SELECT a.name, r.mu, r.sigma, r.matches, r.wins FROM {t}ratings r "
            "JOIN {t}accounts a ON a.id = r.account_id "
            "WHERE r.game = {p} AND a.deleted IS NULL "
            "ORDER BY CASE WHEN r.sigma > {p} THEN 1 ELSE 0 END, r.mu - 3 * r.sigma DESC, "
            "a.name_key LIMIT {p}", (game, provisional_sigma, limit))

    # ---------------------------------------------------------------- quick play queues
    QUEUE_COLS = ("id, game, players, rated, mu, joined, bots, address, device, account_id, "
                  "name, table_id, seat, invite, seen")

    def queue_entry(self, account_id: str | None, device: str) -> tuple[Any, ...] | None:
        """The entry of an account (else of a device)."""
        if account_id:
            rows = self._rows(f"SELECT {self.QUEUE_COLS} FROM {{t}}queue "
                              "WHERE account_id = {p}", (account_id,))
        else:
            rows = self._rows(f"SELECT {self.QUEUE_COLS} FROM {{t}}queue "
                              "WHERE device = {p} AND account_id IS NULL", (device,))
        return rows[0] if rows else None

    def join_queue(self, *, account_id: str | None, device: str, address: str, game: str,
                   players: int, rated: bool, mu: float, name: str, cap: int) -> str | None:
        """A new entry (replacing this account's or device's own); None: the address
        has `cap` entries already."""
        entry = secrets.token_urlsafe(9)
        now = time.time()

        def once() -> str | None:
            sql = self.store._sql
            with self.store._tx() as db:
                db.execute(sql("DELETE FROM {t}queue WHERE device = {p} OR account_id = {p}"),
                           (device, account_id or ""))
                n = db.execute(sql("SELECT count(*) FROM {t}queue WHERE address = {p} "
                                   "AND table_id IS NULL"), (address,)).fetchone()[0]
                if int(n) >= cap:
                    return None
                db.execute(sql(
                    "INSERT INTO {t}queue (id, account_id, device, address, game, players, "
                    "rated, mu, joined, seen, bots, name) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, "
                    "{p}, {p}, {p}, {p}, 0, {p})"),
                    (entry, account_id, device, address, game, players, int(rated), mu, now,
                     now, name))
            return entry
        return self._run(once)  # type: ignore[no-any-return]

    def touch_entry(self, entry: str) -> None:
        self._exec("UPDATE {t}queue SET seen = {p} WHERE id = {p}", (time.time(), entry))

    def accept_bots(self, entry: str) -> None:
        self._exec("UPDATE {t}queue SET bots = 1 WHERE id = {p} AND rated = 0", (entry,))

    def leave_queue(self, entry: str) -> None:
        self._exec("DELETE FROM {t}queue WHERE id = {p}", (entry,))

    def waiting(self, stale: float) -> list[tuple[Any, ...]]:
        """Every unmatched entry seen within `stale` seconds (older ones are dropped, as
        are matched ones nobody fetched for a while)."""
        now = time.time()
        self._exec("DELETE FROM {t}queue WHERE seen < {p}", (now - stale * 4,))
        self._exec("DELETE FROM {t}queue WHERE table_id IS NULL AND seen < {p}",
                   (now - stale,))
        return self._rows(f"SELECT {self.QUEUE_COLS} FROM {{t}}queue WHERE table_id IS NULL "
                          "ORDER BY joined, id")

    def count_waiting(self, game: str, rated: bool) -> int:
        rows = self._rows("SELECT count(*) FROM {t}queue WHERE table_id IS NULL AND game = {p} "
                          "AND rated = {p}", (game, int(rated)))
        return int(rows[0][0])

    def claim(self, entries: list[str], token: str) -> bool:
        """Take `entries` for one table being made (all or none: another node may have
        taken one)."""
        marks = ", ".join("{p}" for _ in entries)

        def once() -> bool:
            sql = self.store._sql
            with self.store._tx() as db:
                cur = db.execute(sql(f"UPDATE {{t}}queue SET table_id = {{p}} WHERE id IN "
                                     f"({marks}) AND table_id IS NULL"), (token, *entries))
                if int(cur.rowcount or 0) != len(entries):
                    db.execute(sql("UPDATE {t}queue SET table_id = NULL WHERE table_id = {p}"),
                               (token,))
                    return False
            return True
        return bool(self._run(once))

    def release(self, token: str) -> None:
        self._exec("UPDATE {t}queue SET table_id = NULL WHERE table_id = {p}", (token,))

    def seat_entries(self, token: str, table_id: str, game: str, rated: bool,
                     seats: list[tuple[str, int, str]], people: list[dict[str, Any]]) -> None:
        """Hand each claimed entry its seat and invite; remember who sits where."""
        def once() -> None:
            sql = self.store._sql
            with self.store._tx() as db:
                for entry, seat, invite in seats:
                    db.execute(sql("UPDATE {t}queue SET table_id = {p}, seat = {p}, "
                                   "invite = {p}, seen = {p} WHERE id = {p} AND table_id = {p}"),
                               (table_id, seat, invite, time.time(), entry, token))
                db.execute(sql("INSERT INTO {t}queue_tables (table_id, game, rated, seats, "
                               "created) VALUES ({p}, {p}, {p}, {p}, {p})"),
                           (table_id, game, int(rated), self.store._json_in({"seats": people}),
                            time.time()))
        self._run(once)

    def queue_table(self, table_id: str) -> tuple[str, bool, list[dict[str, Any]]] | None:
        rows = self._rows("SELECT game, rated, seats FROM {t}queue_tables WHERE table_id = {p}",
                          (table_id,))
        if not rows:
            return None
        game, rated, seats = rows[0]
        return game, bool(rated), list(self.store._json_out(seats)["seats"])

    def rating_mu(self, account_id: str, game: str) -> float | None:
        rows = self._rows("SELECT mu FROM {t}ratings WHERE account_id = {p} AND game = {p}",
                          (account_id, game))
        return float(rows[0][0]) if rows else None

    # ---------------------------------------------------------------- friends, presence
    def touch_session(self, secret: str, every: float) -> None:
        """Mark a session seen now (at most once per `every` seconds: presence)."""
        now = time.time()
        self._exec("UPDATE {t}sessions SET seen = {p} WHERE hash = {p} AND seen < {p}",
                   (now, session_hash(secret), now - every))

    def add_friend(self, account_id: str, friend_id: str) -> None:
        def once() -> None:
            with self.store._tx() as db:
                sql = self.store._sql
                if not db.execute(sql("SELECT 1 FROM {t}friends WHERE account_id = {p} "
                                      "AND friend_id = {p}"),
                                  (account_id, friend_id)).fetchone():
                    db.execute(sql("INSERT INTO {t}friends (account_id, friend_id, created) "
                                   "VALUES ({p}, {p}, {p})"),
                               (account_id, friend_id, time.time()))
        try:
            self._run(once)
        except self.store.integrity_error:
            pass                            # added at the same moment elsewhere

    def remove_friend(self, account_id: str, friend_id: str) -> None:
        self._exec("DELETE FROM {t}friends WHERE account_id = {p} AND friend_id = {p}",
                   (account_id, friend_id))
        self._exec("DELETE FROM {t}table_invites WHERE from_id = {p} AND to_id = {p}",
                   (account_id, friend_id))

    def friends_of(self, account_id: str, online_since: float) -> list[tuple[Any, ...]]:
        """(name, mutual, online, table or None) per friend, by name: the table is their
        quick-play table, else the newest live public table they took a seat at while
        logged in (a private table is never shown)."""
        return self._rows(
            "SELECT a.name, "
            " EXISTS (SELECT 1 FROM {t}friends b WHERE b.account_id = f.friend_id "
            "         AND b.friend_id = f.account_id), "
            " EXISTS (SELECT 1 FROM {t}sessions s WHERE s.account_id = f.friend_id "
            "         AND s.seen > {p}), "
            " COALESCE((SELECT q.table_id FROM {t}queue q WHERE q.account_id = f.friend_id "
            "  AND q.invite IS NOT NULL), "
            " (SELECT s.table_id FROM {t}account_seats s JOIN {t}tables t ON t.id = s.table_id "
            "  WHERE s.account_id = f.friend_id AND s.public = 1 AND t.state = 'live' "
            "  ORDER BY s.created DESC LIMIT 1)) "
            "FROM {t}friends f JOIN {t}accounts a ON a.id = f.friend_id "
            "WHERE f.account_id = {p} AND a.deleted IS NULL ORDER BY a.name_key",
            (online_since, account_id))

    def is_mutual(self, a: str, b: str) -> bool:
        return len(self._rows("SELECT 1 FROM {t}friends WHERE (account_id = {p} AND "
                              "friend_id = {p}) OR (account_id = {p} AND friend_id = {p})",
                              (a, b, b, a))) == 2

    def invite(self, from_id: str, to_id: str, table_id: str, url: str) -> None:
        def once() -> None:
            with self.store._tx() as db:
                sql = self.store._sql
                db.execute(sql("DELETE FROM {t}table_invites WHERE from_id = {p} AND "
                               "to_id = {p} AND table_id = {p}"), (from_id, to_id, table_id))
                db.execute(sql("INSERT INTO {t}table_invites (from_id, to_id, table_id, url, "
                               "created) VALUES ({p}, {p}, {p}, {p}, {p})"),
                           (from_id, to_id, table_id, url, time.time()))
        self._run(once)

    def invites_for(self, account_id: str, since: float) -> list[tuple[Any, ...]]:
        """(from name, table, url, created) of recent invitations, newest first."""
        return self._rows(
            "SELECT a.name, i.table_id, i.url, i.created FROM {t}table_invites i "
            "JOIN {t}accounts a ON a.id = i.from_id "
            "WHERE i.to_id = {p} AND i.created > {p} AND a.deleted IS NULL "
            "ORDER BY i.created DESC LIMIT 20", (account_id, since))

    # ---------------------------------------------------------------- table chat
    def say(self, table_id: str, channel: str, seat: int | None, name: str,
            phrase: str | None, text: str | None) -> int:
        """Append one chat message; returns its number (per table, from 1)."""
        integrity = self.store.integrity_error

        def once() -> int:
            sql = self.store._sql
            with self.store._tx() as db:
                row = db.execute(sql("SELECT COALESCE(MAX(seq), 0) FROM {t}chat "
                                     "WHERE table_id = {p}"), (table_id,)).fetchone()
                seq = int(row[0]) + 1
                db.execute(sql("INSERT INTO {t}chat (table_id, seq, channel, seat, name, "
                               "phrase, text, created) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, "
                               "{p}, {p})"),
                           (table_id, seq, channel, seat, name, phrase, text, time.time()))
            return seq

        for _ in range(5):                   # two nodes numbering at once: again
            try:
                return int(self._run(once))
            except integrity:
                continue
        raise StoreError(f"table {table_id}: the chat message could not be stored")

    def chat(self, table_id: str, channel: str, after: int, limit: int = 100
             ) -> list[tuple[Any, ...]]:
        """(seq, seat, name, phrase, text, created) of one channel after message `after`."""
        return self._rows("SELECT seq, seat, name, phrase, text, created FROM {t}chat "
                          "WHERE table_id = {p} AND channel = {p} AND seq > {p} "
                          "ORDER BY seq LIMIT {p}", (table_id, channel, after, limit))

    def free_text(self, table_id: str) -> bool | None:
        rows = self._rows("SELECT free_text FROM {t}chat_settings WHERE table_id = {p}",
                          (table_id,))
        return bool(rows[0][0]) if rows else None

    def set_free_text(self, table_id: str, on: bool) -> None:
        def once() -> None:
            sql = self.store._sql
            with self.store._tx() as db:
                db.execute(sql("DELETE FROM {t}chat_settings WHERE table_id = {p}"), (table_id,))
                db.execute(sql("INSERT INTO {t}chat_settings (table_id, free_text) "
                               "VALUES ({p}, {p})"), (table_id, int(on)))
        self._run(once)
