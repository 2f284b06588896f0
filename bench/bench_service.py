"""How fast the service is: one order end to end, loading and rolling back a long game.

    .venv/bin/python bench/bench_service.py [--ruleset pfv] [--orders 1000] [--sync FULL]

Prints the median and 99th percentile of one order through ``Service.submit`` (rules,
SQLite transaction and commit), the time for a fresh service to load a 1,000-action game
from its snapshots, and the time to roll that game back to its midpoint. Targets
(ARCHITECTURE: Scale): p99 under 20 ms per order, load and rollback under 200 ms.
Uses Patton's First Victory when it is registered, else the toy ruleset of the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.service_fuzz import random_order  # noqa: E402

LONG_OPTIONS = {"toy": {"pile": 2500}, "pfv": {"last_turn": 60}}


def _default_ruleset() -> str:
    if "pfv" in engine.available():
        return "pfv"
    import tests.service.toy  # noqa: F401  (registers "toy")

    return "toy"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {_ms(statistics.median(ordered))}, p99 {_ms(p99)}, max {_ms(ordered[-1])}"


def _time_engine(ruleset: object) -> list[float]:
    """Wrap the ruleset's ``apply`` and ``dump_state`` to add their time to a counter."""
    spent = [0.0]
    for name in ("apply", "dump_state"):
        inner = getattr(ruleset, name)

        def timed(*args, _inner=inner, **kwargs):
            t0 = time.perf_counter()
            try:
                return _inner(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - t0

        setattr(ruleset, name, timed)
    return spent


async def bench(ruleset_id: str, orders: int, sync: str, folder: str) -> None:
    path = os.path.join(folder, "bench.db")
    service = await Service.open(path, synchronous=sync)
    rs = engine.ruleset(ruleset_id)
    scenario = rs.scenarios()[0].id
    created = await service.create(
        ruleset_id,
        created_by="bench",
        scenario=scenario,
        options=LONG_OPTIONS.get(ruleset_id, {}),
        seats={role: "bench" for role in rs.roles(scenario)},
    )
    game = created.game
    await service.start(game, "bench")
    rng = random.Random(1)
    engine_time = _time_engine(rs)
    times, rules, service_only = [], [], []
    for _ in range(orders):
        ruleset, state, seq = await service.live_state(game)
        if ruleset.prompt(state).role is None:
            break
        role, order = random_order(ruleset, state, rng)  # not counted
        engine_time[0] = 0.0
        t0 = time.perf_counter()
        await service.submit(game, "bench", order, role=role, seen=seq)
        elapsed = time.perf_counter() - t0
        times.append(elapsed)
        rules.append(engine_time[0])
        service_only.append(elapsed - engine_time[0])
    await service.close()
    played = len(times)
    print(f"ruleset {ruleset_id}, synchronous={sync}, {played} orders")
    print(f"order end to end:              {_summary(times)}")
    print(f"  of which rules (apply, dump): {_summary(rules)}")
    print(f"  of which service and SQLite: {_summary(service_only)}")

    loads = []
    for _ in range(5):
        cold = await Service.open(path, synchronous=sync)
        t0 = time.perf_counter()
        await cold.live_state(game)
        loads.append(time.perf_counter() - t0)
        await cold.close()
    print(
        f"load a {played}-action game (fresh service): median {_ms(statistics.median(loads))}, "
        f"max {_ms(max(loads))}"
    )

    service = await Service.open(path, synchronous=sync)
    await service.live_state(game)
    t0 = time.perf_counter()
    await service.rollback(game, "bench", to=played // 2, why="bench")
    rollback = time.perf_counter() - t0
    await service.close()
    print(f"roll back to action {played // 2}: {_ms(rollback)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default=None)
    parser.add_argument("--orders", type=int, default=1000)
    parser.add_argument("--sync", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--dir", help="where to put the database (default: a temporary folder)")
    args = parser.parse_args()
    ruleset_id = args.ruleset or _default_ruleset()
    if ruleset_id == "toy":
        import tests.service.toy  # noqa: F401
    if args.dir:
        asyncio.run(bench(ruleset_id, args.orders, args.sync, args.dir))
    else:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(bench(ruleset_id, args.orders, args.sync, folder))


if __name__ == "__main__":
    main()
