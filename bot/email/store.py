"""One transaction for an order and the record of the mail that gave it.

The issue's rule (5): a mail's Message-ID is recorded in the same transaction as the
orders it applies, so a process killed at any point neither loses an order nor applies it
twice. The service opens that transaction itself (``Service.submit``), so the mail front
end cannot pass a statement into it; instead it runs the service over a mail store,
whose write transactions also run the statement set by :func:`in_same_write` just before
they commit (and not at all when they roll back).

The mail store is the database ``UMPIRE_DB`` names, either kind (issue 16): a
:class:`MailStore` over an SQLite file, a :class:`PgMailStore` over a ``postgresql://``
URL; :func:`open_mail_store` picks. Both hold the mail tables of the same schema.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from bot.store import Store, Tx

Hook = Callable[[Tx], Awaitable[None]]

_HOOK: contextvars.ContextVar[list[Hook] | None] = contextvars.ContextVar(
    "umpire_mail_hook", default=None
)


class SameWrite:
    """Makes a store's next write transaction in this task carry one more statement
    (see :func:`in_same_write`); mixed into a store class before it."""

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with super().write() as tx:  # type: ignore[misc]
            yield tx
            pending = _HOOK.get()
            if pending:
                await pending.pop()(tx)  # once: only the first write commits it


class MailStore(SameWrite, Store):
    """A :class:`~bot.store.Store` (SQLite) whose next write transaction in this task can
    carry one more statement."""


@functools.cache
def _pg_mail_store() -> type:
    from bot.store_pg import PgStore

    class PgMailStore(SameWrite, PgStore):
        """A :class:`~bot.store_pg.PgStore` whose next write transaction in this task can
        carry one more statement."""

    return PgMailStore


async def open_mail_store(target: str) -> Any:
    """The mail store over ``target``: PostgreSQL for a ``postgresql://`` URL (the driver
    is loaded only then), else an SQLite file."""
    if target.split("://", 1)[0] in ("postgresql", "postgres"):
        return await _pg_mail_store().open(target)
    return await MailStore.open(target)


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
