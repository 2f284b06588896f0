"""How long a private map of The African Campaign and of Blocks in Afrika takes to draw.

    .venv/bin/python bench/bench_render_rows.py [--width 3200] [--repeat 15] [--out DIR]

For each game, the opening as one side sees it (TAC: the Allied player; BIA: the Axis
player of Operation Compass, BIA3, whose view hides the Commonwealth's blocks). Cold:
nothing cached in memory or on disk (map pack, base layer, block and counter pictures,
fonts); disk: a new process's first map, the base layer and pictures read back from the
disk cache; warm: a later redraw, everything cached (target: under 150 ms). Each figure
is the drawing plus the PNG encoding, with the CPU time beside it (the figure to trust
on a busy machine). Then the same three figures for the close-up Discord posts of a
turn's action (:mod:`renderer.closeup`: a 550-pixel cut around three hexes, drawn at its
own zoom: TAC 7200 px, BIA 5000 px wide). ``--out DIR`` also writes the pictures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core.dice import ActionDice, ScriptedDice  # noqa: E402
from engine.games.bia.mapview import map_view as bia_map  # noqa: E402
from engine.games.bia.rules import BlocksInAfrika  # noqa: E402
from engine.games.bia.view import view as bia_view  # noqa: E402
from engine.games.tac.mapview import map_view as tac_map  # noqa: E402
from engine.games.tac.rules import TheAfricanCampaign  # noqa: E402
from renderer import counters, fonts, rows  # noqa: E402
from renderer.closeup import closeup  # noqa: E402
from renderer.hexmap import render  # noqa: E402


def views() -> dict[str, object]:
    tac = TheAfricanCampaign()
    bia = BlocksInAfrika()
    tac_state = tac.setup("campaign", {}, ScriptedDice([]))
    bia_state = bia.setup("BIA3", {}, ActionDice(b"bench", "bench", 0))
    return {
        "TAC allied": tac_map(tac_state, "allied"),
        "BIA axis": bia_map(bia_view(bia.board, bia_state, "axis")),
    }


#: the hexes of each view's close-up: a unit's move and an attack in the opening's front
CLOSEUP_HEXES = {"TAC allied": ["1256", "1258", "1359"], "BIA axis": ["2217", "2218", "2317"]}


def forget_memory() -> None:
    rows.clear_cache()
    counters._SPRITES.clear()
    fonts.font.cache_clear()
    fonts.printable.cache_clear()


def timed(view, width: int) -> tuple[float, float, int]:  # noqa: ANN001
    """Wall-clock and CPU seconds to draw and encode, and the PNG's size."""
    cpu = time.process_time()
    start = time.perf_counter()
    png = render(view, width).png()
    return time.perf_counter() - start, time.process_time() - cpu, len(png)


def timed_closeup(view, hexes: list[str]) -> tuple[float, float, int]:  # noqa: ANN001
    """The same for the close-up around ``hexes``."""
    cpu = time.process_time()
    start = time.perf_counter()
    cut = closeup(view, hexes)
    assert cut is not None, hexes
    png = cut.png()
    return time.perf_counter() - start, time.process_time() - cpu, len(png)


def report(label: str, timer, repeat: int, target: str) -> None:  # noqa: ANN001
    """Cold, disk and warm figures of ``timer`` (a call returning :func:`timed`'s triple)."""
    print(label)
    forget_memory()
    wall, cpu, size = timer()
    print(f"  cold : {1000 * wall:7.1f} ms  (cpu {1000 * cpu:.1f})  {size / 1024:.0f} KB")
    forget_memory()
    wall, cpu, size = timer()
    print(f"  disk : {1000 * wall:7.1f} ms  (cpu {1000 * cpu:.1f})")
    samples = [timer() for _ in range(repeat)]
    walls = [1000 * w for w, _, _ in samples]
    cpus = [1000 * c for _, c, _ in samples]
    print(
        f"  warm : {statistics.median(walls):7.1f} ms median, {max(walls):.1f} max  "
        f"(cpu {statistics.median(cpus):.1f})  {target}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=rows.DEFAULT_WIDTH)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--out", type=Path, help="also write the pictures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = cache  # cold means nothing on disk either
        for name, view in views().items():
            pieces = sum(len(s.counters) for s in view.stacks)
            report(
                f"{name}: {len(view.stacks)} stacks, {pieces} pieces; width {args.width}px",
                lambda view=view: timed(view, args.width),
                args.repeat,
                "target < 150 ms",
            )
            hexes = CLOSEUP_HEXES[name]
            report(
                f"{name} close-up of {', '.join(hexes)}",
                lambda view=view, hexes=hexes: timed_closeup(view, hexes),
                args.repeat,
                "target < 150 ms",
            )
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                slug = name.lower().replace(" ", "-")
                (args.out / f"{slug}.png").write_bytes(render(view, args.width).png())
                cut = closeup(view, hexes)
                if cut is not None:
                    (args.out / f"{slug}-closeup.png").write_bytes(cut.png())


if __name__ == "__main__":
    main()
