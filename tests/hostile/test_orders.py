"""Issue 10, item 1: order text never crashes a parser, a refusal quotes a short excerpt,
and no refused order prints a traceback on the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.core.errors import OrderSyntaxError
from engine.core.orders import MAX_ORDER_TEXT, excerpt, read_count
from tests.hostile.fuzz import MAX_REFUSAL, fuzz_orders

CASES = int(os.environ.get("UMPIRE_FUZZ_CASES", "300"))
#: the `umpire` command in a fresh process (as the installed script runs it)
RUN = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def refusal(ruleset_id: str, text: str) -> str:
    with pytest.raises(OrderSyntaxError) as caught:
        engine.ruleset(ruleset_id).parse_order(text)
    return caught.value.message


@pytest.mark.parametrize(
    "text",
    [
        "buy ² inf",
        "research jet ²",
        "casualties 1① arm",
        "buy 1① inf",
        "buy ３ inf",  # fullwidth 3
        "research jet ٣",  # Arabic-Indic 3
        "buy " + "9" * 5000 + " inf",
        "buy " + "9" * 30 + " inf",
        "research jet " + "9" * 5000,
        "move u" + "9" * 5000 + " germany poland",
        "move u٣ germany karelia",
    ],
)
def test_aa_revised_counts_in_other_digits_or_thousands_of_digits_are_refused(text):
    message = refusal("aa-revised", text)
    assert len(message) < MAX_REFUSAL


def test_pfv_hexes_must_be_written_in_the_digits_0_to_9():
    assert "is not a hex number" in refusal("pfv", "move 1arm ８１１３ ８１１４")


@pytest.mark.parametrize(
    "text", ["move , 8415 8314", "move/,,/8306/8407", "advance ,", "advance ,,"]
)
def test_pfv_a_group_of_no_pieces_is_refused(text):
    """The fuzz found these passing the parser with no piece, and the rules failing on them."""
    assert "piece" in refusal("pfv", text)


@pytest.mark.parametrize("ruleset_id", engine.available())
@pytest.mark.parametrize(
    "text",
    ["x" * 1_000_000, "move " + "y" * 1_000_000, "buy 1 " + "inf " * 300_000, "loss " + "z" * 5000],
)
def test_a_refusal_quotes_at_most_a_short_excerpt(ruleset_id, text):
    message = refusal(ruleset_id, text)
    assert len(message) < MAX_REFUSAL
    assert "x" * 30 not in message and "y" * 30 not in message and "z" * 30 not in message


def test_the_excerpt_and_the_count_reader():
    assert excerpt("move 1arm 8113") == "'move 1arm 8113'"
    assert excerpt("a" * 1000) == "'" + "a" * 24 + "...'"
    assert read_count("12", ValueError) == 12
    for word in ("²", "1①", "٣", "9" * 7):
        with pytest.raises(ValueError):
            read_count(word, ValueError)


def test_an_order_of_the_longest_allowed_length_still_parses():
    text = "move 1arm " + " ".join(["8113"] * ((MAX_ORDER_TEXT - 10) // 5))
    assert len(text) <= MAX_ORDER_TEXT
    assert engine.ruleset("pfv").parse_order(text).verb == "move"


def test_every_game_parser_gives_only_refusals_under_fuzz():
    found = fuzz_orders(CASES, seed=3)
    assert found.cases == CASES * len(engine.available())
    assert found.failures == []


def _umpire(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("UMPIRE_DEBUG", "UMPIRE_ERROR_LOG")}
    env["UMPIRE_ERROR_LOG"] = str(tmp_path / "errors.log")
    return subprocess.run(
        [sys.executable, "-c", RUN, *args, "--db", str(tmp_path / "u.db")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


def test_a_refused_order_prints_one_sentence_and_no_traceback(tmp_path):
    new = _umpire(tmp_path, "new", "aa-revised")
    assert new.returncode == 0, new.stderr
    game = new.stdout.split()[0]
    for text in ("buy ² inf", "research jet ²", "casualties 1① arm", "buy " + "9" * 5000 + " inf"):
        done = _umpire(tmp_path, "order", game, "--as", "ussr", text)
        assert done.returncode == 2, (text, done.stderr)
        assert "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and len(done.stderr) < MAX_REFUSAL + 100
    assert not (tmp_path / "errors.log").exists()  # a refusal is not a bug
    assert not (tmp_path / "umpire-errors.log").exists()


def test_a_bug_behind_an_order_goes_to_the_error_log_not_the_terminal(tmp_path):
    """A parser that fails unexpectedly is still one sentence for the player; the
    service's log of the bug goes to the error log file."""
    new = _umpire(tmp_path, "new", "pfv")
    game = new.stdout.split()[0]
    script = (
        "import sys, engine.games.pfv.rules as r\n"
        "def boom(self, text): raise RuntimeError('a parser bug')\n"
        "r.PattonsFirstVictory.parse_order = boom\n"
        "from bot.cli import main\n"
        f"sys.exit(main(['order', {game!r}, '--as', 'allied', 'done', '--db', 'u.db']))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "UMPIRE_DEBUG"}
    env["UMPIRE_ERROR_LOG"] = str(tmp_path / "errors.log")
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    logged = (tmp_path / "errors.log").read_text()
    assert "a parser bug" in logged and "Traceback" in logged
