"""How much room a finished game takes in each database (issue 16, item 4).

    .venv/bin/python bench/bench_storage.py [--ruleset pfv --ruleset aa-revised]
        [--orders 1000] [--backend sqlite --backend postgresql] [--pg URL] [--timing]

For each ruleset, a game of ``--orders`` random legal orders (fixed seed, secret and id,
so every run plays the same game) is played through ``Service.submit`` into a database
that holds nothing else, then ended by a moderator (a finished game). Then:

- SQLite: the write-ahead log is checkpointed into the file and the file VACUUMed; the
  figure is the file's size minus the size of an empty database VACUUMed the same way
  (the schema alone), with the file's own size beside it. Per table: ``dbstat`` pages of
  the table and its indexes.
- PostgreSQL: every table of the game's schema is rewritten with VACUUM FULL (compact,
  as SQLite's VACUUM), then ``pg_total_relation_size`` (heap, TOAST, indexes) is summed
  over the tables, minus the same sum for an empty schema. The figure after a plain
  VACUUM (what autovacuum does: freed rows stay as reusable space, and every table
  gains a free-space and a visibility map, 32 KB each) is printed beside it. Without
  ``--pg`` a throwaway server is started on loopback (tests/pg/server.py). An empty
  PostgreSQL table has no page and an empty index only its metapage, so the first row
  of a table adds a page to it and to each of its indexes (8 KB each; SQLite's empty
  database already has every root page): the share of the figure that is such first
  pages is printed too, since a database pays it once, not per game. The figure
  "beside another game" is what the game adds to a database that has them already.

Per table, the growth over the empty database. ``--timing`` also times, on an unfinished
copy of the same game, a fresh service loading it (median of 5) and a rollback to its
midpoint (targets ~20 ms and 200 ms, ARCHITECTURE: Scale), and on the finished game a
fresh service showing the map at its middle turn (replayed from the set-up, since a
finished game keeps few snapshots, and reads its log from the chunks it was sealed
into). Target for the size: under 200 KB; on PostgreSQL "alone" is also given without
the first pages, the share a database pays once.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.service_fuzz import random_order  # noqa: E402
from engine.core.game import Game  # noqa: E402

#: options that keep a game going for 1,000 orders
LONG_OPTIONS: dict[str, dict[str, Any]] = {"pfv": {"last_turn": 60}, "aa-revised": {}}
SECRET = b"b" * 32
TARGET = 200 * 1024


def script(
    ruleset_id: str, orders: int, game_id: str, seed: int = 16
) -> list[tuple[str, dict[str, Any]]]:
    """``orders`` random legal orders of one game, found by the engine alone."""
    rs = engine.ruleset(ruleset_id)
    game = Game(rs, rs.scenarios()[0].id, LONG_OPTIONS.get(ruleset_id, {}), SECRET, game_id)
    rng = random.Random(seed)
    steps = []
    while len(steps) < orders and game.prompt().role is not None:
        role, order = random_order(rs, game.state, rng)
        game.play(order, role)
        steps.append((role, order.to_dict()))
    return steps


def _gid(ruleset_id: str) -> str:
    """A game id as the service makes them: 12 hex digits."""
    return hashlib.sha256(ruleset_id.encode()).hexdigest()[:12]


def _user(index: int) -> str:
    """A user as Discord names them: an 18-digit snowflake."""
    return str(412_345_678_901_234_567 + 7919 * index)


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 37.123456  # about half a minute between orders, not whole seconds
        return self.now


async def play(
    target: str, ruleset_id: str, steps: list[tuple[str, dict[str, Any]]], game_id: str
) -> str:
    """Create the game ``game_id`` in ``target`` and play ``steps``; its id."""
    service = await Service.open(target, clock=_Clock())
    try:
        rs = engine.ruleset(ruleset_id)
        scenario = rs.scenarios()[0].id
        created = await service.create(
            ruleset_id,
            created_by="mod",
            scenario=scenario,
            options=LONG_OPTIONS.get(ruleset_id, {}),
            seats={role: _user(i) for i, role in enumerate(rs.roles(scenario))},
            secret=SECRET,
            game_id=game_id,
        )
        game = created.game
        await service.start(game, "mod")
        users = {role: _user(i) for i, role in enumerate(rs.roles(scenario))}
        for seq, (role, order) in enumerate(steps):
            await service.submit(game, users[role], order, role=role, seen=seq)
        return game
    finally:
        await service.close()


async def finish(target: str, game: str) -> None:
    service = await Service.open(target, clock=_Clock())
    try:
        if (await service.status(game)).status != "finished":
            await service.end(game, "mod", "measured")
    finally:
        await service.close()


# -- measuring ----------------------------------------------------------------------------


def sqlite_bytes(path: str) -> tuple[int, dict[str, int]]:
    """(file size after checkpoint and VACUUM, bytes per table with its indexes)."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("VACUUM")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        rows = con.execute(
            "SELECT coalesce(m.tbl_name, d.name), sum(d.pgsize) FROM dbstat d"
            " LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    return os.path.getsize(path), {name: int(size) for name, size in rows}


async def empty_sqlite(folder: str) -> tuple[int, dict[str, int]]:
    path = os.path.join(folder, "empty.db")
    from bot.store import Store

    store = await Store.open(path)
    async with store.write():
        pass  # the first write creates the file and its schema
    await store.close()
    return sqlite_bytes(path)


def pg_bytes(url: str, *, full: bool = False) -> tuple[int, dict[str, int]]:
    """(sum of pg_total_relation_size over the tables of the URL's schema, per table),
    after VACUUM (``full``: VACUUM FULL, which rewrites each table and index compactly and
    leaves no free-space or visibility map, as SQLite's VACUUM does)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            )
        ]
        for table in tables:
            conn.execute(f'VACUUM {"FULL " if full else ""}"{table}"')
        sizes = {
            t: int(conn.execute("SELECT pg_total_relation_size(%s::regclass)", (t,)).fetchone()[0])
            for t in tables
        }
    return sum(sizes.values()), sizes


async def empty_pg(url: str) -> tuple[int, int, dict[str, int]]:
    """An empty schema: (size after VACUUM, after VACUUM FULL, per table after VACUUM FULL)."""
    from bot.store_pg import PgStore

    store = await PgStore.open(url)
    await store.close()
    plain = pg_bytes(url)[0]
    full, tables = pg_bytes(url, full=True)
    return plain, full, tables


def pg_relations(url: str) -> dict[str, int]:
    """Bytes of every table and index of the URL's schema (after ``pg_bytes``)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {
            name: int(size)
            for name, size in conn.execute(
                "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')"
            )
        }


def first_pages(empty: dict[str, int], now: dict[str, int]) -> int:
    """Bytes of the first page of every table or index empty before (no page, or an
    index's metapage alone) that holds a row now."""
    page = 8192
    return page * sum(
        1 for name, size in now.items() if empty.get(name, 0) <= page and size > empty.get(name, 0)
    )


def _kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def _verdict(n: int) -> str:
    return "under 200 KB" if n < TARGET else "OVER 200 KB"


def _breakdown(tables: dict[str, int], empty: dict[str, int] | None = None) -> str:
    grown = {name: size - (empty or {}).get(name, 0) for name, size in tables.items()}
    return ", ".join(
        f"{name} {_kb(size)}" for name, size in sorted(grown.items(), key=lambda kv: -kv[1]) if size
    )


async def time_it(target: str, game: str, head: int) -> str:
    """A fresh service loading the game (median of 5), then a rollback to the midpoint."""
    loads = []
    for _ in range(5):
        cold = await Service.open(target)
        try:
            t0 = time.perf_counter()
            await cold.live_state(game)
            loads.append(time.perf_counter() - t0)
        finally:
            await cold.close()
    service = await Service.open(target)
    try:
        await service.live_state(game)
        t0 = time.perf_counter()
        await service.rollback(game, "mod", to=head // 2, why="bench")
        rollback = time.perf_counter() - t0
    finally:
        await service.close()
    return (
        f"load {statistics.median(loads) * 1000:.1f} ms (max {max(loads) * 1000:.1f}), "
        f"rollback to {head // 2}: {rollback * 1000:.1f} ms"
    )


async def time_history(target: str, game: str) -> str:
    """A fresh service showing the public map at the middle turn of a finished game."""
    service = await Service.open(target)
    try:
        async with service.store.read() as tx:
            turns = await tx.turns_reached(game)
        turn = turns[len(turns) // 2]
        t0 = time.perf_counter()
        await service.view_at_turn(game, turn)
        return f"finished game's map at turn {turn}: {(time.perf_counter() - t0) * 1000:.1f} ms"
    finally:
        await service.close()


def compact_size(backend: str, target: str) -> tuple[int, dict[str, int], str]:
    """(bytes after SQLite's VACUUM or PostgreSQL's VACUUM FULL, per table, a note)."""
    if backend == "sqlite":
        whole, tables = sqlite_bytes(target)
        return whole, tables, f"file {_kb(whole)}"
    plain = pg_bytes(target)[0]
    whole, tables = pg_bytes(target, full=True)
    return whole, tables, f"tables {_kb(whole)}, {_kb(plain)} after a plain VACUUM"


async def measure(args: argparse.Namespace, folder: str, pg_new_url: Any) -> bool:
    ok = True
    empty_sq, empty_sq_tables = await empty_sqlite(folder) if "sqlite" in args.backend else (0, {})
    if "sqlite" in args.backend:
        print(f"empty SQLite database (schema alone): {_kb(empty_sq)}")
    for ruleset_id in args.ruleset:
        t0 = time.perf_counter()
        game_id, other_id = _gid(ruleset_id), _gid(f"{ruleset_id} beside")
        steps = script(ruleset_id, args.orders, game_id)
        other = script(ruleset_id, 30, other_id, seed=17)
        print(
            f"\n{ruleset_id}: {len(steps)} orders found by the engine in "
            f"{time.perf_counter() - t0:.1f} s"
        )
        for backend in args.backend:
            if backend == "sqlite":
                target = os.path.join(folder, f"{ruleset_id}.db")
                beside = os.path.join(folder, f"{ruleset_id}-beside.db")
                empty, empty_tables = empty_sq, empty_sq_tables
                empty_note = f"empty file {_kb(empty)}"
            else:
                empty_url = pg_new_url()
                from bot.store_pg import PgStore

                await (await PgStore.open(empty_url)).close()
                empty, empty_tables, _ = compact_size(backend, empty_url)
                empty_relations = pg_relations(empty_url)
                empty_note = f"empty schema {_kb(empty)}"
                target, beside = pg_new_url(), pg_new_url()
            t0 = time.perf_counter()
            game = await play(target, ruleset_id, steps, game_id)
            played = time.perf_counter() - t0
            timing = ""
            if args.timing:
                if backend == "sqlite":
                    copy = os.path.join(folder, f"{ruleset_id}-timing.db")
                    src = sqlite3.connect(target)
                    dst = sqlite3.connect(copy)
                    src.backup(dst)
                    src.close()
                    dst.close()
                else:
                    copy = pg_new_url()
                    await play(copy, ruleset_id, steps, game_id)
                timing = "; " + await time_it(copy, game, len(steps))
            await finish(target, game)
            if args.timing:
                timing += "; " + await time_history(target, game)
            whole, tables, note = compact_size(backend, target)
            # the same game in a database that already holds a short finished one: what
            # the game adds, without the first page of every table and index
            await finish(beside, await play(beside, ruleset_id, other, other_id))
            before = compact_size(backend, beside)[0]
            await finish(beside, await play(beside, ruleset_id, steps, game_id))
            added = compact_size(backend, beside)[0] - before
            size = whole - empty
            ok = ok and size < TARGET and added < TARGET
            print(
                f"  {backend:10s} finished game alone {_kb(size)} ({note}; {empty_note}): "
                f"{_verdict(size)}; beside another game {_kb(added)}: {_verdict(added)}; "
                f"played in {played:.1f} s{timing}"
            )
            print(f"    alone, by table: {_breakdown(tables, empty_tables)}")
            if backend == "postgresql":
                first = first_pages(empty_relations, pg_relations(target))
                print(
                    f"    alone, of which first pages of tables and indexes: {_kb(first)} "
                    f"({first // 8192} relations, paid once per database); the rest "
                    f"{_kb(size - first)}: {_verdict(size - first)}"
                )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", choices=sorted(LONG_OPTIONS))
    parser.add_argument("--orders", type=int, default=1000)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--pg", help="a postgresql:// URL to create schemas in")
    parser.add_argument("--timing", action="store_true", help="also time load and rollback")
    args = parser.parse_args()
    args.ruleset = args.ruleset or ["pfv", "aa-revised"]
    args.backend = args.backend or ["sqlite", "postgresql"]
    server = None
    pg_new_url = None
    if "postgresql" in args.backend:
        if args.pg:
            import itertools
            from urllib.parse import quote

            import psycopg

            names = itertools.count(1)

            def pg_new_url() -> str:
                name = f"bench_storage_{os.getpid()}_{next(names)}"
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(f"CREATE SCHEMA {name}")
                sep = "&" if "?" in args.pg else "?"
                return f"{args.pg}{sep}options={quote(f'-csearch_path={name}')}"

        else:
            from tests.pg.server import SERVER

            server = SERVER.acquire()
            pg_new_url = server.new_url
    try:
        with tempfile.TemporaryDirectory() as folder:
            ok = asyncio.run(measure(args, folder, pg_new_url))
    finally:
        if server is not None:
            server.release()
    print("\nall under 200 KB" if ok else "\nsome over 200 KB (see each line)")


if __name__ == "__main__":
    main()
