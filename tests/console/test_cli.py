"""``umpire`` imports only what the command being run needs: no Discord for the console,
no renderer unless a map is drawn, no game for ``--help``."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot import cli

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("discord", "aiohttp", "PIL", "renderer", "engine.games.")


def imported_by(*argv: str, cwd: Path) -> tuple[int, list[str], str]:
    """Run ``umpire ARGV`` in a fresh interpreter: its exit code, the heavy modules it
    imported, and its output."""
    code = (
        "import json, sys\n"
        "from bot.cli import main\n"
        "try:\n"
        f"    rc = main({list(argv)!r})\n"
        "except SystemExit as e:\n"
        "    rc = e.code\n"
        "def group(m):\n"
        "    parts = m.split('.')\n"
        "    return '.'.join(parts[:3]) if m.startswith('engine.games.') else parts[0]\n"
        f"heavy = sorted({{group(m) for m in sys.modules if m.startswith({HEAVY!r})}})\n"
        "print('\\n@@' + json.dumps([rc, heavy]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "XDG_STATE_HOME": str(cwd)},
        timeout=120,
    )
    out, _, tail = proc.stdout.rpartition("\n@@")
    rc, heavy = json.loads(tail)
    return rc, heavy, out + proc.stderr


def test_help_imports_no_front_end_and_no_game(tmp_path):
    rc, heavy, out = imported_by("--help", cwd=tmp_path)
    assert rc == 0 and heavy == [], heavy
    for command in ("play", "show", "orders", "render", "odds", "bot", "datapack"):
        assert f"    {command}" in out


def test_console_commands_import_neither_discord_nor_the_renderer(tmp_path):
    db = str(tmp_path / "u.db")
    rc, heavy, out = imported_by("new", "pfv", "--db", db, cwd=tmp_path)
    assert rc == 0, out
    assert heavy == ["engine.games.pfv"], heavy
    game = out.split()[0]
    for argv in (["list"], ["show", game], ["orders", game], ["log", game]):
        rc, heavy, out = imported_by(*argv, "--db", db, cwd=tmp_path)
        assert rc == 0, out
        assert not [m for m in heavy if m in ("discord", "aiohttp", "PIL", "renderer")], argv


def test_the_help_table_lists_what_each_module_registers():
    """``COMMANDS`` stands in for the modules in ``umpire --help``: it must name exactly
    the sub-commands each registers, with the same help line."""
    for name in cli.COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(name).register(sub)
        registered = {a.dest: a.help for a in sub._choices_actions}
        assert registered == cli.COMMANDS[name], name


def test_an_unknown_command_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as caught:
        cli.main(["shwo"])
    assert caught.value.code == 2
    assert "invalid choice: 'shwo'" in capsys.readouterr().err
