"""SQLite storage for games (ARCHITECTURE: Storage and the service).

The only module that speaks SQL. A :class:`Store` owns one aiosqlite connection in WAL
mode; every command of the service runs in one transaction, opened with
``async with store.write() as tx`` (``BEGIN IMMEDIATE``: the writer lock is taken at the
start, so two processes never both think they may write) or ``store.read()`` for a
consistent view. Transactions on one store are serialised by an asyncio lock, because a
SQLite connection has only one transaction at a time.

The schema lives in ``migrations/NNNN_name.sql``. At open, the files numbered above
``PRAGMA user_version`` are applied in order, each in its own transaction that also sets
``user_version``, so a crash during a migration leaves the database as it was.

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = await Store.open(path)
...     async with store.read() as tx:
...         games = await tx.list_games()
...     await store.close()
...     return games
>>> asyncio.run(demo(os.path.join(tempfile.mkdtemp(), "doc.db")))
[]
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import aiosqlite

DEFAULT_DB = "umpire.db"
BUSY_TIMEOUT_MS = 10_000


def default_db_path() -> str:
    """The database file: ``UMPIRE_DB``, or ``./umpire.db``."""
    return os.environ.get("UMPIRE_DB") or DEFAULT_DB


class StoreError(Exception):
    """The database cannot be used (too new, unreadable); the message is for a person."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# -- rows ------------------------------------------------------------------------------


@dataclass
class GameRow:
    id: str
    ruleset: str
    scenario: str
    options: dict[str, Any]
    commitment: str
    secret: bytes
    created_by: str
    created_at: float
    status: str = "open"
    datapack_version: str | None = None
    channel: str | None = None
    revealed_at: float | None = None
    setup_rolls: list[dict[str, Any]] = field(default_factory=list)
    head: int = 0
    entries: int = 0
    version: int = 0
    result: dict[str, Any] | None = None
    ended_at: float | None = None
    deadline_policy: dict[str, Any] | None = None


@dataclass
class SeatRow:
    game: str
    role: str
    user: str | None = None
    timezone: str | None = None
    standing_orders: dict[str, Any] = field(default_factory=dict)


@dataclass
class ActionRow:
    """One log entry. ``seq`` is the action number in play; ``entry`` its place in the log."""

    game: str
    entry: int
    seq: int
    role: str
    user: str
    order: dict[str, Any]
    rolls: list[dict[str, Any]]
    events: list[dict[str, Any]]
    turn: int
    phase: str
    created_at: float
    undone_by: int | None = None


@dataclass
class SnapshotRow:
    game: str
    entry: int
    seq: int
    turn: int
    player: str
    phase: str
    state: dict[str, Any]


@dataclass
class AuditRow:
    id: int
    game: str
    user: str
    act: str
    detail: dict[str, Any]
    why: str
    created_at: float


@dataclass
class DeadlineRow:
    id: int
    game: str
    role: str | None
    due_at: float
    turn: int
    player: str
    phase: str
    set_by: str
    created_at: float
    fired_at: float | None = None
    cleared_at: float | None = None
    cleared_by: str | None = None


@dataclass
class NotificationRow:
    id: int
    game: str
    role: str | None
    user: str | None
    kind: str
    text: str
    due_at: float
    deadline: int | None
    created_at: float
    sent_at: float | None = None
    cancelled_at: float | None = None


_GAME_JSON = {"options", "setup_rolls", "result", "deadline_policy"}
_GAME_UPDATABLE = {
    "deadline_policy",
    "status",
    "channel",
    "revealed_at",
    "head",
    "entries",
    "version",
    "result",
    "ended_at",
    "datapack_version",
}


def _game_changes(changes: dict[str, Any]) -> tuple[str, list[Any]]:
    unknown = set(changes) - _GAME_UPDATABLE
    if unknown:
        raise ValueError(f"games columns that may not change: {sorted(unknown)}")
    cols = ", ".join(f"{k} = ?" for k in changes)
    values = [_dumps(v) if k in _GAME_JSON and v is not None else v for k, v in changes.items()]
    return cols, values


def _game(row: sqlite3.Row) -> GameRow:
    d = dict(row)
    for key in _GAME_JSON:
        if d[key] is not None:
            d[key] = json.loads(d[key])
    return GameRow(**d)


def _action(row: sqlite3.Row) -> ActionRow:
    d = dict(row)
    for key in ("order", "rolls", "events"):
        d[key] = json.loads(d[key])
    return ActionRow(**d)


def _seat(row: sqlite3.Row) -> SeatRow:
    d = dict(row)
    d["standing_orders"] = json.loads(d["standing_orders"])
    return SeatRow(**d)


# -- migrations ------------------------------------------------------------------------

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """``(number, file name, sql)`` of every migration shipped, in order."""
    found = []
    for item in resources.files("migrations").iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append((int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the migrations are not numbered 1, 2, 3...: {numbers}")
    return found


# -- the store -------------------------------------------------------------------------


class Store:
    """One SQLite database. Open with ``await Store.open(path)``; close when done."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | None = None, *, synchronous: str = "FULL") -> Store:
        """Open (creating if need be) and migrate the database at ``path``.

        ``synchronous`` is SQLite's durability setting: ``FULL`` syncs every commit to
        disk, ``NORMAL`` only at checkpoints (safe against a crashed process, not against
        a power cut).
        """
        path = path or default_db_path()
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous is FULL or NORMAL")
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from None
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if mode[0][0].lower() != "wal":
                raise StoreError(f"the database {path} cannot use write-ahead logging")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db, path)
            await store._migrate()
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise StoreError(f"{path} is not a usable Umpire database: {exc}") from None
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        shipped = migrations()
        current = (await self._db.execute_fetchall("PRAGMA user_version"))[0][0]
        if current > len(shipped):
            raise StoreError(
                f"the database {self.path} is at schema version {current}, newer than this "
                f"Umpire knows ({len(shipped)}); upgrade Umpire to use it"
            )
        for number, name, sql in shipped[current:]:
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;"
                )
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise StoreError(f"migration {name} failed: {exc}") from None

    async def schema_version(self) -> int:
        async with self._lock:
            return (await self._db.execute_fetchall("PRAGMA user_version"))[0][0]

    async def game_and_seats(self, game_id: str) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one statement: consistent without a transaction of its
        own, and one round trip to the database thread (the start of every command)."""
        async with self._lock:
            rows = await self._db.execute_fetchall(
                "SELECT g.*, (SELECT json_group_array(json_object("
                " 'game', s.game, 'role', s.role, 'user', s.user, 'timezone', s.timezone,"
                " 'standing_orders', json(s.standing_orders)))"
                " FROM (SELECT * FROM seats WHERE game = g.id ORDER BY rowid) s) AS seats_json"
                " FROM games g WHERE g.id = ?",
                (game_id,),
            )
        if not rows:
            return None
        d = dict(rows[0])
        seats = [SeatRow(**seat) for seat in json.loads(d.pop("seats_json"))]
        for key in _GAME_JSON:
            if d[key] is not None:
                d[key] = json.loads(d[key])
        return GameRow(**d), seats

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One write transaction: committed on leaving, rolled back on an exception."""
        async with self._lock, self._transaction("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A consistent read of several tables (writes are refused by nobody; do not)."""
        async with self._lock, self._transaction("BEGIN") as tx:
            yield tx

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Tx]:
        await self._db.execute(begin)
        try:
            yield Tx(self._db)
        except BaseException:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")


class Tx:
    """The queries, valid inside one transaction of a :class:`Store`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self._db.execute(sql, tuple(params))

    async def _insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        row = await self._db.execute_insert(sql, tuple(params))
        assert row is not None
        return int(row[0])

    # -- games ---------------------------------------------------------------------

    async def game(self, game_id: str) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def list_games(
        self, *, user: str | None = None, channel: str | None = None, status: str | None = None
    ) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE 1"
        params: list[Any] = []
        if user is not None:
            sql += " AND (created_by = ? OR id IN (SELECT game FROM seats WHERE user = ?))"
            params += [user, user]
        if channel is not None:
            sql += " AND channel = ?"
            params.append(channel)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return [_game(r) for r in await self._all(sql + " ORDER BY created_at, id", params)]

    async def insert_game(self, g: GameRow) -> None:
        await self._run(
            "INSERT INTO games (id, ruleset, scenario, options, datapack_version, channel,"
            " status, commitment, secret, revealed_at, setup_rolls, head, entries, version,"
            " result, created_by, created_at, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                g.id,
                g.ruleset,
                g.scenario,
                _dumps(g.options),
                g.datapack_version,
                g.channel,
                g.status,
                g.commitment,
                g.secret,
                g.revealed_at,
                _dumps(g.setup_rolls),
                g.head,
                g.entries,
                g.version,
                None if g.result is None else _dumps(g.result),
                g.created_by,
                g.created_at,
                g.ended_at,
            ),
        )

    async def update_game(self, game_id: str, **changes: Any) -> None:
        cols, values = _game_changes(changes)
        await self._run(f"UPDATE games SET {cols} WHERE id = ?", [*values, game_id])

    async def update_game_at_version(self, game_id: str, expected: int, **changes: Any) -> bool:
        """Apply ``changes`` only if the game's version is still ``expected``; whether it was.

        This is the optimistic-concurrency check: a writer that loaded the game at a
        version learns here, inside its transaction, whether anyone changed it since.
        """
        cols, values = _game_changes(changes) if changes else ("version = version", [])
        cursor = await self._db.execute(
            f"UPDATE games SET {cols} WHERE id = ? AND version = ?", (*values, game_id, expected)
        )
        return cursor.rowcount == 1

    # -- seats ---------------------------------------------------------------------

    async def seats(self, game_id: str) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE game = ? ORDER BY rowid", (game_id,))
        return [_seat(r) for r in rows]

    async def insert_seat(self, s: SeatRow) -> None:
        await self._run(
            "INSERT INTO seats (game, role, user, timezone, standing_orders) VALUES (?, ?, ?, ?, ?)",
            (s.game, s.role, s.user, s.timezone, _dumps(s.standing_orders)),
        )

    async def set_seat_user(self, game_id: str, role: str, user: str | None) -> None:
        await self._run(
            "UPDATE seats SET user = ? WHERE game = ? AND role = ?", (user, game_id, role)
        )

    async def set_seat_preferences(
        self,
        game_id: str,
        role: str,
        *,
        timezone: str | None = None,
        standing_orders: dict[str, Any] | None = None,
    ) -> None:
        if timezone is not None:
            await self._run(
                "UPDATE seats SET timezone = ? WHERE game = ? AND role = ?",
                (timezone, game_id, role),
            )
        if standing_orders is not None:
            await self._run(
                "UPDATE seats SET standing_orders = ? WHERE game = ? AND role = ?",
                (_dumps(standing_orders), game_id, role),
            )

    # -- the action log --------------------------------------------------------------

    async def append_action(self, a: ActionRow) -> None:
        await self._run(
            'INSERT INTO actions (game, entry, seq, role, user, "order", rolls, events, turn,'
            " phase, created_at, undone_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                a.game,
                a.entry,
                a.seq,
                a.role,
                a.user,
                _dumps(a.order),
                _dumps(a.rolls),
                _dumps(a.events),
                a.turn,
                a.phase,
                a.created_at,
                a.undone_by,
            ),
        )

    async def live_actions(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """Live actions with ``after < seq <= upto``, in order."""
        sql = "SELECT * FROM actions WHERE game = ? AND undone_by IS NULL AND seq > ?"
        params: list[Any] = [game_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        return [_action(r) for r in await self._all(sql + " ORDER BY seq", params)]

    async def log_entries(self, game_id: str) -> list[ActionRow]:
        """Every entry of the log, undone ones included, in the order written."""
        rows = await self._all("SELECT * FROM actions WHERE game = ? ORDER BY entry", (game_id,))
        return [_action(r) for r in rows]

    async def last_live_action(self, game_id: str) -> ActionRow | None:
        row = await self._one(
            "SELECT * FROM actions WHERE game = ? AND undone_by IS NULL ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return _action(row) if row else None

    async def mark_undone(self, game_id: str, after: int, audit_id: int) -> list[int]:
        """Mark every live action numbered above ``after`` as undone; their entries."""
        rows = await self._all(
            "UPDATE actions SET undone_by = ? WHERE game = ? AND undone_by IS NULL AND seq > ?"
            " RETURNING entry",
            (audit_id, game_id, after),
        )
        return sorted(r[0] for r in rows)

    async def turns_reached(self, game_id: str) -> list[int]:
        """The turns in which live orders were given, for "roll back to turn N"."""
        rows = await self._all(
            "SELECT DISTINCT turn FROM actions WHERE game = ? AND undone_by IS NULL ORDER BY turn",
            (game_id,),
        )
        return [r[0] for r in rows]

    async def last_seq_before_turn(self, game_id: str, turn: int) -> int:
        """The number of the last live order given before ``turn``; 0 if none."""
        row = await self._one(
            "SELECT MAX(seq) FROM actions WHERE game = ? AND undone_by IS NULL AND turn < ?",
            (game_id, turn),
        )
        return row[0] or 0 if row else 0

    # -- snapshots -------------------------------------------------------------------

    async def insert_snapshot(self, s: SnapshotRow) -> None:
        await self._run(
            "INSERT INTO snapshots (game, entry, seq, turn, player, phase, state)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (s.game, s.entry, s.seq, s.turn, s.player, s.phase, _dumps(s.state)),
        )

    async def latest_snapshot(self, game_id: str, upto: int) -> SnapshotRow | None:
        """The live snapshot with the highest action number not above ``upto``."""
        row = await self._one(
            "SELECT s.* FROM snapshots s LEFT JOIN actions a"
            " ON a.game = s.game AND a.entry = s.entry"
            " WHERE s.game = ? AND s.seq <= ? AND (s.entry = 0 OR a.undone_by IS NULL)"
            " ORDER BY s.seq DESC LIMIT 1",
            (game_id, upto),
        )
        if row is None:
            return None
        d = dict(row)
        d["state"] = json.loads(d["state"])
        return SnapshotRow(**d)

    # -- audit -----------------------------------------------------------------------

    async def insert_audit(
        self, game_id: str, user: str, act: str, detail: dict[str, Any], why: str, now: float
    ) -> int:
        return await self._insert(
            "INSERT INTO audit (game, user, act, detail, why, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, user, act, _dumps(detail), why, now),
        )

    async def audit(self, game_id: str) -> list[AuditRow]:
        rows = await self._all("SELECT * FROM audit WHERE game = ? ORDER BY id", (game_id,))
        out = []
        for r in rows:
            d = dict(r)
            d["detail"] = json.loads(d["detail"])
            out.append(AuditRow(**d))
        return out

    # -- deadlines and notifications ---------------------------------------------------

    async def insert_deadline(
        self,
        game_id: str,
        role: str | None,
        due_at: float,
        turn: int,
        player: str,
        phase: str,
        set_by: str,
        now: float,
    ) -> int:
        return await self._insert(
            "INSERT INTO deadlines (game, role, due_at, turn, player, phase, set_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, due_at, turn, player, phase, set_by, now),
        )

    async def open_deadlines(self, game_id: str | None = None) -> list[DeadlineRow]:
        sql = "SELECT * FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
        params: list[Any] = []
        if game_id is not None:
            sql += " AND game = ?"
            params.append(game_id)
        return [DeadlineRow(**dict(r)) for r in await self._all(sql + " ORDER BY due_at", params)]

    async def clear_deadlines(
        self,
        game_id: str,
        by: str,
        now: float,
        *,
        role: str | None = None,
        except_phase: tuple[int, str, str] | None = None,
    ) -> list[int]:
        """Clear open deadlines of a game (of one role, or all but those of one phase).

        Their pending reminders are cancelled too. Returns the ids cleared.
        """
        sql = (
            "UPDATE deadlines SET cleared_at = ?, cleared_by = ?"
            " WHERE game = ? AND fired_at IS NULL AND cleared_at IS NULL"
        )
        params: list[Any] = [now, by, game_id]
        if role is not None:
            sql += " AND role IS ?"
            params.append(role)
        if except_phase is not None:
            sql += " AND NOT (turn = ? AND player = ? AND phase = ?)"
            params += list(except_phase)
        ids = [r[0] for r in await self._all(sql + " RETURNING id", params)]
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE notifications SET cancelled_at = ? WHERE deadline IN ({marks})"
                " AND sent_at IS NULL AND cancelled_at IS NULL",
                [now, *ids],
            )
        return sorted(ids)

    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        rows = await self._all(
            "SELECT * FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " AND due_at <= ? ORDER BY due_at, id",
            (now,),
        )
        return [DeadlineRow(**dict(r)) for r in rows]

    async def mark_deadlines_fired(self, ids: list[int], now: float) -> None:
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE deadlines SET fired_at = ? WHERE id IN ({marks}) AND fired_at IS NULL",
                [now, *ids],
            )

    async def insert_notification(
        self,
        game_id: str,
        kind: str,
        text: str,
        due_at: float,
        now: float,
        *,
        role: str | None = None,
        user: str | None = None,
        deadline: int | None = None,
    ) -> int:
        return await self._insert(
            "INSERT INTO notifications (game, role, user, kind, text, due_at, deadline,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, user, kind, text, due_at, deadline, now),
        )

    async def due_notifications(self, now: float) -> list[NotificationRow]:
        rows = await self._all(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL"
            " AND due_at <= ? ORDER BY due_at, id",
            (now,),
        )
        return [NotificationRow(**dict(r)) for r in rows]

    async def notifications(self, game_id: str) -> list[NotificationRow]:
        rows = await self._all("SELECT * FROM notifications WHERE game = ? ORDER BY id", (game_id,))
        return [NotificationRow(**dict(r)) for r in rows]

    async def mark_notifications_sent(self, ids: list[int], now: float) -> None:
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE notifications SET sent_at = ? WHERE id IN ({marks}) AND sent_at IS NULL",
                [now, *ids],
            )

    async def next_due_at(self) -> float | None:
        row = await self._one(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(due_at) AS t FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " UNION ALL"
            " SELECT MIN(due_at) FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL)"
        )
        return row[0] if row else None
