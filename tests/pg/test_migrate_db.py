"""Issue 16: copying an SQLite database into PostgreSQL. Every game, log entry, snapshot,
seat, deadline, notification and audit row arrives; each game verifies from the copy and
plays on there; a destination that already holds games is refused in a sentence."""

from __future__ import annotations

import json
import random
import sqlite3

import psycopg
import pytest

from bot.service import Service
from bot.service_fuzz import fuzz_into_db
from bot.store import StoreError
from bot.store_pg import copy_sqlite_to_pg
from tests.service.conftest import FakeClock, new_game, play

TABLES = ("games", "seats", "audit", "actions", "snapshots", "deadlines", "notifications")


def _counts_sqlite(path: str) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        con.close()


def _counts_pg(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


async def test_every_row_is_copied_and_every_game_verifies_and_plays_on(tmp_path, pg_url):
    source = str(tmp_path / "old.db")
    finished = await fuzz_into_db(source, "toy", games=3, seed=5, max_actions=200)
    finished += await fuzz_into_db(source, "pfv", games=1, seed=6, max_actions=40)
    service = await Service.open(source, clock=FakeClock())
    going = await new_game(service, "toy", options={"pile": 300})
    await play(service, going, 20, random.Random(8))
    await service.rollback(going, "mod", to=12, why="a slip")
    await play(service, going, 5, random.Random(9))
    await service.close()

    lines = await copy_sqlite_to_pg(source, pg_url)
    assert len(lines) == len(finished) + 1 and all("verified" in line for line in lines)
    assert _counts_pg(pg_url) == _counts_sqlite(source)

    before, after = await Service.open(source), await Service.open(pg_url)
    try:
        for game in [*finished, going]:
            assert await after.export(game, with_secret=True) == await before.export(
                game, with_secret=True
            )
        log = await after.game_log(going, audience="*", include_undone=True)
        assert sum(line.undone for line in log) == 8
        # the copy plays on; ids go on past the copied ones
        await play(after, going, 3, random.Random(10))
        await after.rollback(going, "mod", to=1, why="again")
        audit = await after.audit(going)
        assert len({a["id"] for a in audit}) == len(audit) == 2
    finally:
        await before.close()
        await after.close()


async def test_a_destination_with_games_is_refused_and_left_alone(tmp_path, pg_url):
    source = str(tmp_path / "old.db")
    await fuzz_into_db(source, "toy", games=1, seed=1, max_actions=10)
    await copy_sqlite_to_pg(source, pg_url)
    counts = _counts_pg(pg_url)
    with pytest.raises(StoreError, match="already holds games"):
        await copy_sqlite_to_pg(source, pg_url)
    assert _counts_pg(pg_url) == counts


async def test_a_missing_source_or_a_file_target_is_one_sentence(tmp_path, pg_url):
    with pytest.raises(StoreError, match="no SQLite database"):
        await copy_sqlite_to_pg(str(tmp_path / "nope.db"), pg_url)
    with pytest.raises(StoreError, match="postgresql:// URL"):
        await copy_sqlite_to_pg(str(tmp_path / "nope.db"), str(tmp_path / "other.db"))


def test_old_text_snapshots_arrive_compressed(tmp_path, pg_url):
    import asyncio

    source = str(tmp_path / "old.db")
    asyncio.run(fuzz_into_db(source, "toy", games=1, seed=2, max_actions=30))
    con = sqlite3.connect(source)
    game, state = con.execute("SELECT game, state FROM snapshots WHERE entry = 0").fetchone()
    from bot.store import snapshot_unpack

    whole = snapshot_unpack(state)["s"]
    con.execute(  # as the store wrote it before issue 16
        "UPDATE snapshots SET state = ? WHERE game = ? AND entry = 0", (json.dumps(whole), game)
    )
    con.commit()
    con.close()
    asyncio.run(copy_sqlite_to_pg(source, pg_url))
    with psycopg.connect(pg_url) as conn:
        stored = conn.execute(
            "SELECT state FROM snapshots WHERE game = %s AND entry = 0", (game,)
        ).fetchone()[0]
    assert snapshot_unpack(bytes(stored)) == {"s": whole}


def test_the_command_prints_a_line_per_game_or_one_sentence(tmp_path, pg_url, capsys):
    import asyncio

    from bot.store_pg import migrate_db_command

    source = str(tmp_path / "old.db")
    asyncio.run(fuzz_into_db(source, "toy", games=2, seed=3, max_actions=10))
    assert migrate_db_command(source, pg_url) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[-1].startswith("2 game(s) copied")
    assert migrate_db_command(source, pg_url) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds games" in err


def test_umpire_migrate_db_copies_through_the_command_line(tmp_path, pg_url, capsys):
    import asyncio

    from bot.cli import main

    source = str(tmp_path / "cli.db")
    asyncio.run(fuzz_into_db(source, "toy", games=1, seed=5, max_actions=8))
    assert main(["migrate-db", "--from", source, "--to", pg_url]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("1 game(s) copied")
    assert _counts_pg(pg_url)["games"] == 1
