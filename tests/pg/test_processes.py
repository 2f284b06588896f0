"""Issue 16, "correct across processes", on PostgreSQL: the service's SIGKILL crash test
run against a PostgreSQL database, and four processes ordering on one game at once, each
order applied exactly once."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os

from bot.service import OrderResult, Service, StaleOrder
from tests.service import test_crash
from tests.service.conftest import (
    Reference,
    Script,
    start_script_game,
    state_dump,
)

PROCESSES = 4
RACED_ORDERS = int(os.environ.get("UMPIRE_PG_RACED_ORDERS", "150"))


class _Url:
    """Stands for ``tmp_path`` in the crash test: any file under it is the URL."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __truediv__(self, name: str) -> str:
        return self.url


def test_sigkill_in_the_middle_of_orders_on_postgresql(pg_url, long_script):
    test_crash.test_sigkill_at_random_instants_loses_no_acknowledged_order_and_leaves_no_gap(
        _Url(pg_url), long_script, 20
    )


def _racer(url: str, script: Script, upto: int, out_fd: int) -> None:
    """Send every order of the script up to ``upto``, each against the position it was
    chosen in, as soon as the game stands there; report what happened to each."""

    async def main() -> None:
        service = await Service.open(url)
        outcomes = []
        for seq, (role, order) in enumerate(script.steps[:upto]):
            waited = 0
            while True:
                _, _, now = await service.live_state(script.game_id)
                if now >= seq:
                    break
                waited += 1
                if waited > 30_000:  # the other processes stopped: say so, do not hang
                    raise RuntimeError(f"the game never reached action {seq}")
                await asyncio.sleep(0.001)
            try:
                result = await service.submit(
                    script.game_id, f"user-{role}", order, role=role, seen=seq
                )
            except StaleOrder as exc:
                result = exc
            if isinstance(result, OrderResult):
                outcomes.append(["applied", result.seq])
            elif isinstance(result, StaleOrder):
                outcomes.append(["stale", seq])
            else:
                outcomes.append(["other", repr(result)[:80]])
        await service.close()
        os.write(out_fd, json.dumps(outcomes).encode() + b"\n")

    asyncio.run(main())


async def _start(url: str, script: Script) -> None:
    service = await Service.open(url)
    await start_script_game(service, script)
    await service.close()


async def _check(url: str, script: Script, upto: int) -> tuple[list, dict, dict]:
    service = await Service.open(url)
    try:
        async with service.store.read() as tx:
            live = await tx.live_actions(script.game_id)
            entries = await tx.log_entries(script.game_id)
        reference = Reference(script.ruleset, script.options, script.secret, script.game_id)
        await reference.check(service, script.game_id, live)  # dice, events, state: cold too
        return (
            [(a.seq, a.role, a.order) for a in live],
            {"entries": len(entries)},
            await state_dump(service, script.game_id),
        )
    finally:
        await service.close()


def test_four_processes_ordering_on_one_game_apply_each_order_once(pg_url, long_script):
    script = long_script
    asyncio.run(_start(pg_url, script))
    fork = multiprocessing.get_context("fork")
    pipes, children = [], []
    for _ in range(PROCESSES):
        read_fd, write_fd = os.pipe()
        child = fork.Process(target=_racer, args=(pg_url, script, RACED_ORDERS, write_fd))
        child.start()
        os.close(write_fd)
        pipes.append(read_fd)
        children.append(child)
    reports = []
    for read_fd, child in zip(pipes, children, strict=True):
        with os.fdopen(read_fd, "rb") as f:
            reports.append(json.loads(f.read() or b"null"))
        child.join(120)
        assert child.exitcode == 0
    applied = sorted(seq for report in reports for kind, seq in report if kind == "applied")
    stale = sum(kind == "stale" for report in reports for kind, _ in report)
    others = [x for report in reports for x in report if x[0] == "other"]
    assert others == []
    assert applied == list(range(1, RACED_ORDERS + 1))  # each order once: none lost, none twice
    assert stale == (PROCESSES - 1) * RACED_ORDERS
    live, counts, _ = asyncio.run(_check(pg_url, script, RACED_ORDERS))
    expected = [(i + 1, role, order) for i, (role, order) in enumerate(script.steps[:RACED_ORDERS])]
    assert [(s, r, json.loads(json.dumps(o))) for s, r, o in live] == [
        (s, r, json.loads(json.dumps(o))) for s, r, o in expected
    ]
    assert counts["entries"] == RACED_ORDERS  # no entry written and undone behind our back
