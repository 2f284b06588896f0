"""ARCHITECTURE: Storage. Migrations, connection settings and the append-only log."""

from __future__ import annotations

import sqlite3

import pytest

from bot import store as store_module
from bot.store import ActionRow, Store, StoreError, migrations


def _action(entry: int, seq: int) -> ActionRow:
    return ActionRow("g1", entry, seq, "north", "u", {"verb": "gamble"}, [], [], 1, "take", 0.0)


async def _store_with_game(path: str) -> Store:
    from bot.store import GameRow

    store = await Store.open(path)
    async with store.write() as tx:
        await tx.insert_game(GameRow("g1", "toy", "standard", {}, "c", b"s", "u", 0.0))
    return store


async def test_new_database_is_migrated_to_the_last_numbered_file(db_path):
    store = await Store.open(db_path)
    try:
        async with store.write():
            pass  # the first write creates the file (a command that only reads does not)
        assert await store.schema_version() == len(migrations()) >= 1
    finally:
        await store.close()
    con = sqlite3.connect(db_path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "games",
        "seats",
        "actions",
        "snapshots",
        "deadlines",
        "notifications",
        "audit",
    } <= tables
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_connection_uses_wal_foreign_keys_and_a_busy_timeout(db_path):
    store = await Store.open(db_path)
    try:
        async with store.write():
            pass  # the first write creates the file
        db = store._db
        assert (await db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
        assert (await db.execute_fetchall("PRAGMA busy_timeout"))[0][0] >= 1000
    finally:
        await store.close()


async def test_reopening_applies_no_migration_twice(db_path):
    store = await _store_with_game(db_path)
    await store.close()
    store = await Store.open(db_path)  # would fail on CREATE TABLE if re-applied
    try:
        async with store.read() as tx:
            assert [g.id for g in await tx.list_games()] == ["g1"]
    finally:
        await store.close()


async def test_database_newer_than_the_code_is_refused(db_path):
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer than this Umpire knows"):
        await Store.open(db_path)


async def test_a_failing_migration_leaves_the_database_as_it_was(db_path, monkeypatch):
    store = await _store_with_game(db_path)
    await store.close()
    shipped = migrations()
    broken = "CREATE TABLE extra (x INTEGER);\nINSERT INTO no_such_table VALUES (1);"
    monkeypatch.setattr(
        store_module,
        "migrations",
        lambda: [*shipped, (len(shipped) + 1, "9999_broken.sql", broken)],
    )
    with pytest.raises(StoreError, match="9999_broken.sql failed"):
        await Store.open(db_path)
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(shipped)
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert "extra" not in names
    con.close()


async def test_a_file_that_is_not_a_database_is_refused_in_one_sentence(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        await Store.open(str(path))


async def test_log_entries_cannot_be_deleted(db_path):
    store = await _store_with_game(db_path)
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1, 1))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with store.write() as tx:
                await tx._run("DELETE FROM actions")
        async with store.read() as tx:
            assert len(await tx.log_entries("g1")) == 1
    finally:
        await store.close()


async def test_log_entries_can_only_be_marked_undone_and_only_once(db_path):
    store = await _store_with_game(db_path)
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1, 1))
            audit = await tx.insert_audit("g1", "mod", "rollback", {}, "test", 0.0)
        with pytest.raises(sqlite3.IntegrityError, match="only be marked undone"):
            async with store.write() as tx:
                await tx._run("UPDATE actions SET \"order\" = '{}'")
        async with store.write() as tx:
            assert await tx.mark_undone("g1", 0, audit) == [1]
        with pytest.raises(sqlite3.IntegrityError, match="only be marked undone"):
            async with store.write() as tx:
                await tx._run("UPDATE actions SET undone_by = NULL")
    finally:
        await store.close()


async def test_two_live_actions_cannot_share_an_action_number(db_path):
    store = await _store_with_game(db_path)
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1, 1))
        with pytest.raises(sqlite3.IntegrityError):
            async with store.write() as tx:
                await tx.append_action(_action(2, 1))
        async with store.read() as tx:
            assert [a.entry for a in await tx.log_entries("g1")] == [1]
    finally:
        await store.close()


async def test_actions_need_an_existing_game(db_path):
    store = await Store.open(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            async with store.write() as tx:
                await tx.append_action(_action(1, 1))
    finally:
        await store.close()


async def test_a_failed_transaction_writes_nothing(db_path):
    store = await _store_with_game(db_path)
    try:
        with pytest.raises(RuntimeError):
            async with store.write() as tx:
                await tx.append_action(_action(1, 1))
                raise RuntimeError("crash in the middle of a command")
        async with store.read() as tx:
            assert await tx.log_entries("g1") == []
    finally:
        await store.close()


async def test_default_database_comes_from_umpire_db(monkeypatch):
    monkeypatch.setenv("UMPIRE_DB", "/tmp/elsewhere.db")
    assert store_module.default_db_path() == "/tmp/elsewhere.db"
    monkeypatch.delenv("UMPIRE_DB")
    assert store_module.default_db_path() == "umpire.db"
