"""Discord at scale (issue 15 item 6): ``/game list`` and "the game in this channel" on a
database of many games. Prints figures; asserts nothing.

The database holds ``--games`` games (default 20,000) of the toy ruleset spread over
``--guilds`` servers (default 50), each game in a channel of its own with two of
``--users`` players seated; the bot's harness server is one of them. Commands go through
the real command tree (tests/discord/harness.py: only the HTTP layer is replaced, and
it answers at once), timed from the gateway payload to the bot's last request:

- ``/game list`` by a random player (the server's games and the player's own, a page
  cut by the database), on a random page that exists;
- ``/game status`` in a random game's channel: finding the game of the channel, then
  loading it (a cold game most of the time: the service keeps 128 in memory).

A probe task sleeps 1 ms at a time meanwhile; the longest it was kept waiting beyond
that is the longest stall of the event loop. Targets: p99 under 20 ms, and no stall over
50 ms. SQLite with the production durability (``synchronous=FULL``).

    .venv/bin/python bench/bench_discord_scale.py [--games 20000] [--guilds 50] [--runs 400]
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

import tests.service.toy  # noqa: E402, F401  (registers the "toy" ruleset)
from bot.discord.config import Settings  # noqa: E402
from bot.store import GameRow, SeatRow, SnapshotRow  # noqa: E402
from tests.discord.harness import GUILD_ID, Harness, User, replies  # noqa: E402
from tests.service.conftest import FakeClock  # noqa: E402

TARGET_P99_MS = 20.0
TARGET_STALL_MS = 50.0
FIRST_USER = 100_000_000_000_000_000
FIRST_CHANNEL = 710_000_000_000_000_000


def percentile(ms: list[float], q: int) -> float:
    return statistics.quantiles(ms, n=100, method="inclusive")[q - 1] if len(ms) > 1 else ms[0]


def quantiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    return (
        f"n={len(ms)}  p50 {statistics.median(ms):.2f} ms  p90 {percentile(ms, 90):.2f} ms  "
        f"p99 {percentile(ms, 99):.2f} ms  max {ms[-1]:.2f} ms"
    )


class LoopProbe:
    """Sleeps ``step`` seconds over and over; records how much later than asked it woke."""

    def __init__(self, step: float = 0.001) -> None:
        self.step = step
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(self.step)
            self.worst = max(self.worst, loop.time() - asked - self.step)

    def start(self) -> None:
        self.worst = 0.0
        self._task = asyncio.create_task(self._run(), name="loop-probe")

    async def stop(self) -> float:
        assert self._task is not None
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
        return self.worst


async def fill(h: Harness, games: int, guilds: int, users: int, rng: random.Random) -> None:
    """``games`` games cloned from one real toy game, in one transaction."""
    service = h.service
    made = await service.create("toy", created_by=str(FIRST_USER), game_id="template")
    template = (await service.store.game_and_seats(made.game))[0]
    async with service.store.read() as tx:
        snap = await tx.latest_snapshot(made.game, 0)
    guild_ids = [str(GUILD_ID)] + [str(800_000_000_000_100_000 + g) for g in range(guilds - 1)]
    async with service.store.write() as tx:
        for n in range(games):
            game_id = f"g{n:06d}"
            seated = rng.sample(range(users), 2)
            row = GameRow(
                id=game_id,
                ruleset="toy",
                scenario="standard",
                options={},
                commitment=template.commitment,
                secret=template.secret,
                created_by=str(FIRST_USER + seated[0]),
                created_at=template.created_at + n,
                status=rng.choice(["open", "active", "active", "active", "finished"]),
                channel=str(FIRST_CHANNEL + n),
                guild=guild_ids[n % guilds],
                dice_scheme=template.dice_scheme,
                setup_rolls=template.setup_rolls,
                ended_at=None,
            )
            if row.status == "finished":
                row.ended_at = row.created_at + 1
            await tx.insert_game(row)
            for role, user in zip(("north", "south"), seated, strict=True):
                await tx.insert_seat(SeatRow(game_id, role, str(FIRST_USER + user)))
            await tx.insert_snapshot(
                SnapshotRow(game_id, 0, 0, snap.turn, snap.player, snap.phase, snap.state)
            )


async def main_async(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "scale.db")
        settings = Settings(token="bench", db_path=db)
        h = Harness(db, FakeClock(), settings, synchronous="FULL")
        await h.start()
        try:
            t0 = time.perf_counter()
            await fill(h, args.games, args.guilds, args.users, rng)
            print(
                f"{args.games} games over {args.guilds} servers and {args.users} players "
                f"written in {time.perf_counter() - t0:.1f} s"
            )
            probe = LoopProbe()
            lists: list[float] = []
            lookups: list[float] = []
            probe.start()
            for _ in range(args.runs):
                caller = User(FIRST_USER + rng.randrange(args.users), "player")
                t = time.perf_counter()
                sent = await h.command(caller, "game list", page=1)
                lists.append(time.perf_counter() - t)
                text = replies(sent)[0].content
                pages = int(text.split(" of ", 2)[2].split(")")[0]) if "(page" in text else 1
                if pages > 1:
                    t = time.perf_counter()
                    await h.command(caller, "game list", page=rng.randint(2, pages))
                    lists.append(time.perf_counter() - t)
                game = rng.randrange(args.games)
                t = time.perf_counter()
                sent = await h.command(caller, "game status", channel=FIRST_CHANNEL + game)
                lookups.append(time.perf_counter() - t)
                assert f"g{game:06d}" in replies(sent)[0].content, "the wrong game answered"
            stall = await probe.stop()
        finally:
            await h.stop()
    print(
        f"/game list (a page of a server's {args.games // args.guilds} games and the caller's own):"
    )
    print(f"  {quantiles(lists)}")
    print("/game status in a game's channel (the game in this channel, then its status):")
    print(f"  {quantiles(lookups)}")
    print(f"longest event-loop stall: {stall * 1000:.2f} ms (probe sleeping 1 ms at a time)")
    for name, values in (("/game list", lists), ("the game in this channel", lookups)):
        p99 = percentile(sorted(v * 1000 for v in values), 99)
        verdict = "meets" if p99 < TARGET_P99_MS else "misses"
        print(f"p99 of {name} {p99:.2f} ms {verdict} the {TARGET_P99_MS:.0f} ms target")
    verdict = "meets" if stall * 1000 < TARGET_STALL_MS else "misses"
    print(f"longest stall {stall * 1000:.2f} ms {verdict} the {TARGET_STALL_MS:.0f} ms target")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--guilds", type=int, default=50)
    ap.add_argument("--users", type=int, default=2_000)
    ap.add_argument("--runs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
