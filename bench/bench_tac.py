"""The African Campaign (issue 12): the four figures of a playable game.

    .venv/bin/python bench/bench_tac.py [--seed 1] [--options none] [--width 0] [--repeat 7]

One random campaign (the engine fuzzer's choices, ``engine.fuzz.random_order``) is played
to its end through the service into a scratch SQLite database, with no optional rule, all
of section 18 (``--options all``) or event chits and Tactical Advantage (``--options
events``, as ``umpire fuzz`` chooses them), and on the way:

1. **apply one order**: the ruleset's ``apply`` alone, every order of the game (target:
   median under 2 ms);
2. **legal orders for autocomplete**: ``legal_orders`` for the role to decide, at every
   position of the game (what the order menus of Discord list; target: p99 under 50 ms),
   wall time and, the figure to trust on a busy machine, CPU time; the slowest are the
   first listing of each Movement Phase (its searches are then kept) and the listings
   during which the garbage collector walked the whole heap (counted apart);
3. **load a finished 50-turn game**: a fresh service reading the finished game back from
   the database (``Service.live_state``: snapshot and actions), five times (target: under
   200 ms);
4. **map render warm**: the public map of the last position drawn to PNG by
   ``renderer.render_png`` after a first, cold drawing (target: under 150 ms).

Prints the figures with their targets beside them; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.figures import ms, summary  # noqa: E402
from bot.service import Service  # noqa: E402
from engine.fuzz import random_order  # noqa: E402

GAME = "tac"


def time_apply(ruleset: object, spent: list[float]) -> None:
    """Wrap the ruleset's ``apply`` so that each call's time is appended to ``spent``."""
    inner = ruleset.apply

    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t0)

    ruleset.apply = timed


#: ``--options``: which of ``fuzz_setup``'s three choices
OPTIONS = {"none": 0, "all": 1, "events": 2}


def full_collections(phase: str, info: dict) -> None:
    """A ``gc.callbacks`` hook counting the collections of the oldest generation."""
    if phase == "start" and info["generation"] == 2:
        FULL[0] += 1


FULL = [0]


async def play(path: str, seed: int, options: str) -> tuple[str, list[float], tuple, int, object]:
    """One campaign played to its end through the service; its id, the apply times, the
    legal-order times (wall and CPU), the number of orders, and the last state."""
    service = await Service.open(path, synchronous="NORMAL")
    rs = engine.ruleset(GAME)
    scenario = rs.scenarios()[0].id
    created = await service.create(
        GAME,
        created_by="bench",
        scenario=scenario,
        options=rs.fuzz_setup(OPTIONS[options])[1],
        seats={role: "bench" for role in rs.roles(scenario)},
    )
    game = created.game
    await service.start(game, "bench")
    rng = random.Random(seed)
    applies: list[float] = []
    listing: list[float] = []
    listing_cpu: list[float] = []
    collected = 0  # listings during which a full collection ran
    time_apply(rs, applies)
    gc.callbacks.append(full_collections)
    try:
        while True:
            ruleset, state, seq = await service.live_state(game)
            role = ruleset.prompt(state).role
            if role is None:
                break
            before = FULL[0]
            t0, c0 = time.perf_counter(), time.process_time()
            ruleset.legal_orders(state, role)
            listing.append(time.perf_counter() - t0)
            listing_cpu.append(time.process_time() - c0)
            collected += FULL[0] > before
            role, order = random_order(ruleset, state, rng)
            await service.submit(game, "bench", order, role=role, seen=seq)
    finally:
        del rs.apply  # the class's own method again
        gc.callbacks.remove(full_collections)
    _, state, head = await service.live_state(game)
    await service.close()
    return game, applies, (listing, listing_cpu, collected), head, state


async def load(path: str, game: str) -> list[float]:
    loads = []
    for _ in range(5):
        cold = await Service.open(path)
        t0 = time.perf_counter()
        await cold.live_state(game)
        loads.append(time.perf_counter() - t0)
        await cold.close()
    return loads


def render(state: object, width: int, repeat: int) -> tuple[float, list[float]]:
    from renderer import render_png

    view = engine.ruleset(GAME).view(state, None)
    t0 = time.perf_counter()
    render_png(view, width or None)
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        render_png(view, width or None)
        warm.append(time.perf_counter() - t0)
    return cold, warm


async def bench(folder: str, seed: int, options: str, width: int, repeat: int) -> None:
    path = os.path.join(folder, "bench.db")
    t0 = time.perf_counter()
    game, applies, listing, head, state = await play(path, seed, options)
    result = engine.ruleset(GAME).result(state)
    print(
        f"tac ({options} of the optional rules): one random campaign through the service, "
        f"{head} actions, to turn {state.turn} "
        f"({result.text if result else 'not finished'}), {time.perf_counter() - t0:.1f} s"
    )
    print(f"apply one order:                {summary(applies)}  [target: median under 2 ms]")
    print(f"legal orders for autocomplete:  {summary(listing[0])}  [target: p99 under 50 ms]")
    print(f"  the same in CPU time:         {summary(listing[1])}")
    print(f"  listings with a full garbage collection in them: {listing[2]}")
    loads = await load(path, game)
    print(
        f"load the finished {state.turn}-turn game (fresh service): median "
        f"{ms(statistics.median(loads))}, max {ms(max(loads))}  [target: under 200 ms]"
    )
    cold, warm = render(state, width, repeat)
    print(
        f"map render (public view, last position): cold {ms(cold)}, warm "
        f"{summary(warm)}  [target: warm under 150 ms]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", choices=sorted(OPTIONS), default="none")
    parser.add_argument("--width", type=int, default=0, help="0: the renderer's default")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dir", help="where to put the database (default: a temporary folder)")
    args = parser.parse_args()
    if args.dir:
        asyncio.run(bench(args.dir, args.seed, args.options, args.width, args.repeat))
    else:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(bench(folder, args.seed, args.options, args.width, args.repeat))


if __name__ == "__main__":
    main()
