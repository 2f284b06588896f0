"""Blocks in Afrika (issue 11): the three figures of a playable game.

    .venv/bin/python bench/bench_bia.py [--seed 1] [--width 0] [--repeat 7]

One random game of each of the ten scenarios (the land ones BIA1-BIA6 and the naval
ones BIA7-BIA10, the engine fuzzer's choices, ``engine.fuzz.random_order``) is played to
its end through the ruleset, and on the way:

1. **apply one order**: the ruleset's ``apply`` alone, every order of the ten games
   (target: median under 2 ms), wall and CPU time;
2. **legal orders for autocomplete**: ``legal_orders`` for the side to decide, at every
   position (what the order menus of Discord list; target: p99 under 50 ms), wall time
   and, the figure to trust on a busy machine, CPU time;
3. **private map render warm**: a side's own map (its fog-of-war view, ``ruleset.view``,
   then ``renderer.render_png``) of the busiest position of each game (the most blocks
   in play: on the map, in port, at sea or in the boxes), each side in
   turn, after a first, cold drawing (target: under 150 ms), wall and CPU time; the view
   alone is timed too.

Prints the figures with their targets beside them; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.figures import ms, summary  # noqa: E402
from engine.core.dice import ActionDice  # noqa: E402
from engine.fuzz import random_order  # noqa: E402

GAME = "bia"


def play(scenario: str, seed: int, figures: dict[str, list[float]]) -> tuple[object, int]:
    """One random game of ``scenario`` to its end: the position with the most blocks in
    play (on the map, or in a box: in port, at sea, a convoy or Strategic Map box), and
    the number of orders."""
    rules = engine.ruleset(GAME)
    rng = random.Random(seed)
    state = rules.setup(scenario, {}, ActionDice(b"bench-bia", f"{scenario}-{seed}", 0))
    busiest, most, n = state, -1, 0
    while rules.prompt(state).role is not None:
        role = rules.prompt(state).role
        t0, c0 = time.perf_counter(), time.process_time()
        rules.legal_orders(state, role)
        figures["legal"].append(time.perf_counter() - t0)
        figures["legal_cpu"].append(time.process_time() - c0)
        role, order = random_order(rules, state, rng)
        n += 1
        dice = ActionDice(b"bench-bia", f"{scenario}-{seed}", n)
        t0, c0 = time.perf_counter(), time.process_time()
        state, _ = rules.apply(state, role, order, dice)
        figures["apply"].append(time.perf_counter() - t0)
        figures["apply_cpu"].append(time.process_time() - c0)
        in_play = sum(1 for b in state.blocks.values() if b.where in ("map", "box"))
        if in_play > most:
            busiest, most = state, in_play
    return busiest, n


def render(states: list[object], width: int, repeat: int) -> tuple[list[float], ...]:
    """Each side's own map of each state: cold drawings, warm ones (wall and CPU time),
    and the view alone."""
    from renderer import render_png

    rules = engine.ruleset(GAME)
    cold, warm, warm_cpu, views = [], [], [], []
    for state in states:
        for side in rules.roles(""):
            t0 = time.perf_counter()
            render_png(rules.view(state, side), width or None)
            cold.append(time.perf_counter() - t0)
            for _ in range(repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                view = rules.view(state, side)
                t1 = time.perf_counter()
                render_png(view, width or None)
                warm.append(time.perf_counter() - t0)
                warm_cpu.append(time.process_time() - c0)
                views.append(t1 - t0)
    return cold, warm, warm_cpu, views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=0, help="0: the renderer's default")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rules = engine.ruleset(GAME)
    figures: dict[str, list[float]] = {"apply": [], "apply_cpu": [], "legal": [], "legal_cpu": []}
    states, played = [], []
    t0 = time.perf_counter()
    for i, sc in enumerate(rules.scenarios()):
        busiest, n = play(sc.id, args.seed * 100 + i, figures)
        states.append(busiest)
        played.append(f"{sc.id} {n}")
    print(
        f"bia: one random game of each scenario, land and naval, to its end "
        f"({', '.join(played)} orders), "
        f"{time.perf_counter() - t0:.1f} s"
    )
    print(
        f"apply one order:                {summary(figures['apply'])}  [target: median under 2 ms]"
    )
    print(f"  the same in CPU time:         {summary(figures['apply_cpu'])}")
    print(f"legal orders for autocomplete:  {summary(figures['legal'])}  [target: p99 under 50 ms]")
    print(f"  the same in CPU time:         {summary(figures['legal_cpu'])}")
    cold, warm, warm_cpu, views = render(states, args.width, args.repeat)
    print(
        f"private map render (each side's view of each game's busiest position): cold median "
        f"{ms(statistics.median(cold))}, warm {summary(warm)}  [target: warm under 150 ms]"
    )
    print(f"  the same in CPU time:         {summary(warm_cpu)}")
    print(f"  of which the side's view alone: {summary(views)}")


if __name__ == "__main__":
    main()
