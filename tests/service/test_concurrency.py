"""ARCHITECTURE: Storage. Optimistic concurrency: of two orders written against the same
action number exactly one is applied and the other is refused as stale, whether they race
inside one service (the per-game lock) or from two processes (the version check).

On the toy, each race sends two different random orders, so the log shows which one won,
1,000 races a test (``UMPIRE_RACES``). On Patton's First Victory the races follow the
fuzzed game of ``long_script`` and both players send the script's order (enumerating a
second legal order costs the rules engine ~10 ms), 200 races a test (``UMPIRE_PFV_RACES``).
"""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from bot import service as service_module
from bot.service import OrderResult, Service, StaleOrder
from bot.service_fuzz import random_order
from tests.service.conftest import (
    LONG_GAME_OPTIONS,
    RULESETS,
    fresh_replay,
    new_game,
    start_script_game,
    state_dump,
)

RACES = int(os.environ.get("UMPIRE_RACES", "1000"))
PFV_RACES = int(os.environ.get("UMPIRE_PFV_RACES", "200"))


async def _race(services: list[Service], game: str, orders: tuple, seq: int) -> OrderResult:
    """Two players send an order each against action ``seq``; the one that was applied."""
    role, first, second = orders
    results = await asyncio.gather(
        services[0].submit(game, f"user-{role}", first, role=role, seen=seq),
        services[-1].submit(game, f"user-{role}", second, role=role, seen=seq),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, OrderResult)]
    stale = [r for r in results if isinstance(r, StaleOrder)]
    assert len(applied) == 1 and len(stale) == 1, results
    assert applied[0].seq == seq + 1
    assert stale[0].prompt.seq == seq + 1
    return applied[0]


async def _check_no_lost_update(services, game, applied: list[tuple[int, str]]) -> None:
    log = await services[0].game_log(game, audience="*", include_undone=True)
    assert [(line.seq, line.order) for line in log] == applied
    replayed = await fresh_replay(services[0], game)
    for service in services:
        assert await state_dump(service, game) == replayed.ruleset.dump_state(replayed.state)


async def _toy_races(services: list[Service], races: int) -> None:
    rng = random.Random(17)
    game = await new_game(services[0], "toy", options=LONG_GAME_OPTIONS["toy"])
    applied = []
    for _ in range(races):
        ruleset, state, seq = await services[0].live_state(game)
        role, first = random_order(ruleset, state, rng)
        _, second = random_order(ruleset, state, rng)
        won = await _race(services, game, (role, first, second), seq)
        assert won.order in (first.text(), second.text())
        applied.append((seq + 1, won.order))
    await _check_no_lost_update(services, game, applied)


async def _script_races(services: list[Service], script, races: int) -> None:
    game = await start_script_game(services[0], script)
    applied = []
    for seq, (role, order) in enumerate(script.steps[:races]):
        won = await _race(services, game, (role, order, dict(order)), seq)
        applied.append((seq + 1, won.order))
    await _check_no_lost_update(services, game, applied)


class _CountMoved:
    """Counts the refusals decided by the version check inside the write transaction."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        counter = self

        class CountedMoved(service_module._Moved):
            def __init__(self) -> None:
                counter.count += 1

        monkeypatch.setattr(service_module, "_Moved", CountedMoved)


@pytest.fixture
async def two_services(db_path, clock):
    """Two services on one database file stand for two bot processes: each has its own
    connection, cache and locks, so only the version check inside the write transaction
    stops a lost update when both loaded the game before either wrote."""
    one = await Service.open(db_path, clock=clock)
    two = await Service.open(db_path, clock=clock)
    yield [one, two]
    await one.close()
    await two.close()


async def test_orders_racing_in_one_service_apply_exactly_one(service):
    await _toy_races([service], RACES)


async def test_orders_racing_from_two_processes_apply_exactly_one(two_services, monkeypatch):
    moved = _CountMoved(monkeypatch)
    await _toy_races(two_services, RACES)
    assert moved.count > RACES // 2


@pytest.mark.skipif("pfv" not in RULESETS, reason="UMPIRE_TEST_RULESETS leaves pfv out")
async def test_pfv_orders_racing_in_one_service_apply_exactly_one(service, long_script):
    await _script_races([service], long_script, PFV_RACES)


@pytest.mark.skipif("pfv" not in RULESETS, reason="UMPIRE_TEST_RULESETS leaves pfv out")
async def test_pfv_orders_racing_from_two_processes_apply_exactly_one(
    two_services, long_script, monkeypatch
):
    moved = _CountMoved(monkeypatch)
    await _script_races(two_services, long_script, PFV_RACES)
    assert moved.count > PFV_RACES // 2
