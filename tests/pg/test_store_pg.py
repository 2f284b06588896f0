"""Issue 16: the PostgreSQL store. Migrations tracked in a table, the append-only log, one
command one transaction, the per-game advisory lock, one-sentence failures, the choice of
store by ``UMPIRE_DB``. (The service suite itself runs on PostgreSQL through
tests/service/conftest.py.)"""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from bot.service import Service
from bot.store import ActionRow, GameRow, Store, StoreError, open_store
from bot.store_pg import LOCK_SPACE, PgStore, pg_migrations, pg_sql, safe_url
from tests.service.conftest import FakeClock, new_game, play


def _action(entry: int, seq: int) -> ActionRow:
    return ActionRow("g1", entry, seq, "north", "u", {"verb": "gamble"}, [], [], 1, "take", 0.0)


async def _store_with_game(url: str) -> PgStore:
    store = await PgStore.open(url)
    async with store.write() as tx:
        await tx.insert_game(GameRow("g1", "toy", "standard", {}, "c", b"s", "u", 0.0))
    return store


def _scalar(url: str, sql: str, params: tuple = ()):
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql, params).fetchone()[0]


def test_sqlite_spellings_become_postgresql_ones():
    assert pg_sql("SELECT * FROM seats WHERE user = ? AND role IS ? AND x LIKE '5%'") == (
        "SELECT * FROM seats WHERE \"user\" = %s AND role IS NOT DISTINCT FROM %s AND x LIKE '5%%'"
    )
    assert pg_sql("SELECT * FROM games WHERE 1 AND status = ?") == (
        "SELECT * FROM games WHERE TRUE AND status = %s"
    )
    assert (
        pg_sql('SELECT s."user", seats_by_user FROM s') == 'SELECT s."user", seats_by_user FROM s'
    )


async def test_migrations_are_recorded_and_never_applied_twice(pg_url):
    store = await PgStore.open(pg_url)
    assert await store.schema_version() == len(pg_migrations())
    await store.close()
    again = await PgStore.open(pg_url)  # CREATE TABLE would fail if re-applied
    try:
        assert await again.schema_version() == len(pg_migrations())
        assert _scalar(pg_url, "SELECT count(*) FROM umpire_migrations") == len(pg_migrations())
    finally:
        await again.close()


async def test_a_database_newer_than_the_code_is_refused(pg_url):
    store = await PgStore.open(pg_url)
    await store.close()
    _scalar(pg_url, "INSERT INTO umpire_migrations (number, name) VALUES (999, 'x') RETURNING 1")
    with pytest.raises(StoreError, match="newer than this Umpire knows"):
        await PgStore.open(pg_url)


async def test_two_processes_opening_a_new_database_together_migrate_it_once(pg_url):
    stores = await asyncio.gather(*(PgStore.open(pg_url) for _ in range(4)))
    try:
        assert _scalar(pg_url, "SELECT count(*) FROM umpire_migrations") == len(pg_migrations())
    finally:
        for s in stores:
            await s.close()


async def test_log_entries_cannot_be_deleted_or_changed_and_undone_only_once(pg_url):
    store = await _store_with_game(pg_url)
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1, 1))
            audit = await tx.insert_audit("g1", "mod", "rollback", {}, "test", 0.0)
        with pytest.raises(psycopg.IntegrityError, match="append-only"):
            async with store.write() as tx:
                await tx._run("DELETE FROM actions")
        with pytest.raises(psycopg.IntegrityError, match="only be marked undone"):
            async with store.write() as tx:
                await tx._run("UPDATE actions SET \"order\" = '{}'")
        async with store.write() as tx:
            assert await tx.mark_undone("g1", 0, audit) == [1]
        with pytest.raises(psycopg.IntegrityError, match="only be marked undone"):
            async with store.write() as tx:
                await tx._run("UPDATE actions SET undone_by = NULL")
        async with store.read() as tx:
            assert [(a.entry, a.undone_by) for a in await tx.log_entries("g1")] == [(1, audit)]
    finally:
        await store.close()


async def test_two_live_actions_cannot_share_a_number_and_actions_need_a_game(pg_url):
    store = await _store_with_game(pg_url)
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1, 1))
        with pytest.raises(psycopg.IntegrityError):
            async with store.write() as tx:
                await tx.append_action(_action(2, 1))
        with pytest.raises(psycopg.IntegrityError):
            async with store.write() as tx:
                await tx.append_action(ActionRow("nope", 1, 1, "n", "u", {}, [], [], 1, "p", 0.0))
        async with store.read() as tx:
            assert [a.entry for a in await tx.log_entries("g1")] == [1]
    finally:
        await store.close()


async def test_a_failed_command_writes_nothing(pg_url):
    store = await _store_with_game(pg_url)
    try:
        with pytest.raises(RuntimeError):
            async with store.write() as tx:
                await tx.append_action(_action(1, 1))
                raise RuntimeError("crash in the middle of a command")
        async with store.read() as tx:
            assert await tx.log_entries("g1") == []
    finally:
        await store.close()


async def test_a_writer_of_a_game_waits_for_the_other_writer_of_that_game_only(pg_url):
    store = await _store_with_game(pg_url)
    try:
        async with store.write() as tx:
            await tx.insert_game(GameRow("g2", "toy", "standard", {}, "c", b"s", "u", 0.0))
        order: list[str] = []
        holding = asyncio.Event()
        release = asyncio.Event()

        async def first() -> None:
            async with store.write() as tx:
                await tx.game("g1")  # takes g1's lock
                holding.set()
                await release.wait()
                order.append("first commits")

        async def second() -> None:
            await holding.wait()
            async with store.write() as tx:
                await tx.game("g1")
                order.append("second has g1")

        async def other_game() -> None:
            await holding.wait()
            async with store.write() as tx:
                await tx.game("g2")
                order.append("g2 written")

        tasks = [asyncio.create_task(f()) for f in (first, second, other_game)]
        await holding.wait()
        await asyncio.sleep(0.3)
        # the lock is a transaction-level advisory lock: seen from another session, held
        held = _scalar(
            pg_url,
            "SELECT NOT pg_try_advisory_xact_lock(%s, hashtext(%s))",
            (LOCK_SPACE, "g1"),
        )
        assert held is True
        assert order == ["g2 written"]
        release.set()
        await asyncio.gather(*tasks)
        assert order == ["g2 written", "first commits", "second has g1"]
        # released by the commit: nothing left behind in the pooled sessions
        assert _scalar(pg_url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == 0
    finally:
        await store.close()


async def test_an_unreachable_server_is_one_sentence_without_the_password(pg_server):
    url = f"postgresql://umpire:hunter2@127.0.0.1:{pg_server.port + 1}/postgres"
    with pytest.raises(StoreError) as caught:
        await PgStore.open(url, timeout=2)
    message = str(caught.value)
    assert "cannot be reached" in message and "hunter2" not in message
    assert "\n" not in message
    assert safe_url(url) == f"postgresql://umpire:***@127.0.0.1:{pg_server.port + 1}/postgres"


async def test_umpire_db_picks_the_store(pg_url, tmp_path, monkeypatch):
    monkeypatch.setenv("UMPIRE_DB", pg_url)
    store = await open_store()
    assert isinstance(store, PgStore)
    await store.close()
    monkeypatch.setenv("UMPIRE_DB", str(tmp_path / "u.db"))
    store = await open_store()
    assert isinstance(store, Store)
    await store.close()


async def test_a_rollback_marks_the_undone_actions_in_postgresql(pg_url):
    service = await Service.open(pg_url, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 200})
        await play(service, game, 12, random.Random(3))
        await service.rollback(game, "mod", to=5, why="misclick")
        audit = await service.audit(game)
        undone = _scalar(
            pg_url,
            "SELECT array_agg(DISTINCT undone_by) FROM actions WHERE game = %s AND seq > 5",
            (game,),
        )
        live = _scalar(
            pg_url, "SELECT count(*) FROM actions WHERE game = %s AND undone_by IS NULL", (game,)
        )
        assert undone == [audit[0]["id"]] and live == 5
    finally:
        await service.close()


async def test_the_sqlite_store_refuses_a_url_in_one_sentence_and_creates_no_file(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match="names a PostgreSQL database") as caught:
        await Store.open("postgresql://u:secret@127.0.0.1:1/db")
    assert "secret" not in str(caught.value)
    assert list(tmp_path.iterdir()) == []
