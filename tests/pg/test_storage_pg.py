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


async def _played_with_a_rollback(target: str, export: dict | None = None) -> list:
    """A toy game played 30 orders, rolled back to action 13, played 12 more (or
    ``export`` imported): its log, every live chain, the last live action, a slice of
    the live line and (action number, bytes of chain stored) of every entry, as read."""
    service = await Service.open(target, clock=FakeClock())
    try:
        game = "chains"
        if export is None:
            await new_game(service, "toy", options={"pile": 400}, game_id=game)
            await play(service, game, 30, random.Random(30))
            await service.rollback(game, "mod", to=13, why="a slip")
            await play(service, game, 12, random.Random(31))
        else:
            await service.import_game(export, by="mod2")
        head = (await service.status(game)).seq
        export = await service.export(game, with_secret=True)
        async with service.store.read() as tx:
            return [
                await tx.log_entries(game),
                [await tx.live_chain(game, seq) for seq in range(1, head + 1)],
                await tx.last_live_action(game),
                await tx.live_actions(game, after=5, upto=20),
                [
                    (r[0], len(bytes(r[1])))
                    for r in await tx._all(
                        "SELECT seq, chain FROM actions WHERE game = ? ORDER BY entry", (game,)
                    )
                ],
                export,
            ]
    finally:
        await service.close()


async def test_most_dice_chains_are_derived_and_read_back_as_if_stored(
    target, tmp_path, monkeypatch
):
    """Only every CHAIN_EVERY-th action keeps its 32 bytes of dice chain (migration 0009);
    the rest read back, undone entries included, exactly as a store that writes every
    chain in full reads the same game."""
    import bot.store

    log, chains, last, line, stored, export = await _played_with_a_rollback(target)
    assert len(log) == 42 and any(a.undone_by for a in log)
    assert all(size == (32 if seq % bot.store.CHAIN_EVERY == 0 else 0) for seq, size in stored)
    assert all(c is not None and len(c) == 64 for c in chains)
    # the same game imported (undone entries written with their marks) is stored the same
    imported = await _played_with_a_rollback(str(tmp_path / "imported.db"), export)
    assert imported[4] == stored
    assert [a.chain for a in imported[0]] == [a.chain for a in log]
    monkeypatch.setattr(bot.store, "CHAIN_EVERY", 1)
    reference = await _played_with_a_rollback(str(tmp_path / "every-chain.db"))
    assert all(size == 32 for _, size in reference[4])
    assert [log, chains, last, line] == reference[:4]


async def _notices(service: Service, game: str) -> list[tuple[str, bool]]:
    """(kind, delivered) of every notice of ``game`` still stored, in order."""
    async with service.store.read() as tx:
        return [(n.kind, n.sent_at is not None) for n in await tx.notifications(game)]


async def test_ending_a_game_drops_the_notices_nobody_will_read_again(target):
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 400}, game_id="notes")
        mailed = await new_game(service, "toy", options={"pile": 400}, game_id="mailed")
        for g in (game, mailed):
            await play(service, g, 6, random.Random(6))
            await service.rollback(g, "mod", to=3, why="first")
            await play(service, g, 4, random.Random(7))
            await service.rollback(g, "mod", to=5, why="second")
            now = service.clock()
            await service.set_deadline(g, "mod", now + 3600, remind_before=[600])
        for g in (game, mailed):  # the first rollback notice of each is delivered
            first = [n.id for n in await service.notifications(g) if n.kind == "rollback"][0]
            await service.mark_handled(notifications=[first])
        async with service.store.write() as tx:
            await tx.put_email_seat(mailed, "north", "n@example.org", "t", "x", service.clock())
        kinds = {n.kind for n in await service.notifications(game)}
        assert kinds == {"prompt", "rollback", "reminder"}
        for g in (game, mailed):
            await service.end(g, "mod", "over")
        assert await _notices(service, game) == [("rollback", False), ("ended", False)]
        # the mail desk has not passed the delivered rollback yet: it stays for it
        assert await _notices(service, mailed) == [
            ("rollback", True),
            ("rollback", False),
            ("ended", False),
        ]
    finally:
        await service.close()


async def test_a_notice_number_is_never_given_twice_after_the_pruning(target):
    """The mail desk reads notices by number: ending the only game of a database must
    not let its "ended" notice take a number a pruned notice had (SQLite numbers a new
    row one above the highest there)."""
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 400}, game_id="alone")
        await play(service, game, 5, random.Random(5))
        before = max(n.id for n in await service.notifications(game))
        await service.end(game, "mod", "over")
        after = await service.notifications(game)
        assert [n.kind for n in after][-1] == "ended" and after[-1].id > before
        assert len(after) <= 2  # at most the highest-numbered notice stays beside it
    finally:
        await service.close()
