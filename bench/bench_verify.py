"""How long `umpire verify` and `umpire import` take on long logs (issue 10, item 6).

    .venv/bin/python bench/bench_verify.py [--entries 10000] [--cycles 5000] [--ruleset pfv]

Builds two finished games through the service in a scratch database: one of ``--entries``
random orders (attacks rarer than uniform, so that the game lasts), and one of ``--cycles`` order-and-undo cycles (a random order, taken back
at once, then another; an order that may not be taken back stays). Each is exported with
its secret, then verified (:func:`bot.service.verify_export`) and imported into an empty
database (:meth:`Service.import_game`). Prints the times and the cost per log entry: an
undo cycle must cost about what a normal entry costs (linear in the log, no replay from
a checkpoint at each undo).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.service import Service, ServiceError, verify_export  # noqa: E402
from bot.service_fuzz import random_order  # noqa: E402

USER = "bench"


async def _new(service: Service, ruleset_id: str, seed: int) -> str:
    rs = engine.ruleset(ruleset_id)
    scenario = rs.scenarios()[0].id
    options = {"last_turn": 5000} if ruleset_id == "pfv" else dict(getattr(rs, "fuzz_options", {}))
    created = await service.create(
        ruleset_id,
        created_by=USER,
        scenario=scenario,
        options=options,
        seats={role: USER for role in rs.roles(scenario)},
        secret=bytes([seed]) * 32,
        game_id=f"bench-{seed}",
    )
    await service.start(created.game, USER)
    return created.game


async def _order(service: Service, game: str, rng: random.Random) -> bool:
    """One random order; False once the game is over."""
    ruleset, state, seq = await service.live_state(game)
    if ruleset.prompt(state).role is None:
        return False
    role, order = random_order(ruleset, state, rng)
    for _ in range(3):  # few attacks: a random game of pfv ends by elimination in ~3,000
        if order.verb != "attack" or rng.random() < 0.2:
            break
        role, order = random_order(ruleset, state, rng)
    result = await service.submit(game, USER, order, role=role, seen=seq)
    return result.prompt.role is not None


async def build(db: str, ruleset_id: str, entries: int, cycles: int, seed: int) -> dict[str, Any]:
    """A finished game's export: ``entries`` orders, or ``cycles`` order-and-undo cycles."""
    rng = random.Random(seed)
    service = await Service.open(db, synchronous="NORMAL")
    try:
        game = await _new(service, ruleset_id, seed)
        if cycles:
            undone = 0
            while undone < cycles and await _order(service, game, rng):
                try:
                    await service.undo(game, USER)
                    undone += 1
                except ServiceError:
                    pass  # it rolled dice or showed something: it stays, play on
                if undone % 2 == 1:
                    await _order(service, game, rng)  # move on sometimes: not all at one point
        else:
            played = 0
            while played < entries and await _order(service, game, rng):
                played += 1
        if (await service.status(game)).status != "finished":
            await service.end(game, USER, "the bench has its log")
        return await service.export(game)
    finally:
        await service.close()


async def measure(data: dict[str, Any], db: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    report = verify_export(data)
    verify = time.perf_counter() - t0
    if not report.ok:
        raise SystemExit(f"the bench game does not verify: {report.problems[:3]}")
    service = await Service.open(db)
    try:
        t0 = time.perf_counter()
        await service.import_game(data, by=USER)
        imported = time.perf_counter() - t0
    finally:
        await service.close()
    return verify, imported


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="pfv")
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--cycles", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--save", help="a folder to keep the two exports in, as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for label, entries, cycles in (
            (f"{args.entries:,}-entry log", args.entries, 0),
            (f"{args.cycles:,}-cycle undo log", 0, args.cycles),
        ):
            t0 = time.perf_counter()
            for seed in range(args.seed, args.seed + 20):
                # a random game may end (by elimination) before it has the log asked
                # for: then another seed plays another game
                db = os.path.join(tmp, f"build-{cycles}-{seed}.db")
                data = asyncio.run(build(db, args.ruleset, entries, cycles, seed))
                undone = sum(1 for a in data["actions"] if a["undone_by"] is not None)
                if (undone >= cycles) if cycles else len(data["actions"]) >= entries:
                    break
            built = time.perf_counter() - t0
            if args.save:
                with open(os.path.join(args.save, f"bench-{cycles}.json"), "w") as f:
                    json.dump(data, f)
            n = len(data["actions"])
            verify, imported = asyncio.run(measure(data, os.path.join(tmp, f"import-{cycles}.db")))
            print(
                f"{args.ruleset} {label}: {n:,} entries ({undone:,} undone; seed {seed}, "
                f"built in {built:.1f} s): "
                f"verify {verify:.2f} s ({verify / n * 1000:.3f} ms/entry), "
                f"import {imported:.2f} s ({imported / n * 1000:.3f} ms/entry)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
