"""Issue 16's load test (bench/bench_load.py) in its small form: several processes ordering
on many games at once lose no acknowledged order, apply none twice, touch no other game,
and leave every game verifying. Only the consistency is asserted, never the speed."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "bench_load.py"
_spec = importlib.util.spec_from_file_location("bench_load", _PATH)
bench = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("bench_load", bench)  # its dataclasses look their module up
_spec.loader.exec_module(bench)

#: the quick form: 200 games, 50 of them driven, a short run as fast as it goes; scripts
#: of 10 orders, so that busy games also go on to orders chosen during the run
SMALL = {"games": 200, "active": 50, "rates": [0.0], "seconds": 3.0, "script": 10}


def _assert_consistent(report) -> None:
    (run,) = report.runs
    assert run.acked > 0
    assert run.errors == []
    assert run.stale == 0  # one task owns each game
    assert report.mismatched == []
    assert report.unverified == []
    assert report.touched > 0
    assert report.verified == report.touched
    assert report.stored == report.acked == run.acked
    assert report.strays == 0
    assert report.consistent


def test_four_processes_on_postgresql_lose_and_duplicate_nothing(pg_url):
    report = bench.load_test(pg_url, processes=4, **SMALL)
    assert report.games == 200
    _assert_consistent(report)
    # every order is at least its read of the game and its write (BEGIN, the versioned
    # update, the action, COMMIT): the count covers the workers' statements
    assert report.runs[0].statements >= 5 * report.runs[0].acked
    assert "statements per order" in report.runs[0].line()


def test_one_process_on_sqlite_then_the_checks_catch_a_miscount(tmp_path):
    path = str(tmp_path / "load.db")
    report = bench.load_test(path, processes=1, **SMALL)
    _assert_consistent(report)
    assert report.runs[0].statements == 0  # counted on PostgreSQL only

    async def check(claimed: int) -> tuple[list[str], list[str], int]:
        service = await bench.open_service(path, pool=None, sync="FULL")
        try:
            game = next(g for g in await service.list_games() if g.seq)
            base, acked = {game.game: 0}, {game.game: claimed if claimed >= 0 else game.seq}
            return await bench._check_games(service, [game.game], base, acked)
        finally:
            await service.close()

    assert asyncio.run(check(-1)) == ([], [], 1)  # the game as it is: consistent, verifies
    mismatched, _, _ = asyncio.run(check(0))  # one order fewer acknowledged than stored
    assert len(mismatched) == 1 and "0 actions expected" in mismatched[0]


def test_bad_arguments_are_one_sentence(capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--games", "10", "--active", "20"])
    assert exit_.value.code == 2
    assert "--active cannot exceed --games" in capsys.readouterr().err


def test_percentile_is_the_nearest_rank():
    values = [float(x) for x in range(1, 101)]
    assert bench.percentile(values, 50) == 50.0
    assert bench.percentile(values, 99) == 99.0
    assert bench.percentile(values[:10], 99) == 10.0
    assert bench.percentile([], 99) == 0.0


# -- the order path's shortcuts (issue 16: CPU per order) -------------------------------


def _run(coro):
    return asyncio.run(coro)


def test_game_and_seats_is_one_statement_that_reads_what_a_transaction_reads(pg_url):
    from bot.store import StoreError

    async def go():
        assert await bench.create_games(pg_url, [0, 1], 1, None, "FULL", 1) == 2
        service = await bench.open_service(pg_url, pool=None, sync="FULL")
        try:
            store = service.store
            game = bench.game_id(1)
            async with store.write() as tx:  # standing orders as a seat stores them
                seat = (await tx.seats(game))[0]
                await tx.set_seat_preferences(game, seat.role, standing_orders={"retreat": "ask"})
            async with store.read() as tx:
                expected = (await tx.game(game), await tx.seats(game))
            got = await store.game_and_seats(game)
            assert got == expected
            assert got[1][0].standing_orders == {"retreat": "ask"}
            assert [s.role for s in got[1]] == [s.role for s in expected[1]]  # order kept
            assert await store.game_and_seats("no-such-game") is None
            async with store.write() as tx:  # a damaged seat: one sentence, nothing else
                await tx._run(
                    "UPDATE seats SET standing_orders = 'not json' WHERE game = ? AND role = ?",
                    (game, seat.role),
                )
            with pytest.raises(StoreError) as caught:
                await store.game_and_seats(game)
            assert "damaged" in str(caught.value) and "\n" not in str(caught.value)
        finally:
            await service.close()

    _run(go())


def test_the_version_check_takes_the_games_writer_lock_in_the_same_statement(pg_url):
    import psycopg

    from bot.store_pg import LOCK_SPACE

    async def go():
        await bench.create_games(pg_url, [0], 1, None, "FULL", 1)
        service = await bench.open_service(pg_url, pool=None, sync="FULL")
        game = bench.game_id(0)
        other = await psycopg.AsyncConnection.connect(pg_url, autocommit=True)

        async def free() -> bool:  # whether another connection could take the lock now
            async with other.transaction():
                cur = await other.execute(
                    "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))", (LOCK_SPACE, game)
                )
                return (await cur.fetchone())[0]

        try:
            row = (await service.store.game_and_seats(game))[0]
            async with service.store.write() as tx:
                assert await tx.update_game_at_version(game, row.version, version=row.version + 1)
                assert not await free()  # held until the commit
            assert await free()
            async with service.store.write() as tx:  # a stale version changes nothing
                assert not await tx.update_game_at_version(game, row.version, version=99)
            assert (await service.store.game_and_seats(game))[0].version == row.version + 1
        finally:
            await other.close()
            await service.close()

    _run(go())


def test_orders_build_on_the_cached_chain_and_a_change_elsewhere_is_seen(pg_url, monkeypatch):
    """The service keeps the head's dice chain with the game in memory: orders from one
    process in a row ask the database for no chain; an order from another process makes
    the next one load the game again; every stored chain follows from the orders."""
    from bot.store_pg import PgTx
    from engine.core.dice import CHAIN_START, chain_next

    asked: list[int] = []
    real = PgTx.live_chain

    async def counting(self, game_id, seq):
        asked.append(seq)
        return await real(self, game_id, seq)

    monkeypatch.setattr(PgTx, "live_chain", counting)

    async def order(service, game, rng):
        ruleset, state, seq = await service.live_state(game)
        role, chosen = bench.random_order(ruleset, state, rng)
        return await service.submit(game, bench.player(role), chosen, role=role, seen=seq)

    async def go():
        await bench.create_games(pg_url, [0], 1, None, "FULL", 1)
        game = bench.game_id(0)
        one = await bench.open_service(pg_url, pool=None, sync="FULL")
        two = await bench.open_service(pg_url, pool=None, sync="FULL")
        rng = bench.random.Random(7)
        try:
            assert (await one.store.game_and_seats(game))[0].dice_scheme == "chain-v1"
            for _ in range(6):
                await order(one, game, rng)
            assert asked == []  # the chain came from memory every time
            for _ in range(3):
                await order(two, game, rng)
            for _ in range(3):
                await order(one, game, rng)  # its memory is stale: loaded again
            async with one.store.read() as tx:
                actions = await tx.live_actions(game)
            assert [a.seq for a in actions] == list(range(1, 13))
            chain = CHAIN_START
            for a in actions:
                chain = chain_next(chain, a.order)
                assert a.chain == chain
            report = bench.verify_export(await one.export(game, with_secret=True))
            assert report.ok, report.problems
        finally:
            await one.close()
            await two.close()

    _run(go())


def test_snapshots_packed_from_memory_are_those_packed_from_the_database(pg_server, monkeypatch):
    """The service packs each snapshot against the game's previous one as it holds it in
    memory (and reuses the prompt it worked out after the last order): the rows written
    are byte for byte those written when every order first loads the game from the
    database, which reads the previous snapshot back."""
    from bot.store import Tx

    read_back: list[str] = []
    real = Tx._previous_snapshot

    async def counting(self, s):
        read_back.append(s.game)
        return await real(self, s)

    monkeypatch.setattr(Tx, "_previous_snapshot", counting)
    games = [bench.game_id(0), bench.game_id(1)]  # PFV and A&A Revised

    async def play(url: str, cold: bool) -> dict[str, list[tuple]]:
        await bench.create_games(url, [0, 1], 1, None, "FULL", 1)
        service = await bench.open_service(url, pool=None, sync="FULL")
        rows = {}
        try:
            for game in games:
                rng = bench.random.Random(5)
                for _ in range(70):
                    if cold:
                        service.forget(game)
                    ruleset, state, seq = await service.live_state(game)
                    role, order = bench.random_order(ruleset, state, rng)
                    await service.submit(game, bench.player(role), order, role=role, seen=seq)
                async with service.store.read() as tx:
                    rows[game] = [
                        (r[0], r[1], r[2], bytes(r[3]))
                        for r in await tx._all(
                            "SELECT entry, seq, phase, state FROM snapshots WHERE game = ?"
                            " ORDER BY entry",
                            (game,),
                        )
                    ]
                assert bench.verify_export(await service.export(game, with_secret=True)).ok
        finally:
            await service.close()
        return rows

    cold = _run(play(pg_server.new_url(), cold=True))
    reads_cold = {g: read_back.count(g) for g in games}
    read_back.clear()
    warm = _run(play(pg_server.new_url(), cold=False))
    for game in games:
        assert len(cold[game]) >= 4, "too few snapshots for the test to mean anything"
        assert reads_cold[game] == len(cold[game])  # each looked its previous one up
        # the set-up's (made by a service that forgets it) and the first after the game
        # was loaded, at most
        assert read_back.count(game) <= 2
    assert warm == cold


def test_every_worker_gets_games_of_every_ruleset():
    ids = [bench.game_id(i) for i in range(20)]
    dealt = [bench.deal(ids, p, 4) for p in range(4)]
    assert sorted(g for part in dealt for g in part) == ids  # each game once
    for part in dealt:
        rulesets = {bench.RULESETS[int(g.split("-")[1]) % len(bench.RULESETS)] for g in part}
        assert rulesets == set(bench.RULESETS)
    assert bench.deal(ids, 0, 1) == ids


def test_the_settled_p99_leaves_the_warm_up_out():
    run = bench.RunFigures(rate=0.0, processes=1, seconds=20.0, acked=100)
    run.latencies = [0.001] * 90 + [2.0] * 10  # the loads at the start
    run.settled = [0.001] * 90
    line = run.line()
    assert "p99 2000.0 ms" in line
    assert f"after the first {bench.WARM_UP:g} s: p99 1.0 ms" in line
    run.settled = []
    assert "after the first" not in run.line()
