"""One transaction for an order and the record of the mail that gave it.

The issue's rule (5): a mail's Message-ID is recorded in the same transaction as the
orders it applies, so a process killed at any point neither loses an order nor applies it
twice. The service opens that transaction itself (``Service.submit``), so the mail front
end cannot pass a statement into it; instead it runs the service over a :class:`MailStore`,
whose write transactions also run the statement set by :func:`in_same_write` just before
they commit (and not at all when they roll back).
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

from bot.store import Store, Tx

Hook = Callable[[Tx], Awaitable[None]]

_HOOK: contextvars.ContextVar[list[Hook] | None] = contextvars.ContextVar(
    "umpire_mail_hook", default=None
)


class MailStore(Store):
    """A :class:`~bot.store.Store` whose next write transaction in this task can carry
    one more statement (see :func:`in_same_write`)."""

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with super().write() as tx:
            yield tx
            pending = _HOOK.get()
            if pending:
                await pending.pop()(tx)  # once: only the first write commits it


@contextmanager
def in_same_write(hook: Hook) -> Iterator[list[Hook]]:
    """Within this block, the first write transaction of the running task also runs
    ``hook`` before committing. The yielded list is empty afterwards if it ran."""
    pending = [hook]
    token = _HOOK.set(pending)
    try:
        yield pending
    finally:
        _HOOK.reset(token)
