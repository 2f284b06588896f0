"""``umpire fuzz`` and ``umpire datapack check``: engine tools with no database."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter

from bot.cli import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("fuzz", help="play random legal games and replay each from its log")
    p.add_argument("game", help="game id, e.g. pfv")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-actions", type=int, default=20000)
    p.add_argument("--db", help="play through the service and store the games in this database")
    p.set_defaults(func=cmd_fuzz)

    d = sub.add_parser("datapack", help="data-pack tools")
    dsub = d.add_subparsers(dest="datapack_command", required=True)
    c = dsub.add_parser(
        "check", help="validate a game's data pack (shipped or from UMPIRE_DATAPACKS)"
    )
    c.add_argument("game")
    c.set_defaults(func=cmd_datapack_check)


def cmd_fuzz(args: argparse.Namespace) -> int:
    import engine
    from engine.fuzz import fuzz

    if args.game not in engine.available():
        raise UserError(
            f"there is no game called {args.game!r}; the games are: {', '.join(engine.available())}"
        )
    if args.db:
        try:
            from bot.service_fuzz import fuzz_into_db
        except ModuleNotFoundError:
            raise UserError("the service is not installed, so --db is not available yet") from None
        t0 = time.perf_counter()
        ids = asyncio.run(fuzz_into_db(args.db, args.game, args.games, args.seed, args.max_actions))
        print(
            f"fuzz {args.game}: {len(ids)} games played through the service into {args.db}, finished and "
            f"verifiable ({time.perf_counter() - t0:.1f} s, seed {args.seed}): {' '.join(ids)}"
        )
        return 0
    t0 = time.perf_counter()
    runs, failure = fuzz(args.game, args.games, args.seed, args.max_actions)
    elapsed = time.perf_counter() - t0
    actions = sum(r.actions for r in runs)
    winners = Counter(r.winner for r in runs if r.finished)
    if failure:
        print(f"fuzz {args.game}: FAILED after {len(runs)} game(s): {failure}")
        return 1
    wins = ", ".join(
        f"{w or 'draw'} {n}" for w, n in sorted(winners.items(), key=lambda kv: str(kv[0]))
    )
    print(
        f"fuzz {args.game}: {len(runs)} games, {actions} actions, all replayed exactly; wins: {wins}; "
        f"{elapsed:.1f} s (seed {args.seed})"
    )
    return 0


def cmd_datapack_check(args: argparse.Namespace) -> int:
    from engine.core import datapack, registry

    if args.game not in registry.available() and not datapack.shipped_files(args.game):
        packs = sorted({*registry.available(), *datapack.games_with_packs()})
        raise UserError(
            f"there is no game called {args.game!r}; the games with a data pack are: "
            f"{', '.join(packs)}"
        )
    try:
        problems = datapack.check(args.game)
    except KeyError:
        raise UserError(f"the game {args.game!r} ships no data pack to check") from None
    for file, line, message in problems:
        print(f"{file}:{line or '?'}: {message}")
    if problems:
        print(f"{args.game}: {len(problems)} problem(s)")
        return 1
    print(f"{args.game}: the data pack is valid")
    return 0
