"""A process warms its service before it takes commands (``Service.warm``; issue 16, the
load test's cold start): the active games it serves, the most recently played first, are
loaded into the cache, never more than it holds and not past a time budget, over every
connection of the store opened first; and a warmed service answers exactly as a cold one.
Run on SQLite and on PostgreSQL."""

from __future__ import annotations

import random

import pytest

import bot.service as service_module
from bot.discord.cli import Shards
from bot.service import Service
from tests.service.conftest import BACKENDS, new_game, play, roles_of, state_dump

pytestmark = pytest.mark.parametrize("db_path", BACKENDS, indirect=True)


async def _games_played_in_order(service: Service, clock, n: int) -> list[str]:
    """``n`` started toy games, each played once, game ``k`` a minute after game ``k-1``;
    then the cache emptied. Their ids, the least recently played first."""
    games = []
    for k in range(n):
        games.append(await new_game(service, "toy", game_id=f"warm-{k}", secret=bytes([k]) * 32))
    for k, game in enumerate(games):
        clock.advance(60)
        await play(service, game, 1, random.Random(k))
    for game in games:
        service.forget(game)
    return games


async def test_the_most_recently_played_active_games_are_cached_up_to_the_cache_size(
    service: Service, clock, monkeypatch
):
    games = await _games_played_in_order(service, clock, 5)
    await service.set_status(games[4], "mod", "paused", "a break")  # not active: left out
    opened = await service.create("toy", created_by="mod", game_id="warm-open")  # not started
    service.forget(games[4])
    service.forget(opened.game)
    monkeypatch.setattr(service_module, "CACHE_SIZE", 3)

    report = await service.warm()

    expected = [games[3], games[2], games[1]]  # the latest played first; games[0] left out
    assert report.candidates == 3 and report.games == 3 and report.skipped == 0
    assert report.stopped is None
    assert set(service._cache) == set(expected)
    # the most recently played is the last the cache would drop
    assert list(service._cache) == list(reversed(expected))
    assert report.rulesets == ("toy",)
    for game in expected:  # loaded as a command loads it, its prompt worked out
        live = service._cache[game]
        assert live.prompt == live.ruleset.prompt(live.state)
    assert "warmed 3 of 3 games (toy)" in report.line()


async def test_a_limit_a_guild_test_and_the_time_budget_bound_the_warm_up(service: Service, clock):
    games = await _games_played_in_order(service, clock, 4)
    made = await service.create(
        "toy", created_by="mod", seats={r: f"user-{r}" for r in roles_of("toy")},
        game_id="warm-guild", guild=str(5 << 22),  # Discord's shard 1 of 4
    )  # fmt: skip
    await service.start(made.game, "mod")
    in_guild = made.game
    service.forget(in_guild)

    report = await service.warm(limit=2)
    assert report.games == 2 and set(service._cache) == {in_guild, games[3]}

    for game in list(service._cache):
        service.forget(game)
    report = await service.warm(serves=Shards((1,), 4).serves)
    assert report.candidates == 1 and set(service._cache) == {in_guild}

    for game in list(service._cache):
        service.forget(game)
    report = await service.warm(budget=0)
    assert report.games == 0 and report.candidates == 5 and not service._cache
    assert "time budget of 0 s" in report.stopped and "time budget" in report.line()
    await play(service, games[0], 1, random.Random(9))  # the rest load at their command


async def test_a_game_that_cannot_be_rebuilt_is_skipped_and_the_others_are_warmed(
    service: Service, clock
):
    games = await _games_played_in_order(service, clock, 3)
    async with service.store.write() as tx:
        await tx._run("UPDATE snapshots SET state = ? WHERE game = ?", (b"not a state", games[1]))
    report = await service.warm()
    assert report.games == 2 and report.skipped == 1
    assert set(service._cache) == {games[0], games[2]}
    assert "1 that cannot be rebuilt skipped" in report.line()


async def test_an_engine_failing_on_one_game_does_not_stop_the_warm_up(
    service: Service, clock, monkeypatch
):
    games = await _games_played_in_order(service, clock, 3)
    real = Service._live

    async def failing(self, game_id):
        if game_id == games[0]:
            raise RuntimeError("an engine's bug")
        return await real(self, game_id)

    monkeypatch.setattr(Service, "_live", failing)
    report = await service.warm()
    assert report.games == 2 and report.skipped == 1
    assert set(service._cache) == {games[1], games[2]}


async def test_every_connection_of_the_store_is_open_after_the_warm_up(service: Service):
    report = await service.warm()
    assert report.candidates == report.games == 0
    if service.store.path.endswith(".db"):
        assert report.connections == 1  # SQLite's one connection
    else:
        pool = service.store._pool
        assert report.connections == pool.max_size == pool.get_stats()["pool_size"]


@pytest.fixture
async def twin(db_path, clock, request):
    """A second service over a database of its own (a second file, or a second schema)."""
    if db_path.endswith(".db"):
        path = db_path[: -len(".db")] + "-twin.db"
    else:
        path = request.getfixturevalue("pg_session").new_url()
    svc = await Service.open(path, clock=clock)
    yield svc
    await svc.close()


@pytest.mark.parametrize("ruleset", ["toy", "pfv"])
async def test_a_warmed_service_answers_exactly_as_a_cold_one(
    service: Service, twin: Service, ruleset: str
):
    """The same game (id, secret, orders) in two databases, one service warmed and the
    other not: the same views, prompts and states, then the same answers to the same
    orders, and the same log."""
    for svc in (service, twin):
        game = await new_game(svc, ruleset, game_id="twin", secret=b"t" * 32)
        await play(svc, game, 6, random.Random(3))
        svc.forget(game)
    report = await service.warm()
    assert report.games == 1 and "twin" in service._cache and "twin" not in twin._cache

    assert await service.view("twin", None) == await twin.view("twin", None)
    for role in roles_of(ruleset):
        seen = [await svc.view("twin", f"user-{role}", role) for svc in (service, twin)]
        assert seen[0] == seen[1]
    assert await service.status("twin") == await twin.status("twin")
    assert await state_dump(service, "twin") == await state_dump(twin, "twin")
    twin.forget("twin")  # the reads above loaded it: cold again for the orders
    warm_results = await play(service, "twin", 8, random.Random(4))
    cold_results = await play(twin, "twin", 8, random.Random(4))
    assert len(warm_results) == 8 and warm_results == cold_results
    logs = [await svc.game_log("twin") for svc in (service, twin)]
    assert logs[0] == logs[1]
    assert await service.export("twin") == await twin.export("twin")


async def test_a_bot_process_warms_the_games_of_its_shards_before_it_logs_in(
    service: Service, db_path: str
):
    from bot.discord.cli import open_bot_process, parse_shards
    from bot.discord.config import Settings

    made = {}
    for shard in (1, 2):
        created = await service.create(
            "toy", created_by="mod", seats={r: f"user-{r}" for r in roles_of("toy")},
            game_id=f"warm-shard-{shard}", guild=str((4 + shard) << 22),
        )  # fmt: skip
        await service.start(created.game, "mod")
        made[shard] = created.game
    process = await open_bot_process(Settings(token="x", db_path=db_path), parse_shards("1,3", 4))
    try:
        assert set(process.service._cache) == {made[1]}  # shard 2 is another process's
        assert not process.bot.is_ready()  # built, not logged in
    finally:
        await process.close()


@pytest.mark.parametrize(
    ("guild", "shards", "served"),
    [
        (str(6 << 22), Shards((2,), 4), True),
        (str(6 << 22), Shards((0, 1, 3), 4), False),
        (None, Shards((0,), 2), True),  # no server known: the primary process's
        (None, Shards((1,), 2), False),
        ("not-a-number", Shards((0,), 2), True),
        (str(6 << 22), Shards(), True),  # one process serves everything
    ],
)
def test_a_guild_is_served_by_the_process_holding_its_discord_shard(db_path, guild, shards, served):
    assert shards.serves(guild) is served


def test_the_load_bench_gives_each_worker_the_games_of_its_shard(db_path):
    """bench/bench_load.py warms each worker with the games of its shard: those are the
    games it drives, whatever the number of workers."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "bench_load.py"
    spec = importlib.util.spec_from_file_location("bench_load", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_load", bench)
    spec.loader.exec_module(bench)
    ids = [bench.game_id(i) for i in range(40)]
    for processes in (1, 3, 4):
        for p in range(processes):
            serves = bench.shard_serves(p, processes)
            on_shard = [g for i, g in enumerate(ids) if serves(bench.guild_of(i))]
            assert on_shard == bench.deal(ids, p, processes) != []
