"""Issue 9 item 5 (every console command in under 300 ms): the cycle collector is paused
while a command's modules are imported and their objects are then set aside, and the
process goes on with the collector as it found it."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from tests.console.conftest import run

ROOT = Path(__file__).resolve().parents[2]


def test_a_command_leaves_the_collector_on(capsys, db):
    assert gc.isenabled()
    code, _, err = run(capsys, "list", "--db", db)
    assert code == 0, err
    assert gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off(capsys, db):
    gc.disable()
    try:
        code, _, err = run(capsys, "list", "--db", db)
        assert code == 0, err
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_new_process_sets_its_imports_aside_and_still_collects_cycles(tmp_path):
    script = (
        "import gc, sys\n"
        "from bot.cli import main\n"
        f"main(['list', '--db', {str(tmp_path / 'u.db')!r}])\n"
        "frozen = gc.get_freeze_count()\n"
        "class Node: pass\n"
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "del a, b\n"
        "print(frozen > 10000, gc.isenabled(), gc.collect() >= 2)\n"
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
    assert done.stdout.split() == ["True", "True", "True"]


def test_run_as_a_module_a_refusal_is_a_sentence_not_an_internal_error(tmp_path):
    """``python -m bot.cli`` (how the bench runs commands) once lost its refusals: the
    commands raised ``bot.cli.UserError`` while ``__main__`` caught its own copy."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "show", "nosuch", "--db", str(tmp_path / "u.db")],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "UMPIRE_HOME": str(tmp_path), "UMPIRE_ERROR_LOG": str(tmp_path / "e.log")},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "There is no game 'nosuch'" in done.stderr
    assert "went wrong" not in done.stderr and not (tmp_path / "e.log").exists()
