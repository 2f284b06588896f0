"""The bot's task that serves every deadline and reminder (ARCHITECTURE: Asynchronous play).

It is the scheduler core of :mod:`bot.deadlines` (claim, act, mark; a lease per row, so
any number of bot processes run it and each row is acted on once; ``LISTEN`` on
PostgreSQL) with the Discord side of acting: a passed deadline is applied and announced
by the game table (:meth:`GameTable.deadline_passed`), a notice is posted by it
(:meth:`GameTable.deliver`). The bot takes the deadlines and notices of games with a
Discord channel, the mail loop the deadlines of games without one; the claim makes sure
each is acted on once, however many processes run.

After a restart the first pass catches up with everything that fell due while the bot
was down. A notice the table posts itself right after the command that queued it
(:data:`ANNOUNCED_INLINE`) is left alone for ``notice_grace`` seconds; only one a crash
kept from being posted is sent from here. A notice the channel refused (the bot lost Send
Messages there, Discord was down) stays queued and is tried again after a pause that
doubles each time, up to :data:`bot.deadlines.MAX_RETRY`.

Notices of the kinds in :data:`DM_KINDS`, whose delivery may send the player a direct
message (:meth:`GameTable.reach_mover`), are sent by one process only: the one holding
shard 0 (``dm_work``; :mod:`bot.discord.cli`), where Discord delivers direct messages.
The other processes apply deadlines and post the other notices.
"""

from __future__ import annotations

import logging

from bot.deadlines import MAX_SLEEP, MIN_SLEEP, NoticeVerdict, Runner
from bot.discord.table import ANNOUNCED_INLINE, GameTable
from bot.service import DeadlineInfo, NotificationInfo

log = logging.getLogger(__name__)

__all__ = ["DM_KINDS", "MAX_SLEEP", "MIN_SLEEP", "Scheduler"]

#: notice kinds whose delivery may go by direct message: the process holding shard 0 sends them
DM_KINDS = frozenset({"reminder", "prompt"})


class Scheduler:
    def __init__(self, table: GameTable, *, dm_work: bool = True) -> None:
        self.table = table
        self.service = table.service
        self.runner = Runner(
            self.service,
            self._deadline,
            self._notice,
            with_channel=True,
            skip_kinds=() if dm_work else DM_KINDS,
        )

    def start(self) -> None:
        self.runner.start()

    async def stop(self) -> None:
        await self.runner.stop()

    def poke(self) -> None:
        """Look again now: a command set or changed a deadline."""
        self.runner.poke()

    async def tick(self) -> float:
        """Act on everything due now; the seconds until something else falls due."""
        return await self.runner.tick()

    async def _deadline(self, deadline: DeadlineInfo) -> None:
        await self.table.deadline_passed(deadline)

    async def _notice(self, notice: NotificationInfo) -> NoticeVerdict:
        grace = self.table.settings.notice_grace
        if notice.kind in ANNOUNCED_INLINE and notice.due_at > self.service.clock() - grace:
            return notice.due_at + grace  # the command that queued it may still post it
        return await self.table.deliver(notice)
