"""The container's health check: the database named by UMPIRE_DB can be read (or does
not exist yet, before the first game). Exit status 0 healthy, 1 not; one line of output.

It reads the schema version only, which costs the same on a database of any size."""

from __future__ import annotations

import os
import sqlite3
import sys


def main() -> int:
    path = os.environ.get("UMPIRE_DB", "umpire.db")
    if "://" in path or not os.path.exists(path):
        print("ok: no SQLite file to check")
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as exc:
        print(f"unhealthy: {path} cannot be read: {exc}")
        return 1
    print(f"ok: {path} at schema version {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
