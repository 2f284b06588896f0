"""A bot without a network for the SIGTERM test: it takes a "command" every 50 ms, each
one a write transaction that lasts half a second, under the same
:func:`bot.shutdown.run_until_signalled` that ``umpire bot`` and ``umpire email`` use.

Run as ``python -m tests.ops.fake_bot DB``; prints ``took:N``, ``begun:N`` and ``done:N``."""

from __future__ import annotations

import asyncio
import sys

from bot.service import Service
from bot.shutdown import run_until_signalled


async def command(service: Service, n: int) -> None:
    async with service.store.write() as tx:
        await tx._run("INSERT INTO ticks VALUES (?)", (n,))
        print(f"begun:{n}", flush=True)
        await asyncio.sleep(0.5)
        await tx._run("INSERT INTO ticks VALUES (?)", (n + 1000,))
    print(f"done:{n}", flush=True)


async def amain(path: str) -> None:
    service = await Service.open(path)
    try:
        async with service.store.write() as tx:
            await tx._run("CREATE TABLE IF NOT EXISTS ticks (n INTEGER)")
        taking = asyncio.Event()
        taking.set()
        running: set[asyncio.Task] = set()

        async def gateway() -> None:
            n = 0
            while taking.is_set():
                print(f"took:{n}", flush=True)
                task = asyncio.create_task(command(service, n))
                running.add(task)
                task.add_done_callback(running.discard)
                n += 1
                await asyncio.sleep(0.05)

        async def stop() -> None:
            taking.clear()
            print("stopped taking commands", flush=True)

        print("ready", flush=True)
        await run_until_signalled(gateway(), stop, grace=10)
    finally:
        await service.close()
        print("closed", flush=True)


if __name__ == "__main__":
    asyncio.run(amain(sys.argv[1]))
