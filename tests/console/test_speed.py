"""Issue 9 item 5 (every console command in under 300 ms): the shortcuts taken for it
change nothing a command prints or writes. The map is drawn from the base layer's copy on
disk in a new process, the export's rows are read field by field, and a database file never
loads the PostgreSQL driver."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

import renderer
from bot.console import _db_key
from bot.service import ExportRoll, Service
from bot.service_fuzz import play_random
from renderer import base
from tests.console.conftest import feed, run

ROOT = Path(__file__).resolve().parents[2]


def _new_game(capsys, db: str, ruleset: str) -> str:
    code, out, err = run(capsys, "new", ruleset, "--db", db)
    assert code == 0, err
    return out.split()[0]


def _map(capsys, monkeypatch, db: str, game: str, folder: Path) -> bytes:
    monkeypatch.chdir(folder)
    feed(monkeypatch, "map", "quit")
    out = run(capsys, "play", game, "--db", db)[1]
    saved = re.search(r"Map saved to (\S+\.png)\.", out)
    assert saved, out
    return (folder / saved.group(1)).read_bytes()


def test_the_map_of_a_new_process_comes_from_the_disk_copy_and_is_the_same(
    capsys, db, tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    renderer.clear_cache()
    game = _new_game(capsys, db, "pfv")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _map(capsys, monkeypatch, db, game, tmp_path / "a")
    assert list((tmp_path / "cache" / "umpire" / "base").glob("*.layer"))

    renderer.clear_cache()  # a new process: nothing in memory, and no drawing allowed

    def no_draw(*args, **kwargs):
        raise AssertionError("the base layer was drawn again")

    monkeypatch.setattr(base, "draw_base", no_draw)
    try:
        assert _map(capsys, monkeypatch, db, game, tmp_path / "b") == first
    finally:
        renderer.clear_cache()


def test_export_rows_hold_every_field_of_the_log_but_game_and_chain(tmp_path):
    async def main() -> tuple[list, list]:
        service = await Service.open(str(tmp_path / "x.db"))
        try:
            created = await service.create(
                "pfv",
                created_by="t",
                scenario="standard",
                seats={"allied": "console", "axis": "console"},
                secret=bytes(32),
            )
            await service.start(created.game, "t")
            played = await play_random(service, created.game, random.Random(3), 60, user="console")
            assert played >= 20
            data = await service.export(created.game, with_secret=True)
            async with service.store.read() as tx:
                rows = await tx.log_entries(created.game)
            return data["actions"], rows
        finally:
            await service.close()

    exported, rows = asyncio.run(main())
    expected = []
    for row in rows:
        d = {k: v for k, v in asdict(row).items() if k not in ("game", "chain")}
        d["rolls"] = [ExportRoll(**r).model_dump(mode="json") for r in d["rolls"]]
        expected.append(d)
    assert exported == expected
    assert any(a["rolls"] for a in exported)  # the comparison covers dice too


def test_the_last_game_of_a_file_is_noted_without_loading_the_postgresql_driver(tmp_path):
    script = (
        "import sys\n"
        "from bot.console import remember_game\n"
        f"remember_game({str(tmp_path / 'u.db')!r}, 'g1')\n"
        "print('psycopg' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": ""},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    assert "g1" in (tmp_path / "state" / "umpire" / "last-games.json").read_text()


@pytest.mark.parametrize(
    ("db", "key"),
    [
        ("postgresql://ann:pw@host/umpire", "postgresql://ann:***@host/umpire"),
        ("postgres://host/umpire", "postgres://host/umpire"),
    ],
)
def test_a_postgresql_url_is_still_named_without_its_password(db, key):
    assert _db_key(db) == key


def test_a_database_file_is_named_by_its_full_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _db_key("u.db") == str(tmp_path.resolve() / "u.db")
