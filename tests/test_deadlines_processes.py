"""The scheduler core in several OS processes over one database (issue 16, item 4): many
deadlines fall due over a few seconds while every process runs a :class:`Runner`; each
deadline is acted on exactly once (one audit row per deadline, whichever process took
it). Two processes on SQLite here; three on PostgreSQL in tests/pg/test_scheduler_processes.py,
which also measures how soon a deadline set by one process is taken by another."""

from __future__ import annotations

import asyncio
import collections
import json
import multiprocessing
import os
import time
from pathlib import Path

from bot.deadlines import Runner
from bot.service import DeadlineInfo, Service

#: the audit act each process writes for a deadline it acted on
ACTED = "test-deadline-acted"
DEADLINES = 300
GAMES = 10
SPREAD = 3.0  # seconds over which the deadlines fall due


def scheduler_process(url: str, name: str, stop_file: str, out_fd: int) -> None:
    """One process: a runner acting on every deadline it claims by writing an audit row
    (with the time it acted), until ``stop_file`` exists; reports the ids it acted on."""

    async def main() -> None:
        service = await Service.open(url)
        acted: list[int] = []

        async def act(d: DeadlineInfo) -> None:
            acted.append(d.id)
            await service.record(
                d.game, name, ACTED, {"deadline": d.id, "at": time.time(), "by": name}
            )

        runner = Runner(service, act, name=name)
        runner.start()
        try:
            while not os.path.exists(stop_file):
                await asyncio.sleep(0.1)
        finally:
            await runner.stop()
            await service.close()
        os.write(out_fd, json.dumps(acted).encode() + b"\n")

    asyncio.run(main())


async def make_deadlines(url: str, start: float) -> list[int]:
    """:data:`GAMES` toy games and :data:`DEADLINES` deadlines on them, falling due
    evenly from ``start`` over :data:`SPREAD` seconds; their ids."""
    import tests.service.toy  # noqa: F401  (registers the toy ruleset)

    service = await Service.open(url)
    try:
        games = []
        for _ in range(GAMES):
            created = await service.create(
                "toy", created_by="mod", seats={"north": "n", "south": "s"}
            )
            await service.start(created.game, "mod")
            games.append(created.game)
        ids = []
        async with service.store.write() as tx:
            for i in range(DEADLINES):
                due = start + SPREAD * i / DEADLINES
                ids.append(
                    await tx.insert_deadline(games[i % GAMES], None, due, 1, "north", "take",
                                             "test", time.time())
                )
        return ids
    finally:
        await service.close()


async def acted_rows(url: str) -> list[dict]:
    """Every audit row the processes wrote, by deadline."""
    service = await Service.open(url)
    try:
        rows = []
        for game in await service.list_games():
            rows += [a for a in await service.audit(game.game) if a["act"] == ACTED]
        return rows
    finally:
        await service.close()


async def open_deadlines(url: str) -> int:
    service = await Service.open(url)
    try:
        return len(await service.deadlines())
    finally:
        await service.close()


class Processes:
    """``n`` scheduler processes over ``url``, stopped by a file."""

    def __init__(self, url: str, n: int, folder: Path) -> None:
        self.stop_file = str(folder / "stop")
        fork = multiprocessing.get_context("fork")
        self.children, self.pipes = [], []
        for i in range(n):
            read_fd, write_fd = os.pipe()
            child = fork.Process(
                target=scheduler_process, args=(url, f"p{i}", self.stop_file, write_fd)
            )
            child.start()
            os.close(write_fd)
            self.children.append(child)
            self.pipes.append(read_fd)

    def stop(self) -> list[list[int]]:
        """Stop every process; the deadline ids each acted on."""
        Path(self.stop_file).touch()
        reports = []
        for read_fd, child in zip(self.pipes, self.children, strict=True):
            with os.fdopen(read_fd, "rb") as f:
                reports.append(json.loads(f.read() or b"null"))
            child.join(60)
            assert child.exitcode == 0
        return reports


def wait_until_fired(url: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while asyncio.run(open_deadlines(url)) and time.monotonic() < end:
        time.sleep(0.25)


def check_each_once(url: str, ids: list[int], reports: list[list[int]]) -> dict[str, int]:
    """Every deadline acted on exactly once, by the processes' reports and by the audit
    rows; how many each process took."""
    assert asyncio.run(open_deadlines(url)) == 0  # every one fired
    taken = collections.Counter(i for report in reports for i in report)
    assert sorted(taken) == sorted(ids) and set(taken.values()) == {1}
    rows = asyncio.run(acted_rows(url))
    per_deadline = collections.Counter(r["detail"]["deadline"] for r in rows)
    assert sorted(per_deadline) == sorted(ids) and set(per_deadline.values()) == {1}
    return dict(collections.Counter(r["detail"]["by"] for r in rows))


def test_two_processes_on_sqlite_act_on_each_deadline_once(tmp_path):
    url = str(tmp_path / "umpire.db")
    ids = asyncio.run(make_deadlines(url, time.time() + 1.0))
    processes = Processes(url, 2, tmp_path)
    try:
        wait_until_fired(url, 60 + SPREAD)
    finally:
        reports = processes.stop()
    split = check_each_once(url, ids, reports)
    print(f"\nSQLite, 2 processes, {DEADLINES} deadlines over {SPREAD:g} s: taken {split}")


def _dying_process(url: str) -> None:
    """Claims what is due with a lease of a second, and is killed in the middle of the act."""
    import signal

    async def main() -> None:
        service = await Service.open(url)

        async def die(d: DeadlineInfo) -> None:
            os.kill(os.getpid(), signal.SIGKILL)

        await Runner(service, die, name="dying", lease=1.0).tick()

    asyncio.run(main())


def test_a_deadline_whose_process_was_killed_mid_act_is_taken_by_another(tmp_path):
    url = str(tmp_path / "umpire.db")
    [first, *_] = asyncio.run(make_deadlines(url, time.time() - 10.0))  # all due already
    child = multiprocessing.get_context("fork").Process(target=_dying_process, args=(url,))
    child.start()
    child.join(60)
    assert child.exitcode == -9  # killed holding its claims

    async def survivor() -> tuple[list[int], float]:
        service = await Service.open(url)
        acted: list[int] = []

        async def act(d: DeadlineInfo) -> None:
            acted.append(d.id)

        try:
            runner = Runner(service, act, name="survivor")
            await runner.tick()
            held = list(acted)  # the dead process's lease still holds its rows
            await asyncio.sleep(1.2)
            while await runner.tick() == 0:  # a full batch: more is waiting
                pass
            return held, len(await service.deadlines())
        finally:
            await service.close()

    held, still_open = asyncio.run(survivor())
    assert first not in held  # taken by the dead process, within its lease
    assert still_open == 0  # after it, the survivor took every row
