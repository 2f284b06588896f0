"""ARCHITECTURE: Front ends, Console. What a person at the console sees and may type:
readable positions for both games, pieces by name or id, a move that names its start
hex, the legal orders filtered and by page, the game's own grammar, a map for every game,
line history, and ``umpire play`` going on with the last game."""

from __future__ import annotations

import asyncio
import json
import re
import sys

import pytest

from bot import console
from bot.console_text import PAGE, matching, order_page, with_ids, without_start_hex
from bot.service import Service
from tests.console.conftest import feed, run


def new_game(capsys, db: str, *argv: str) -> str:
    code, out, err = run(capsys, "new", *argv, "--db", db)
    assert code == 0, err
    return out.split()[0]


@pytest.fixture
def pfv(capsys, db) -> str:
    """A PFV game past both set-ups: the Axis moves first (PFV 7)."""
    game = new_game(capsys, db, "pfv")
    for role, text in [("allied", "auto"), ("allied", "done"), ("axis", "auto"), ("axis", "done")]:
        assert run(capsys, "order", game, "--as", role, text, "--db", db)[0] == 0
    return game


@pytest.fixture
def aa(capsys, db) -> str:
    return new_game(capsys, db, "aa-revised")


# -- show -------------------------------------------------------------------------------


def test_pfv_show_prints_each_piece_with_its_id_and_hides_what_the_public_may_not_see(
    capsys, db, pfv
):
    code, out, _ = run(capsys, "show", pfv, "--as", "axis", "--db", db)
    assert code == 0
    assert "  8214 axis: 10th Panzer [10pz] 6-6, Rommel 6" in out  # its name is its id
    code, out, _ = run(capsys, "show", pfv, "--db", db)  # the public
    line = next(text for text in out.splitlines() if text.startswith("  8214 axis"))
    assert line == "  8214 axis: 10th Panzer [10pz] 6-6 and 1 hidden"  # Rommel stays hidden
    assert "rommel" not in out.lower().split("dice commitment")[1]


def test_aa_show_is_one_line_per_territory_with_owner_and_units(capsys, db, aa):
    code, out, _ = run(capsys, "show", aa, "--as", "ussr", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) < 200  # not the 5,000 lines of the raw view
    assert "Round 1, Soviet Union: Develop weapons" in lines
    assert "  Germany (axis): 40 IPC, income 40" in lines
    germany = next(text for text in lines if text.startswith("  Germany [germany]"))
    assert germany == (
        "  Germany [germany] (Germany, 10 IPC, capital, victory city Berlin, industrial "
        "complex): Germany 3 infantry [u49 u50 u51], 2 tanks [u52 u53], 1 aa gun [u54], "
        "1 fighter [u55], 1 bomber [u56]"
    )
    assert "  Sea Zone 5 [sz5]: Germany 1 destroyer [u85], 1 transport [u86], " in out
    code, out, _ = run(capsys, "show", aa, "--json", "--db", db)
    view = json.loads(out)
    assert view["spaces"]["germany"]["units"]["germany"]["infantry"] == 3


def test_aa_show_lists_what_is_waiting_to_be_placed(capsys, db, aa):
    for text in ["done", "buy 3 inf 1 arm"]:
        code, out, err = run(capsys, "order", aa, "--as", "ussr", text, "--db", db)
        assert code == 0, err
    out = run(capsys, "show", aa, "--db", db)[1]
    assert "Waiting to be placed: 3 infantry, 1 tank" in out
    assert "  Soviet Union (allies): 10 IPC, income 24" in out


# -- orders by name, with the start hex ---------------------------------------------------


def test_a_piece_may_be_named_as_show_prints_it_and_a_move_may_give_its_start(capsys, db, pfv):
    code, out, err = run(capsys, "order", pfv, "--as", "axis", "move 10pz 8214 8313", "--db", db)
    assert code == 0, err
    assert out.startswith("5. axis: move 10pz 8313")
    code, out, err = run(
        capsys, "order", pfv, "--as", "axis", "move 21ST PANZER,Tigers 8312", "--db", db
    )
    assert code == 0, err
    assert out.startswith("6. axis: move 21pz,tigers 8312")


def test_a_name_nobody_has_is_refused_as_the_game_refuses_an_unknown_piece(capsys, db, pfv):
    code, _, err = run(capsys, "order", pfv, "--as", "axis", "move 99th Panzer 8313", "--db", db)
    assert code == 2 and err.startswith("umpire: ") and err.count("\n") == 1


def test_names_become_ids_only_as_whole_words():
    names = {"21st panzer": "21pz", "panzer": "pz", "tigers": "tigers"}
    assert with_ids("move 21st Panzer,Tigers 8312", names) == "move 21pz,tigers 8312"
    assert with_ids("move panzerfaust 8312", names) == "move panzerfaust 8312"


def test_only_the_start_hex_of_the_moving_pieces_is_dropped():
    where = {"10pz": "8214", "21pz": "8213", "tigers": "8213"}
    assert without_start_hex("move 10pz 8214 8313", where) == "move 10pz 8313"
    assert without_start_hex("move 21pz,tigers 8213 8312", where) == "move 21pz,tigers 8312"
    assert without_start_hex("move 10pz 8213 8313", where) == "move 10pz 8213 8313"
    assert without_start_hex("move 10pz,21pz 8214 8313", where) == "move 10pz,21pz 8214 8313"
    assert without_start_hex("move 10pz 8214", where) == "move 10pz 8214"


# -- the legal orders, filtered and by page ------------------------------------------------


def test_orders_takes_words_and_names_and_pages(capsys, db, pfv):
    code, out, _ = run(capsys, "orders", pfv, "--db", db)
    first = out.splitlines()
    assert code == 0 and len(first) == PAGE + 1
    total = int(re.search(r"of (\d+), page 1 of", first[-1]).group(1))
    assert total > PAGE
    code, out, _ = run(capsys, "orders", pfv, "10th", "Panzer", "--as", "axis", "--db", db)
    listed = [text.strip() for text in out.splitlines() if text.startswith("  ")]
    assert listed and all(text.startswith("move 10pz ") for text in listed)
    code, out, _ = run(capsys, "orders", pfv, "--as", "axis", "10pz", "8313", "--db", db)
    assert "  move 10pz 8313\n" in out and f"(of {total} legal now)" in out
    code, out, _ = run(capsys, "orders", pfv, "nothing-like-this", "--db", db)
    assert out == "No legal order matches.\n"


def test_order_pages_end_where_the_orders_do():
    orders = [f"move x {n}" for n in range(PAGE + 5)]
    last = order_page(orders, 2)
    assert last[:-1] == [f"  move x {n}" for n in range(PAGE, PAGE + 5)]
    assert "page 2 of 2;" in last[-1] and "'more'" not in last[-1]
    assert order_page(orders, 9) == last  # past the end: the last page
    assert matching(["attack 10pz 8313", "move 10pz 8313"], ["att"]) == ["attack 10pz 8313"]
    assert order_page([], 1) == ["There is no legal order now."]


def test_play_pages_the_orders_with_more_and_shows_the_games_grammar(capsys, db, pfv, monkeypatch):
    feed(monkeypatch, "help", "orders", "more", "orders 10pz 8313", "show", "quit")
    code, out, _ = run(capsys, "play", pfv, "--db", db)
    assert code == 0
    assert "* move PIECE[,PIECE] HEX [HEX ...]" in out  # accepted now
    assert "  place PIECE HEX" in out  # the grammar, not accepted now
    assert "page 2 of" in out
    assert "  move 10pz 8313\n" in out
    assert "10th Panzer [10pz] 6-6" in out


def test_aa_help_shows_its_own_grammar(capsys, db, aa, monkeypatch):
    feed(monkeypatch, "help", "quit")
    out = run(capsys, "play", aa, "--db", db)[1]
    assert "* research TECH DICE (e.g. research jet 2)" in out
    assert "  buy N TYPE [N TYPE ...] (e.g. buy 3 inf 1 arm)" in out


# -- the map of every game -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["pfv", "aa-revised"])
def test_map_at_the_prompt_draws_every_game(capsys, db, tmp_path, monkeypatch, ruleset):
    game = new_game(capsys, db, ruleset)
    monkeypatch.chdir(tmp_path)
    feed(monkeypatch, "map", "quit")
    out = run(capsys, "play", game, "--db", db)[1]
    saved = re.search(r"Map saved to (\S+)\.png\.", out)
    assert saved, out
    png = (tmp_path / f"{saved.group(1)}.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


# -- resuming, history -------------------------------------------------------------------------


def test_play_without_an_id_goes_on_with_the_last_game(capsys, db, monkeypatch):
    first = new_game(capsys, db, "pfv")
    second = new_game(capsys, db, "aa-revised")
    feed(monkeypatch, "quit")
    assert f"Game {second}:" in run(capsys, "play", "--db", db)[1]  # the last one made
    feed(monkeypatch, "quit")
    run(capsys, "play", first, "--db", db)
    feed(monkeypatch, "quit")
    assert f"Game {first}:" in run(capsys, "play", "--db", db)[1]  # the last one played
    run(capsys, "end", first, "--why", "over", "--db", db)
    feed(monkeypatch, "quit")
    assert f"Game {second}:" in run(capsys, "play", "--db", db)[1]  # the newest still going
    run(capsys, "end", second, "--why", "over", "--db", db)
    feed(monkeypatch, "quit")
    out = run(capsys, "play", "--db", db)[1]
    assert first not in out and second not in out  # every game over: a new one
    assert len(run(capsys, "list", "--db", db)[1].splitlines()) == 3


def test_play_remembers_games_per_database(capsys, tmp_path, monkeypatch):
    one, two = str(tmp_path / "one.db"), str(tmp_path / "two.db")
    a = new_game(capsys, one, "pfv")
    b = new_game(capsys, two, "pfv")
    feed(monkeypatch, "quit")
    assert f"Game {a}:" in run(capsys, "play", "--db", one)[1]
    feed(monkeypatch, "quit")
    assert f"Game {b}:" in run(capsys, "play", "--db", two)[1]


def test_the_prompt_keeps_its_history_between_sessions(console_state):
    import readline  # the Pythons Umpire supports on Linux and macOS have it

    readline.clear_history()
    with console.line_editing():
        readline.add_history("move 10pz 8313")
    assert "move 10pz 8313" in (console_state / "history").read_text()
    readline.clear_history()
    with console.line_editing():
        assert readline.get_history_item(readline.get_current_history_length()) == (
            "move 10pz 8313"
        )


def test_the_prompt_works_without_readline(capsys, db, pfv, monkeypatch, console_state):
    monkeypatch.setitem(sys.modules, "readline", None)  # `import readline` fails
    feed(monkeypatch, "show", "quit")
    code, out, _ = run(capsys, "play", pfv, "--db", db)
    assert code == 0 and "10th Panzer [10pz]" in out
    assert not (console_state / "history").exists()


def test_new_help_lists_every_game_with_its_scenarios_and_options(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "new", "--help")
    out = capsys.readouterr().out
    assert "  pfv: Patton's First Victory: Tunisia 1943" in out
    assert "    scenario standard (the default): " in out
    assert "axis_setup_in_8821=true|false (default true): RULINGS R26" in out
    assert "  aa-revised: Axis & Allies Revised" in out
    assert "    scenario four-players: Spring 1942, four players" in out
    assert 'victory_level=minor|major|total (default "minor")' in out


def test_play_without_an_id_never_takes_over_a_game_made_elsewhere(capsys, db, monkeypatch):
    async def discord_game() -> str:
        service = await Service.open(db)
        try:
            created = await service.create("pfv", created_by="alice", scenario="standard")
            return created.game
        finally:
            await service.close()

    theirs = asyncio.run(discord_game())
    feed(monkeypatch, "quit")
    out = run(capsys, "play", "--db", db)[1]
    assert theirs not in out and "Game " in out
    assert len(run(capsys, "list", "--db", db)[1].splitlines()) == 2
