"""How long a full-board Patton's First Victory map takes to draw, cold and warm.

    .venv/bin/python bench/bench_render.py [--width 1600] [--repeat 15] [--gallery DIR]

Cold: nothing cached (map pack, base layer, counter pictures, fonts). Warm base: the
static layer is cached but this turn's counter pictures are new. Warm: a later turn's
redraw, everything cached. Each figure is the drawing plus the PNG encoding; the PNG
size is printed too. The view is a seeded random game a dozen orders into turn 1, as
the public sees it, so the board is full and carries arrows and markers.

``--gallery DIR`` also writes the pictures of ``renderer/gallery/``: that game as the
public sees it, and the fresh set-up as the Allied player sees it.
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
import renderer  # noqa: E402
from renderer import board as board_module  # noqa: E402
from renderer import counters, fonts  # noqa: E402


def set_up_game() -> engine.Game:
    game = engine.Game.new("pfv", secret=b"bench", game_id="bench")
    for order in ("auto", "done", "auto", "done"):
        game.play(order)
    return game


def midgame_view(seed: int = 1, orders: int = 19):  # noqa: ANN201 - a HexMapView
    game = set_up_game()
    rng = random.Random(seed)
    for _ in range(orders):
        game.play(rng.choice(game.legal_orders()))
    return game.view(None)


def clear_everything() -> None:
    renderer.clear_cache()
    board_module._boards.clear()
    counters._SPRITES.clear()
    fonts.font.cache_clear()
    fonts.printable.cache_clear()


def timed(view, width: int) -> tuple[float, float, int, float]:  # noqa: ANN001
    """Wall-clock seconds to draw and to encode, the PNG's size, and the CPU seconds used
    (the figure to trust on a busy machine, where wall time includes waiting for a core)."""
    cpu = time.process_time()
    start = time.perf_counter()
    rendering = renderer.render(view, width)
    drawn = time.perf_counter()
    png = rendering.png()
    return drawn - start, time.perf_counter() - drawn, len(png), time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--gallery", type=Path, help="also write the gallery pictures here")
    args = parser.parse_args()
    view = midgame_view()
    if args.gallery:
        args.gallery.mkdir(parents=True, exist_ok=True)
        (args.gallery / "midgame-public.png").write_bytes(renderer.render_png(view, args.width))
        fresh = set_up_game().view("allied")
        (args.gallery / "setup-allied.png").write_bytes(renderer.render_png(fresh, args.width))
    pieces = sum(len(s.counters) for s in view.stacks)
    print(
        f"PFV public view: {len(view.stacks)} stacks, {pieces} counters on the map, "
        f"{len(view.arrows)} arrows, {len(view.markers)} markers; width {args.width}px"
    )

    clear_everything()
    draw, encode, size, cpu = timed(view, args.width)
    print(
        f"cold       : {1000 * (draw + encode):7.1f} ms  (draw {1000 * draw:.1f}, "
        f"png {1000 * encode:.1f}; cpu {1000 * cpu:.1f})  {size / 1024:.0f} KB"
    )

    samples = []
    for _ in range(args.repeat):
        counters._SPRITES.clear()
        samples.append(timed(view, args.width))
    report("warm base  ", samples)

    samples = [timed(view, args.width) for _ in range(args.repeat)]
    report("warm       ", samples)


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


if __name__ == "__main__":
    main()
