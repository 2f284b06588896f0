"""``umpire migrate-db``: copy every game of an SQLite database into PostgreSQL (issue 16).

The copy runs in one transaction into an empty PostgreSQL database and checks each game
after it (its export must be the same from both databases and verify); see
:func:`bot.store_pg.copy_sqlite_to_pg`.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "migrate-db", help="copy every game of an SQLite file into an empty PostgreSQL database"
    )
    p.add_argument("--from", dest="source", required=True, help="the SQLite database file")
    p.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    p.set_defaults(func=cmd_migrate_db)


def cmd_migrate_db(args: argparse.Namespace) -> int:
    from bot.store_pg import migrate_db_command

    return migrate_db_command(args.source, args.target)
