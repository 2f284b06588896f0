"""Discord benchmark (issue 5): the time to handle one order through the bot's command
tree, network excluded. Prints figures; asserts nothing.

Each order is a slash command handed to discord.py as a gateway payload and timed until
the bot has sent everything it would send: the deferral, the service (rules engine,
SQLite commit with the production durability ``synchronous=FULL``), the channel posts,
and, when the order ends a player turn, the public map rendered at the production width
with the close-up of the turn's action beside it (issue 15). Only the HTTP layer is
replaced (tests/discord/harness.py), and it answers at once. Autocomplete requests are
timed separately. The target is p99 under 300 ms.

Then ``/game map`` is timed with the finished-picture cache emptied first (a miss: the
map is drawn) and asked again by another member (a hit: the same bytes, not drawn).

    .venv/bin/python bench/bench_discord.py [--games 3] [--seed 1] [--width 1600]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.discord.config import Settings  # noqa: E402
from bot.discord.images import PICTURES  # noqa: E402
from tests.discord.harness import Harness, User, posts, replies  # noqa: E402
from tests.discord.players import Players  # noqa: E402
from tests.service.conftest import FakeClock  # noqa: E402

ALICE = User(100_000_000_000_000_001, "alice")
BOB = User(100_000_000_000_000_002, "bob")
TARGET_P99_MS = 300.0


def percentile(ms: list[float], q: int) -> float:
    return statistics.quantiles(ms, n=100, method="inclusive")[q - 1] if len(ms) > 1 else ms[0]


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    ms = sorted(v * 1000 for v in values)
    return (
        f"n={len(ms)}  median {statistics.median(ms):.1f} ms  p90 {percentile(ms, 90):.1f} ms  "
        f"p99 {percentile(ms, 99):.1f} ms  max {ms[-1]:.1f} ms"
    )


class TimedHarness(Harness):
    """Records how long each command and each autocomplete took, start to last send."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commands: list[tuple[float, list]] = []
        self.autocompletes: list[float] = []

    async def command(self, caller, path, /, **kwargs):
        t = time.perf_counter()
        sent = await super().command(caller, path, **kwargs)
        self.commands.append((time.perf_counter() - t, sent))
        return sent

    async def autocomplete(self, caller, path, focused, /, **kwargs):
        t = time.perf_counter()
        choices = await super().autocomplete(caller, path, focused, **kwargs)
        self.autocompletes.append(time.perf_counter() - t)
        return choices


async def play(
    db: str, seed: int, width: int, cache: dict[str, list[float]] | None = None
) -> TimedHarness:
    settings = Settings(token="bench", db_path=db, map_width=width)
    h = TimedHarness(db, FakeClock(), settings, synchronous="FULL")
    await h.start()
    try:
        sent = await h.command(ALICE, "game create", game="pfv", role="allied")
        assert replies(sent), "the game was not created"
        await h.command(BOB, "game join")
        players = Players(h, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(seed))
        players.read(await h.command(BOB, "game start"))
        h.commands.clear()
        while not players.over:
            await players.move()
        if cache is not None:
            played = len(h.commands)
            await time_the_cache(h, cache)
            del h.commands[played:]  # the orders only
    finally:
        await h.stop()
    return h


async def time_the_cache(h: TimedHarness, cache: dict[str, list[float]], rounds: int = 20) -> None:
    """``/game map`` drawn (the cache emptied first), then asked again by someone else."""
    for i in range(rounds):
        looker = User(200_000_000_000_000_000 + 2 * i, f"looker{i}")
        again = User(200_000_000_000_000_001 + 2 * i, f"again{i}")
        PICTURES.clear()
        t = time.perf_counter()
        [drawn] = replies(await h.command(looker, "game map"))
        cache["miss"].append(time.perf_counter() - t)
        t = time.perf_counter()
        [kept] = replies(await h.command(again, "game map"))
        cache["hit"].append(time.perf_counter() - t)
        assert kept.png == drawn.png and PICTURES.hits >= 1


async def main_async(args: argparse.Namespace) -> None:
    orders: list[float] = []
    turn_ends: list[float] = []
    plain: list[float] = []
    autocompletes: list[float] = []
    closeups: list[float] = []
    cache: dict[str, list[float]] = {"miss": [], "hit": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(args.games):
            h = await play(str(Path(tmp) / f"bench{g}.db"), args.seed + g, args.width, cache)
            autocompletes += h.autocompletes
            for seconds, sent in h.commands:
                orders.append(seconds)
                if any(s.png for s in posts(sent)):
                    turn_ends.append(seconds)
                    if any(s.content.startswith("Close-up") for s in posts(sent)):
                        closeups.append(seconds)
                else:
                    plain.append(seconds)
            print(f"game {g + 1}: {len(h.commands)} orders", flush=True)
    elapsed = time.perf_counter() - t0
    print(
        f"\n{args.games} games of pfv through the command tree in {elapsed:.1f} s (map width {args.width})"
    )
    print(f"every order:               {quantiles(orders)}")
    print(f"  without a map:           {quantiles(plain)}")
    print(f"  ending a turn (+ map):   {quantiles(turn_ends)}")
    print(f"    with a close-up:       {quantiles(closeups)}")
    print(f"autocomplete requests:     {quantiles(autocompletes)}")
    print(f"/game map, drawn:          {quantiles(cache['miss'])}")
    print(f"/game map, from the cache: {quantiles(cache['hit'])}")
    p99 = percentile(sorted(v * 1000 for v in orders), 99) if orders else 0.0
    verdict = "meets" if p99 < TARGET_P99_MS else "misses"
    print(f"p99 of an order {p99:.1f} ms {verdict} the {TARGET_P99_MS:.0f} ms target")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--width", type=int, default=1600)
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
