"""``umpire backup`` (bot/backup.py; issue 15): a consistent, checked copy of the SQLite
database while another connection writes, and never over an existing file."""

from __future__ import annotations

import asyncio
import os
import sqlite3

import pytest

from bot.backup import BackupError, backup_database
from bot.cli import main
from bot.service import Service


async def _games(path: str, n: int, start: int = 0) -> None:
    service = await Service.open(path)
    try:
        for i in range(start, start + n):
            await service.create("pfv", created_by="mod", game_id=f"g{i}")
    finally:
        await service.close()


def _count(path: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        db.close()


async def test_copy_while_another_connection_writes(tmp_path):
    db, out = str(tmp_path / "umpire.db"), str(tmp_path / "copy.bak")
    await _games(db, 3)
    service = await Service.open(db)
    stop = asyncio.Event()

    async def writer() -> int:
        i = 100
        while not stop.is_set():
            await service.create("pfv", created_by="mod", game_id=f"w{i}")
            i += 1
            await asyncio.sleep(0)
        return i - 100

    try:
        task = asyncio.create_task(writer())
        await asyncio.sleep(0.2)  # the writer is under way
        report = await asyncio.to_thread(backup_database, db, out)
        await asyncio.sleep(0.1)
        stop.set()
        written = await task
    finally:
        await service.close()
    assert written > 0
    copy = sqlite3.connect(out)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        copy.close()
    # a snapshot: the three games from before, and only whole games written meanwhile
    assert report.games == games
    assert 3 <= games <= _count(db)
    assert not os.path.exists(out + "-wal")
    assert [p for p in os.listdir(tmp_path) if ".partial" in p] == []
    # the copy is a working database: the service opens it and reads every game in it
    service = await Service.open(out)
    try:
        async with service.store.read() as tx:
            assert tx is not None
    finally:
        await service.close()


async def test_refuses_to_overwrite_without_force(tmp_path, capsys):
    db, out = str(tmp_path / "umpire.db"), tmp_path / "copy.bak"
    await _games(db, 2)
    out.write_bytes(b"precious")
    with pytest.raises(BackupError, match="exists already"):
        backup_database(db, str(out))
    assert out.read_bytes() == b"precious"
    # through the console: one sentence, exit code 2, the file untouched
    assert await asyncio.to_thread(main, ["backup", "--db", db, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "exists already" in err and "Traceback" not in err
    assert out.read_bytes() == b"precious"
    assert await asyncio.to_thread(main, ["backup", "--db", db, "--out", str(out), "--force"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert _count(str(out)) == 2
    # the copy, the last connection to the database, left no write-ahead log behind
    assert not os.path.exists(db + "-wal") and not os.path.exists(db + "-shm")


def test_bad_input_is_one_sentence_and_writes_nothing(tmp_path, capsys):
    missing = str(tmp_path / "nothing.db")
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = sorted(os.listdir(tmp_path))
    for args, words in [
        (["--db", missing, "--out", str(tmp_path / "x.bak")], "no database file"),
        (["--db", str(other), "--out", str(tmp_path / "x.bak")], "not an Umpire database"),
        (["--db", "postgresql://u@h/db"], "pg_dump"),
        (["--db", str(other), "--out", str(tmp_path / "no" / "x.bak")], "does not exist"),
    ]:
        assert main(["backup", *args]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    assert sorted(os.listdir(tmp_path)) == before


def test_damaged_copy_is_refused(tmp_path, monkeypatch):
    import bot.backup as backup

    db = str(tmp_path / "umpire.db")
    asyncio.run(_games(db, 1))

    def damaged(path: str) -> int:
        raise BackupError("the copy failed SQLite's integrity check: page 2 is never used")

    monkeypatch.setattr(backup, "_check", damaged)
    with pytest.raises(BackupError, match="integrity"):
        backup_database(db, str(tmp_path / "out.bak"))
    assert not os.path.exists(tmp_path / "out.bak")
    assert [p for p in os.listdir(tmp_path) if ".partial" in p] == []
