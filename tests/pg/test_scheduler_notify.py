"""What wakes the schedulers on PostgreSQL (issue 16): a deadline and its reminders,
committed, send one ``NOTIFY umpire_deadlines``; a rolled-back one sends none; an order's
notices (announced by the command itself) send none, so a busy game does not wake every
process at every order."""

from __future__ import annotations

import asyncio

from bot.service import Service
from tests.service import toy  # noqa: F401  (registers the toy ruleset)

HOUR = 3600.0


async def _heard(woken: list[int], before: int, wait: float) -> int:
    """How many wakes came after ``before``, waiting up to ``wait`` seconds for one."""
    for _ in range(int(wait / 0.02)):
        if len(woken) > before:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)  # and any that would follow it
    return len(woken) - before


async def test_a_committed_deadline_wakes_listeners_and_an_order_does_not(pg_url):
    service = await Service.open(pg_url)
    woken: list[int] = []
    listener = asyncio.create_task(service.store.listen(lambda: woken.append(1)))
    try:
        await _heard(woken, 0, 5.0)  # the wake it gives when it starts listening
        created = await service.create("toy", created_by="mod", seats={"north": "n", "south": "s"})
        await service.start(created.game, "mod")
        now = len(woken)
        await service.set_deadline(
            created.game, "mod", service.clock() + HOUR, remind_before=[600, 60]
        )
        assert await _heard(woken, now, 5.0) == 1  # one per transaction

        now = len(woken)
        try:
            async with service.store.write() as tx:
                await tx.insert_deadline(created.game, None, 1.0, 1, "north", "take", "t", 1.0)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        queued = len(await service.notifications(created.game))
        await service.submit(created.game, "n", "take 1")
        assert len(await service.notifications(created.game)) > queued  # south's prompt
        assert await _heard(woken, now, 0.5) == 0
    finally:
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)
        await service.close()
