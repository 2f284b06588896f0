"""``umpire backup``: a consistent copy of the SQLite database, safe while the bot runs
(issue 15, "a kit for server owners"; ARCHITECTURE.md "Running it").

The copy is made with SQLite's online backup API, which reads the database as one
snapshot while other connections keep writing. It is written beside the destination
under a temporary name, checked (``PRAGMA integrity_check`` and the games counted) and
only then given its name, so a half-written file never carries the name of a backup.
An existing file is never overwritten without ``--force``.

:func:`copy_before_migration` is the backup the store takes before it upgrades the
schema of a database that already holds data (``<db>.before-v<N>.bak``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
from dataclasses import dataclass

#: how long the copy waits for another process's write to finish, in milliseconds
BUSY_TIMEOUT_MS = 10_000


class BackupError(Exception):
    """Why a backup was not made, in one sentence; nothing was written."""


@dataclass(frozen=True)
class BackupReport:
    path: str
    games: int
    size: int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "backup", help="copy the database safely while the bot runs, and check the copy"
    )
    p.add_argument("--db", help="the database file (default: UMPIRE_DB or ./umpire.db)")
    p.add_argument(
        "--out", help="the backup file (default: <db>.<date>-<time>.bak beside the database)"
    )
    p.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    p.set_defaults(func=cmd_backup)


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.cli import UserError
    from bot.store import default_db_path

    source = args.db or default_db_path()
    out = args.out or default_out(source)
    try:
        report = backup_database(source, out, force=args.force)
    except BackupError as exc:
        raise UserError(str(exc)) from None
    print(
        f"Backed up {source} to {report.path}: {report.games} game{'' if report.games == 1 else 's'}, "
        f"{report.size} bytes; "
        "the copy passed SQLite's integrity check."
    )
    return 0


def default_out(source: str) -> str:
    import time

    return f"{source}.{time.strftime('%Y%m%d-%H%M%S')}.bak"


def backup_database(source: str, out: str, *, force: bool = False) -> BackupReport:
    """Copy the Umpire database ``source`` to ``out`` while others may be writing to it,
    then check the copy. Raises :class:`BackupError` (and leaves no file) when it cannot."""
    if source.split("://", 1)[0] in ("postgresql", "postgres"):
        raise BackupError(
            "the database is PostgreSQL: back it up with pg_dump; umpire backup copies SQLite files"
        )
    if not os.path.isfile(source):
        raise BackupError(f"there is no database file at {source}")
    if os.path.lexists(out) and not force:
        raise BackupError(f"{out} exists already; name another file or add --force to replace it")
    if os.path.isdir(out):
        raise BackupError(f"{out} is a folder; name a file for the backup")
    if os.path.abspath(out) == os.path.abspath(source):
        raise BackupError("the backup cannot replace the database it copies")
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise BackupError(f"the folder {folder} does not exist")
    partial = f"{out}.partial-{os.getpid()}"
    try:
        _copy(source, partial)
        games = _check(partial)
        os.replace(partial, out)
    except sqlite3.Error as exc:
        raise BackupError(f"the backup of {source} failed: {exc}") from None
    except OSError as exc:
        raise BackupError(
            f"the backup could not be written to {out}: {exc.strerror or exc}"
        ) from None
    finally:
        for leftover in (partial, f"{partial}-journal"):
            if os.path.lexists(leftover):
                os.unlink(leftover)
    return BackupReport(out, games, os.path.getsize(out))


def _copy(source: str, dest: str) -> None:
    # read-write but query-only: a read-only connection, when it is the last one, would
    # leave the write-ahead log files behind it
    src = sqlite3.connect(f"file:{source}?mode=rw", uri=True)
    try:
        src.execute("PRAGMA query_only = ON")
        src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        from bot.store import APPLICATION_ID

        app = src.execute("PRAGMA application_id").fetchone()[0]
        has_games = src.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
        ).fetchone()
        if app not in (0, APPLICATION_ID) or not has_games:
            raise BackupError(f"{source} is not an Umpire database; nothing was copied")
        dst = sqlite3.connect(dest)
        try:
            # pages=-1: the whole database in one step, so the copy is one snapshot
            src.backup(dst, pages=-1)
            # a self-contained file: no -wal beside it when the copy is opened later
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    finally:
        src.close()


def _check(path: str) -> int:
    """SQLite's integrity check on the copy; the number of games it holds."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        result = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            raise BackupError(f"the copy failed SQLite's integrity check: {result[0]}")
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        db.close()


# -- before a migration ------------------------------------------------------------------


def before_migration_path(path: str, target: int) -> str:
    """``<db>.before-v<N>.bak`` (N the schema version about to be reached); if that file
    is there from an earlier attempt, the next free ``<db>.before-v<N>.<k>.bak``."""
    name = f"{path}.before-v{target}.bak"
    k = 2
    while os.path.lexists(name):
        name = f"{path}.before-v{target}.{k}.bak"
        k += 1
    return name


def copy_before_migration(path: str, target: int) -> str:
    """Copy the database file ``path`` byte for byte before it is migrated to schema
    version ``target``; returns the backup's name.

    The caller holds SQLite's write lock (``BEGIN IMMEDIATE``), so no one changes the
    file meanwhile. When committed changes still sit in the write-ahead log (another
    process keeps it from being checkpointed), the file alone is not the database: then
    the copy is made with the online backup API instead (same content, other bytes).
    """
    out = before_migration_path(path, target)
    wal = f"{path}-wal"
    partial = f"{out}.partial"
    try:
        if os.path.exists(wal) and os.path.getsize(wal) > 0:
            _copy(path, partial)
        else:
            shutil.copyfile(path, partial)
        with open(partial, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(partial, out)
    finally:
        if os.path.lexists(partial):
            os.unlink(partial)
    return out
