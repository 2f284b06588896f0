"""PostgreSQL storage for games (ARCHITECTURE: Scale; issue 16).

The same store interface as :class:`bot.store.Store` over a PostgreSQL server, for
several bot processes sharing one database. ``UMPIRE_DB`` (or ``--db``) names it with a
``postgresql://`` URL; :func:`bot.store.open_store` picks this store for such a URL.

- A pool of connections (psycopg 3, ``psycopg_pool``); one command is one transaction
  on one connection.
- Writers of one game are serialised across processes by a transaction-level advisory
  lock, ``pg_advisory_xact_lock(LOCK_SPACE, hashtext(game id))``, taken before the
  first statement of a write transaction that touches the game. It is released by the
  commit or rollback, so it cannot leak through the pool (a session-level lock could).
  The service's version check (``update_game_at_version``) stays as it is.
- A read transaction is ``REPEATABLE READ READ ONLY``: one consistent view of every table.
- The schema is in ``migrations/pg/NNNN_name.sql``; each file is applied in one
  transaction that records it in ``umpire_migrations``, under an advisory lock so that
  two processes starting together do not both apply it.

The queries are those of :class:`bot.store.Tx`, written once for SQLite; :func:`pg_sql`
turns the few SQLite spellings they use into PostgreSQL's.

Room (issue 16, item 4: a finished 1,000-action game under 200 KB). A PostgreSQL row
costs a 24-byte header, a 4-byte line pointer and alignment, and every index entry about
another 30 bytes, so one row per log entry (about 160 bytes, plus 2 index entries) made
the log of such a game about 280 KB, whatever its columns held. Hence, as in SQLite:

- while a game is played, each log entry is one row of ``actions``, its order, rolls,
  events, role, user and phase one compressed ``body`` (migration pg/0004) and most of
  its dice chains derived (pg/0005); a rollback marks rows undone, as always;
- when it ends (``Tx.seal_log``, migration pg/0006) its log is final (a finished game
  cannot be rolled back), so its entries move, in the transaction that ends it, into
  ``action_chunks``: one row per run of up to 16 consecutive entries, compressed
  together with the ruleset's dictionary (65-75 bytes an entry). The log stays
  append-only in meaning: the schema lets an entry's row go only once a chunk of its
  finished game holds it, never changes or deletes a chunk, and adds no entry to a
  sealed log; every query of the log reads the chunks of a game that has no rows, so
  export, verify, replay and history give what they gave before;
- the notices of a finished game nobody will read again are deleted (pg/0005), and it
  keeps a snapshot about every 250 actions (``Tx.prune_snapshots``).

A game that ended before pg/0006 keeps its rows. What remains of a finished game is
mostly fixed: a table or index that was empty gets its first 8 KB page with the first
row, once per database (``bench/bench_storage.py`` prints that share).
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.store import GameRow, SeatRow, StoreError, Tx, _BadRow, _game, _game_changes, _seat

try:  # the PostgreSQL driver is needed only by those who use PostgreSQL
    import psycopg
    import psycopg_pool
except ImportError:  # pragma: no cover - reported when a postgresql:// URL is opened
    psycopg = None  # type: ignore[assignment]
    psycopg_pool = None  # type: ignore[assignment]

#: first key of every advisory lock Umpire takes ("UM")
LOCK_SPACE = 0x554D
#: second key of the lock held while migrating
MIGRATION_LOCK = 0
#: the channel a new deadline or notice is announced on (``LISTEN umpire_deadlines``)
WAKE_CHANNEL = "umpire_deadlines"

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def is_pg_url(target: str | None) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than an SQLite file."""
    return bool(target) and target.split("://", 1)[0] in ("postgresql", "postgres")


def safe_url(url: str) -> str:
    """``url`` without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def pg_migrations() -> list[tuple[int, str, str]]:
    """``(number, file name, sql)`` of every PostgreSQL migration shipped, in order."""
    found = []
    for item in resources.files("migrations").joinpath("pg").iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append((int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the PostgreSQL migrations are not numbered 1, 2, 3...: {numbers}")
    return found


# -- SQLite spellings into PostgreSQL's ------------------------------------------------

_USER = re.compile(r"""(?<![\w"'.])user(?![\w"'])""")
_IS_PARAM = re.compile(r"\bIS \?")
_WHERE_1 = re.compile(r"\bWHERE 1\b")


@functools.lru_cache(maxsize=1024)
def pg_sql(sql: str) -> str:
    """A query of :class:`bot.store.Tx` as PostgreSQL reads it: ``%s`` parameters, the
    reserved word ``user`` quoted, ``IS ?`` as ``IS NOT DISTINCT FROM``, ``WHERE 1`` as
    ``WHERE TRUE``."""
    sql = sql.replace("%", "%%")
    sql = _USER.sub('"user"', sql)
    sql = _IS_PARAM.sub("IS NOT DISTINCT FROM ?", sql)
    sql = _WHERE_1.sub("WHERE TRUE", sql)
    return sql.replace("?", "%s")


class _Row(dict):
    """A row by column name (``dict(row)``) or by place (``row[0]``), as ``sqlite3.Row``.
    ``rowid`` (the insertion order SQLite keeps by itself) is left out."""

    __slots__ = ("_values",)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int):
            return self._values[key]
        return super().__getitem__(key)


def _row_factory(cursor: Any) -> Any:
    # the names straight from the result: ``cursor.description`` builds a Column, with
    # its type looked up, for every column of every result (issue 16: CPU per order)
    res = cursor.pgresult
    count = res.nfields if res is not None else 0
    names = [res.fname(i).decode() for i in range(count)]
    if "rowid" not in names:

        def plain(values: Any) -> _Row:
            row = _Row(zip(names, values, strict=True))
            row._values = tuple(values)
            return row

        return plain

    def make(values: Any) -> _Row:
        row = _Row((n, v) for n, v in zip(names, values, strict=True) if n != "rowid")
        row._values = tuple(v for n, v in zip(names, values, strict=True) if n != "rowid")
        return row

    return make


# -- the transaction -------------------------------------------------------------------


def _game_of(arg: Any) -> str | None:
    if isinstance(arg, str):
        return arg
    if isinstance(arg, GameRow):
        return arg.id
    game = getattr(arg, "game", None)
    return game if isinstance(game, str) else None


class PgTx(Tx):
    """The queries of :class:`bot.store.Tx` inside one PostgreSQL transaction."""

    #: claims skip the rows another scheduler is claiming at this moment (bot/deadlines.py)
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(self, conn: Any, *, write: bool) -> None:
        super().__init__(conn)
        self._write = write
        self._locked: set[str] = set()

    async def lock_game(self, game_id: str) -> None:
        """Wait for, then hold until the end of the transaction, the game's writer lock."""
        if self._write and game_id not in self._locked:
            await self._db.execute(
                "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_SPACE, game_id)
            )
            self._locked.add(game_id)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        cur = await self._db.execute(pg_sql(sql), tuple(params))
        return list(await cur.fetchall()) if cur.description else []

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self._db.execute(pg_sql(sql), tuple(params))

    async def _insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        cur = await self._db.execute(pg_sql(sql + " RETURNING id"), tuple(params))
        row = await cur.fetchone()
        assert row is not None
        return int(row[0])

    async def update_game_at_version(self, game_id: str, expected: int, **changes: Any) -> bool:
        """As :meth:`bot.store.Tx.update_game_at_version`, taking the game's writer lock
        first in the same statement (one round trip fewer per command, issue 16): the
        lock is an uncorrelated subquery, which PostgreSQL runs once before it reads the
        row (a one-time filter), and ``void`` is never NULL."""
        cols, values = _game_changes(changes) if changes else ("version = version", [])
        sql = f"UPDATE games SET {cols} WHERE id = ? AND version = ?"
        params: tuple[Any, ...] = (*values, game_id, expected)
        lock = self._write and game_id not in self._locked
        if lock:
            sql += " AND (SELECT pg_advisory_xact_lock(?, hashtext(?))) IS NOT NULL"
            params += (LOCK_SPACE, game_id)
        cur = await self._db.execute(pg_sql(sql), params)
        if lock:
            self._locked.add(game_id)  # taken before the row was read, matched or not
        return cur.rowcount == 1

    async def next_due_at(self) -> float | None:
        row = await self._one(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(due_at) AS t FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " UNION ALL"
            " SELECT MIN(due_at) FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL"
            ") AS due"
        )
        return row[0] if row else None


#: the methods of Tx that name one game first (an id, or a row of it): in a write
#: transaction each takes the game's writer lock before its first statement
_GAME_METHODS = (
    "game", "insert_game", "update_game", "seats", "insert_seat", "set_seat_user",
    "set_seat_preferences", "append_action", "live_chain", "live_actions", "log_entries",
    "last_live_action", "mark_undone", "turns_reached", "last_seq_before_turn",
    "insert_snapshot", "latest_snapshot", "prune_snapshots", "prune_notifications", "seal_log",
    "insert_audit", "audit",
    "insert_deadline", "open_deadlines", "clear_deadlines", "insert_notification", "notifications",
    "email_seats", "put_email_seat", "drop_email_seat", "set_email_mailed",
)  # fmt: skip


def _locking(method: Any) -> Any:
    async def locked(self: PgTx, *args: Any, **kwargs: Any) -> Any:
        game = _game_of(args[0]) if args else None
        if game is not None:
            await self.lock_game(game)
        return await method(self, *args, **kwargs)

    locked.__name__ = method.__name__
    locked.__doc__ = method.__doc__
    return locked


for _name in _GAME_METHODS:
    if hasattr(Tx, _name):
        setattr(PgTx, _name, _locking(getattr(Tx, _name)))


def _waking(method: Any) -> Any:
    """A new deadline or reminder wakes every scheduler: ``NOTIFY`` in the transaction
    that writes it, which PostgreSQL delivers once at the commit (and drops at a
    rollback). Only those two lie in the future: every other notice is queued by a
    command at the moment it announces the news itself, and a scheduler posts it only if
    that failed, after a grace; waking every process for it would cost each a pass per
    order. A scheduler finds such a notice at its next pass."""

    async def waking(self: PgTx, *args: Any, **kwargs: Any) -> Any:
        made = await method(self, *args, **kwargs)
        kind = kwargs.get("kind", args[1] if len(args) > 1 else None)
        if method.__name__ == "insert_deadline" or kind == "reminder":
            await self._db.execute("SELECT pg_notify(%s, '')", (WAKE_CHANNEL,))
        return made

    waking.__name__ = method.__name__
    waking.__doc__ = method.__doc__
    return waking


for _name in ("insert_deadline", "insert_notification"):
    setattr(PgTx, _name, _waking(getattr(PgTx, _name)))


# -- the store -------------------------------------------------------------------------


def _explain(url: str, exc: BaseException) -> StoreError:
    """One sentence for a person about a PostgreSQL failure."""
    where = safe_url(url)
    if isinstance(exc, _BadRow):
        return StoreError(
            f"the database {where} holds damaged data ({exc}); nothing was changed: "
            "restore it from a backup"
        )
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if psycopg is not None and isinstance(
        exc, psycopg.errors.UndefinedTable | psycopg.errors.UndefinedColumn
    ):
        return StoreError(
            f"the database {where} is not in the shape this Umpire expects ({text}): it was "
            "changed by another program"
        )
    if psycopg is not None and isinstance(exc, psycopg.errors.ReadOnlySqlTransaction):
        return StoreError(f"the database {where} is read-only, so nothing was changed")
    if psycopg is not None and isinstance(exc, psycopg.errors.DiskFull):
        return StoreError(f"the disk of the database server {where} is full; nothing was changed")
    if psycopg_pool is not None and isinstance(exc, psycopg_pool.PoolTimeout):
        return StoreError(
            f"the database server {where} cannot be reached or is too busy; nothing was "
            "changed: try again in a moment"
        )
    if psycopg is not None and isinstance(exc, psycopg.OperationalError):
        return StoreError(
            f"the database server {where} cannot be reached ({text}); nothing was changed"
        )
    return StoreError(f"the database {where} failed ({text}); nothing was changed")


#: :meth:`PgStore.game_and_seats`: the game's row and its seats (in the order they were
#: added) as JSON text
_GAME_AND_SEATS = (
    "SELECT g.*, (SELECT COALESCE(json_agg(json_build_object('game', s.game, 'role', s.role,"
    " 'user', s.\"user\", 'timezone', s.timezone, 'standing_orders', s.standing_orders)"
    " ORDER BY s.rowid), '[]')::text FROM seats s WHERE s.game = g.id) AS seats_json"
    " FROM games g WHERE g.id = %s"
)


#: :meth:`PgStore.warm_connections`: a statement naming every table an order reads or
#: writes, which makes a new server process load them (and their indexes) into its caches
_WARM_TABLES = "SELECT " + ", ".join(
    f"(SELECT 1 FROM {table} LIMIT 0)"
    for table in ("games", "seats", "actions", "action_chunks", "snapshots", "deadlines",
                  "notifications", "audit")
)  # fmt: skip


class PgStore:
    """One PostgreSQL database. Open with ``await PgStore.open(url)``; close when done."""

    def __init__(self, pool: Any, url: str) -> None:
        self._pool = pool
        self.url = url
        #: what messages and ``--db`` name it by (without the password)
        self.path = safe_url(url)

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 8, timeout: float = 10.0, **_: Any
    ) -> PgStore:
        """Connect to and migrate the database at ``url`` (a ``postgresql://`` URL)."""
        if psycopg is None or psycopg_pool is None:
            raise StoreError(
                "this Umpire was installed without the PostgreSQL driver; install psycopg "
                "and psycopg-pool (pip install 'psycopg[binary]' psycopg-pool)"
            )
        try:  # one connection first: a refused or mistyped server is said at once
            probe = await psycopg.AsyncConnection.connect(url, connect_timeout=int(timeout))
            await probe.close()
        except psycopg.Error as exc:
            raise _explain(url, exc) from None
        pool = psycopg_pool.AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs={"autocommit": True, "row_factory": _row_factory},
        )
        try:
            await pool.open(wait=True, timeout=timeout)
        except Exception as exc:
            await pool.close()
            raise _explain(url, exc) from None
        store = cls(pool, url)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def listen(self, wake: Any, *, retry: float = 5.0) -> None:
        """Call ``wake()`` whenever another transaction commits a new deadline or notice
        (``LISTEN`` on a connection of its own, outside the pool), until cancelled. A lost
        connection is opened again after ``retry`` seconds, with one ``wake()`` for what
        may have been missed meanwhile."""
        import logging

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                try:
                    await conn.execute(f"LISTEN {WAKE_CHANNEL}")
                    wake()
                    async for _ in conn.notifies():
                        wake()
                finally:
                    await conn.close()
            except psycopg.Error as exc:
                logging.getLogger("umpire.store").warning(
                    "listening for new deadlines on %s failed (%s); again in %.0f s",
                    self.path, str(exc).strip().splitlines()[0] if str(exc).strip() else exc,
                    retry,
                )
            await asyncio.sleep(retry)

    async def _migrate(self) -> None:
        shipped = pg_migrations()
        try:
            async with self._pool.connection() as conn, conn.transaction():
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_SPACE, MIGRATION_LOCK)
                )
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS umpire_migrations (number integer PRIMARY KEY,"
                    " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
                )
            for number, name, sql in shipped:
                async with self._pool.connection() as conn, conn.transaction():
                    await conn.execute(
                        "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_SPACE, MIGRATION_LOCK)
                    )
                    cur = await conn.execute("SELECT MAX(number) FROM umpire_migrations")
                    current = (await cur.fetchone())[0] or 0
                    if current > len(shipped):
                        raise StoreError(
                            f"the database {self.path} is at schema version {current}, newer "
                            f"than this Umpire knows ({len(shipped)}); upgrade Umpire to use it"
                        )
                    if number <= current:
                        continue
                    try:
                        await conn.execute(sql)
                    except psycopg.Error as exc:
                        raise StoreError(
                            f"migration pg/{name} failed on {self.path}: {exc}"
                        ) from None
                    await conn.execute(
                        "INSERT INTO umpire_migrations (number, name) VALUES (%s, %s)",
                        (number, name),
                    )
            if await self.schema_version() > len(shipped):
                raise StoreError(
                    f"the database {self.path} is newer than this Umpire knows; upgrade "
                    "Umpire to use it"
                )
        except psycopg.Error as exc:
            raise _explain(self.url, exc) from None

    async def schema_version(self) -> int:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute("SELECT COALESCE(MAX(number), 0) FROM umpire_migrations")
                return int((await cur.fetchone())[0])
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _explain(self.url, exc) from None

    async def warm_connections(self, timeout: float = 5.0) -> int:
        """Open every connection of the pool at once, each reading the tables an order
        touches so that its server process has them in its caches, before commands come
        (:meth:`bot.service.Service.warm`; issue 16: left to itself, the pool opens a
        connection only when a command is waiting for one, one at a time, and a new
        server process reads the catalog at its first statements); how many are open.
        The pool closes the ones left idle after its ``max_idle``."""
        wanted = self._pool.max_size
        opened = 0
        everyone = asyncio.Event()

        async def one() -> None:
            nonlocal opened
            async with self._pool.connection(timeout=timeout) as conn:
                await conn.execute(_WARM_TABLES)
                opened += 1
                if opened >= wanted:
                    everyone.set()
                # held until all are open: a connection given back would be taken again
                # by the next waiter instead of the pool opening another
                try:
                    await asyncio.wait_for(everyone.wait(), timeout)
                except TimeoutError:
                    pass

        done = await asyncio.gather(*(one() for _ in range(wanted)), return_exceptions=True)
        failed = next((x for x in done if isinstance(x, BaseException)), None)
        if failed is not None and not isinstance(failed, psycopg.Error | psycopg_pool.PoolTimeout):
            raise failed
        if failed is not None and not opened:
            raise _explain(self.url, failed) from None
        return opened

    async def game_and_seats(self, game_id: str) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one statement (the start of every command, issue 16):
        one statement sees one snapshot, so it needs no transaction of its own; the seats
        come as JSON text, each seat's ``standing_orders`` kept as the text it is stored
        as and decoded as :func:`bot.store._seat` decodes a row."""
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(_GAME_AND_SEATS, (game_id,))
                row = await cur.fetchone()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _explain(self.url, exc) from None
        if row is None:
            return None
        d = dict(row)
        try:
            seats = json.loads(d.pop("seats_json"))
            if not isinstance(seats, list):
                raise ValueError
            return _game(d), [_seat(s) for s in seats]
        except _BadRow as exc:
            raise _explain(self.url, exc) from None
        except (ValueError, TypeError):
            damaged = _BadRow(f"the seats of game {game_id!r} cannot be read")
            raise _explain(self.url, damaged) from None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgTx]:
        """One write transaction: committed on leaving, rolled back on an exception."""
        async with self._transaction("BEGIN", write=True) as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgTx]:
        """A consistent read of several tables."""
        async with self._transaction(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", write=False
        ) as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, begin: str, *, write: bool) -> AsyncIterator[PgTx]:
        try:
            conn_cm = self._pool.connection()
            conn = await conn_cm.__aenter__()
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _explain(self.url, exc) from None
        try:
            try:
                await conn.execute(begin)
            except psycopg.Error as exc:
                raise _explain(self.url, exc) from None
            try:
                yield PgTx(conn, write=write)
            except psycopg.IntegrityError:
                # a broken rule of the schema: the caller's mistake, kept as it is
                await _rollback(conn)
                raise
            except (psycopg.Error, _BadRow, UnicodeDecodeError) as exc:
                await _rollback(conn)
                raise _explain(self.url, exc) from None
            except BaseException:
                await _rollback(conn)
                raise
            try:
                await conn.execute("COMMIT")
            except psycopg.Error as exc:
                await _rollback(conn)
                raise _explain(self.url, exc) from None
        finally:
            await conn_cm.__aexit__(None, None, None)


async def _rollback(conn: Any) -> None:
    try:
        await conn.execute("ROLLBACK")
    except Exception:
        pass  # the connection is gone: the server rolled back; the pool replaces it


# -- copying an SQLite database into PostgreSQL (umpire migrate-db) ----------------------

#: the tables in an order that satisfies their foreign keys, and the order of their rows
_COPY_ORDER = (
    ("games", "created_at, id"),
    ("seats", "rowid"),
    ("audit", "id"),
    ("actions", "game, entry"),
    ("action_chunks", "game, first_entry"),
    ("snapshots", "game, entry"),
    ("deadlines", "id"),
    ("notifications", "id"),
    ("email_seats", "rowid"),
    ("email_messages", "received_at, message_id"),
    ("email_outbox", "id"),
    ("user_settings", "user"),
    ("guild_settings", "guild"),
)
#: identity columns to move past the ids copied
_IDENTITIES = (
    ("seats", "rowid"),
    ("audit", "id"),
    ("deadlines", "id"),
    ("notifications", "id"),
    ("email_seats", "rowid"),
    ("email_outbox", "id"),
)


async def copy_sqlite_to_pg(source: str, target: str) -> list[str]:
    """Copy every row of the SQLite database ``source`` into the PostgreSQL database
    ``target`` (which must hold no game yet) in one transaction, then check each game:
    its export (log, dice, seats, secret) is the same read from either database and it
    replays exactly from the copy. Returns one line per game; raises StoreError with a
    sentence when the copy cannot be made or a game does not verify. The SQLite file is
    only read."""
    import os
    import sqlite3

    from bot.service import Service, verify_export
    from bot.store import Store, _chain_bytes, snapshot_pack

    if not is_pg_url(target):
        raise StoreError(f"the copy goes to a postgresql:// URL, not to {target}")
    if not os.path.isfile(source):
        raise StoreError(f"there is no SQLite database at {source}")
    src_store = await Store.open(source)  # brings the file to the current schema
    await src_store.close()
    dst = await PgStore.open(target)
    try:
        async with dst.read() as tx:
            if await tx.list_games():
                raise StoreError(
                    f"the database {dst.path} already holds games; migrate-db copies into an "
                    "empty database only"
                )
        con = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
        try:
            async with dst.write() as tx:
                conn = tx._db
                for table, order in _COPY_ORDER:
                    rows = con.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
                    if not rows:
                        continue
                    names = list(rows[0].keys())
                    values = []
                    for r in rows:
                        row = dict(r)
                        if table == "snapshots" and isinstance(row["state"], str):
                            row["state"] = snapshot_pack(json.loads(row["state"]), None)
                        if table == "actions" and isinstance(row["chain"], str):
                            row["chain"] = _chain_bytes(row["chain"])  # hex: PostgreSQL's bytea
                        if table == "user_settings":  # SQLite's 0/1 as PostgreSQL's booleans
                            row["dms"] = bool(row["dms"])
                            row["dm_closed_told"] = bool(row["dm_closed_told"])
                        values.append(tuple(row[n] for n in names))
                    cols = ", ".join(f'"{n}"' for n in names)
                    marks = ", ".join(["%s"] * len(names))
                    async with conn.cursor() as cur:
                        await cur.executemany(
                            f"INSERT INTO {table} ({cols}) VALUES ({marks})", values
                        )
                for name, value in con.execute("SELECT name, value FROM email_cursors"):
                    await conn.execute(
                        "INSERT INTO email_cursors (name, value) VALUES (%s, %s)"
                        " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                        (name, value),
                    )
                for table, column in _IDENTITIES:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                        f" (SELECT MAX({column}) FROM {table})) WHERE EXISTS (SELECT 1 FROM {table})"
                    )
        finally:
            con.close()
    finally:
        await dst.close()
    before, after = await Service.open(source), await Service.open(target)
    lines, bad = [], []
    try:
        for game in await before.list_games():
            old = await before.export(game.game, with_secret=True)
            new = await after.export(game.game, with_secret=True)
            report = verify_export(new)
            if old != new or not report.ok:
                why = "differs from the original" if old != new else "; ".join(report.problems)
                bad.append(f"game {game.game}: {why}")
            else:
                lines.append(f"game {game.game}: {report.actions} log entries copied and verified")
    finally:
        await before.close()
        await after.close()
    if bad:
        raise StoreError(
            f"{len(bad)} copied game(s) did not verify ({bad[0]}); the SQLite file is as it was"
        )
    return lines


def migrate_db_command(source: str, target: str) -> int:
    """``umpire migrate-db --from FILE --to URL``: the copy and a line per game; a refusal
    is one sentence on stderr and exit status 1."""
    import asyncio
    import sys

    try:
        lines = asyncio.run(copy_sqlite_to_pg(source, target))
    except StoreError as exc:
        print(f"umpire migrate-db: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    print(f"{len(lines)} game(s) copied from {source} to {safe_url(target)}")
    return 0
