"""The deadline scheduler's core, for any number of processes (ARCHITECTURE: Asynchronous
play, Scale; issue 16).

Deadlines and notices are rows in the database, so a scheduler keeps nothing of its own:
it **claims** what is due, **acts**, and **marks** it handled, then sleeps until the next
row falls due. The Discord bot (:mod:`bot.discord.scheduler`) and the mail loop
(:mod:`bot.email.cli`) run this same :class:`Runner`; only what "acting" means differs.

Claiming is a lease: one write transaction takes the due rows nobody holds, writing the
claimant's name and a time (``claimed_until``, :data:`LEASE` seconds ahead) on them. On
PostgreSQL the rows are picked with ``FOR UPDATE SKIP LOCKED``, so two processes claiming
at the same instant take different rows instead of waiting for each other; on SQLite
one writer at a time does the same. The lease, rather than a row lock held through the
act, because acting runs transactions of its own (orders, audit, a post to Discord that
may take seconds): a transaction held open around them would pin a pooled connection on
PostgreSQL and, on SQLite, block the act's own writes. While it acts, the claimant moves
its lease forward every third of :data:`LEASE`; if its process dies, the lease runs out
and another process takes the row. So every row is acted on at least once, and twice
only after a crash in the middle of an act: harmless, because a passed deadline applies
orders only while the decision it was set for is still pending, and the orders go in
with the position they were chosen in (the service's stale-order check). A notice the
channel refused keeps its lease until it is tried again, after a pause that doubles each
time, up to :data:`MAX_RETRY` (the pauses are kept in memory: after a restart every such
notice is tried at once).

A new deadline or reminder wakes the other processes: on PostgreSQL the transaction that
writes it sends ``NOTIFY umpire_deadlines`` (delivered at its commit), and each runner
listens on a connection of its own; on SQLite a command of the same process pokes its
runner, and other processes look at least every :data:`MAX_SLEEP` seconds. Other notices
wake nobody: the command that queues one announces it at once, and a scheduler is only
the fallback when that failed (see ``bot/store_pg.py``).

Who acts on which deadline: a bot process takes the deadlines and notices of games with
a Discord channel (it announces them there); the mail loop takes the deadlines of games
without one (``with_channel=False``), which only mail can announce. So a Discord game
gets its defaults from whichever bot process claims them first and a mail-only game from
``umpire email`` (or the mail loop beside ``umpire bot``); a deadline is applied once
whichever of them run, and a kind of game whose front end does not run waits for it
(the first pass after a start catches up). The mail loop takes no notices: it mails its
own from its cursors (:meth:`bot.email.desk.MailDesk.notices`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from bot.discord.standing import choose
from bot.service import (
    DeadlineInfo,
    NotificationInfo,
    OrderResult,
    SeatInfo,
    Service,
    ServiceError,
)
from engine.core.ruleset import Progress

log = logging.getLogger(__name__)

#: who the bot is in the audit trail and on deadlines it sets
UMPIRE = "umpire"
#: the audit act of an order applied because a deadline passed
DEFAULT_APPLIED_ACT = "deadline-default"
#: orders applied in a row for one passed deadline, at most (a decision of many steps)
MAX_DEFAULT_ORDERS = 60

#: seconds a claim holds a row; renewed every third of it while the act runs
LEASE = 60.0
#: the longest nap, so a clock jump or a row written by another process is seen soon
MAX_SLEEP = 300.0
MIN_SLEEP = 0.5
#: the first and the longest pause before posting a refused notice again
FIRST_RETRY = 60.0
MAX_RETRY = 3600.0
#: rows taken by one claim; a full batch is followed at once by the next
BATCH = 100


def process_name() -> str:
    """A name for this process in ``claimed_by``: host, process id and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


# -- applying a passed deadline ------------------------------------------------------


@dataclass
class Applied:
    """One order applied because a deadline passed."""

    result: OrderResult
    #: where the game stood before it
    before: Progress
    #: the order as stored, and as the public reads it
    order: str
    shown: str
    #: why this order: the standing order that chose it, or the default
    reason: str


@dataclass
class Passed:
    """What became of a passed deadline."""

    deadline: DeadlineInfo
    #: ``inactive``: the game is paused or over; ``decided``: the player decided in time;
    #: ``unseated``: nobody holds the seat; ``applied``: defaults were applied
    outcome: Literal["inactive", "decided", "unseated", "applied"]
    seat: SeatInfo | None = None
    applied: list[Applied] = field(default_factory=list)


OnApplied = Callable[[Applied, SeatInfo], Awaitable[None]]


async def apply_passed(
    service: Service, d: DeadlineInfo, on_applied: OnApplied | None = None
) -> Passed:
    """Apply the seat holder's standing orders, or the defined default, for the decision
    whose deadline ``d`` passed (ARCHITECTURE: Asynchronous play): order after order
    while that same decision is pending, each audited as :data:`DEFAULT_APPLIED_ACT`
    and handed to ``on_applied`` (which announces it) before the next is chosen."""
    status = await service.status(d.game)
    if status.status != "active":
        return Passed(d, "inactive")  # paused or over: a resumed game gets a fresh deadline
    phase = (d.turn, d.player, d.phase)
    if d.role is not None and status.prompt.role != d.role:
        return Passed(d, "decided")  # their next decision gets its own deadline
    holder = next((s for s in status.seats if s.role == status.prompt.role), None)
    if holder is None or holder.user is None:
        return Passed(d, "unseated", holder)
    passed = Passed(d, "applied", holder)
    for _ in range(MAX_DEFAULT_ORDERS):
        ruleset, state, seq = await service.live_state(d.game)
        prompt = ruleset.prompt(state)
        before = ruleset.progress(state)
        if prompt.role != holder.role or (before.turn, before.player, before.phase) != phase:
            break
        picked = choose(ruleset.legal_orders(state, prompt.role), holder.standing_orders)
        text = picked.order.text()
        try:
            result = await service.submit(d.game, holder.user, text, role=holder.role, seen=seq)
        except ServiceError as exc:
            # the player (or a moderator) acted in the meantime: nothing left to default
            log.info("no default applied in game %s: %s", d.game, exc)
            break
        # a standing order's preference (a piece, perhaps) is shown only when the order
        # itself is public
        shown = result.order_for(None)
        private = shown != result.order and not picked.reason.endswith(("any)", "none)"))
        reason = picked.reason.split(" (")[0] if private else picked.reason
        await service.record(
            d.game,
            UMPIRE,
            DEFAULT_APPLIED_ACT,
            {
                "deadline": d.id,
                "seq": result.seq,
                "role": holder.role,
                "order": text,
                "public_order": shown,
            },
            reason,
        )
        applied = Applied(result, before, text, shown, reason)
        passed.applied.append(applied)
        if on_applied is not None:
            await on_applied(applied, holder)
        if result.prompt.role is None:
            break
    return passed


# -- the runner --------------------------------------------------------------------------

#: what acting on a notice gave: True, done (posted, or nothing left to say); False, the
#: channel refused it (tried again later); a time, hold it until then untried
NoticeVerdict = bool | float


class Runner:
    """Claims, acts on and marks due rows, in a task that sleeps until the next falls due.

    ``on_deadline`` acts on a passed deadline; ``on_notice`` on a due notice (None: this
    runner takes no notices). ``with_channel`` restricts it to games with (True) or
    without (False) a Discord channel; notices of ``skip_kinds`` are left to another
    process.
    """

    def __init__(
        self,
        service: Service,
        on_deadline: Callable[[DeadlineInfo], Awaitable[object]],
        on_notice: Callable[[NotificationInfo], Awaitable[NoticeVerdict]] | None = None,
        *,
        with_channel: bool | None = None,
        skip_kinds: Iterable[str] = (),
        name: str | None = None,
        lease: float = LEASE,
        listen: bool = True,
    ) -> None:
        self.service = service
        self.on_deadline = on_deadline
        self.on_notice = on_notice
        self.with_channel = with_channel
        self.skip_kinds = frozenset(skip_kinds)
        self.name = name or process_name()
        self.lease = lease
        self.listen = listen
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        #: the last pause of each notice the channel refused, doubled at each refusal
        self._pause: dict[int, float] = {}

    # -- the task ---------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="umpire-deadlines")
        listen = getattr(self.service.store, "listen", None)
        if self.listen and listen is not None and (self._listener is None or self._listener.done()):
            self._listener = asyncio.create_task(listen(self.poke), name="umpire-listen")

    async def stop(self) -> None:
        for task in (self._listener, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._listener = None

    def poke(self) -> None:
        """Look again now: a deadline or notice was set (here or in another process)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                delay = await self.tick()
            except Exception:
                log.exception("the scheduler's pass failed; trying again in a minute")
                delay = 60.0
            if delay > 0:
                # asyncio.timeout, not wait_for: Python 3.11's wait_for loses a cancel that
                # comes as the wait ends (a poke and stop() together), and stop() then
                # waited for this loop forever
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()

    # -- one pass -----------------------------------------------------------------------

    async def tick(self) -> float:
        """Act on everything due now that this runner can claim; the seconds until
        something else may fall due (0: more is waiting)."""
        svc = self.service
        now = svc.clock()
        due = await svc.claim_due(
            self.name, self.lease, now=now, notices=False, with_channel=self.with_channel
        )
        more = len(due.deadlines) >= BATCH
        async with self._holding(deadlines={d.id for d in due.deadlines}) as held:
            for deadline in due.deadlines:
                try:
                    await self.on_deadline(deadline)
                except Exception:
                    log.exception(
                        "applying the passed deadline %s of game %s failed",
                        deadline.id,
                        deadline.game,
                    )
                await svc.mark_handled(deadlines=[deadline.id])
                held.discard(deadline.id)
        if self.on_notice is not None:
            now = svc.clock()
            due = await svc.claim_due(
                self.name,
                self.lease,
                now=now,
                deadlines=False,
                with_channel=self.with_channel,
                skip_kinds=self.skip_kinds,
            )
            more = more or len(due.notifications) >= BATCH
            async with self._holding(notifications={n.id for n in due.notifications}) as held:
                for notice in due.notifications:
                    await self._notice(notice, now)
                    held.discard(notice.id)
        if more:
            return 0.0
        nxt = await svc.next_claim_at(
            notices=self.on_notice is not None,
            with_channel=self.with_channel,
            skip_kinds=self.skip_kinds,
        )
        now = svc.clock()
        if nxt is None:
            return MAX_SLEEP
        return min(MAX_SLEEP, max(MIN_SLEEP, nxt - now))

    async def _notice(self, notice: NotificationInfo, now: float) -> None:
        assert self.on_notice is not None
        try:
            verdict = await self.on_notice(notice)
        except Exception:
            log.exception("delivering notice %s of game %s failed", notice.id, notice.game)
            verdict = False
        if verdict is True:
            self._pause.pop(notice.id, None)
            await self.service.mark_handled(notifications=[notice.id])
            return
        if verdict is False:
            last = self._pause.get(notice.id)
            pause = FIRST_RETRY if last is None else min(MAX_RETRY, last * 2)
            self._pause[notice.id] = pause
            until = now + pause
            log.warning(
                "notice %s of game %s was not posted; trying again in %.0f s",
                notice.id,
                notice.game,
                pause,
            )
        else:
            until = float(verdict)
        await self.service.hold(self.name, until, notifications=[notice.id])

    @contextlib.asynccontextmanager
    async def _holding(
        self, *, deadlines: set[int] | None = None, notifications: set[int] | None = None
    ) -> AsyncIterator[set[int]]:
        """Keep the lease on the rows in the yielded set (the caller removes each once
        handled) moving forward while the block runs."""
        held = set(deadlines or notifications or ())
        if not held:
            yield held
            return

        async def renew() -> None:
            while True:
                await asyncio.sleep(self.lease / 3)
                if not held:
                    continue
                until = self.service.clock() + self.lease
                rows = sorted(held)
                try:
                    if deadlines:
                        await self.service.hold(self.name, until, deadlines=rows)
                    else:
                        await self.service.hold(self.name, until, notifications=rows)
                except Exception:
                    log.exception("renewing the scheduler's claims failed")

        task = asyncio.create_task(renew(), name="umpire-lease")
        try:
            yield held
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
