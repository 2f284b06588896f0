"""Games created before the rulings were re-read replay with the defaults they were played
with (RULINGS R14, R17, R22, R24-R26, R32; migration 0005)."""

from __future__ import annotations

import json
import sqlite3
from importlib import resources

from engine.games.pfv.options import REVISION_1_DEFAULTS, Options


def test_new_games_take_the_rulings_as_they_read_now():
    opts = Options.model_validate({})
    assert opts.rules_revision == 2
    assert opts.battlegroup_recycled is False and opts.control_by_transit is False
    assert opts.axis_setup_in_8821 is True and opts.rommel_ports == "occupied"


def test_a_revision_1_game_takes_the_old_defaults_but_keeps_what_was_chosen():
    opts = Options.model_validate({"rules_revision": 1, "rommel_ports": "occupied"})
    for name, old in REVISION_1_DEFAULTS.items():
        expected = "occupied" if name == "rommel_ports" else old
        assert getattr(opts, name) == expected, name


def test_migration_0005_marks_old_pfv_games_and_their_snapshots_only():
    sql = resources.files("migrations").joinpath("0005_pfv_rules_revision.sql").read_text()
    db = sqlite3.connect(":memory:")
    db.executescript(
        "CREATE TABLE games (id TEXT, ruleset TEXT, options TEXT);"
        "CREATE TABLE snapshots (game TEXT, state TEXT);"
    )
    db.executemany(
        "INSERT INTO games VALUES (?, ?, ?)",
        [("p", "pfv", "{}"), ("a", "aa-revised", "{}"), ("q", "pfv", '{"rules_revision": 2}')],
    )
    db.executemany(
        "INSERT INTO snapshots VALUES (?, ?)",
        [("p", json.dumps({"options": {"open_information": False}})), ("a", '{"options": {}}')],
    )
    db.executescript(sql)
    options = dict(db.execute("SELECT id, options FROM games"))
    assert json.loads(options["p"]) == {"rules_revision": 1}
    assert json.loads(options["a"]) == {}
    assert json.loads(options["q"]) == {"rules_revision": 2}
    states = dict(db.execute("SELECT game, state FROM snapshots"))
    assert json.loads(states["p"])["options"]["rules_revision"] == 1
    assert json.loads(states["a"])["options"] == {}
    restored = Options.model_validate(json.loads(states["p"])["options"])
    assert restored.battlegroup_recycled is True
