"""The README's console examples work as written: each ``umpire`` line of the block under
"Playing in the console" is run in order, ``GAME`` standing for the id ``umpire new``
printed, and must succeed; the order examples quoted in the prose must parse."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import engine
from bot.console_text import grammar
from tests.console.conftest import feed, run

README = Path(__file__).resolve().parents[2] / "README.md"


def console_examples() -> list[list[str]]:
    """The command lines of the README's console block, comments removed, split as a
    shell would split them."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Playing in the console", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    out = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "umpire", line
            out.append(words[1:])
    return out


def test_the_readme_console_examples_run_as_written(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    examples = console_examples()
    assert len(examples) >= 15
    game = None
    for argv in examples:
        if game:
            argv = [game if word == "GAME" else word for word in argv]
        if "--db" not in argv:
            argv = [*argv, "--db", str(tmp_path / "umpire.db")]
        if argv[0] == "play":
            feed(monkeypatch, "help", "quit")
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, out, err)
        if argv[0] == "new":
            game = out.split()[0]
        if argv[0] == "play":
            assert f"Game {game}:" in out  # `umpire play` without an id went on with it
    assert (tmp_path / "map.png").stat().st_size > 1000
    assert (tmp_path / "game.json").exists() and (tmp_path / "other.db").exists()


def test_the_order_examples_in_the_prose_parse():
    text = README.read_text(encoding="utf-8")
    section = text.split("## Playing in the console", 1)[1].split("\n## ", 1)[0]
    prose = section.rsplit("```", 1)[1].split("starts Axis & Allies", 1)[1]
    aa_prose, pfv_prose = prose.split("Orders in Patton's First Victory:")
    aa = engine.ruleset("aa-revised")
    quoted = re.findall(r"`((?:buy|move|attack) [^`]*)`", aa_prose)
    assert quoted == ["buy 3 inf 1 arm", "move 2 inf ukraine caucasus", "attack caucasus"]
    for example in quoted:
        assert aa.parse_order(example).verb == example.split()[0]
    # the PFV forms are the grammar's own (the game's usage table), verb by verb
    usage_verbs = {line.split()[0] for line in grammar(engine.ruleset("pfv"))}
    verbs = re.findall(r"`(\w+)", pfv_prose.split("At the prompt")[0])
    assert len(verbs) == 12 and set(verbs) == usage_verbs
