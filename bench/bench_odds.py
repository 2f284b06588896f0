"""Time exact Axis & Allies Revised battle odds (engine/games/aa_revised/odds.py).

    .venv/bin/python bench/bench_odds.py [--repeat N] [--fresh N] [--search N] [--seed S]
                                         [--units U]
    .venv/bin/python bench/bench_odds.py --sweep 60

Times are CPU seconds of the process (``time.process_time``): on an idle machine the
same as the wall clock, and steadier on a busy one; the wall clock is printed beside
them, and the load average before and after. First the fixed battles: for each, the
first (cold) and the best of N timings in this process, the number of pairs of states
solved and the result; with ``--fresh N``, also the best and worst of N first calls,
each in a fresh process (``--one``: nothing warm at all, not even the binomials), and
what importing the odds costs there. Then a search over
``--search`` random large mixed battles of up to ``--units`` units a side (land with
antiaircraft guns and aircraft, amphibious assaults with bombardment, sea battles with
submarines, destroyers, battleships and carriers), each timed once, cold; it prints
every battle and then the worst case found. Every run rebuilds the battle's own states
and caches; only small module-level tables (binomials, the unit table) stay warm.

Target (issue 9): under 500 ms for any battle of up to 60 units a side; the search is
there to find the battles that miss it. A sea battle with a round limit is stepped a
cycle at a time, hits landing one at a time as in the unlimited solver, and the
stepping stops once what still fights can change no result by more than 1e-15, so a
long limit costs what the cycles the battle really lasts cost. ``--sweep N`` times
instead every round limit from 1 to N of the two worst sea battles (60 against 60
with destroyers, 46 against 48), each in a fresh process, and prints them all and the
slowest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

_started = time.process_time(), time.perf_counter()
import numpy  # noqa: E402, F401  (timed apart from the odds: ``--one``)

_numpy = time.process_time(), time.perf_counter()
from engine.core.errors import IllegalOrder  # noqa: E402
from engine.games.aa_revised.odds import Odds, battle_odds  # noqa: E402

_imported = time.process_time(), time.perf_counter()

Force = dict[str, int]

BATTLES: list[tuple[str, Force, Force, dict]] = [
    (
        "land, 10 against 10",
        {"infantry": 5, "artillery": 2, "tank": 2, "fighter": 1},
        {"infantry": 6, "artillery": 1, "tank": 2, "fighter": 1, "aa_gun": 1},
        {},
    ),
    (
        "land, 20 against 20",
        {"infantry": 10, "artillery": 4, "tank": 4, "fighter": 1, "bomber": 1},
        {"infantry": 12, "artillery": 2, "tank": 4, "fighter": 2, "aa_gun": 1},
        {},
    ),
    (
        "land, 60 against 59 (issue 9, no gun)",
        {"infantry": 30, "artillery": 10, "tank": 10, "fighter": 5, "bomber": 5},
        {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 4},
        {},
    ),
    (
        "land, 60 against 59 and a gun (issue 9)",
        {"infantry": 30, "artillery": 10, "tank": 10, "fighter": 5, "bomber": 5},
        {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 4, "aa_gun": 1},
        {},
    ),
    (
        "sea, 60 against 60, destroyers both sides",
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 20,
            "carrier": 5,
            "fighter": 10,
            "bomber": 5,
        },
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 15,
            "carrier": 8,
            "fighter": 12,
            "transport": 5,
        },
        {"sea": True},
    ),
    (
        "land, 60 aircraft-heavy against 59 and a gun",
        {"infantry": 20, "fighter": 20, "bomber": 20},
        {"infantry": 59, "aa_gun": 1},
        {},
    ),
    (
        "amphibious, 28 bombers against 59 and a gun",
        {"infantry": 20, "artillery": 6, "fighter": 6, "bomber": 28},
        {"infantry": 59, "aa_gun": 1},
        {"bombarding": {"battleship": 2}},
    ),
    (
        "land, issue 9 with a gun, 6 rounds at most",
        {"infantry": 30, "artillery": 10, "tank": 10, "fighter": 5, "bomber": 5},
        {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 4, "aa_gun": 1},
        {"rounds": 6},
    ),
    (
        "sea, 60 against 60, 3 rounds at most",
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 20,
            "carrier": 5,
            "fighter": 10,
            "bomber": 5,
        },
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 15,
            "carrier": 8,
            "fighter": 12,
            "transport": 5,
        },
        {"sea": True, "rounds": 3},
    ),
    (
        "sea, 60 against 60, destroyers, 50 rounds",
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 20,
            "carrier": 5,
            "fighter": 10,
            "bomber": 5,
        },
        {
            "battleship": 10,
            "destroyer": 10,
            "submarine": 15,
            "carrier": 8,
            "fighter": 12,
            "transport": 5,
        },
        {"sea": True, "rounds": 50},
    ),
    (
        "sea, 46 against 48, 39 rounds at most (search)",
        {
            "battleship": 5,
            "destroyer": 2,
            "submarine": 15,
            "carrier": 1,
            "fighter": 14,
            "bomber": 7,
            "transport": 4,
        },
        {
            "battleship": 12,
            "destroyer": 1,
            "submarine": 12,
            "carrier": 3,
            "fighter": 8,
            "bomber": 11,
            "transport": 1,
        },
        {"sea": True, "rounds": 39},
    ),
    (
        "amphibious, 8 + 2 ships against 8",
        {"infantry": 4, "artillery": 2, "tank": 1, "fighter": 1},
        {"infantry": 6, "tank": 1, "fighter": 1},
        {"bombarding": {"battleship": 2}},
    ),
    (
        "sea, 10 against 10",
        {"battleship": 1, "destroyer": 2, "submarine": 3, "carrier": 1, "fighter": 2, "bomber": 1},
        {
            "battleship": 1,
            "destroyer": 2,
            "submarine": 2,
            "carrier": 1,
            "fighter": 2,
            "transport": 2,
        },
        {"sea": True},
    ),
]

LAND = ("infantry", "artillery", "tank", "fighter", "bomber")
SEA = ("battleship", "destroyer", "submarine", "carrier", "fighter", "bomber", "transport")


def split(rng: random.Random, total: int, types: tuple[str, ...]) -> Force:
    """``total`` units spread at random over ``types`` (some may get none)."""
    cuts = sorted(rng.randint(0, total) for _ in range(len(types) - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    return {t: n for t, n in zip(types, sizes, strict=True) if n}


def random_battle(rng: random.Random, units: int) -> tuple[str, Force, Force, dict]:
    """A large battle of one of three kinds, each side between half ``units`` and all;
    a land or sea battle has a round limit (up to 50, as ``umpire odds`` allows) one
    time in four."""
    kind = rng.choice(("land with a gun", "amphibious", "sea"))
    n_att, n_def = rng.randint(units // 2, units), rng.randint(units // 2, units)
    if kind == "sea":
        attackers = split(rng, n_att, SEA)
        defenders = split(rng, n_def, SEA)
        options: dict = {"sea": True}
    else:
        attackers = split(rng, n_att, LAND)
        defenders = split(rng, n_def - 1, LAND)
        defenders["aa_gun"] = 1
        options = {}
        if kind == "amphibious":
            options["bombarding"] = {"battleship": rng.randint(1, 4)}
    if kind != "amphibious" and rng.random() < 0.25:
        options["rounds"] = rng.randint(1, 50)
    return kind, attackers, defenders, options


def label(attackers: Force, defenders: Force, options: dict) -> str:
    def force(f: Force) -> str:
        return ", ".join(f"{n} {t}" for t, n in f.items())

    extra = f" bombarded by {force(options['bombarding'])}" if "bombarding" in options else ""
    if "rounds" in options:
        extra += f", {options['rounds']} rounds at most"
    return f"{force(attackers)} against {force(defenders)}{extra}"


def timed(attackers: Force, defenders: Force, options: dict) -> tuple[float, Odds]:
    return timed_both(attackers, defenders, options)[::2]


def timed_both(attackers: Force, defenders: Force, options: dict) -> tuple[float, float, Odds]:
    """CPU seconds, wall seconds and the odds of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = battle_odds(attackers, defenders, **options)
    return time.process_time() - cpu, time.perf_counter() - wall, result


def one(index: int, rounds: int | None = None) -> dict[str, float]:
    """The first call in this process for fixed battle ``index`` (with ``rounds``, that
    round limit in place of its own), and the imports."""
    _, attackers, defenders, options = BATTLES[index]
    if rounds is not None:
        options = {**options, "rounds": rounds}
    cpu, wall, _ = timed_both(attackers, defenders, options)
    return {
        "cpu": cpu,
        "wall": wall,
        "numpy_cpu": _numpy[0] - _started[0],
        "odds_cpu": _imported[0] - _numpy[0],
    }


def fresh(index: int, runs: int, rounds: int | None = None) -> list[dict[str, float]]:
    """:func:`one` in ``runs`` fresh processes, one after the other."""
    out = []
    limit = [] if rounds is None else ["--rounds", str(rounds)]
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(index), *limit],
            capture_output=True,
            text=True,
            check=True,
        )
        out.append(json.loads(done.stdout))
    return out


#: the two worst sea battles for a round limit (their own limits aside)
SWEPT = tuple(
    i
    for i, (name, _, _, _) in enumerate(BATTLES)
    if name.startswith(("sea, 60 against 60, destroyers, 50", "sea, 46 against 48"))
)


def sweep(most: int) -> int:
    """Each round limit from 1 to ``most`` of the battles of :data:`SWEPT`, timed cold
    in a fresh process (CPU ms); prints every limit's time and the slowest."""
    print(load())
    worst: tuple[float, str] | None = None
    for index in SWEPT:
        name = BATTLES[index][0].split(",")[1].strip()  # "60 against 60"
        times = []
        for rounds in range(1, most + 1):
            cpu = fresh(index, 1, rounds)[0]["cpu"] * 1000
            times.append(cpu)
            if worst is None or cpu > worst[0]:
                worst = (cpu, f"{name}, {rounds} rounds at most")
        print(f"sea, {name}: round limits 1..{most}, cold CPU ms")
        for start in range(0, most, 10):
            row = times[start : start + 10]
            print(f"  {start + 1:3d}-{start + len(row):<3d} " + " ".join(f"{t:5.0f}" for t in row))
    assert worst is not None
    print(f"\nslowest: {worst[0]:.1f} ms: sea, {worst[1]}")
    print(load())
    return 0


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="timings of each fixed battle")
    parser.add_argument("--search", type=int, default=8, help="random large battles to try")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--units", type=int, default=60, help="most units a side")
    parser.add_argument(
        "--fresh", type=int, default=0, help="first calls of each fixed battle in new processes"
    )
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--sweep",
        type=int,
        default=0,
        metavar="N",
        help="only the round limits 1..N of the two worst sea battles, each cold in a fresh process",
    )
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one(args.one, args.rounds)))
        return 0
    if args.sweep > 0:
        return sweep(args.sweep)
    print(load())
    #: (cold seconds, what, pairs solved) of the slowest battle so far
    worst: tuple[float, str, int] | None = None
    for index, (name, attackers, defenders, options) in enumerate(BATTLES):
        times = []
        walls = []
        result = None
        for _ in range(max(1, args.repeat)):
            seconds, wall, result = timed_both(attackers, defenders, options)
            times.append(seconds)
            walls.append(wall)
        assert result is not None
        if worst is None or times[0] > worst[0]:
            worst = (times[0], name, result.states)
        total = result.attacker_win + result.defender_win + result.draw
        print(
            f"{name:46s} cold {times[0] * 1000:7.1f} ms (wall {walls[0] * 1000:7.1f}), "
            f"best {min(times) * 1000:7.1f} ms  {result.states:6d} pairs  "
            f"attacker {result.attacker_win:6.2%}  defender {result.defender_win:6.2%}  "
            f"draw {result.draw:6.2%}  (sum - 1 = {total - 1:+.1e})"
        )
        if args.fresh > 0:
            runs = fresh(index, args.fresh)
            cpu = sorted(r["cpu"] * 1000 for r in runs)
            wall = sorted(r["wall"] * 1000 for r in runs)
            imports = min(r["numpy_cpu"] + r["odds_cpu"] for r in runs) * 1000
            numpy_ms = min(r["numpy_cpu"] for r in runs) * 1000
            print(
                f"{'':46s} fresh process, {len(runs)} runs: cold {cpu[0]:7.1f} to "
                f"{cpu[-1]:7.1f} ms (wall {wall[0]:7.1f} to {wall[-1]:7.1f}); "
                f"imports {imports:5.0f} ms, numpy {numpy_ms:4.0f} of them"
            )
    rng = random.Random(args.seed)
    if args.search > 0:
        print(f"\nsearch: {args.search} random battles of up to {args.units} units a side")
    tried = 0
    while tried < args.search:
        kind, attackers, defenders, options = random_battle(rng, args.units)
        try:
            seconds, result = timed(attackers, defenders, options)
        except IllegalOrder:
            continue  # a force that cannot fight (none expected, but never count it)
        tried += 1
        text = label(attackers, defenders, options)
        print(f"  {seconds * 1000:8.1f} ms {result.states:7d} pairs  {kind}: {text}")
        if worst is None or seconds > worst[0]:
            worst = (seconds, f"{kind}: {text}", result.states)
    assert worst is not None
    print(f"\nworst case found: {worst[0] * 1000:.1f} ms ({worst[2]} pairs): {worst[1]}")
    print(load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
