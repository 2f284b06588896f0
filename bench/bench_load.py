"""The load test of issue 16: several processes playing many games in one database.

    .venv/bin/python bench/bench_load.py                      # the full form (minutes)
    .venv/bin/python bench/bench_load.py --games 200 --active 50 --seconds 5   # quick
    .venv/bin/python bench/bench_load.py --db postgresql://... --backends pg

Without ``--db`` it starts a throwaway PostgreSQL server (tests/pg/server.py: loopback,
no fsync, ``synchronous_commit=off``) and uses a scratch SQLite file (``--sync``, FULL
by default as in the bot). On each backend in turn:

1. **Set-up**: ``--games`` games, Patton's First Victory and Axis & Allies Revised
   alternately, every seat taken and every game started, by ``--setup-processes``
   processes at once on PostgreSQL (one on SQLite, which has one writer at a time);
   then one random order on each of the ``--active`` games to be driven, so that the
   games in play are the ones played last, as when bots restart in the middle of play
   (:func:`prime_games`); timed on its own. Each game's Discord server (:func:`guild_of`)
   puts it on the shard of the worker :func:`deal` gives it to.
2. **Runs**: the first ``--active`` games are shared out between the worker processes,
   each getting games of every ruleset (:func:`deal`): 4 on PostgreSQL; 1, then 4 "for
   information", on SQLite (``--sqlite-processes``).
   Each process opens its own service, as a bot process would, warms it as a bot
   process does before it logs in (:meth:`Service.warm` for its shard: the active games
   of its shard played most recently, up to the cache's size; its database connections;
   ``--cold`` leaves this out), and then runs one asyncio task per game. A task submits a random legal order for the role whose decision it
   is (``bot.service_fuzz.random_order``) with the action number it was chosen at;
   only the ``submit`` call is timed. The first ``--script`` orders of each game are
   chosen before the runs, by playing the game in memory with its id, options, secret
   and dice, so that choosing (the engine listing every legal order, a harness cost no
   player's order brings) does not take the runs' CPU; after them, a task reads the
   game (``Service.live_state``) and chooses in the run, untimed. Each rate of
   ``--rates`` runs for ``--seconds`` (or until ``--orders`` orders): a number N offers
   N orders a second in all, each game at random (Poisson) instants, so that the
   latency is that of an order arriving at that load; ``0`` means every task orders
   again as soon as its last order is answered (the most the processes can do; its
   latency is mostly queueing behind the other games' orders).
3. **Checks**: every game's log holds exactly the orders acknowledged for it, numbered
   1..n with nothing undone (none lost, none twice); every game that received an order
   verifies from an export with its secret (every roll and every entry replayed); the
   games of the database hold as many actions as were acknowledged in all.

Prints each worker's warm-up (games loaded, seconds: before the clock starts), then, per
run, the orders acknowledged per second, the p50/p99/max latency of ``submit`` (and the
p99 of the orders sent after the first ``WARM_UP`` seconds, once any game the warm-up
left out has been loaded into memory), the refusals as stale (zero expected: one task owns each game), the CPU time
per order of the workers and of the database server, and on PostgreSQL the statements
the workers sent per order (a count the machine's other work does not blur, unlike CPU
time), and the workers' share of it spent in the kernel. ``--profile FILE`` writes
cProfile statistics, in CPU time, of each worker (the first to FILE.pg, the others to
FILE.pg.w1, ...); cProfile charges every Python call, so it overstates code made of many
small calls (the A&A engine's) several times over: compare its shares with care. The
targets (issue 16) are at least 500 orders/s with 4 processes on PostgreSQL and p99 under
50 ms; they are printed beside the figures, never asserted here.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import multiprocessing
import os
import queue
import random
import resource
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.service as service_module  # noqa: E402
import engine  # noqa: E402
from bot.service import Service, ServiceError, StaleOrder, find_ruleset, verify_export  # noqa: E402
from bot.service_fuzz import random_order  # noqa: E402
from bot.store import Store, StoreError  # noqa: E402
from bot.store_pg import PgStore, is_pg_url, safe_url  # noqa: E402
from engine.core.game import Game  # noqa: E402

RULESETS = ("pfv", "aa-revised")
CREATOR = "load-creator"
#: how long the parent waits for a child past the time its work should take
MARGIN = 300.0
#: seconds at the start of a run after which latencies also count as "settled": a game
#: not in memory (every game, with ``--cold``) is loaded by its first order, and those
#: loads arrive together at first
WARM_UP = 10.0


def game_id(i: int) -> str:
    return f"load-{i:05d}"


def player(role: str) -> str:
    return f"load-{role}"


def deal(ids: list[str], p: int, processes: int) -> list[str]:
    """The games of worker ``p`` of ``processes``: the games dealt out a ruleset's round at
    a time (``len(RULESETS)`` neighbours together), so that every worker plays every
    ruleset, as a bot process would, rather than one ruleset each when the number of
    processes is a multiple of the number of rulesets. They are the games whose guild
    (:func:`guild_of`) is on Discord shard ``p`` of ``processes``: the games a bot
    process running that shard serves, and warms (:func:`shard_serves`)."""
    step = len(RULESETS)
    return [g for k, g in enumerate(ids) if (k // step) % processes == p]


def guild_of(i: int) -> str:
    """The Discord server of game ``i``: a snowflake whose shard (Discord's rule, the id
    shifted right 22 bits, modulo the shard count) is the worker :func:`deal` gives the
    game to, whatever the number of workers."""
    return str(((i // len(RULESETS)) << 22) + 1)


def shard_serves(p: int, processes: int) -> Any:
    """Whether a guild is on worker ``p``'s shard: the test ``umpire bot --shards p
    --shard-count processes`` warms its cache with (:meth:`Shards.serves`)."""
    from bot.discord.cli import Shards

    return Shards((p,), processes).serves


def _secret(seed: int, i: int) -> bytes:
    return hashlib.sha256(f"bench-load|{seed}|{i}".encode()).digest()


# -- figures ---------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    """The ``p``-th percentile of a sorted list (nearest rank); 0.0 when empty."""
    if not ordered:
        return 0.0
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


@dataclass
class RunFigures:
    """One rate of one backend: what the worker processes did, summed."""

    rate: float
    processes: int
    seconds: float = 0.0
    acked: int = 0
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    #: the latencies of orders submitted after the run's first :data:`WARM_UP` seconds
    settled: list[float] = field(default_factory=list)
    #: the others: those of orders submitted in the run's first :data:`WARM_UP` seconds
    early: list[float] = field(default_factory=list)
    #: the machine's 1-minute load average when the run started and when it ended
    load: tuple[float, float] | None = None
    #: CPU seconds the worker processes used, summed
    cpu: float = 0.0
    #: of which in the kernel (system time: sockets, mostly)
    kernel: float = 0.0
    #: share of the machine's CPU time busy during the run (every program on it)
    busy: float = 0.0
    #: orders chosen during the run (no script, or the script used up)
    live: int = 0
    #: CPU seconds the database server used (PostgreSQL started here), else 0
    db_cpu: float = 0.0
    #: statements the worker processes sent to PostgreSQL (0 on SQLite): a count that,
    #: unlike CPU time, does not change with how busy the machine is
    statements: int = 0

    @property
    def per_second(self) -> float:
        return self.acked / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        lat = sorted(self.latencies)
        db = f", server {self.db_cpu * 1000 / max(1, self.acked):.2f} ms" if self.db_cpu else ""
        if self.statements:
            db += f" ({self.statements / max(1, self.acked):.2f} statements per order)"
        offered = "as fast as it goes" if not self.rate else f"offered {self.rate:g} orders/s"
        ms = [
            percentile(lat, 50) * 1000,
            percentile(lat, 99) * 1000,
            (lat[-1] if lat else 0) * 1000,
        ]
        settled = ""
        if self.settled:
            early = sorted(self.early)
            first = f"first {WARM_UP:g} s: p99 {percentile(early, 99) * 1000:.1f} ms; " if early else ""
            p99 = percentile(sorted(self.settled), 99) * 1000
            settled = f" ({first}after the first {WARM_UP:g} s: p99 {p99:.1f} ms)"
        load = f"; load average {self.load[0]:.2f} -> {self.load[1]:.2f}" if self.load else ""
        return (
            f"  run ({offered}, {self.processes} process{'es' if self.processes > 1 else ''}, "
            f"{self.seconds:.1f} s): {self.acked} orders, {self.per_second:.0f} orders/s; "
            f"submit p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms, max {ms[2]:.1f} ms{settled}; "
            f"stale {self.stale}, errors {len(self.errors)}, games ended by their rules "
            f"{self.finished}; CPU per order: workers {self.cpu * 1000 / max(1, self.acked):.2f}"
            f" ms (kernel {self.kernel * 1000 / max(1, self.acked):.2f}){db}, machine "
            f"{self.busy:.0%} busy{load}; {self.live} orders chosen during the run"
        )


@dataclass
class LoadReport:
    """Everything one backend's load test measured and checked."""

    backend: str
    games: int
    setup_seconds: float = 0.0
    setup_processes: int = 1
    runs: list[RunFigures] = field(default_factory=list)
    #: orders acknowledged to the tasks, over every run
    acked: int = 0
    #: games whose log differs from what was acknowledged for them: id and why
    mismatched: list[str] = field(default_factory=list)
    touched: int = 0
    verified: int = 0
    #: games that did not verify: id and the first problem
    unverified: list[str] = field(default_factory=list)
    #: live actions of every game of the database, summed
    stored: int = 0
    #: games of the database outside the active ones that hold an action
    strays: int = 0
    check_seconds: float = 0.0
    #: time the slowest process took to choose its scripts, before the runs
    script_seconds: float = 0.0
    #: orders played on the driven games after the set-up (see :func:`prime_games`)
    primed: int = 0
    #: what each worker's warm-up did (:meth:`Service.warm`), in worker order; empty: none
    warmed: list[str] = field(default_factory=list)
    warm_seconds: list[float] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        return (
            not self.mismatched
            and not self.unverified
            and self.verified == self.touched
            and self.stored == self.acked
            and self.strays == 0
        )


# -- opening the database --------------------------------------------------------------


async def open_service(target: str, *, pool: int | None, sync: str) -> Service:
    """A service of its own over ``target``, as one bot process would open it."""
    if is_pg_url(target):
        options = {} if pool is None else {"max_size": pool}
        return Service(await PgStore.open(target, **options))
    return Service(await Store.open(target, synchronous=sync))


# -- child processes -------------------------------------------------------------------


def _child(out: Any, n: int, work: Any, *args: Any) -> None:
    """Run ``work(*args)`` in this child, job ``n``; put ``(n, ("ok", result))`` or
    ``(n, ("failed", why))`` in ``out``."""
    try:
        out.put((n, ("ok", asyncio.run(work(*args)))))
    except (ServiceError, StoreError) as exc:  # a sentence already
        out.put((n, ("failed", str(exc))))
    except BaseException as exc:  # noqa: BLE001 - said to the parent in words
        why = f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-1500:]}"
        out.put((n, ("failed", why)))


def _in_processes(jobs: list[tuple[Any, ...]], timeout: float) -> list[Any]:
    """Run each ``(work, *args)`` in a forked process; their results in order. A child
    that fails or outlives ``timeout`` stops the bench with a sentence."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    children = []
    for n, (work, *args) in enumerate(jobs):
        child = ctx.Process(target=_child, args=(out, n, work, *args), daemon=True)
        child.start()
        children.append(child)
    results: dict[int, Any] = {}
    deadline = time.monotonic() + timeout
    try:
        while len(results) < len(jobs):
            try:
                n, (kind, value) = out.get(timeout=1.0)
            except queue.Empty:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"a worker process took more than {timeout:.0f} s") from None
                dead = [c for i, c in enumerate(children) if i not in results and not c.is_alive()]
                if dead and out.empty():
                    time.sleep(0.5)
                    if out.empty():
                        raise RuntimeError(
                            f"a worker process died (exit code {dead[0].exitcode})"
                        ) from None
                continue
            if kind != "ok":
                raise RuntimeError(f"a worker process failed: {value}")
            results[n] = value
    finally:
        for child in children:
            child.join(5)
            if child.is_alive():
                child.terminate()
                child.join(5)
    return [results[n] for n in range(len(jobs))]


#: statements this process has sent to PostgreSQL since :func:`_count_statements`
_STATEMENTS = [0]


def _count_statements() -> None:
    """Count every statement this worker process sends to PostgreSQL (every query of the
    store goes through ``AsyncCursor.execute``); the patch lives in this process only."""
    from psycopg import AsyncCursor

    if getattr(AsyncCursor.execute, "_counting", False):
        return
    real = AsyncCursor.execute

    async def execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        _STATEMENTS[0] += 1
        return await real(self, *args, **kwargs)

    execute._counting = True  # type: ignore[attr-defined]
    AsyncCursor.execute = execute  # type: ignore[method-assign]


def _own_cpu() -> float:
    """CPU seconds this process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _own_kernel_cpu() -> float:
    """CPU seconds this process has spent in the kernel (sockets, mostly)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def _load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as text ("unknown" if none)."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _tree_cpu(pid: int | None) -> float:
    """CPU seconds used by process ``pid`` (a database server) and its children, those
    still running and those it has reaped; 0.0 when unknown."""
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state ppid ... utime(12) stime(13) cutime(14) cstime(15)
        if int(entry) == pid:
            total += sum(int(x) for x in fields[11:15]) / tick
        elif int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _machine_busy() -> tuple[float, float]:
    """(busy, total) clock ticks of every CPU of the machine so far, from /proc/stat;
    zeros where there is none."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return float(sum(ticks) - idle), float(sum(ticks))


# -- set-up ----------------------------------------------------------------------------


async def create_games(target: str, indices: list[int], seed: int, pool: int | None, sync: str,
                       concurrency: int) -> int:  # fmt: skip
    """Create, seat and start the games ``indices``; how many."""
    service = await open_service(target, pool=pool, sync=sync)
    todo = iter(indices)
    made = 0

    async def one_by_one() -> None:
        nonlocal made
        for i in todo:
            ruleset_id = RULESETS[i % len(RULESETS)]
            rs = find_ruleset(ruleset_id)
            scenario = rs.scenarios()[0].id
            created = await service.create(
                ruleset_id,
                created_by=CREATOR,
                scenario=scenario,
                options=dict(getattr(rs, "fuzz_options", {})),
                seats={role: player(role) for role in rs.roles(scenario)},
                game_id=game_id(i),
                secret=_secret(seed, i),
                guild=guild_of(i),
            )
            await service.start(created.game, CREATOR)
            service.forget(created.game)  # the set-up does not warm the runs' cache
            made += 1

    try:
        await asyncio.gather(*(one_by_one() for _ in range(concurrency)))
    finally:
        await service.close()
    return made


async def prime_games(target: str, indices: list[int], seed: int, pool: int | None,
                      sync: str) -> int:  # fmt: skip
    """One random legal order on each of the games ``indices`` (the ones the runs drive),
    after every game is made: the games in play are then the ones played last, as they
    are when a bot restarts in the middle of play, which is what :meth:`Service.warm`
    goes by. How many orders."""
    service = await open_service(target, pool=pool, sync=sync)
    played = 0
    try:
        for i in indices:
            game = game_id(i)
            ruleset, state, seq = await service.live_state(game)
            if ruleset.prompt(state).role is None:
                continue
            role, order = random_order(ruleset, state, random.Random(f"{seed}|{game}|prime"))
            await service.submit(game, player(role), order, role=role, seen=seq)
            service.forget(game)
            played += 1
    finally:
        await service.close()
    return played


# -- the runs --------------------------------------------------------------------------


async def drive_games(
    target: str,
    games: list[str],
    rates: list[float],
    seconds: float,
    orders: int | None,
    processes: int,
    seed: int,
    pool: int | None,
    sync: str,
    cache: int | None,
    barrier: Any,
    script: int = 0,
    profile: str | None = None,
    server_pid: int | None = None,
    shard: int = 0,
    warm: bool = True,
) -> dict[str, Any]:
    """One worker process: every rate in turn on ``games``, then the checks of its games.

    Before the clock of the first run starts, with ``warm``, the service warms itself as
    a bot process does before it logs in (:meth:`Service.warm`, for the games of its
    shard ``shard`` of ``processes``); without, the runs start with nothing in memory.

    ``rates`` are orders a second offered by all the processes together (0: as fast as
    possible); ``orders`` caps each run at that many orders for this process. With
    ``script``, that many orders per game are chosen before the first run (see
    :func:`choose_script`); without, or once a game's script is used up, each order is
    chosen from the game as the service gives it (:meth:`Service.live_state`).
    """
    if cache is not None:
        service_module.CACHE_SIZE = cache
    if is_pg_url(target):
        _count_statements()
    service = await open_service(target, pool=pool, sync=sync)
    driver = _Driver(service, games, processes, seed, orders)
    driver.server_pid = server_pid
    try:
        t0 = time.monotonic()
        for game in games:
            async with service.store.read() as tx:
                row = await tx.game(game)
                actions = await tx.live_actions(game) if script else []
            driver.base[game] = row.head if row is not None else 0
            if script and row is not None:
                rng = random.Random(f"{seed}|{game}")
                driver.scripts[game] = choose_script(row, actions, script, rng)
        scripted = time.monotonic() - t0
        for game in games:  # the runs start as a bot's would: nothing in memory...
            service.forget(game)
        warmed = None
        if warm:  # ...but what it warms before taking orders, the same way
            warmed = await service.warm(serves=shard_serves(shard, processes))
        profiler = None
        if profile:
            import cProfile

            # CPU time, not wall time: on a busy machine a wall-clock profile charges the
            # moments this process waits for a core to whatever call it was in
            profiler = cProfile.Profile(time.process_time)
        runs = []
        for rate in rates:
            barrier.wait(MARGIN)  # every process starts each run at the same moment
            if profiler is not None:
                profiler.enable()
            runs.append(await driver.run(rate, seconds))
            if profiler is not None:
                profiler.disable()
        if profiler is not None:
            profiler.dump_stats(profile)
        barrier.wait(MARGIN)
        t0 = time.monotonic()
        mismatched, unverified, verified = await _check_games(
            service, games, driver.base, driver.acked
        )
        checked = time.monotonic() - t0
    finally:
        await service.close()
    return {
        "runs": runs,
        "acked": sum(driver.acked.values()),
        "touched": sum(1 for n in driver.acked.values() if n),
        "mismatched": mismatched,
        "unverified": unverified,
        "verified": verified,
        "check_seconds": checked,
        "script_seconds": scripted,
        "warmed": warmed and warmed.line(),
        "warm_seconds": warmed and warmed.seconds,
    }


def choose_script(
    row: Any, actions: list[Any], length: int, rng: random.Random
) -> list[tuple[str, dict[str, Any]]]:
    """``length`` random legal orders (fewer if the game ends) that the game of ``row``
    will accept one after the other from where its ``actions`` leave it: the game is
    played in memory with the same id, options, secret and dice scheme, so each order
    meets the position, and the dice, that the service will have when it arrives."""
    g = Game(find_ruleset(row.ruleset), row.scenario, row.options, row.secret, row.id,
             row.dice_scheme)  # fmt: skip
    for a in actions:
        g.play(a.order, a.role)
    chosen = []
    while len(chosen) < length and g.ruleset.prompt(g.state).role is not None:
        role, order = random_order(g.ruleset, g.state, rng)
        g.play(order, role)
        chosen.append((role, order.to_dict()))
    return chosen


class _Driver:
    """The games of one worker process and what has happened to them over the runs."""

    def __init__(
        self, service: Service, games: list[str], processes: int, seed: int, orders: int | None
    ) -> None:
        self.service = service
        self.games = games
        self.processes = processes
        self.seed = seed
        self.orders = orders
        #: actions each game held before (an earlier load test on this database)
        self.base: dict[str, int] = {}
        self.acked = dict.fromkeys(games, 0)
        self.ended: set[str] = set()
        self.scripts: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        #: the database server's main process, when it runs here (its CPU is measured)
        self.server_pid: int | None = None

    async def run(self, rate: float, seconds: float) -> dict[str, Any]:
        """One run at ``rate`` orders a second in all (0: each game as fast as it goes)."""
        self.latencies: list[float] = []
        self.settled: list[float] = []
        self.early: list[float] = []
        load0 = os.getloadavg()[0]
        self.errors: list[str] = []
        self.stale = self.claimed = self.live = 0
        self.choice_errors: list[str] = []
        busy0, cpu0, db0 = _machine_busy(), _own_cpu(), _tree_cpu(self.server_pid)
        kernel0 = _own_kernel_cpu()
        sent0 = _STATEMENTS[0]
        start = time.monotonic()
        # each game's mean interval between orders, so that all processes offer ``rate``
        interval = len(self.games) * self.processes / rate if rate else 0.0
        done = await asyncio.gather(*(self._play(g, rate, start, start + seconds, interval)
                                      for g in self.games), return_exceptions=True)  # fmt: skip
        end = time.monotonic()
        failed = next((x for x in done if isinstance(x, BaseException)), None)
        if failed is not None:  # every other task has ended: the service can be closed
            raise failed
        busy1 = _machine_busy()
        return {
            "db_cpu": _tree_cpu(self.server_pid) - db0,
            "statements": _STATEMENTS[0] - sent0,
            "cpu": _own_cpu() - cpu0,
            "kernel": _own_kernel_cpu() - kernel0,
            "busy": [busy1[0] - busy0[0], busy1[1] - busy0[1]],
            "start": start,
            "end": end,
            "acked": len(self.latencies) - self.stale - len(self.errors),
            "choice_errors": len(self.choice_errors),
            "stale": self.stale,
            "errors": self.errors + self.choice_errors,
            "latencies": self.latencies,
            "settled": self.settled,
            "early": self.early,
            "load": (load0, os.getloadavg()[0]),
            "ended": len(self.ended),
            "live": self.live,
        }

    async def _next(self, game: str, rng: random.Random) -> tuple[str, dict | Any, int] | None:
        """The next order for ``game``: (role, order, the action number it was chosen at);
        None once the game is over. Not timed."""
        seq = self.base[game] + self.acked[game]
        script = self.scripts.get(game, [])
        if self.acked[game] < len(script):
            role, order = script[self.acked[game]]
            return role, order, seq
        self.live += 1
        ruleset, state, seq = await self.service.live_state(game)
        if ruleset.prompt(state).role is None:
            return None
        role, order = random_order(ruleset, state, rng)
        return role, order, seq

    async def _play(
        self, game: str, rate: float, start: float, stop_at: float, interval: float
    ) -> None:
        rng = random.Random(f"{self.seed}|{game}|{rate}")
        next_at = start + (rng.expovariate(1 / interval) if interval else 0.0)
        while game not in self.ended:
            if interval:
                if next_at >= stop_at:
                    return
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                next_at += rng.expovariate(1 / interval)
            if time.monotonic() >= stop_at or (
                self.orders is not None and self.claimed >= self.orders
            ):
                return
            try:
                chosen = await self._next(game, rng)
            except (ServiceError, StoreError) as exc:  # the database too busy, say
                self.choice_errors.append(f"{game}, reading it: {exc}")
                return  # this game sits the rest of the run out
            if chosen is None:
                self.ended.add(game)
                return
            role, order, seq = chosen
            self.claimed += 1
            settled = time.monotonic() - start >= WARM_UP
            t0 = time.perf_counter()
            try:
                result = await self.service.submit(game, player(role), order, role=role, seen=seq)
            except StaleOrder:
                self.stale += 1
                self.scripts.pop(game, None)  # the script no longer fits: choose live
            except (ServiceError, StoreError) as exc:
                self.errors.append(f"{game} at {seq}: {exc}")
                self.scripts.pop(game, None)
            else:
                self.acked[game] += 1
                if result.prompt.role is None:
                    self.ended.add(game)
            finally:
                self.latencies.append(time.perf_counter() - t0)
                (self.settled if settled else self.early).append(self.latencies[-1])
            if not interval:
                await asyncio.sleep(0)  # let the other games have their turn


async def _check_games(
    service: Service, games: list[str], base: dict[str, int], acked: dict[str, int]
) -> tuple[list[str], list[str], int]:
    """Each game's log against the orders acknowledged for it (after the ``base`` actions
    it held before); each game that received an order verified."""
    mismatched, unverified, verified = [], [], 0
    for game in games:
        async with service.store.read() as tx:
            row = await tx.game(game)
            entries = await tx.log_entries(game)
        n = base[game] + acked[game]
        seqs = [e.seq for e in entries]
        undone = sum(e.undone_by is not None for e in entries)
        if row is None:
            mismatched.append(f"{game}: the game is gone")
        elif seqs != list(range(1, n + 1)) or undone or row.head != n or row.entries != n:
            mismatched.append(
                f"{game}: {n} actions expected, but the log holds {len(entries)} entries "
                f"({undone} undone), head {row.head}"
            )
        if not acked[game]:
            continue
        try:
            report = verify_export(await service.export(game, with_secret=True))
        except ServiceError as exc:
            unverified.append(f"{game}: {exc}")
            continue
        if report.ok:
            verified += 1
        else:
            unverified.append(f"{game}: {report.problems[0]}")
    return mismatched, unverified, verified


# -- one backend -----------------------------------------------------------------------


async def _prepare(target: str, sync: str) -> None:
    """Create and migrate the database once, before several processes open it."""
    service = await open_service(target, pool=2, sync=sync)
    try:
        async with service.store.write():
            pass  # an SQLite file is made by the first write; the workers then find it
    finally:
        await service.close()


async def _census(target: str, sync: str, active: set[str]) -> tuple[int, int, int]:
    """(games, live actions in all, games outside ``active`` holding an action)."""
    service = await open_service(target, pool=2, sync=sync)
    try:
        listed = await service.list_games()
    finally:
        await service.close()
    strays = sum(1 for g in listed if g.seq and g.game not in active)
    return len(listed), sum(g.seq for g in listed), strays


def load_test(
    target: str,
    *,
    games: int,
    active: int,
    processes: int,
    rates: list[float],
    seconds: float,
    orders: int | None = None,
    setup_processes: int = 4,
    seed: int = 1,
    pool: int | None = None,
    sync: str = "FULL",
    cache: int | None = None,
    label: str | None = None,
    setup: bool = True,
    profile: str | None = None,
    script: int = 0,
    server_pid: int | None = None,
    warm: bool = True,
) -> LoadReport:
    """Set up ``games`` games in the database ``target`` (unless ``setup`` is false: they
    are there from an earlier call) and play an order on each of the first ``active``
    (:func:`prime_games`), drive those from ``processes`` processes at each rate, each
    process first warming its service unless ``warm`` is false, check; the figures and
    checks (printing nothing)."""
    if active > games:
        raise ValueError("--active cannot exceed --games")
    report = LoadReport(label or ("PostgreSQL" if is_pg_url(target) else "SQLite"), games)
    asyncio.run(_prepare(target, sync))
    if not is_pg_url(target):
        # SQLite takes one writer at a time: more processes only wait for its lock (and,
        # past its busy timeout, fail), so its games are made by one process
        setup_processes = 1
    report.setup_processes = setup_processes
    if setup:
        concurrency = 8 if is_pg_url(target) else 1
        t0 = time.monotonic()
        made = _in_processes(
            [
                (create_games, target, list(range(p, games, setup_processes)), seed, pool, sync,
                 concurrency)
                for p in range(setup_processes)
            ],
            timeout=MARGIN + games,
        )  # fmt: skip
        if sum(made) != games:
            raise RuntimeError(f"the set-up made {sum(made)} games of {games}")
        primed = _in_processes(
            [(prime_games, target, list(range(p, active, setup_processes)), seed, pool, sync)
             for p in range(setup_processes)],
            timeout=MARGIN + active,
        )  # fmt: skip
        report.primed = sum(primed)
        report.setup_seconds = time.monotonic() - t0
    ids = [game_id(i) for i in range(active)]
    _, before, _ = asyncio.run(_census(target, sync, set(ids)))
    barrier = multiprocessing.get_context("fork").Barrier(processes)
    results = _in_processes(
        [
            (drive_games, target, deal(ids, p, processes), rates, seconds, orders, processes,
             seed, pool, sync, cache, barrier, script,
             profile and (profile if p == 0 else f"{profile}.w{p}"),
             server_pid if p == 0 else None, p, warm)
            for p in range(processes)
        ],
        timeout=MARGIN * (len(rates) + 2) + seconds * len(rates) + active,
    )  # fmt: skip
    for k, rate in enumerate(rates):
        figures = RunFigures(rate, processes)
        parts = [r["runs"][k] for r in results]
        figures.seconds = max(p["end"] for p in parts) - min(p["start"] for p in parts)
        figures.busy = parts[0]["busy"][0] / parts[0]["busy"][1] if parts[0]["busy"][1] else 0.0
        figures.db_cpu = parts[0]["db_cpu"]
        figures.load = parts[0].get("load")
        for p in parts:
            figures.cpu += p["cpu"]
            figures.kernel += p.get("kernel", 0.0)
            figures.statements += p.get("statements", 0)
            figures.live += p["live"]
            figures.acked += p["acked"]
            figures.stale += p["stale"]
            figures.errors += p["errors"]
            figures.latencies += p["latencies"]
            figures.settled += p.get("settled", [])
            figures.early += p.get("early", [])
        figures.finished = sum(r["runs"][k]["ended"] for r in results) - sum(
            r["runs"][k - 1]["ended"] for r in results if k
        )
        report.runs.append(figures)
    for r in results:
        report.acked += r["acked"]
        report.touched += r["touched"]
        report.verified += r["verified"]
        report.mismatched += r["mismatched"]
        report.unverified += r["unverified"]
        report.check_seconds = max(report.check_seconds, r["check_seconds"])
        report.script_seconds = max(report.script_seconds, r["script_seconds"])
        if r.get("warmed"):
            report.warmed.append(r["warmed"])
            report.warm_seconds.append(r["warm_seconds"])
    listed, stored, report.strays = asyncio.run(_census(target, sync, set(ids)))
    report.stored = stored - before
    if listed != games:
        report.mismatched.append(f"the database holds {listed} games, not {games}")
    return report


def print_report(report: LoadReport) -> None:
    print(f"{report.backend}:")
    if report.setup_seconds:
        print(
            f"  set-up: {report.games} games created, seated and started by "
            f"{report.setup_processes} process{'es' if report.setup_processes > 1 else ''} "
            f"in {report.setup_seconds:.1f} s, with an order played on each of the "
            f"{report.primed} to be driven"
        )
    if report.script_seconds >= 0.05:
        print(f"  orders chosen before the runs in {report.script_seconds:.1f} s")
    if report.warmed:
        print(
            f"  warm-up before the runs (Service.warm, as a bot process before it logs in): "
            f"{', '.join(f'{s:.2f}' for s in report.warm_seconds)} s per process"
        )
        for n, line in enumerate(report.warmed):
            print(f"    process {n}: {line}")
    else:
        print("  no warm-up: the runs start with nothing in memory (--cold)")
    for run in report.runs:
        print(run.line())
        for error in run.errors[:3]:
            print(f"    error: {error}")
    lost = (
        "none lost or duplicated"
        if report.stored == report.acked and not report.mismatched
        else (f"{len(report.mismatched)} games differ")
    )
    print(
        f"  checks ({report.check_seconds:.1f} s): {report.acked} orders acknowledged, "
        f"{report.stored} actions stored ({lost}); {report.verified} of {report.touched} games "
        f"that received orders verify; {report.strays} other games touched"
    )
    for problem in (report.mismatched + report.unverified)[:5]:
        print(f"    {problem}")
    consistent = "yes" if report.consistent else "NO"
    print(f"  consistent: {consistent}; load average now {_load_average()}")


# -- the command -----------------------------------------------------------------------


def _numbers(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers") from None
    if not values or any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers >= 0")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a postgresql:// URL (default: a throwaway local server)")
    parser.add_argument("--sqlite", help="the SQLite file (default: a scratch file)")
    parser.add_argument("--backends", default="pg,sqlite", help="pg, sqlite or both (pg,sqlite)")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--processes", type=int, default=4, help="worker processes on PostgreSQL")
    parser.add_argument("--sqlite-processes", default="1,4", type=_numbers)
    parser.add_argument("--setup-processes", type=int, default=4)
    parser.add_argument("--rates", default="500,0", type=_numbers,
                        help="orders/s offered in all, one run each; 0: as fast as possible")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each run")
    parser.add_argument("--orders", type=int, help="stop each run after this many orders")
    parser.add_argument("--pool", type=int, help="connections per process (default: the store's)")
    parser.add_argument("--cache", type=int, help="games each service keeps in memory (what-if)")
    parser.add_argument("--sync", default="FULL", choices=["FULL", "NORMAL"])
    parser.add_argument("--script", type=int, default=60,
                        help="orders per game chosen before the runs (0: choose each in the run)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true",
                        help="no warm-up before the runs (Service.warm): what warming saves")  # fmt: skip
    parser.add_argument("--profile", help="cProfile statistics (CPU time) of each worker's runs to "
                        "FILE.pg (the first), FILE.pg.w1, ..., FILE.sqlite1, ...")  # fmt: skip
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # each line as it comes, before the workers'
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    problem = next((b for b in backends if b not in ("pg", "sqlite")), None)
    if problem or not backends:
        parser.error(f"--backends takes pg, sqlite or both, not {args.backends!r}")
    if args.script < 0:
        parser.error("--script takes a number of orders, 0 or more")
    if min(args.games, args.active, args.processes, args.setup_processes) < 1:
        parser.error("--games, --active, --processes and --setup-processes must be at least 1")
    if args.active > args.games:
        parser.error("--active cannot exceed --games")
    if args.db is not None and not is_pg_url(args.db):
        parser.error("--db takes a postgresql:// URL; name an SQLite file with --sqlite")
    if args.sqlite is not None and os.path.lexists(args.sqlite):
        parser.error(f"{args.sqlite} exists; the load test makes its games in a new file")
    if not set(engine.available()) >= set(RULESETS):
        parser.error(f"this Umpire lacks one of {', '.join(RULESETS)}")
    orders_per_process = None
    common = dict(games=args.games, active=args.active, rates=args.rates, seconds=args.seconds,
                  setup_processes=args.setup_processes, seed=args.seed, pool=args.pool,
                  sync=args.sync, cache=args.cache,
                  script=args.script, warm=not args.cold)  # fmt: skip
    print(
        f"{args.games} games ({', '.join(RULESETS)} alternately), {args.active} driven at once, "
        f"{args.seconds:g} s per run; targets: 500 orders/s and p99 under 50 ms on PostgreSQL"
        + (f"; what-if: cache of {args.cache} games" if args.cache else "")
    )
    print(f"load average before: {_load_average()} (2 cores: figures are blurred above 2)")
    ok = True
    try:
        if "pg" in backends:
            server = None
            url = args.db
            if url is None:
                from tests.pg.server import SERVER

                server = SERVER.acquire()
                url = server.new_url()
                with open(
                    os.path.join(server.dir, "data", "postmaster.pid"), encoding="ascii"
                ) as f:
                    server_pid = int(f.readline())
                where = f"a throwaway server at 127.0.0.1:{server.port}, no fsync"
            else:
                where = safe_url(url)
                server_pid = None
            try:
                if args.orders:
                    orders_per_process = -(-args.orders // args.processes)
                report = load_test(url, processes=args.processes, orders=orders_per_process,
                                   label=f"PostgreSQL ({where})", server_pid=server_pid,
                                   profile=args.profile and f"{args.profile}.pg",
                                   **common)  # fmt: skip
                print_report(report)
                ok = ok and report.consistent
            finally:
                if server is not None:
                    server.release()
        if "sqlite" in backends:
            with tempfile.TemporaryDirectory(prefix="umpire-load-") as folder:
                path = args.sqlite or os.path.join(folder, "load.db")
                for n, count in enumerate(int(c) for c in args.sqlite_processes):
                    per = -(-args.orders // count) if args.orders else None
                    report = load_test(
                        path, processes=count, orders=per, setup=n == 0,
                        profile=args.profile and f"{args.profile}.sqlite{count}",
                        label=f"SQLite ({path}, synchronous={args.sync})", **common,
                    )  # fmt: skip
                    print_report(report)
                    ok = ok and report.consistent
    except (RuntimeError, StoreError, ServiceError, ValueError) as exc:
        print(f"bench_load: {exc}", file=sys.stderr)
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
