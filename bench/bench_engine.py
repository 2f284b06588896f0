"""Engine benchmark (issue 2): time to apply an order (median and p99 over random games),
a full game played and replayed, and peak memory. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_engine.py [--game pfv] [--games 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.game import Game  # noqa: E402
from engine.fuzz import play_random_game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="pfv")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    times: list[float] = []
    game_times: list[float] = []
    replay_times: list[float] = []
    actions = 0
    for i in range(args.games):
        t0 = time.perf_counter()
        run = play_random_game(args.game, args.seed * 1000 + i, timed=True)
        game_times.append(time.perf_counter() - t0)
        if run.failure:
            print(f"failure: {run.failure}")
            return
        times.extend(run.apply_times)
        actions += run.actions
        g = run.game
        t0 = time.perf_counter()
        Game.replay(
            args.game,
            g.scenario,
            g.options,
            g.secret,
            g.game_id,
            [(a.role, a.order) for a in g.actions],
        )
        replay_times.append(time.perf_counter() - t0)

    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{args.game}: {args.games} random games, {actions} orders applied")
    print(
        f"apply one order: median {statistics.median(times) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms, max {times[-1] * 1000:.2f} ms"
    )
    print(
        f"one full game played (with legal-order listing and invariant checks): median {statistics.median(game_times):.2f} s"
    )
    print(
        f"one full game replayed from its log: median {statistics.median(replay_times) * 1000:.0f} ms "
        f"({statistics.median(replay_times) / (actions / args.games) * 1000:.3f} ms per order)"
    )

    tracemalloc.start()
    play_random_game(args.game, args.seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak memory: {peak / 2**20:.1f} MiB traced during one game; process max RSS {rss:.0f} MiB"
    )


if __name__ == "__main__":
    main()
