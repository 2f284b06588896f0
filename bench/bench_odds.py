"""Time exact Axis & Allies Revised battle odds (engine/games/aa_revised/odds.py).

    .venv/bin/python bench/bench_odds.py [--repeat N]

Prints, for each battle, the first (cold) and the best of N wall-clock timings, the
number of pairs of states solved and the result. Every run rebuilds the battle's own
states and caches; only small module-level tables (binomials, the unit table) stay
warm after the first. Target: under 50 ms for the 10-against-10 and 20-against-20 land
battles.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.aa_revised.odds import battle_odds  # noqa: E402

BATTLES = [
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    for name, attackers, defenders, options in BATTLES:
        times = []
        result = None
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            result = battle_odds(attackers, defenders, **options)
            times.append(time.perf_counter() - start)
        assert result is not None
        total = result.attacker_win + result.defender_win + result.draw
        print(
            f"{name:34s} cold {times[0] * 1000:6.1f} ms, best {min(times) * 1000:6.1f} ms  "
            f"{result.states:5d} states  "
            f"attacker {result.attacker_win:6.2%}  defender {result.defender_win:6.2%}  "
            f"draw {result.draw:6.2%}  (sum - 1 = {total - 1:+.1e})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
