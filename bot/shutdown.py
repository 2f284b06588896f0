"""A clean stop on SIGTERM and SIGINT for the long-running commands (``umpire bot``,
``umpire email``; issue 15, ARCHITECTURE.md "Running it").

On the signal: the front end is told to stop taking commands (``stop``), the commands
already under way are given ``grace`` seconds to finish (their transactions commit or
roll back as a whole), then the main task ends and the caller closes the database in
its ``finally``. A second signal skips the wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger("umpire.shutdown")

#: seconds a command under way may take to finish after the signal
GRACE_SECONDS = 30.0


async def run_until_signalled(
    main: Coroutine[Any, Any, T],
    stop: Callable[[], Awaitable[None]] | None = None,
    *,
    grace: float = GRACE_SECONDS,
) -> T | None:
    """Run ``main`` until it ends or SIGTERM/SIGINT arrives; the result of ``main``, or
    None when a signal stopped it."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(main)
    signalled = asyncio.Event()
    hurry = asyncio.Event()

    def on_signal(signum: int) -> None:
        if signalled.is_set():
            hurry.set()
            return
        log.warning(
            "%s received: finishing the commands under way, then stopping",
            signal.Signals(signum).name,
        )
        signalled.set()

    installed = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, on_signal, sig)
            installed.append(sig)
    try:
        waiter = asyncio.ensure_future(signalled.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if task.done():
            return task.result()
        if stop is not None:
            await stop()  # no new commands from here on
        me = asyncio.current_task()
        under_way = {t for t in asyncio.all_tasks() if t is not me and not t.done()}
        hurried = asyncio.ensure_future(hurry.wait())
        deadline = loop.time() + grace
        while under_way and not hurry.is_set() and loop.time() < deadline:
            await asyncio.wait(
                {*under_way, hurried},
                timeout=deadline - loop.time(),
                return_when=asyncio.FIRST_COMPLETED,
            )
            under_way = {t for t in under_way if not t.done()}
        hurried.cancel()
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        log.warning("stopped cleanly")
        return None
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
