"""Axis & Allies: North Africa engine benchmark (issue 13): seeded random games of both
scenarios with 2 to 4 players, played through ``legal_orders`` and ``apply`` to the end.
Prints the time to apply one order (median, p99) and to list the legal orders (median,
p99); with ``--check``, also checks the invariants after every order (untimed) and counts
the games that fail, which makes it the by-hand run of 100 games. Asserts nothing.

    .venv/bin/python bench/bench_aa_na_engine.py [--games 6] [--seed 1] [--check] [--options]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.aa_na.rules import RULESET as R  # noqa: E402

GAMES = [("rlp", 2), ("ot", 2), ("rlp", 3), ("ot", 3), ("rlp", 4), ("ot", 4)]
OPTIONS = {"reinforcing_attacks": True, "tiger_tanks": True, "air_transport": True, "suez_mines": True, "us_landing_choice": True,
           "anzac": True, "strategic_reserve": True, "break_draws": True}
MAX_ORDERS = 6000


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


def play(scenario: str, players: int, seed: int, options: dict, check: bool, apply_t: list, legal_t: list) -> str:
    """One game; returns '' or what went wrong."""
    rng = random.Random(seed)
    dice = SeededDice(random.Random(seed + 1))
    state = R.setup(scenario, {"players": players, **options}, dice)
    for n in range(1, MAX_ORDERS + 1):
        p = R.prompt(state)
        if p.role is None:
            return "" if state.over else f"no one to act at order {n}"
        t0 = time.perf_counter()
        orders = R.legal_orders(state, p.role)
        legal_t.append(time.perf_counter() - t0)
        if not orders:
            return f"dead end at order {n}: {p.text}"
        finishing = [o for o in orders if o.verb == "done"]
        others = [o for o in orders if o.verb != "done"]
        order = rng.choice(finishing) if finishing and (not others or rng.random() < 0.15) else rng.choice(others)
        t0 = time.perf_counter()
        try:
            state, _ = R.apply(state, p.role, order, dice)
        except Exception as e:  # noqa: BLE001 - reported, not raised: the run goes on
            return f"order {n} ({order.text()}) listed but refused: {e}"
        apply_t.append(time.perf_counter() - t0)
        if check:
            problems = R.invariant_problems(state)
            if problems:
                return f"after order {n} ({order.text()}): {problems}"
    return f"no end after {MAX_ORDERS} orders"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true", help="check the invariants after every order")
    ap.add_argument("--options", action="store_true", help="every optional rule on, with a bid")
    args = ap.parse_args()

    apply_t: list[float] = []
    legal_t: list[float] = []
    failures = []
    ends: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(args.games):
        scenario, players = GAMES[i % len(GAMES)]
        seed = args.seed * 1000 + i
        opts = {**OPTIONS, "bid": {"ita": 3} if scenario == "ot" else {"ger": 3}} if args.options else {}
        n_before = len(apply_t)
        why = play(scenario, players, seed, opts, args.check, apply_t, legal_t)
        if why:
            failures.append(f"{scenario} {players}p seed {seed}: {why}")
        else:
            ends[scenario] = ends.get(scenario, 0) + 1
        print(f"game {i + 1}: {scenario} {players}p seed {seed}: {len(apply_t) - n_before} orders"
              + (f" FAILED: {why}" if why else ""), flush=True)
    total = time.perf_counter() - t0
    print(f"aa-na: {args.games} random games ({', '.join(f'{k} {v}' for k, v in sorted(ends.items()))} to the end), "
          f"{len(apply_t)} orders, {total:.1f} s in all, {len(failures)} failure(s)"
          + (" (invariants checked after every order)" if args.check else ""))
    if apply_t:
        print(f"apply one order: median {statistics.median(apply_t) * 1000:.2f} ms, p99 {pct(apply_t, 0.99) * 1000:.2f} ms, "
              f"max {max(apply_t) * 1000:.1f} ms")
        print(f"legal_orders: median {statistics.median(legal_t) * 1000:.2f} ms, p99 {pct(legal_t, 0.99) * 1000:.2f} ms, "
              f"max {max(legal_t) * 1000:.1f} ms")
    for f in failures:
        print("failure:", f)


if __name__ == "__main__":
    main()
