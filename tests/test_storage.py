"""Issue 16, item 4: compact log entries (bot/logdicts, migration 0008) and the few
snapshots a finished game keeps, on SQLite. The same behaviour on both back ends is in
tests/pg/test_storage_pg.py."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from importlib import resources

import pytest

from bot import logdicts
from bot.service import Service
from bot.store import ActionRow, GameRow, Store, StoreError, migrations
from tests.service.conftest import FakeClock, new_game, play

CHAIN = "ab" * 32


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(6 if depth < 3 else 4)
    if kind == 0:
        return rng.randrange(-5, 10**6)
    if kind == 1:
        return rng.choice(["", "Rommel", "7813", "é ✓ \u00a0", None, True, False, 1.5])
    if kind == 2:
        return "".join(rng.choice('ab"\\\n{}') for _ in range(rng.randrange(6)))
    if kind == 3:
        return rng.random()
    if kind == 4:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {str(rng.randrange(9)): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_every_body_reads_back_as_written_whatever_the_ruleset():
    rng = random.Random(16)
    codecs = set()
    for i in range(1500):
        fields = [_random_json(rng) for _ in range(1 + i % 6)]
        ruleset = ["pfv", "aa-revised", "toy", None][i % 4]
        body = logdicts.pack(fields, ruleset)
        codecs.add(body[0])
        assert logdicts.unpack(body, len(fields)) == fields
    assert codecs >= {logdicts.STORED, logdicts.DEFLATE, 2, 3}


def test_each_ruleset_writes_with_its_newest_dictionary():
    assert logdicts.codec_for("pfv") == 2
    assert logdicts.codec_for("aa-revised") == 3
    assert logdicts.codec_for("toy") == logdicts.DEFLATE
    events = [{"kind": "move", "text": "7th Armoured moves to 8321.", "data": {"hex": "8321"}}]
    order = {"verb": "move", "piece": "7arm", "hex": "8321"}
    body = logdicts.pack([order, [], events, "allied", "4123", "movement"], "pfv")
    assert body[0] == 2 and len(body) < len(json.dumps(events)) / 2


def test_the_dictionaries_are_the_ones_recorded():
    """A dictionary is never changed once rows use it: its file must keep its hash."""
    for codec, (ruleset, name, digest) in logdicts.DICTIONARIES.items():
        data = resources.files("bot.logdicts").joinpath(name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, name
        assert 0 < len(data) <= 32 * 1024  # deflate reads at most its window
        assert logdicts.dictionary(codec) == data
        assert name.startswith(ruleset)


@pytest.mark.parametrize(
    "body",
    [b"", b"\x09abc", b"\x01\xff\xff\xff", b"\x02" + b"\x00" * 5, b"\x00[1,2]", b"\x00{"],
)
def test_a_damaged_body_is_refused(body):
    with pytest.raises(logdicts.BadBody):
        logdicts.unpack(body, 3)


def test_a_body_cut_short_or_with_bytes_after_it_is_refused():
    body = logdicts.pack([{"verb": "x" * 50}, [], [{"kind": "k", "text": "t" * 80}]], "toy")
    assert body[0] == logdicts.DEFLATE
    for bad in (body[:-3], body + b"junk"):
        with pytest.raises(logdicts.BadBody):
            logdicts.unpack(bad, 3)


async def _store(path: str) -> Store:
    store = await Store.open(path)
    async with store.write() as tx:
        await tx.insert_game(GameRow("g1", "pfv", "standard", {}, "c", b"s", "u", 0.0))
    return store


def _action(entry: int, chain: str | None = CHAIN) -> ActionRow:
    events = [{"kind": "setup", "text": "46th Infantry sets up in 7813.", "data": {"hex": "7813"}}]
    rolls = [{"sides": 6, "value": 4, "purpose": "attack"}]
    order = {"verb": "place", "piece": "46inf", "hex": "7813"}
    return ActionRow(
        "g1", entry, entry, "axis", "u", order, rolls, events, 1, "setup", 1.5, None, chain
    )


async def test_a_new_row_is_stored_compact_and_reads_back_whole(tmp_path):
    path = str(tmp_path / "u.db")
    store = await _store(path)
    try:
        written = [_action(1), _action(2, None), _action(3, "not hex")]
        async with store.write() as tx:
            for a in written:
                await tx.append_action(a)
        async with store.read() as tx:
            assert await tx.log_entries("g1") == written
            assert await tx.live_chain("g1", 1) == CHAIN
            assert await tx.live_chain("g1", 2) is None
    finally:
        await store.close()
    con = sqlite3.connect(path)
    row = con.execute(
        'SELECT "order", rolls, events, role, user, phase, body, chain FROM actions WHERE entry = 1'
    ).fetchone()
    con.close()
    *columns, body, chain = row
    assert columns == [None] * 6
    assert body[0] == 2 and chain == bytes.fromhex(CHAIN)


async def test_a_body_is_written_once(tmp_path):
    store = await _store(str(tmp_path / "u.db"))
    try:
        async with store.write() as tx:
            await tx.append_action(_action(1))
        for sql in ("UPDATE actions SET body = X'00'", "UPDATE actions SET chain = NULL"):
            with pytest.raises(sqlite3.IntegrityError, match="only be marked undone"):
                async with store.write() as tx:
                    await tx._run(sql)
        async with store.read() as tx:
            assert await tx.log_entries("g1") == [_action(1)]
    finally:
        await store.close()


async def test_a_damaged_body_is_said_in_one_sentence(tmp_path):
    path = str(tmp_path / "u.db")
    store = await _store(path)
    async with store.write() as tx:
        await tx.append_action(_action(1))
    await store.close()
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER actions_only_get_marked_undone")
    con.execute("UPDATE actions SET body = X'02DEADBEEF'")
    con.commit()
    con.close()
    store = await Store.open(path)
    try:
        with pytest.raises(StoreError, match="is damaged") as caught:
            async with store.read() as tx:
                await tx.log_entries("g1")
        assert "\n" not in str(caught.value) and "actions.body" in str(caught.value)
    finally:
        await store.close()


async def test_rows_written_before_migration_0008_still_read_and_the_game_plays_on(tmp_path):
    """A database at schema 7 with a game played as the store wrote it then (JSON text,
    hex chains) is migrated; its old rows read back as they were written and new rows
    come in the compact form beside them."""
    path = str(tmp_path / "old.db")
    old = await Service.open(str(tmp_path / "scratch.db"), clock=FakeClock())
    try:
        game = await new_game(old, "toy", options={"pile": 200}, game_id="old1")
        await play(old, game, 12, random.Random(3))
        async with old.store.read() as tx:
            entries = await tx.log_entries(game)
            snapshots = await tx._all("SELECT * FROM snapshots")
            seats = await tx.seats(game)
            row = await tx.game(game)
    finally:
        await old.close()
    con = sqlite3.connect(path)
    for number, _, sql in migrations()[:7]:
        con.executescript(f"BEGIN;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
    g = row.__dict__
    con.execute(
        "INSERT INTO games (id, ruleset, scenario, options, status, commitment, secret,"
        " setup_rolls, head, entries, version, created_by, created_at, dice_scheme)"
        " VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, 1, ?, ?, ?)",
        (g["id"], g["ruleset"], g["scenario"], json.dumps(g["options"]), g["commitment"],
         g["secret"], json.dumps(g["setup_rolls"]), g["head"], g["entries"], g["created_by"],
         g["created_at"], g["dice_scheme"]),
    )  # fmt: skip
    for s in seats:
        con.execute("INSERT INTO seats (game, role, user) VALUES (?, ?, ?)", (game, s.role, s.user))
    for a in entries:
        con.execute(
            'INSERT INTO actions (game, entry, seq, role, user, "order", rolls, events, turn,'
            " phase, created_at, undone_by, chain) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (a.game, a.entry, a.seq, a.role, a.user, json.dumps(a.order), json.dumps(a.rolls),
             json.dumps(a.events), a.turn, a.phase, a.created_at, a.undone_by, a.chain),
        )  # fmt: skip
    for s in snapshots:
        con.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?, ?, ?, ?)", tuple(s))
    con.commit()
    con.close()

    service = await Service.open(path, clock=FakeClock())
    try:
        assert await service.store.schema_version() >= 8
        async with service.store.read() as tx:
            assert await tx.log_entries(game) == entries
        await play(service, game, 6, random.Random(4))
        async with service.store.read() as tx:
            kinds = await tx._all("SELECT body IS NULL, typeof(chain) FROM actions ORDER BY entry")
            after = await tx.log_entries(game)
        assert [tuple(k) for k in kinds[:12]] == [(1, "text")] * 12
        assert all(tuple(k) == (0, "blob") for k in kinds[12:]) and len(kinds) > 12
        assert after[:12] == entries
        await service.end(game, "mod", "done")
        report = await service.verify(game)
        assert report.ok, report.problems
    finally:
        await service.close()


async def test_the_log_table_is_keyed_by_game_and_entry_alone(tmp_path):
    """Migration 0008 rebuilds the log WITHOUT ROWID: no index repeats its key, and the
    live-number index and both append-only triggers are there again."""
    store = await _store(str(tmp_path / "u.db"))
    await store.close()
    con = sqlite3.connect(str(tmp_path / "u.db"))
    try:
        objects = {
            name: (kind, sql or "")
            for kind, name, sql in con.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'actions'"
            )
        }
    finally:
        con.close()
    assert "WITHOUT ROWID" in objects["actions"][1]
    assert {name for name, (kind, _) in objects.items() if kind == "index"} == {"actions_live_seq"}
    assert {name for name, (kind, _) in objects.items() if kind == "trigger"} == {
        "actions_are_never_deleted",
        "actions_only_get_marked_undone",
        "actions_not_after_the_seal",  # migration 0010
    }
    assert "NEW.body IS NOT OLD.body" in objects["actions_only_get_marked_undone"][1]


async def test_a_row_with_neither_body_nor_columns_is_said_in_one_sentence(tmp_path):
    path = str(tmp_path / "u.db")
    store = await _store(path)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA ignore_check_constraints = ON")  # damage the schema cannot stop
    con.execute(
        "INSERT INTO actions (game, entry, seq, turn, created_at) VALUES ('g1', 1, 1, 1, 0)"
    )
    con.commit()
    con.close()
    store = await Store.open(path)
    try:
        with pytest.raises(StoreError, match="is damaged .*neither a body") as caught:
            async with store.read() as tx:
                await tx.live_actions("g1")
        assert "\n" not in str(caught.value)
    finally:
        await store.close()


async def test_a_derived_chain_whose_entry_before_is_gone_is_said_in_one_sentence(tmp_path):
    """An entry stores no chain bytes when its chain follows from the entry before it
    (migration 0009); if that entry is lost, reading says so instead of rolling wrong."""
    from engine.core.dice import CHAIN_START, chain_next

    path = str(tmp_path / "u.db")
    store = await _store(path)
    first = _action(1, chain_next(CHAIN_START, _action(1).order))
    second = _action(2, chain_next(first.chain, _action(2).order))
    try:
        async with store.write() as tx:
            await tx.append_action(first)
            await tx.append_action(second)
        async with store.read() as tx:
            assert await tx.log_entries("g1") == [first, second]
            assert await tx.live_chain("g1", 2) == second.chain
            sizes = await tx._all("SELECT length(chain) FROM actions ORDER BY entry")
        assert [r[0] for r in sizes] == [0, 0]
    finally:
        await store.close()
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER actions_are_never_deleted")
    con.execute("DELETE FROM actions WHERE entry = 1")
    con.commit()
    con.close()
    store = await Store.open(path)
    try:
        for read in ("live_actions", "log_entries", "last_live_action"):
            with pytest.raises(StoreError, match="lost its dice chain") as caught:
                async with store.read() as tx:
                    await getattr(tx, read)("g1")
            assert "\n" not in str(caught.value)
    finally:
        await store.close()


async def test_migration_0009_drops_the_moot_notices_of_finished_games_only(tmp_path):
    path = str(tmp_path / "old.db")
    con = sqlite3.connect(path)
    for number, _, sql in migrations()[:8]:
        con.executescript(f"BEGIN;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
    for game, status, ended in (("done", "finished", 5.0), ("on", "active", None)):
        con.execute(
            "INSERT INTO games (id, ruleset, scenario, status, commitment, secret, created_by,"
            " created_at, ended_at) VALUES (?, 'toy', 'standard', ?, 'c', x'00', 'u', 0, ?)",
            (game, status, ended),
        )
        for kind, sent in (("prompt", None), ("rollback", 1.0), ("rollback", None),
                           ("reminder", None), ("ended", None)):  # fmt: skip
            con.execute(
                "INSERT INTO notifications (game, kind, text, due_at, created_at, sent_at)"
                " VALUES (?, ?, 'x', 0, 0, ?)",
                (game, kind, sent),
            )
    con.commit()
    con.close()
    store = await Store.open(path)
    try:
        async with store.read() as tx:
            done = [(n.kind, n.sent_at) for n in await tx.notifications("done")]
            on = [(n.kind, n.sent_at) for n in await tx.notifications("on")]
    finally:
        await store.close()
    assert done == [("rollback", None), ("ended", None)]
    assert len(on) == 5
