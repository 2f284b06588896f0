"""Issue 16, item 4, on both back ends: a finished game's log sealed into chunks
(``Tx.seal_log``, migrations 0010 and pg/0006). Everything read from the log gives what
it gave before the seal; the schema keeps the log append-only in meaning."""

from __future__ import annotations

import math
import random
import sqlite3

import psycopg
import pytest

from bot.service import Service, ServiceError
from bot.store import SEAL_EVERY, ActionRow, GameRow, StoreError, Tx, open_store, seal_chunks
from bot.store_pg import PgTx
from tests.service.conftest import FakeClock, new_game, play, state_dump

#: what breaking a rule of the schema raises on either back end
INTEGRITY = (sqlite3.IntegrityError, psycopg.IntegrityError)


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "umpire.db")


async def _reads(service: Service, game: str) -> dict:
    """Every way the store and the service read a game's log."""
    head = (await service.status(game)).seq
    async with service.store.read() as tx:
        turns = await tx.turns_reached(game)
        reads = {
            "log": await tx.log_entries(game),
            "chains": [await tx.live_chain(game, seq) for seq in range(head + 2)],
            "last": await tx.last_live_action(game),
            "line": await tx.live_actions(game),
            "slices": [
                await tx.live_actions(game, after=a, upto=b)
                for a, b in ((0, 1), (3, 9), (head - 2, None), (head, None), (5, 4))
            ],
            "turns": turns,
            "before": [await tx.last_seq_before_turn(game, t) for t in [*turns, turns[-1] + 1]],
        }
    export = await service.export(game, with_secret=True)
    for key in ("status", "ended_at", "result"):
        export["game"].pop(key)
    export["audit"] = [a for a in export["audit"] if a["act"] != "end"]
    reads["export"] = export
    reads["views"] = {t: (await service.view_at_turn(game, t)).view for t in turns}
    reads["state"] = await state_dump(Service(service.store, service.clock), game)
    reads["game_log"] = await service.game_log(game, audience="*", include_undone=True)
    return reads


async def _stored(service: Service, game: str) -> tuple[int, list[tuple[int, int]]]:
    """(rows of the game in ``actions``, (first, last) entry of each of its chunks)."""
    async with service.store.read() as tx:
        rows = (await tx._one("SELECT count(*) FROM actions WHERE game = ?", (game,)))[0]
        chunks = await tx._all(
            "SELECT first_entry, last_entry FROM action_chunks WHERE game = ? ORDER BY first_entry",
            (game,),
        )
    return rows, [(r[0], r[1]) for r in chunks]


async def test_an_ended_game_s_log_moves_into_chunks_and_reads_the_same(target):
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 400}, game_id="sealed")
        await play(service, game, 40, random.Random(40))
        await service.rollback(game, "mod", to=13, why="a slip")
        await play(service, game, 30, random.Random(41))
        before = await _reads(service, game)
        assert any(a.undone_by for a in before["log"]) and len(before["log"]) == 70
        assert await _stored(service, game) == (70, [])
        await service.end(game, "mod", "time")
        rows, chunks = await _stored(service, game)
        assert rows == 0 and len(chunks) == math.ceil(70 / SEAL_EVERY)
        assert [first for first, _ in chunks] == list(range(1, 71, SEAL_EVERY))
        assert chunks[-1][1] == 70
        after = await _reads(service, game)
        assert after == before
        cold = await Service.open(target, clock=FakeClock())
        try:
            assert await _reads(cold, game) == before
            assert (await cold.verify(game)).ok
        finally:
            await cold.close()
        with pytest.raises(ServiceError, match="cannot be rolled back"):
            await service.rollback(game, "mod", to=3, why="again")
    finally:
        await service.close()


async def test_a_game_its_rules_end_is_sealed_by_the_order_that_ends_it(target):
    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 40}, game_id="ended")
        await play(service, game, 500, random.Random(5))
        assert (await service.status(game)).status == "finished"
        rows, chunks = await _stored(service, game)
        assert rows == 0 and chunks and chunks[0][0] == 1
        assert (await Service(service.store, service.clock).verify(game)).ok
    finally:
        await service.close()


async def test_an_imported_finished_game_is_sealed_and_exports_the_same(target, tmp_path):
    source = await Service.open(str(tmp_path / "source.db"), clock=FakeClock())
    try:
        game = await new_game(source, "pfv", options={"last_turn": 60}, game_id="imp2")
        await play(source, game, 60, random.Random(8))
        await source.rollback(game, "mod", to=40, why="a slip")
        await play(source, game, 20, random.Random(9))
        await source.end(game, "mod", "over")
        export = await source.export(game, with_secret=True)
    finally:
        await source.close()
    service = await Service.open(target, clock=FakeClock())
    try:
        await service.import_game(export, by="mod2")
        rows, chunks = await _stored(service, game)
        assert rows == 0 and chunks[-1][1] == 80
        again = await service.export(game, with_secret=True)
        assert again["actions"] == export["actions"]
        assert again["final_state_sha256"] == export["final_state_sha256"]
        assert (await service.verify(game)).ok
    finally:
        await service.close()


async def _two_games(target: str) -> Service:
    """A finished (sealed) game "done" and a game "going" still played, 20 orders each."""
    service = await Service.open(target, clock=FakeClock())
    for game in ("done", "going"):
        await new_game(service, "toy", options={"pile": 400}, game_id=game)
        await play(service, game, 20, random.Random(20))
    await service.end("done", "mod", "over")
    return service


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE action_chunks SET body = body WHERE game = 'done'",
        "UPDATE action_chunks SET last_entry = 15 WHERE game = 'done' AND first_entry = 17",
        "DELETE FROM action_chunks WHERE game = 'done'",
        # no entry added to a sealed log, no chunk over another's entries
        "INSERT INTO actions (game, entry, seq, turn, created_at, body)"
        " SELECT 'done', 21, 21, 1, 0, body FROM action_chunks WHERE game = 'done' LIMIT 1",
        "INSERT INTO action_chunks (game, first_entry, last_entry, body)"
        " SELECT 'done', 20, 21, body FROM action_chunks WHERE game = 'done' LIMIT 1",
        # a game still played keeps every row, and gets no chunk
        "DELETE FROM actions WHERE game = 'going'",
        "INSERT INTO action_chunks (game, first_entry, last_entry, body)"
        " SELECT 'going', 1, 16, body FROM action_chunks WHERE game = 'done' LIMIT 1",
    ],
)
async def test_the_sealed_log_stays_append_only(target, sql):
    service = await _two_games(target)
    try:
        before = [await service.export(g, with_secret=True) for g in ("done", "going")]
        with pytest.raises(INTEGRITY, match="append-only|sealed"):
            async with service.store.write() as tx:
                await tx._run(sql)
        assert [await service.export(g, with_secret=True) for g in ("done", "going")] == before
        assert await _stored(service, "done") == (0, [(1, 16), (17, 20)])
        assert (await _stored(service, "going"))[0] == 20
    finally:
        await service.close()


async def test_a_game_finished_before_the_seal_keeps_its_rows_and_reads(target, monkeypatch):
    """A game ended by an Umpire before migration 0010 (here: with the seal left out)
    keeps its rows; everything reads as before, and sealing never comes back to it."""

    async def no_seal(self, game_id, ruleset=None):
        return 0

    service = await Service.open(target, clock=FakeClock())
    try:
        game = await new_game(service, "toy", options={"pile": 400}, game_id="old")
        await play(service, game, 25, random.Random(25))
        await service.rollback(game, "mod", to=9, why="a slip")
        await play(service, game, 5, random.Random(26))
        before = await _reads(service, game)
        with monkeypatch.context() as m:
            m.setattr(Tx, "seal_log", no_seal)
            m.setattr(PgTx, "seal_log", no_seal)  # PostgreSQL's takes the game's lock first
            await service.end(game, "mod", "time")
        assert await _stored(service, game) == (30, [])
        assert await _reads(Service(service.store, service.clock), game) == before
        assert (await service.verify(game)).ok
    finally:
        await service.close()


async def test_a_log_is_sealed_only_once_its_game_is_finished(target):
    store = await open_store(target)
    try:
        async with store.write() as tx:
            await tx.insert_game(GameRow("g1", "toy", "standard", {}, "c", b"s", "u", 0.0))
            events = [{"kind": "take", "text": "North takes 1.", "data": {}}]
            await tx.append_action(
                ActionRow("g1", 1, 1, "north", "u", {"verb": "take"}, [], events, 1, "t", 1.0)
            )
        with pytest.raises(INTEGRITY, match="finished"):
            async with store.write() as tx:
                await tx.seal_log("g1")
        async with store.read() as tx:
            assert len(await tx.log_entries("g1")) == 1
            assert await tx._all("SELECT * FROM action_chunks") == []
    finally:
        await store.close()


def test_chunks_are_runs_of_consecutive_entries():
    rows = [
        ActionRow("g", e, e, "r", "u", {"n": e}, [], [], 1, "p", float(e))
        for e in [*range(1, 20), *range(22, 25)]
    ]
    chunks = seal_chunks(rows, "toy")
    assert [(first, last) for first, last, _ in chunks] == [(1, 16), (17, 19), (22, 24)]


async def test_a_damaged_chunk_is_said_in_one_sentence(tmp_path):
    path = str(tmp_path / "u.db")
    service = await _two_games(path)
    await service.close()
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER action_chunks_are_never_changed")
    con.execute("UPDATE action_chunks SET body = X'03DEADBEEF' WHERE first_entry = 17")
    con.commit()
    con.close()
    store = await open_store(path)
    try:
        with pytest.raises(StoreError, match="is damaged") as caught:
            async with store.read() as tx:
                await tx.log_entries("done")
        assert "\n" not in str(caught.value) and "action_chunks.body" in str(caught.value)
    finally:
        await store.close()
