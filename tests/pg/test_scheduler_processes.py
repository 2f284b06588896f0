"""Issue 16, item 4, on PostgreSQL: three OS processes run the scheduler core over one
database while 300 deadlines fall due over a few seconds; each is acted on exactly once
(claims with FOR UPDATE SKIP LOCKED and a lease). Then, with every process asleep (nothing
pending: a nap of MAX_SLEEP), deadlines set by this process are taken by one of the
others at once: NOTIFY at the commit wakes them (LISTEN). The wake-up latency is
printed (run with -s), not asserted; the test only requires it to be far below the nap."""

from __future__ import annotations

import asyncio
import statistics
import time

from bot.deadlines import MAX_SLEEP
from bot.service import Service
from tests.test_deadlines_processes import (
    ACTED,
    DEADLINES,
    SPREAD,
    Processes,
    acted_rows,
    check_each_once,
    make_deadlines,
    wait_until_fired,
)

PROCESSES = 3
WAKE_TRIES = 5


async def _set_due_now(url: str) -> tuple[int, float]:
    """A deadline due at once, set from this process; its id and the time of its commit."""
    service = await Service.open(url)
    try:
        game = (await service.list_games())[0].game
        async with service.store.write() as tx:
            new = await tx.insert_deadline(
                game, None, time.time(), 1, "north", "take", "test", time.time()
            )
        return new, time.time()
    finally:
        await service.close()


def _acted_at(url: str, deadline: int, timeout: float) -> float | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for row in asyncio.run(acted_rows(url)):
            if row["detail"]["deadline"] == deadline:
                return row["detail"]["at"]
        time.sleep(0.05)
    return None


def test_three_processes_act_on_each_deadline_once_and_wake_on_notify(pg_url, tmp_path):
    ids = asyncio.run(make_deadlines(pg_url, time.time() + 1.5))
    processes = Processes(pg_url, PROCESSES, tmp_path)
    try:
        wait_until_fired(pg_url, 60 + SPREAD)
        time.sleep(1.0)  # every process has made its last pass and sleeps
        latencies = []
        for _ in range(WAKE_TRIES):
            new, committed = asyncio.run(_set_due_now(pg_url))
            acted = _acted_at(pg_url, new, timeout=MAX_SLEEP / 10)
            assert acted is not None, "no process woke for a deadline set by another"
            latencies.append(acted - committed)
            ids.append(new)
    finally:
        reports = processes.stop()
    split = check_each_once(pg_url, ids, reports)
    assert len(asyncio.run(acted_rows(pg_url))) == DEADLINES + WAKE_TRIES
    assert sum(split.values()) == DEADLINES + WAKE_TRIES and len(split) >= 2
    print(
        f"\nPostgreSQL, {PROCESSES} processes, {DEADLINES} deadlines over {SPREAD:g} s: "
        f"taken {split}; a deadline set by another process taken after "
        f"{statistics.median(latencies) * 1000:.1f} ms median, "
        f"{max(latencies) * 1000:.1f} ms at most ({WAKE_TRIES} tries; {ACTED} rows counted)"
    )
