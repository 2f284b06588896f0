"""How long the A&A Revised world map takes to draw, cold and warm.

    .venv/bin/python bench/bench_render_area.py [--width 2000] [--repeat 15] [--out DIR]

Cold: nothing cached (space raster, style, static layer, unit pictures, fonts). Warm base:
the static layer is cached but the unit pictures are drawn anew. Warm: a later turn's
redraw, everything cached. Each figure is the drawing plus the PNG encoding, for the
opening set-up and for a busy middle game (see tests/renderer_area/views.py).

``--out DIR`` also writes both pictures there, as ``aa-opening.png`` and
``aa-midgame.png``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from renderer import areamap, fonts  # noqa: E402
from renderer.areaview import AreaMapView, opening_view  # noqa: E402
from tests.renderer_area.views import midgame_view  # noqa: E402


def clear_everything() -> None:
    areamap.clear_cache()
    areamap.load_space_map.cache_clear()
    areamap.load_area_style.cache_clear()
    fonts.font.cache_clear()
    fonts.printable.cache_clear()


def timed(view: AreaMapView, width: int) -> tuple[float, float, int, float]:
    """Wall seconds to draw and to encode, the PNG's size, and the CPU seconds used (the
    figure to trust on a busy machine)."""
    cpu = time.process_time()
    start = time.perf_counter()
    rendering = areamap.render_area(view, width)
    drawn = time.perf_counter()
    png = rendering.png()
    return drawn - start, time.perf_counter() - drawn, len(png), time.process_time() - cpu


def report(label: str, samples: list[tuple[float, float, int, float]]) -> None:
    totals = [1000 * (d + e) for d, e, _, _ in samples]
    draws = [1000 * d for d, _, _, _ in samples]
    encodes = [1000 * e for _, e, _, _ in samples]
    cpus = [1000 * c for *_, c in samples]
    print(
        f"{label}: {statistics.median(totals):7.1f} ms median, {max(totals):.1f} max  "
        f"(draw {statistics.median(draws):.1f}, png {statistics.median(encodes):.1f}; "
        f"cpu {statistics.median(cpus):.1f})  {samples[-1][2] / 1024:.0f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=areamap.DEFAULT_WIDTH)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--out", type=Path, help="also write the two pictures here")
    args = parser.parse_args()
    views = {"opening": opening_view(), "midgame": midgame_view()}
    for name, view in views.items():
        units = sum(
            n
            for space in (*view.territories.values(), *view.sea_zones.values())
            for per_power in space.units.values()
            for n in per_power.values()
        )
        print(
            f"A&A Revised {name}: {units} units, {len(view.battles)} battles; width {args.width}px"
        )
        clear_everything()
        draw, encode, size, cpu = timed(view, args.width)
        print(
            f"cold       : {1000 * (draw + encode):7.1f} ms  (draw {1000 * draw:.1f}, "
            f"png {1000 * encode:.1f}; cpu {1000 * cpu:.1f})  {size / 1024:.0f} KB"
        )
        samples = []
        for _ in range(args.repeat):
            areamap._SPRITES.clear()
            samples.append(timed(view, args.width))
        report("warm base  ", samples)
        report("warm       ", [timed(view, args.width) for _ in range(args.repeat)])
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"aa-{name}.png").write_bytes(areamap.render_area_png(view, args.width))


if __name__ == "__main__":
    main()
