"""One task that serves every deadline and reminder (ARCHITECTURE: Asynchronous play).

Deadlines and notices are rows in the database, so the scheduler keeps nothing of its
own: it asks the service what is due, acts, marks it handled, and sleeps until the next
row falls due (or until a command pokes it because it set a nearer one). After a
restart the first pass catches up with everything that fell due while the bot was down.
Rows are marked handled only after they are acted on, so a crash in between repeats the
act instead of losing it; acting twice is harmless because a passed deadline only applies
orders while the decision it was set for is still pending.

A notice is marked handled only once it was posted (or there is nothing left to say):
one the channel refused (the bot lost Send Messages there, Discord was down) stays
queued and is tried again after a pause that doubles each time, up to
:data:`MAX_RETRY`, so a channel that never takes it costs a request now and then, not a
loop. The pauses are kept in memory: after a restart every such notice is tried at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.discord.table import ANNOUNCED_INLINE, GameTable

log = logging.getLogger(__name__)

#: the longest nap, so a clock jump or a row written by another process is seen soon
MAX_SLEEP = 300.0
MIN_SLEEP = 0.5
#: the first and the longest pause before posting a refused notice again
FIRST_RETRY = 60.0
MAX_RETRY = 3600.0


class Scheduler:
    def __init__(self, table: GameTable) -> None:
        self.table = table
        self.service = table.service
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: notices the channel refused: id -> (when to try again, the pause before that)
        self._retry: dict[int, tuple[float, float]] = {}

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="umpire-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def poke(self) -> None:
        """Look again now: a command set or changed a deadline."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.tick()
            except Exception:
                log.exception("the scheduler's pass failed; trying again in a minute")
                delay = 60.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def tick(self) -> float:
        """Act on everything due now; the seconds until something else falls due."""
        now = self.service.clock()
        grace = self.table.settings.notice_grace
        due = await self.service.due(now)
        for deadline in due.deadlines:
            try:
                await self.table.deadline_passed(deadline)
            except Exception:
                log.exception(
                    "applying the passed deadline %s of game %s failed", deadline.id, deadline.game
                )
            await self.service.mark_handled(deadlines=[deadline.id])
        held: list[float] = []
        for notice in due.notifications:
            if notice.kind in ANNOUNCED_INLINE and notice.due_at > now - grace:
                held.append(notice.due_at + grace)  # the command that queued it may still post it
                continue
            again = self._retry.get(notice.id)
            if again is not None and again[0] > now:
                held.append(again[0])
                continue
            try:
                posted = await self.table.deliver(notice)
            except Exception:
                log.exception("delivering notice %s of game %s failed", notice.id, notice.game)
                posted = False
            if posted:
                self._retry.pop(notice.id, None)
                await self.service.mark_handled(notifications=[notice.id])
                continue
            pause = FIRST_RETRY if again is None else min(MAX_RETRY, again[1] * 2)
            self._retry[notice.id] = (now + pause, pause)
            held.append(now + pause)
            log.warning(
                "notice %s of game %s was not posted; trying again in %.0f s",
                notice.id,
                notice.game,
                pause,
            )
        wake = list(held)
        nxt = await self.service.next_due_at()
        if nxt is not None and nxt > now:
            wake.append(nxt)
        if not wake:
            return MAX_SLEEP
        return min(MAX_SLEEP, max(MIN_SLEEP, min(wake) - now))
