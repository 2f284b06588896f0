"""Time from a mail's arrival in Umpire's mailbox to Umpire's reply leaving, with IDLE.

Real servers on the loopback interface: pymap (IMAP, in-memory) holds the mailbox and
aiosmtpd receives what Umpire sends. Umpire's loop waits in IDLE. Two players play
Patton's First Victory by mail, one order a mail (each reply carries the player's map as
a PNG), then send ``map`` requests; for each mail the time runs from the moment the IMAP
APPEND that delivers it completes to the moment the SMTP server has the reply.

    .venv/bin/python bench/bench_email.py [--orders N] [--maps N] [--width PX]

Prints the median, p90, p99 and worst time, and how many replies carried a map.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiosmtpd.controller import Controller  # noqa: E402

from bot.email.transport import open_mail  # noqa: E402
from tests.email.conftest import (  # noqa: E402
    ALICE,
    BOB,
    ImapServer,
    Received,
    Sink,
    answer,
    free_port,
    mail_config,
)
from tests.email.test_game_by_mail import pick  # noqa: E402


async def bench(orders: int, maps: int, width: int) -> None:
    sink = Sink()
    sink.loop = asyncio.get_running_loop()
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()
    imap = ImapServer(free_port())
    await imap.start()
    folder = Path(tempfile.mkdtemp())
    cfg = mail_config(
        folder, imap.port, smtp.port, map_width=width, notice_seconds=1.0, rate_limit=10_000
    )
    service, desk, box = await open_mail(cfg, maps=True)
    stop = asyncio.Event()
    task = asyncio.create_task(box.run(stop))
    times: list[float] = []
    with_map = 0

    async def send(address: str, m: Received, lines: list[str]) -> Received:
        nonlocal with_map
        before = len(sink.to(address))
        await imap.deliver(answer(m, address, lines))
        arrived = time.perf_counter()
        while True:
            if time.perf_counter() - arrived > 30:
                raise SystemExit(f"no reply to {address} within 30 s: {lines}")
            replies = [r for r in sink.to(address)[before:] if "Re: your orders" in r.subject]
            if replies:
                break
            sink.changed.clear()
            try:
                await asyncio.wait_for(sink.changed.wait(), timeout=0.05)
            except TimeoutError:
                pass
        times.append(time.perf_counter() - arrived)
        with_map += bool(replies[0].attachments)
        return replies[0]

    try:
        game = (await service.create("pfv", created_by="bench")).game
        await desk.seat(game, "allied", ALICE, "bench")
        await desk.seat(game, "axis", BOB, "bench")
        await service.start(game, "bench")
        latest = {ALICE: (await sink.wait_for(ALICE, 2))[-1], BOB: None}
        over = False
        while not over and len(times) < orders:
            for address in (ALICE, BOB):
                m = latest[address]
                if m is None or "it is YOUR decision" not in m.body:
                    continue
                latest[address] = await send(address, m, [pick(m)])
            await asyncio.sleep(0.3)  # the hand-over notices
            for address in (ALICE, BOB):
                mine = sink.to(address)
                if mine and "The game is over" in mine[-1].body:
                    over = True
                if mine and "it is YOUR decision" in mine[-1].body:
                    latest[address] = mine[-1]
        first = sink.to(ALICE)[-1]
        for _ in range(maps):
            first = await send(ALICE, first, ["map"])
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=10)
        await service.close()
        imap.stop()
        smtp.stop()

    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(round(p * (len(times) - 1))))]

    print(f"{len(times)} mails, {with_map} replies with a {width}-pixel map attached")
    print(
        f"arrival in the mailbox -> reply handed to SMTP: median {statistics.median(times):.3f} s,"
        f" p90 {pct(0.90):.3f} s, p99 {pct(0.99):.3f} s, worst {times[-1]:.3f} s (target p99 < 2 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=60, help="order mails (at most)")
    parser.add_argument("--maps", type=int, default=40, help="map requests after the orders")
    parser.add_argument("--width", type=int, default=1200, help="map width in pixels")
    args = parser.parse_args()
    asyncio.run(bench(args.orders, args.maps, args.width))


if __name__ == "__main__":
    main()
