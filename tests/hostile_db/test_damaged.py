"""Damaged, foreign, read-only and locked databases (issue 10 item 3).

Each case goes through the console command (``bot.cli.main``, as ``umpire`` runs it) and
must end in one sentence that says what is wrong with the file, never in "something went
wrong" (exit 70); a database Umpire did not write is left byte for byte as it was, and a
command that only reads creates no database at a mistyped path.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tests.service.toy  # noqa: F401  (registers the "toy" ruleset)
from bot.cli import main

INTERNAL = 70


@pytest.fixture(autouse=True)
def error_log(tmp_path, monkeypatch):
    """Internal errors are logged to a file of the test, never to the working folder."""
    path = tmp_path / "umpire-errors.log"
    monkeypatch.setenv("UMPIRE_ERROR_LOG", str(path))
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)
    return path


class Console:
    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self.capsys = capsys

    def __call__(self, db: Path, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main([args[0], "--db", str(db), *args[1:]])
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def umpire(capsys) -> Console:
    return Console(capsys)


def new_game(umpire: Console, db: Path) -> str:
    code, out, err = umpire(db, "new", "toy")
    assert code == 0, err
    return out.split()[0]


def refused(result: tuple[int, str, str], *words: str) -> str:
    """A refusal: exit 2 and one line on stderr that contains ``words``."""
    code, _, err = result
    assert code == 2, (code, err)
    assert err.startswith("umpire: ") and err.count("\n") == 1, err
    assert "went wrong" not in err
    for word in words:
        assert word in err, err
    return err


@pytest.fixture
def played(tmp_path, umpire) -> tuple[Path, str]:
    """A small database with one toy game four orders in, its log checkpointed."""
    db = tmp_path / "umpire.db"
    game = new_game(umpire, db)
    for role, order in (("north", "take 1"), ("south", "gamble"), ("north", "take 2")):
        code, _, err = umpire(db, "order", game, "--as", role, *order.split())
        assert code == 0, err
    assert not Path(f"{db}-wal").exists()  # the last close checkpointed the log
    return db, game


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_reading_command_creates_no_database_at_a_mistyped_path(tmp_path, umpire):
    typo = tmp_path / "umpyre.db"
    assert umpire(typo, "list") == (0, "", "")
    refused(umpire(typo, "show", "abc"), "There is no game 'abc'")
    refused(umpire(typo, "log", "abc"))
    refused(umpire(typo, "export", "abc"))
    assert list(tmp_path.glob("umpyre*")) == []
    new_game(umpire, typo)  # a command that writes does create it
    assert typo.exists()
    refused(umpire(tmp_path / "no-such-folder" / "x.db", "new", "toy"), "cannot be opened")


def test_a_database_of_another_program_is_refused_untouched(tmp_path, umpire):
    db = tmp_path / "notes.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    con.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    con.commit()
    con.close()
    before = sha(db)
    for args in (("list",), ("new", "toy"), ("show", "x")):
        refused(umpire(db, *args), "another program", "untouched")
    assert sha(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]
    # ... and so is a file that is not a database at all
    text = tmp_path / "notes.txt"
    text.write_text("these are my notes, not a database\n" * 200)
    refused(umpire(text, "list"), "not an SQLite database")
    refused(umpire(text, "new", "toy"), "not an SQLite database")
    assert text.read_text().startswith("these are my notes")


def test_a_database_marked_by_another_program_is_refused(tmp_path, umpire):
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA application_id = 42")
    con.execute("PRAGMA user_version = 3")
    con.commit()
    con.close()
    before = sha(db)
    refused(umpire(db, "new", "toy"), "another program")
    assert sha(db) == before
    # a schema version of its own but not Umpire's tables: another program's too
    versioned = tmp_path / "versioned.db"
    con = sqlite3.connect(versioned)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()
    before = sha(versioned)
    refused(umpire(versioned, "new", "toy"), "another program")
    assert sha(versioned) == before


def test_a_dropped_column_or_table_is_named(played, umpire):
    db, game = played
    second = db.with_name("second.db")
    shutil.copy(db, second)
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE games DROP COLUMN deadline_policy")
    con.commit()
    con.close()
    refused(umpire(db, "list"), "no column games.deadline_policy")
    refused(umpire(db, "order", game, "--as", "south", "take", "1"), "games.deadline_policy")
    con = sqlite3.connect(second)
    con.execute("DROP TABLE notifications")
    con.commit()
    con.close()
    refused(umpire(second, "show", game), "no table notifications")


@pytest.fixture
def read_only(played):
    """The database file made read-only: ``chattr +i`` for root (who may write any file
    that is merely chmod 444), ``chmod 444`` for anyone else."""
    db, _ = played
    if os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(db)], capture_output=True)
        assert done.returncode == 0, f"cannot make a read-only file here: {done.stderr!r}"
        yield played
        subprocess.run(["chattr", "-i", str(db)], check=True)
    else:
        db.chmod(0o444)
        yield played
        db.chmod(0o644)


def test_a_read_only_database_reads_and_refuses_writes_in_a_sentence(read_only, umpire):
    db, game = read_only
    before = sha(db)
    code, out, err = umpire(db, "show", game)
    assert code == 0 and f"Game {game}" in out, err
    assert umpire(db, "list")[0] == 0
    assert umpire(db, "log", game)[0] == 0
    refused(umpire(db, "order", game, "--as", "south", "take", "1"), "read-only", "nothing")
    refused(umpire(db, "new", "toy"), "read-only")
    refused(umpire(db, "undo", game, "--as", "north"), "read-only")
    assert sha(db) == before


def test_a_database_locked_by_another_process_is_busy_after_a_short_wait(played, umpire):
    db, game = played
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"con = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "con.execute('BEGIN IMMEDIATE')\n"
            "print('locked', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        started = time.monotonic()
        err = refused(
            umpire(db, "order", game, "--as", "south", "take", "1"),
            "busy (locked by another process)",
        )
        waited = time.monotonic() - started
        assert waited < 5, f"waited {waited:.1f} s for the lock"
        assert "nothing was changed" in err
        code, out, _ = umpire(db, "show", game)  # reading still works meanwhile
        assert code == 0 and "action 3" in out
    finally:
        holder.communicate("")
    code, out, err = umpire(db, "order", game, "--as", "south", "take", "1")
    assert code == 0, err


def flip_trials(
    umpire: Console, db: Path, commands: list[tuple[str, ...]], trials: int, seed: int
) -> dict[int, int]:
    """Copies of ``db`` with 1 to 4 random bits flipped, each given ``commands``: every
    command ends in 0 or in a refusal (2), never in an internal error. The exit codes."""
    pristine = db.read_bytes()
    rng = random.Random(seed)
    codes: dict[int, int] = {}
    for trial in range(trials):
        data = bytearray(pristine)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
        copy = db.with_name(f"flip{trial}.db")
        copy.write_bytes(bytes(data))
        for args in commands:
            code, _, err = umpire(copy, *args)
            codes[code] = codes.get(code, 0) + 1
            assert code != INTERNAL and "went wrong" not in err, (trial, args, err)
            assert code in (0, 2), (trial, args, code, err)
        for leftover in db.parent.glob(f"flip{trial}.db*"):
            leftover.unlink()
    return codes


def test_byte_flipped_databases_give_a_sentence_never_an_internal_error(played, umpire, error_log):
    """150 copies of a small database (seeded), each read and written by the console."""
    db, game = played
    started = time.monotonic()
    commands = [
        ("list",),
        ("show", game),
        ("log", game),
        ("order", game, "--as", "south", "take", "1"),
        ("undo", game, "--as", "south"),
        ("export", game),
    ]
    codes = flip_trials(umpire, db, commands, 150, seed=20261124)
    assert not error_log.exists()
    assert codes.get(2, 0) > 0 and codes.get(0, 0) > 0  # some flips did damage, some not
    assert time.monotonic() - started < 120


def test_byte_flipped_pfv_databases_give_a_sentence(tmp_path, umpire, error_log):
    """A real game's saved state is large JSON: flips land in it and in its log."""
    db = tmp_path / "pfv.db"
    code, out, err = umpire(db, "new", "pfv")
    assert code == 0, err
    game = out.split()[0]
    for role, order in (("allied", "auto"), ("allied", "done"), ("axis", "auto")):
        code, _, err = umpire(db, "order", game, "--as", role, order)
        assert code == 0, err
    commands = [("show", game), ("order", game, "--as", "axis", "done"), ("export", game)]
    codes = flip_trials(umpire, db, commands, 40, seed=5)
    assert not error_log.exists()
    assert codes.get(2, 0) > 0
