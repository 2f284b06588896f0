"""Migration 0002 and the games' deadline policy (ARCHITECTURE: Asynchronous play)."""

from __future__ import annotations

import sqlite3

from bot.service import Service
from bot.store import Store, migrations
from tests.service.conftest import new_game


async def test_a_version_1_database_gains_the_deadline_policy_column_and_keeps_its_games(
    db_path, clock
):
    first = [m for m in migrations() if m[0] == 1]
    assert first and len(migrations()) >= 2
    with sqlite3.connect(db_path) as db:  # a database written by the first release
        db.executescript(first[0][2])
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO games (id, ruleset, scenario, commitment, secret, created_by, created_at)"
            " VALUES ('old', 'toy', 'standard', 'c', x'00', 'alice', 0)"
        )
    store = await Store.open(db_path)
    async with store.read() as tx:
        game = await tx.game("old")
    await store.close()
    assert game is not None and game.deadline_policy is None
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(migrations())


async def test_the_policy_is_stored_on_the_game_and_its_change_audited(service: Service):
    game_id = await new_game(service, "toy")
    assert await service.deadline_policy(game_id) is None
    policy = {"phase_seconds": 3600.0, "reply_seconds": 600.0, "reminders": [300.0]}
    await service.set_deadline_policy(game_id, "mod", policy, "a faster game")
    assert await service.deadline_policy(game_id) == policy
    [entry] = [a for a in await service.audit(game_id) if a["act"] == "deadline-policy"]
    assert entry["detail"] == policy and entry["why"] == "a faster game" and entry["user"] == "mod"
