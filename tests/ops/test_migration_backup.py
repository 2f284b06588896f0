"""A backup before every migration (bot/store.py ``_backup_before_migrating``; issue 15):
a version-2 database opened by the current code leaves ``<db>.before-v<N>.bak`` holding
the original bytes, and is then upgraded."""

from __future__ import annotations

import os
import sqlite3

from bot.store import Store, migrations


def _version_2(path: str) -> bytes:
    db = sqlite3.connect(path)
    for number, _, sql in migrations()[:2]:
        db.executescript(f"BEGIN;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
    db.execute(
        "INSERT INTO games (id, ruleset, scenario, commitment, secret, created_by, created_at)"
        " VALUES ('old1', 'pfv', 'standard', 'c0ffee', x'00', 'mod', 1.0)"
    )
    db.commit()
    db.close()
    with open(path, "rb") as f:
        return f.read()


async def test_version_2_database_is_copied_byte_for_byte_before_migrating(tmp_path):
    path = str(tmp_path / "umpire.db")
    original = _version_2(path)
    target = len(migrations())
    assert target > 2
    store = await Store.open(path)
    try:
        assert await store.schema_version() == target
        async with store.read() as tx:
            rows = await tx._all("SELECT id FROM games")
        assert [r[0] for r in rows] == ["old1"]
    finally:
        await store.close()
    bak = tmp_path / f"umpire.db.before-v{target}.bak"
    assert bak.read_bytes() == original
    copy = sqlite3.connect(bak)
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 2
    copy.close()
    # opening the upgraded database again takes no second backup
    store = await Store.open(path)
    await store.close()
    assert sorted(p for p in os.listdir(tmp_path) if ".bak" in p) == [bak.name]


async def test_an_earlier_backup_is_kept(tmp_path):
    path = str(tmp_path / "umpire.db")
    _version_2(path)
    target = len(migrations())
    first = tmp_path / f"umpire.db.before-v{target}.bak"
    first.write_bytes(b"from an earlier attempt")
    store = await Store.open(path)
    await store.close()
    assert first.read_bytes() == b"from an earlier attempt"
    assert (tmp_path / f"umpire.db.before-v{target}.2.bak").stat().st_size > 0


async def test_new_and_current_databases_get_no_backup(tmp_path):
    path = str(tmp_path / "umpire.db")
    store = await Store.open(path)
    async with store.write():
        pass  # creates the file at the current version
    await store.close()
    store = await Store.open(path)
    await store.close()
    assert [p for p in os.listdir(tmp_path) if ".bak" in p] == []


async def test_no_backup_no_migration(tmp_path, monkeypatch):
    import bot.backup as backup
    from bot.store import StoreError

    path = str(tmp_path / "umpire.db")
    original = _version_2(path)

    def fails(path: str, target: int) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup, "copy_before_migration", fails)
    try:
        await Store.open(path)
    except StoreError as exc:
        assert "No space left" in str(exc) and "unchanged" in str(exc)
    else:
        raise AssertionError("the store migrated without a backup")
    with open(path, "rb") as f:
        assert f.read() == original
