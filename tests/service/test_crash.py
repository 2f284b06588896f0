"""ARCHITECTURE: Storage. "A crash at any instant leaves the game either before or after
the command, never between."

A child process applies random orders to one game and prints an ack line after each
commit; the parent kills it with SIGKILL at a random instant (after a random number of
acks, plus a random fraction of an order's time), then checks the database: the log has
no gap and no duplicate, every acknowledged order is there, and the state a fresh
service loads equals a replay from set-up by the engine alone. Children are forked from
the test process, so each restart costs milliseconds rather than an interpreter start.

The game is the 1,000-action fuzzed game of ``long_script`` (its orders were chosen by
the engine once, so children do not spend their time enumerating legal orders).
The default suite kills 40 times (``UMPIRE_CRASH_KILLS``), which takes seconds; the
200-kill run the service was accepted with takes 30-40 s on Patton's First Victory and
runs with ``UMPIRE_SLOW=1``.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import select
import signal
import time

import pytest

from bot.service import Service
from tests.service.conftest import Reference, Script, new_game, roles_of

#: kills in the default run, and in the slow run (``UMPIRE_SLOW=1``)
KILLS = int(os.environ.get("UMPIRE_CRASH_KILLS", "40"))
SLOW_KILLS = 200
USER = "crash"


def _child(db_path: str, script: Script, ack_fd: int) -> None:
    """Apply the script's orders from where the game stands; one ack line per commit."""

    async def main() -> None:
        service = await Service.open(db_path)
        os.write(ack_fd, b"ready\n")
        while True:
            _, _, seq = await service.live_state(script.game_id)
            if seq >= len(script.steps):
                break
            role, order = script.steps[seq]
            result = await service.submit(script.game_id, USER, order, role=role, seen=seq)
            line = json.dumps({"seq": result.seq, "role": role, "order": order})
            os.write(ack_fd, f"ack {line}\n".encode())
        await service.close()
        os.write(ack_fd, b"done\n")

    asyncio.run(main())


class _Acks:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.lines: list[str] = []

    def read(self, timeout: float) -> bool:
        """Read what is there within ``timeout``; False once the writer has gone."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        chunk = os.read(self.fd, 65536)
        if not chunk:
            return False
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines.extend(line.decode() for line in complete)
        return True

    def acks(self) -> list[dict]:
        return [json.loads(line[4:]) for line in self.lines if line.startswith("ack ")]


async def _create(db_path: str, script: Script) -> None:
    service = await Service.open(db_path)
    try:
        await new_game(
            service,
            script.ruleset,
            users={role: USER for role in roles_of(script.ruleset)},
            options=script.options,
            secret=script.secret,
            game_id=script.game_id,
        )
    finally:
        await service.close()


async def _check(db_path: str, game: str, reference: Reference, acked: dict[int, dict]) -> int:
    """Check the database after a crash, against the engine's own replay of the log."""
    service = await Service.open(db_path)
    try:
        async with service.store.read() as tx:
            row = await tx.game(game)
            entries = await tx.log_entries(game)
        assert [a.entry for a in entries] == list(range(1, len(entries) + 1)), "a gap in the log"
        assert [a.seq for a in entries] == list(range(1, len(entries) + 1)), "a gap or duplicate"
        assert all(a.undone_by is None for a in entries)
        assert (row.head, row.entries) == (len(entries), len(entries))
        for seq, ack in acked.items():
            a = entries[seq - 1]
            assert (a.role, a.order) == (ack["role"], ack["order"]), f"acked action {seq} lost"
        # This service has just opened the database: its state is a load from snapshots.
        await reference.check(service, game, live=entries, cold=False)
        return len(entries)
    finally:
        await service.close()


@pytest.mark.parametrize(
    "kills",
    [
        KILLS,
        pytest.param(
            SLOW_KILLS,
            marks=pytest.mark.skipif(
                not os.environ.get("UMPIRE_SLOW"), reason="the 200-kill run needs UMPIRE_SLOW=1"
            ),
        ),
    ],
)
def test_sigkill_at_random_instants_loses_no_acknowledged_order_and_leaves_no_gap(
    tmp_path, long_script, kills
):
    db_path = str(tmp_path / "crash.db")
    script = long_script
    orders = len(script.steps)
    asyncio.run(_create(db_path, script))
    game = script.game_id
    reference = Reference(script.ruleset, script.options, script.secret, game)
    fork = multiprocessing.get_context("fork")
    rng = random.Random(2024)
    acked: dict[int, dict] = {}
    seq = 0
    order_time = 0.003
    done = kills_at_work = unacked_commits = 0
    started = time.perf_counter()
    while done < kills:
        # Spread the orders over the kills, keeping about one for each kill still to come.
        remaining_kills = kills - done
        budget = max(0, orders - seq - remaining_kills)
        per_kill = budget // remaining_kills
        read_fd, write_fd = os.pipe()
        child = fork.Process(target=_child, args=(db_path, script, write_fd), daemon=True)
        child.start()
        os.close(write_fd)
        acks = _Acks(read_fd)
        wanted = min(rng.randint(0, 2 * per_kill), budget)
        while "ready" not in acks.lines and acks.read(5.0):
            pass
        t0 = time.perf_counter()
        while len(acks.acks()) < wanted and "done" not in acks.lines and acks.read(5.0):
            pass
        if len(acks.acks()) >= 1:
            order_time = (time.perf_counter() - t0) / (len(acks.acks()) + 1)
        time.sleep(rng.uniform(0, order_time))
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        while acks.read(0.5):
            pass
        os.close(read_fd)
        done += 1
        kills_at_work += "ready" in acks.lines and "done" not in acks.lines
        for ack in acks.acks():
            acked[ack["seq"]] = ack
        seq = asyncio.run(_check(db_path, game, reference, acked))
        unacked_commits += seq > max(acked, default=0)  # killed between commit and ack
    # Let the game reach its length without being killed, and check once more.
    read_fd, write_fd = os.pipe()
    child = fork.Process(target=_child, args=(db_path, script, write_fd), daemon=True)
    child.start()
    os.close(write_fd)
    acks = _Acks(read_fd)
    while acks.read(30.0):
        pass
    child.join()
    os.close(read_fd)
    for ack in acks.acks():
        acked[ack["seq"]] = ack
    final = asyncio.run(_check(db_path, game, reference, acked))
    elapsed = time.perf_counter() - started
    print(
        f"crash test: {done} kills ({kills_at_work} while applying orders, "
        f"{unacked_commits} between a commit and its ack), {final} orders, "
        f"{len(acked)} acked, {elapsed:.1f} s"
    )
    assert kills_at_work > kills // 2  # most kills landed while the child was at work
    assert final == orders, "the fuzzed game ended early; lengthen it in LONG_GAME_OPTIONS"
