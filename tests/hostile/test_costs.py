"""Issue 10, item 6: costs bounded by the game, not by the attacker. Verification and
import replay each log entry about once, however many undo cycles the log holds; the
Discord game list is one message however many games a user is in."""

from __future__ import annotations

import asyncio

import pytest

import engine
from bench.bench_verify import build
from bot.service import Service, verify_export
from tests.discord.conftest import ALICE, clock, fixed_dice, harness  # noqa: F401
from tests.discord.harness import replies


class Counting:
    """Counts the calls of ``apply`` of a ruleset (patched on its class)."""

    def __init__(self, monkeypatch, ruleset_id: str) -> None:
        self.calls = 0
        cls = type(engine.ruleset(ruleset_id))
        inner = cls.apply

        def apply(ruleset, *args, **kwargs):
            self.calls += 1
            return inner(ruleset, *args, **kwargs)

        monkeypatch.setattr(cls, "apply", apply)


@pytest.fixture(scope="module")
def undo_log(tmp_path_factory) -> dict:
    """A finished pfv game of 150 order-and-undo cycles, exported."""
    db = str(tmp_path_factory.mktemp("undo") / "u.db")
    return asyncio.run(build(db, "pfv", 0, 150, seed=3))


async def test_verify_and_import_replay_each_entry_of_an_undo_log_about_once(
    undo_log, monkeypatch, tmp_path
):
    entries = len(undo_log["actions"])
    undone = sum(1 for a in undo_log["actions"] if a["undone_by"] is not None)
    assert undone >= 150
    counting = Counting(monkeypatch, "pfv")
    assert verify_export(undo_log).ok
    # Before the fix each undo replayed up to 31 actions from a checkpoint (13 times the
    # cost of a normal entry); now an undo costs no replay at all.
    assert counting.calls <= entries + 32, (counting.calls, entries)
    counting.calls = 0
    service = await Service.open(str(tmp_path / "i.db"))
    try:
        await service.import_game(undo_log, by="importer")
    finally:
        await service.close()
    assert counting.calls <= entries + 32, (counting.calls, entries)


async def test_game_list_of_a_user_in_2000_games_is_one_message(harness):  # noqa: F811
    store = harness.service.store
    for n in range(2000):
        await harness.service.create(
            "toy", created_by=str(ALICE.id), game_id=f"many-{n}", seats={"north": str(ALICE.id)}
        )
    assert len(await store_games(store)) == 2000
    first = replies(await harness.command(ALICE, "game list"))
    assert len(first) == 1
    assert first[0].content.startswith("Games 1-15 of 2000 (page 1 of 134).")
    assert "`/game list page:2`" in first[0].content and len(first[0].content) <= 2000
    last = replies(await harness.command(ALICE, "game list", page=134))
    assert len(last) == 1 and "many-999" in last[0].content and "page:135" not in last[0].content
    beyond = replies(await harness.command(ALICE, "game list", page=500))
    assert len(beyond) == 1 and "no page 500" in beyond[0].content


async def store_games(store) -> list:
    async with store.read() as tx:
        return await tx.list_games()
