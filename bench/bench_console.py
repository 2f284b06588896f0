"""How long each console command takes, as a person runs it: a new process each time.

Plays a Patton's First Victory game of 1,000 random legal actions through the service
into a temporary database (or uses ``--db FILE --game ID``), then runs every console
command against it as ``python -m bot.cli ...`` and prints the median and the slowest
of ``--runs`` runs, process start and imports included. The target is under 300 ms.

The commands run as an installed ``umpire`` does: with its modules' bytecode compiled
(here once, into a folder of the bench's own, since a working tree edited by several
people, or ``PYTHONDONTWRITEBYTECODE``, would otherwise have some compiled afresh in every
run) and with a renderer cache folder of the bench's own, filled by one first ``map``
whose time is printed apart. ``--as-is`` runs them in the environment as it is instead.

    .venv/bin/python bench/bench_console.py [--actions 1000] [--runs 5] [--seed 7] [--as-is]

A measurement, not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 300.0


async def long_game(db: str, actions: int, seed: int) -> str:
    """A PFV game still going after ``actions`` random legal orders (seeds tried in turn
    until one lasts that long)."""
    from bot.service import Service
    from bot.service_fuzz import play_random

    service = await Service.open(db)
    try:
        for attempt in range(20):
            rng = random.Random(seed + attempt)
            created = await service.create(
                "pfv",
                created_by="bench",
                scenario="standard",
                options={"last_turn": 60},
                seats={"allied": "console", "axis": "console"},
                secret=rng.randbytes(32),
            )
            await service.start(created.game, "bench")
            played = await play_random(service, created.game, rng, actions, user="console")
            status = await service.status(created.game)
            if played >= actions and status.status != "finished":
                return created.game
            print(f"  (seed {seed + attempt}: the game ended after {played} actions; again)")
        raise SystemExit("no seed gave a game that long")
    finally:
        await service.close()


async def a_legal_order(db: str, game: str) -> tuple[str, str]:
    """The role to move and a legal order of it that rolls no dice (so undo takes it back)."""
    from bot.service import Service

    service = await Service.open(db)
    try:
        ruleset, state, _ = await service.live_state(game)
        role = ruleset.prompt(state).role
        orders = [o.text() for o in ruleset.legal_orders(state, role)]
        quiet = [o for o in orders if o.split()[0] in ("move", "place", "rebase", "done")]
        return role, (quiet or orders)[0]
    finally:
        await service.close()


def command_env(folder: str, as_is: bool) -> dict[str, str]:
    """The environment of the timed commands: see the module's docstring."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if not as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        env["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
    return env


def compile_sources(env: dict[str, str]) -> None:
    """Every module of Umpire compiled into the bench's bytecode folder."""
    folders = [str(ROOT / name) for name in ("bot", "engine", "renderer", "migrations")]
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *folders],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def time_command(
    argv: list[str], runs: int, stdin: str = "", env: dict[str, str] | None = None
) -> tuple[list[float], list[float], int, str]:
    """Wall-clock and CPU milliseconds of each run (CPU time: the process's own user and
    system time, which other load on the machine does not inflate), the exit code and
    the output of the last run."""
    env = env or dict(os.environ, PYTHONPATH=str(ROOT))
    times, cpu = [], []
    code, out = 0, ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "bot.cli", *argv],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),
        )
        times.append((time.perf_counter() - t0) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cpu.append(used * 1000)
        code, out = proc.returncode, (proc.stdout + proc.stderr)
    return times, cpu, code, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", help="an existing database (with --game)")
    parser.add_argument("--game", help="a game in --db still going")
    parser.add_argument(
        "--as-is",
        action="store_true",
        help="bytecode and the renderer's cache as the environment has them",
    )
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="bench-console-")
    db = args.db or str(Path(folder) / "bench.db")
    os.environ["XDG_STATE_HOME"] = str(Path(folder) / "state")
    if args.game:
        game = args.game
    else:
        t0 = time.perf_counter()
        game = asyncio.run(long_game(db, args.actions, args.seed))
        print(f"game {game}: {args.actions} actions played in {time.perf_counter() - t0:.0f} s")
    role, order = asyncio.run(a_legal_order(db, game))
    d = ["--db", db]
    aa = subprocess.run(
        [sys.executable, "-m", "bot.cli", "new", "aa-revised", *d],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        check=True,
    ).stdout.split()[0]
    commands: list[tuple[str, list[str], str]] = [
        ("umpire --help", ["--help"], ""),
        ("umpire new --help", ["new", "--help"], ""),
        ("umpire list", ["list", *d], ""),
        ("umpire show GAME", ["show", game, *d], ""),
        (f"umpire show GAME --as {role}", ["show", game, "--as", role, *d], ""),
        ("umpire show GAME --json", ["show", game, "--json", *d], ""),
        ("umpire orders GAME", ["orders", game, *d], ""),
        ("umpire orders GAME move --page 2", ["orders", game, "move", "--page", "2", *d], ""),
        ("umpire log GAME", ["log", game, *d], ""),
        (f"umpire log GAME --as {role}", ["log", game, "--as", role, *d], ""),
        (f'umpire order GAME --as {role} "{order}"', ["order", game, "--as", role, order, *d], ""),
        (f"umpire undo GAME --as {role}", ["undo", game, "--as", role, *d], ""),
        ("umpire play GAME (show, orders, quit)", ["play", game, *d], "show\norders\nquit\n"),
        ("umpire play (resumes the last game)", ["play", *d], "quit\n"),
        ("umpire export GAME", ["export", game, *d], ""),
        ("umpire show AA (a new Axis & Allies game)", ["show", aa, *d], ""),
        ("umpire play GAME (map: loads the renderer)", ["play", game, *d], "map\nquit\n"),
        ("umpire datapack check pfv", ["datapack", "check", "pfv"], ""),
    ]
    env = command_env(folder, args.as_is)
    if not args.as_is:
        compile_sources(env)
        first, _, code, _ = time_command(["play", game, *d], 1, "map\nquit\n", env)
        print(
            f"first map with an empty cache folder (base layer and counters drawn): "
            f"{first[0]:.0f} ms, exit {code}"
        )
    print(f"load average before: {os.getloadavg()[0]:.1f} (the CPU column ignores other load)")
    print(f"{'command':<52} {'median':>8} {'slowest':>8} {'CPU':>7}  exit")
    worst = 0.0
    for label, argv, stdin in commands:
        if label.startswith("umpire undo"):
            runs = 1  # each undo needs the order before it
        else:
            runs = args.runs
        if label.startswith("umpire order "):
            runs = 1
        times, cpu, code, out = time_command(argv, runs, stdin, env)
        median, slowest = statistics.median(times), max(times)
        worst = max(worst, median)
        flag = "" if median < TARGET_MS else "  over the target"
        print(
            f"{label[:52]:<52} {median:6.0f}ms {slowest:6.0f}ms {statistics.median(cpu):5.0f}ms"
            f"  {code}{flag}"
        )
        if code not in (0,):
            print("    " + out.strip().splitlines()[-1][:150] if out.strip() else "    (no output)")
    print(f"slowest median: {worst:.0f} ms (target {TARGET_MS:.0f} ms); database {db}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
