"""ARCHITECTURE: Front ends, Console. The ``umpire`` commands over a real database file:
what they print, and that bad input is one sentence, a non-zero exit and no change."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.cli import main


def umpire(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fingerprint(db: str) -> str:
    con = sqlite3.connect(db)
    try:
        return "\n".join(con.iterdump())
    finally:
        con.close()


def refused(capsys, db: str, *argv: str) -> str:
    """Run a command that must be refused; its one-sentence message."""
    before = fingerprint(db)
    code, out, err = umpire(capsys, *argv, "--db", db)
    assert code != 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("umpire: "), err
    assert "Traceback" not in err + out
    assert fingerprint(db) == before
    return lines[0]


@pytest.fixture(autouse=True)
def console_state(tmp_path, monkeypatch):
    """The console's history and last-game files go to a temporary folder."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def game(capsys, db_path) -> str:
    code, out, _ = umpire(capsys, "new", "toy", "--option", "pile=30", "--db", db_path)
    assert code == 0
    return out.split()[0]


def test_new_prints_the_game_id_and_commitment_and_list_puts_the_id_first(capsys, db_path):
    code, out, _ = umpire(capsys, "new", "toy", "--db", db_path)
    assert code == 0
    game = out.split()[0]
    commitment = out.split("secret): ")[1].strip()
    assert len(commitment) == 64
    code, out, _ = umpire(capsys, "list", "--db", db_path)
    assert out.splitlines()[0].split()[:4] == [game, "toy", "standard", "active"]
    code, out, _ = umpire(capsys, "show", game, "--db", db_path)
    assert f"Dice commitment: {commitment}" in out


def test_order_show_log_and_undo(capsys, db_path, game):
    code, out, _ = umpire(capsys, "order", game, "--as", "north", "take", "2", "--db", db_path)
    assert code == 0
    assert out.splitlines()[:2] == ["1. north: take 2", "  north takes 2; pile 28."]
    code, out, _ = umpire(capsys, "show", game, "--as", "south", "--db", db_path)
    assert '"pile": 28' in out and '"south"' in out and '"north":' not in out.split("{", 1)[1]
    code, out, _ = umpire(capsys, "undo", game, "--as", "north", "--db", db_path)
    assert out.startswith("Took back action 1 (north: take 2).")
    code, out, _ = umpire(capsys, "log", game, "--all", "--db", db_path)
    assert out.splitlines()[0] == "   1. north: take 2 (undone)"
    code, out, _ = umpire(capsys, "log", game, "--db", db_path)
    assert out == ""


def test_rollback_by_action_and_by_turn(capsys, db_path, game):
    for role, text in [
        ("north", "take 1"),
        ("south", "take 1"),
        ("north", "take 2"),
        ("south", "take 1"),
    ]:
        assert umpire(capsys, "order", game, "--as", role, text, "--db", db_path)[0] == 0
    code, out, _ = umpire(
        capsys, "rollback", game, "--turn", "2", "--why", "redo turn 2", "--db", db_path
    )
    assert out.startswith(f"Rolled game {game} back from action 4 to 2: redo turn 2")
    code, out, _ = umpire(
        capsys, "rollback", game, "--to", "0", "--why", "restart", "--db", db_path
    )
    assert code == 0 and "[action 0]" in out


def test_play_is_hot_seat_until_the_game_ends(capsys, db_path, monkeypatch):
    code, out, _ = umpire(capsys, "new", "toy", "--option", "pile=4", "--db", db_path)
    game = out.split()[0]
    lines = iter(["help", "take 3", "accept", "orders", "undo", "log", "accept", "take 1"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(lines))
    code, out, _ = umpire(capsys, "play", game, "--db", db_path)
    assert code == 0
    assert "undo   take back your last order" in out
    assert "south: accept or refuse the take of 3." in out
    assert "  take 1\n  gamble\n  peek\n" in out  # the legal orders, after the accept
    assert "Took back action 2 (south: accept)." in out
    assert "   1. north: take 3\n" in out
    assert "Game over: south took the last stone." in out
    assert "Dice secret: " in out
    assert umpire(capsys, "verify", game, "--db", db_path)[0] == 0


def test_play_map_without_a_hex_map_says_so(capsys, db_path, game, monkeypatch):
    lines = iter(["map", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(lines))
    code, out, _ = umpire(capsys, "play", game, "--db", db_path)
    assert "This game has no map to draw." in out or "renderer is not installed" in out


def test_play_without_a_game_starts_a_new_pfv_game(capsys, tmp_path, monkeypatch):
    db = str(tmp_path / "default.db")
    monkeypatch.setenv("UMPIRE_DB", db)
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    code, out, err = umpire(capsys, "play")
    assert code == 0
    assert umpire(capsys, "list")[1].split()[1] == "pfv"


def test_export_verify_and_import_round_trip(capsys, db_path, tmp_path, game):
    for role, text in [("north", "gamble"), ("south", "take 3"), ("north", "refuse")]:
        umpire(capsys, "order", game, "--as", role, text, "--db", db_path)
    umpire(capsys, "end", game, "--why", "test over", "--db", db_path)
    code, out, _ = umpire(capsys, "export", game, "--db", db_path)
    data = json.loads(out)
    assert data["secret"] and len(data["actions"]) == 3
    path = tmp_path / "game.json"
    path.write_text(out)
    code, out, _ = umpire(capsys, "verify", str(path))
    assert code == 0 and "checks out: 3 log entries replayed" in out
    other = str(tmp_path / "other.db")
    code, out, _ = umpire(capsys, "import", str(path), "--db", other)
    assert code == 0 and out.startswith(f"{game} imported")
    assert umpire(capsys, "verify", game, "--db", other)[0] == 0
    a = json.loads(umpire(capsys, "export", game, "--db", db_path)[1])
    b = json.loads(umpire(capsys, "export", game, "--db", other)[1])
    assert a["actions"] == b["actions"] and a["secret"] == b["secret"]


def _tamper_check(capsys, tmp_path, data: dict, problem: str) -> None:
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    code, out, err = umpire(capsys, "verify", str(path))
    assert code != 0 and "does not check out" in err
    assert problem in out


@pytest.fixture
def finished_export(capsys, db_path, game) -> dict:
    for role, text in [
        ("north", "gamble"),
        ("south", "take 3"),
        ("north", "refuse"),
        ("north", "gamble"),
    ]:
        umpire(capsys, "order", game, "--as", role, text, "--db", db_path)
    umpire(capsys, "end", game, "--why", "test over", "--db", db_path)
    return json.loads(umpire(capsys, "export", game, "--db", db_path)[1])


def test_verify_detects_one_altered_roll(capsys, tmp_path, finished_export):
    data = finished_export
    roll = data["actions"][0]["rolls"][0]
    roll["value"] = roll["value"] % 6 + 1
    _tamper_check(
        capsys, tmp_path, data, f"roll 1 (d6) is {roll['value']} in the log, but the secret gives"
    )


def test_verify_detects_one_altered_setup_roll(capsys, tmp_path, finished_export):
    data = finished_export
    data["setup_rolls"][1]["value"] = data["setup_rolls"][1]["value"] % 6 + 1
    _tamper_check(capsys, tmp_path, data, "The set-up: roll 2 (d6)")


def test_verify_detects_one_altered_action(capsys, tmp_path, finished_export):
    data = finished_export
    data["actions"][1]["order"] = {"verb": "take", "count": 2}
    _tamper_check(capsys, tmp_path, data, "Action 2 (log entry 2): replaying it gives other events")


def test_verify_detects_a_removed_action(capsys, tmp_path, finished_export):
    data = finished_export
    del data["actions"][1]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    code, out, err = umpire(capsys, "verify", str(path))
    assert code == 2 and out == ""
    assert err == (
        "umpire: The export is damaged: it stands at action 4, but its log has 3 entries.\n"
    )


def test_verify_detects_a_replaced_secret(capsys, tmp_path, finished_export):
    data = finished_export
    data["secret"] = "00" * 32
    _tamper_check(capsys, tmp_path, data, "does not match the commitment")


# -- bad input: one sentence, non-zero exit, nothing changed ------------------------------


def test_every_command_refuses_a_missing_game(capsys, db_path, game):
    for argv in [
        ("order", "nope", "--as", "north", "take 1"),
        ("show", "nope"),
        ("log", "nope"),
        ("undo", "nope", "--as", "north"),
        ("rollback", "nope", "--to", "0", "--why", "x"),
        ("end", "nope", "--why", "x"),
        ("verify", "nope"),
        ("export", "nope"),
    ]:
        assert refused(capsys, db_path, *argv) == "umpire: There is no game 'nope'."


def test_order_as_the_wrong_role_is_refused(capsys, db_path, game):
    message = refused(capsys, db_path, "order", game, "--as", "south", "take 1")
    assert "It is north's decision now" in message
    message = refused(capsys, db_path, "order", game, "--as", "east", "take 1")
    assert "'east' is not a role" in message


def test_malformed_order_is_refused(capsys, db_path, game):
    message = refused(capsys, db_path, "order", game, "--as", "north", "take many")
    assert message == "umpire: take needs one number. (Toy 2) Write take 2, for example."


def test_stale_order_is_refused(capsys, db_path, game):
    umpire(capsys, "order", game, "--as", "north", "take 1", "--db", db_path)
    message = refused(capsys, db_path, "order", game, "--as", "south", "take 1", "--seen", "0")
    assert "written at action 0, but game" in message and "moved on to action 1" in message


def test_rollback_target_out_of_range_is_refused(capsys, db_path, game):
    umpire(capsys, "order", game, "--as", "north", "take 1", "--db", db_path)
    assert "from 0 to 0, not 5" in refused(
        capsys, db_path, "rollback", game, "--to", "5", "--why", "x"
    )
    assert "not turn 7" in refused(capsys, db_path, "rollback", game, "--turn", "7", "--why", "x")


def test_undo_that_is_not_allowed_is_refused(capsys, db_path, game):
    umpire(capsys, "order", game, "--as", "north", "gamble", "--db", db_path)
    assert "because it rolled dice" in refused(capsys, db_path, "undo", game, "--as", "north")


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not JSON"),
        ('{"format": "chess-pgn"}', "not an Umpire game export"),
        ('{"format": "umpire-game", "format_version": 1}', "The export is damaged at 'game'"),
    ],
)
def test_corrupt_import_file_is_refused(capsys, db_path, tmp_path, game, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert message in refused(capsys, db_path, "import", str(path))


def test_import_of_a_tampered_or_duplicate_game_is_refused(
    capsys, db_path, tmp_path, finished_export
):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_export))
    assert "already exists" in refused(capsys, db_path, "import", str(path))
    finished_export["actions"][0]["rolls"][0]["value"] = (
        finished_export["actions"][0]["rolls"][0]["value"] % 6 + 1
    )
    finished_export["game"]["id"] = "fresh"
    path.write_text(json.dumps(finished_export))
    assert "does not check out" in refused(capsys, db_path, "import", str(path))
    assert "cannot read" in refused(capsys, db_path, "import", str(tmp_path / "missing.json"))


def test_verify_of_an_unfinished_game_is_refused(capsys, db_path, game):
    assert "has not ended" in refused(capsys, db_path, "verify", game)
