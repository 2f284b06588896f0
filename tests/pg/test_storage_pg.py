"""Issue 16, item 4, on both back ends: compact log entries, and the few snapshots a
finished game keeps (``Tx.prune_snapshots``) giving the same states, views, exports and
verification as the full set; PostgreSQL rows written before its migration 0004 read."""

from __future__ import annotations

import random
import sqlite3

import psycopg
import pytest

import engine
from bot.service import Service
from bot.store import FINISHED_SNAPSHOT_EVERY, ActionRow, GameRow, open_store
from bot.store_pg import pg_migrations
from tests.service.conftest import FakeClock, new_game, play, state_dump

#: what breaking a rule of the schema raises on either back end
INTEGRITY = (sqlite3.IntegrityError, psycopg.IntegrityError)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "umpire.db")


async def _snapshot_entries(service: Service, game: str) -> list[tuple[int, int, int, str]]:
    async with service.store.read() as tx:
        rows = await tx._all(
            "SELECT entry, seq, turn, player FROM snapshots WHERE game = ? ORDER BY entry", (game,)
        )
    return [(r[0], r[1], r[2], r[3]) for r in rows]


async def _history(service: Service, game: str) -> dict:
    """What a finished game must still give: the map of every turn, the log, the state,
    the export with its secret, and where the last player turn began."""
    async with service.store.read() as tx:
        turns = await tx.turns_reached(game)
        row = await tx.game(game)
        last = await tx.latest_snapshot(game, row.head - 1)
    views = {t: (await service.view_at_turn(game, t)).view for t in turns}
    export = await service.export(game, with_secret=True)
    for key in ("status", "ended_at", "result"):
        export["game"].pop(key)
    export["audit"] = [a for a in export["audit"] if a["act"] != "end"]
    return {
        "views": views,
        "log": await service.game_log(game, audience="*", include_undone=True),
        "state": await state_dump(Service(service.store, service.clock), game),
        "export": export,
        "last_turn": (last.turn, last.player, last.seq),
    }


async def test_a_game_ended_by_a_moderator_keeps_few_snapshots_and_gives_the_same(target):
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "pfv", options={"last_turn": 60})
        await play(service, game, 300, random.Random(21))
        await service.rollback(game, "mod", to=260, why="a slip")
        await play(service, game, 40, random.Random(22))
        before = await _history(service, game)
        count = len(await _snapshot_entries(service, game))
        await service.end(game, "mod", "time")
        kept = await _snapshot_entries(service, game)
        after = await _history(service, game)
        assert after == before
        assert (await service.verify(game)).ok
        assert len(kept) < count / 5 and kept[0][0] == 0
        head = (await service.status(game)).seq
        gaps = [b[1] - a[1] for a, b in zip(kept, kept[1:], strict=False)]
        assert max(gaps) <= FINISHED_SNAPSHOT_EVERY + 50 or head <= FINISHED_SNAPSHOT_EVERY
    finally:
        await service.close()


async def test_a_game_its_rules_end_is_pruned_in_the_order_that_ends_it(target):
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 40})
        results = await play(service, game, 500, random.Random(5))
        assert results[-1].result is not None or results[-1].prompt.role is None
        assert (await service.status(game)).status == "finished"
        kept = await _snapshot_entries(service, game)
        assert 2 <= len(kept) <= 6
        cold = Service(service.store, service.clock)
        assert (await cold.verify(game)).ok
    finally:
        await service.close()


async def test_an_imported_finished_game_is_pruned_and_exports_the_same(target, tmp_path):
    source = await Service.open(str(tmp_path / "source.db"), clock=FakeClock())
    try:
        game = await new_game(source, "pfv", options={"last_turn": 60}, game_id="imp1")
        await play(source, game, 120, random.Random(8))
        await source.end(game, "mod", "over")
        export = await source.export(game)
        kept_there = await _snapshot_entries(source, game)
    finally:
        await source.close()
    service = await Service.open(target, clock=FakeClock())
    try:
        await service.import_game(export, by="mod2")
        again = await service.export(game)
        assert again["actions"] == export["actions"]
        assert again["final_state_sha256"] == export["final_state_sha256"]
        assert await _snapshot_entries(service, game) == kept_there
    finally:
        await service.close()


async def test_the_log_is_written_compact_and_once(target):
    store = await open_store(target)
    try:
        async with store.write() as tx:
            await tx.insert_game(GameRow("g1", "aa-revised", "1942", {}, "c", b"s", "u", 0.0))
            events = [{"kind": "move", "text": "United Kingdom moves 1 fighter.", "data": {}}]
            action = ActionRow(
                "g1", 1, 1, "uk", "u", {"verb": "move"}, [], events, 1, "combat", 2.5,
                chain="0f" * 32,
            )  # fmt: skip
            await tx.append_action(action)
        async with store.read() as tx:
            assert await tx.log_entries("g1") == [action]
            assert await tx.live_chain("g1", 1) == "0f" * 32
            raw = await tx._one(
                'SELECT "order", rolls, events, role, user, phase, body, chain FROM actions'
            )
        assert [raw[i] for i in range(6)] == [None] * 6 and bytes(raw[6])[0] == 3
        assert bytes(raw[7]) == bytes.fromhex("0f" * 32)
        for sql in ("UPDATE actions SET body = NULL", "DELETE FROM actions"):
            with pytest.raises(INTEGRITY, match="append-only|only be marked undone"):
                async with store.write() as tx:
                    await tx._run(sql)
        async with store.read() as tx:
            assert await tx.log_entries("g1") == [action]
    finally:
        await store.close()


async def test_postgresql_rows_written_before_migration_4_read_as_they_were(pg_url):
    """A schema at PostgreSQL migration 3 holding a log entry as JSON text with a hex
    chain: the migration turns the chain into bytes and the entry reads back the same."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE umpire_migrations (number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for number, name, sql in pg_migrations()[:3]:
            conn.execute(sql)
            conn.execute("INSERT INTO umpire_migrations VALUES (%s, %s)", (number, name))
        conn.execute(
            "INSERT INTO games (id, ruleset, scenario, commitment, secret, created_by,"
            " created_at) VALUES ('g1', 'toy', 'standard', 'c', 's', 'u', 0)"
        )
        conn.execute(
            'INSERT INTO actions (game, entry, seq, role, "user", "order", rolls, events,'
            " turn, phase, created_at, chain) VALUES ('g1', 1, 1, 'north', 'u',"
            ' \'{"verb":"take","n":1}\', \'[{"sides":6,"value":2,"purpose":""}]\','
            ' \'[{"kind":"take","text":"North takes 1."}]\', 1, \'take\', 3.25, %s)',
            ("cd" * 32,),
        )
    store = await open_store(pg_url)
    try:
        async with store.read() as tx:
            (entry,) = await tx.log_entries("g1")
            assert await tx.live_chain("g1", 1) == "cd" * 32
        assert entry.order == {"verb": "take", "n": 1} and entry.chain == "cd" * 32
        assert entry.events == [{"kind": "take", "text": "North takes 1."}]
        assert entry.rolls == [{"sides": 6, "value": 2, "purpose": ""}]
    finally:
        await store.close()


def test_every_ruleset_with_a_dictionary_is_registered():
    from bot import logdicts

    for ruleset, _, _ in logdicts.DICTIONARIES.values():
        assert ruleset in engine.available()
