"""Axis & Allies: North Africa: how long the exact land-battle odds and the map take.

    .venv/bin/python bench/bench_aa_na.py [--repeat 7] [--width 2000] [--out DIR]

Odds: ``engine.games.aa_na.odds.land_odds`` for a mixed 10-against-10 and 20-against-20
battle (infantry, artillery, tanks, anti-tank guns, AAA, a scout car, aircraft, flanking
units; targets: under 50 ms), each call a fresh chain, and beside each the reference chain
the tests hold it to (``odds._odds(batched=False)``). Map: the Rommel's Last Push
opening drawn from the game's state (``mapview.map_view``) once cold (raster, style and
static layer loaded and drawn) and then warm (a later turn's redraw with the static layer
cached; target: under 300 ms), the drawing plus the PNG encoding. Each figure is the
median wall time, with the median CPU time beside it (the one to trust on a busy machine).
Engine: ``--games`` seeded random games (default 1, Rommel's Last Push with 2 players
first, then the other scenarios and player counts in turn) played to the end through
``legal_orders`` and ``apply`` (``bench_aa_na_engine.play``): the median time to apply one
order (target: under 2 ms) and the 99th percentile of listing the legal orders, what
autocomplete asks for (target: under 50 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_aa_na_engine import GAMES, pct, play  # noqa: E402
from engine.core.dice import NoDice  # noqa: E402
from engine.games.aa_na.mapview import map_view  # noqa: E402
from engine.games.aa_na.odds import _odds, land_odds  # noqa: E402
from engine.games.aa_na.rules import RULESET  # noqa: E402
from renderer import areamap  # noqa: E402
from renderer.areaview import AreaMapView  # noqa: E402

BATTLES = {
    "10 v 10": (
        {"ger.infantry": 3, "ger.artillery": 2, "ger.tank": 2, "ger.fighter": 1},
        {"uk.infantry": 4, "uk.artillery": 2, "uk.tank": 2, "uk.anti_tank_gun": 1, "uk.aaa": 1},
        {"ger.mech_infantry": 1, "ger.scout_car": 1},
    ),
    "20 v 20": (
        {
            "ger.infantry": 7,
            "ger.artillery": 4,
            "ger.tank": 3,
            "ger.anti_tank_gun": 1,
            "ger.fighter": 1,
            "ger.bomber": 1,
        },
        {
            "uk.infantry": 8,
            "uk.artillery": 4,
            "uk.tank": 4,
            "uk.anti_tank_gun": 2,
            "uk.aaa": 1,
            "uk.fighter": 1,
        },
        {"ger.mech_infantry": 2, "ger.scout_car": 1},
    ),
}


def timed(fn) -> tuple[float, float]:  # noqa: ANN001
    cpu, wall = time.process_time(), time.perf_counter()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def line(label: str, samples: list[tuple[float, float]], extra: str = "") -> None:
    wall = statistics.median(1000 * w for w, _ in samples)
    cpu = statistics.median(1000 * c for _, c in samples)
    print(f"{label}: {wall:8.1f} ms median wall, {cpu:.1f} ms cpu {extra}")


def engine(games: int, seed: int) -> None:
    """Apply median and legal-orders p99 over ``games`` random games to the end."""
    apply_t: list[float] = []
    legal_t: list[float] = []
    for i in range(games):
        scenario, players = GAMES[i % len(GAMES)]
        why = play(scenario, players, seed * 1000 + i, {}, False, apply_t, legal_t)
        print(f"random game {i + 1}: {scenario} {players} players, seed {seed * 1000 + i}: "
              f"{len(legal_t)} orders so far" + (f" (stopped: {why})" if why else ", to the end"))  # fmt: skip
    if apply_t:
        print(f"apply one order: {statistics.median(apply_t) * 1000:.2f} ms median, "
              f"p99 {pct(apply_t, 0.99) * 1000:.2f} ms ({len(apply_t)} orders)")  # fmt: skip
        print(f"legal orders: {pct(legal_t, 0.99) * 1000:.2f} ms p99, "
              f"median {statistics.median(legal_t) * 1000:.2f} ms ({len(legal_t)} listings)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--width", type=int, default=2000)
    parser.add_argument("--out", type=Path, help="write the map drawn here as aa-na-opening.png")
    parser.add_argument(
        "--games", type=int, default=1, help="random games for apply and legal orders"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine(args.games, args.seed)
    land_odds({"ger.infantry": 1}, {"uk.infantry": 1})  # the charts loaded once
    for label, (main_, defenders, flank) in BATTLES.items():
        result = land_odds(main_, defenders, flank)
        samples = [
            timed(lambda m=main_, d=defenders, f=flank: land_odds(m, d, f))
            for _ in range(args.repeat)
        ]
        size = sum(main_.values()) + sum(flank.values()), sum(defenders.values())
        line(
            f"odds {label} ({size[0]} v {size[1]})",
            samples,
            f"  attacker {result.attacker:.4f}, defender {result.defender:.4f}, "
            f"both {result.mutual:.4f}; {result.states} states",
        )
        samples = [
            timed(lambda m=main_, d=defenders, f=flank: _odds(m, d, f, (), False, batched=False))
            for _ in range(args.repeat)
        ]
        line(f"odds {label} reference (one attacking composition at a time)", samples)
    state = RULESET.setup("rlp", {"players": 2}, NoDice())
    view = AreaMapView.model_validate(map_view(state, "axis"))
    areamap.clear_cache()
    areamap.load_space_map.cache_clear()
    areamap.load_area_style.cache_clear()
    line("map cold", [timed(lambda: areamap.render_area(view, args.width).png())])
    samples = [
        timed(lambda: areamap.render_area(view, args.width).png()) for _ in range(args.repeat)
    ]
    line("map warm", samples)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "aa-na-opening.png").write_bytes(areamap.render_area(view, args.width).png())


if __name__ == "__main__":
    main()
