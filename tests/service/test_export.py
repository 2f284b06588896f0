"""ARCHITECTURE: Dice ("anyone can check every roll in the log") and the export format:
a finished game verifies, survives export and import, and tampering is found."""

from __future__ import annotations

import copy
import random

import pytest

from bot.service import Service, ServiceError, verify_export
from bot.service_fuzz import fuzz_into_db
from tests.service.conftest import (
    FUZZ_RULESET,
    RULESETS,
    new_game,
    play,
    state_dump,
)


async def _game_with_rollbacks(service: Service, ruleset_id: str) -> str:
    """A finished game whose log holds undone entries, from a rollback and an undo."""
    rng = random.Random(21)
    options = {"pile": 300} if ruleset_id == "toy" else {}
    game = await new_game(service, ruleset_id, options=options)
    await play(service, game, 30, rng)
    await service.rollback(game, "mod", to=12, why="a misread order")
    await play(service, game, 20, rng)
    for _ in range(40):  # find an order that may be taken back
        last = (await service.game_log(game))[-1]
        try:
            await service.undo(game, last.user)
            break
        except ServiceError:
            await play(service, game, 1, rng)
    await play(service, game, 10, rng)
    await service.end(game, "mod", "enough for the test")
    return game


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_finished_game_with_rollbacks_verifies_and_survives_export_and_import(
    service, tmp_path, clock, ruleset_id
):
    game = await _game_with_rollbacks(service, ruleset_id)
    report = await service.verify(game)
    assert report.ok, report.problems
    data = await service.export(game)
    undone = [a for a in data["actions"] if a["undone_by"] is not None]
    assert len(undone) > 18  # the rollback's 18 and the undo's one
    assert report.actions == len(data["actions"])

    other = await Service.open(str(tmp_path / "other.db"), clock=clock)
    try:
        created = await other.import_game(data, by="mod")
        assert created.game == game and created.status == "finished"
        assert await state_dump(other, game) == await state_dump(service, game)
        mine = await service.game_log(game, include_undone=True)
        theirs = await other.game_log(game, include_undone=True)
        assert [(x.seq, x.order, x.rolls, x.undone) for x in theirs] == [
            (x.seq, x.order, x.rolls, x.undone) for x in mine
        ]
        assert (await other.verify(game)).ok
    finally:
        await other.close()


async def test_verify_finds_undone_marks_that_do_not_match_the_log(service):
    game = await _game_with_rollbacks(service, "toy")
    data = await service.export(game)
    cut = next(a for a in data["actions"] if a["undone_by"] is not None)
    unmarked = copy.deepcopy(data)
    next(a for a in unmarked["actions"] if a["entry"] == cut["entry"])["undone_by"] = None
    assert f"Log entry {cut['entry']} was rolled back but is not marked undone." in (
        verify_export(unmarked).problems
    )
    marked = copy.deepcopy(data)
    live = marked["actions"][-1]
    live["undone_by"] = cut["undone_by"]
    assert f"Log entry {live['entry']} is marked undone but is still in play." in (
        verify_export(marked).problems
    )


async def test_verify_finds_a_changed_result_and_final_state(service):
    game = await new_game(service, "toy", options={"pile": 9})
    await service.submit(game, "user-north", "take 3")
    await service.submit(game, "user-south", "accept")
    await service.submit(game, "user-south", "gamble")
    await service.end(game, "mod", "test")
    data = await service.export(game)
    assert verify_export(data).ok
    data["final_state_sha256"] = "0" * 64
    assert "The replayed final state differs from the exported one." in verify_export(data).problems


async def test_fuzzed_games_are_stored_finished_and_verifiable(db_path, clock):
    ids = await fuzz_into_db(db_path, "toy", games=3, seed=5, max_actions=500)
    ids += await fuzz_into_db(db_path, FUZZ_RULESET, games=1, seed=6, max_actions=40)
    service = await Service.open(db_path, clock=clock)
    try:
        assert len(ids) == 4
        for game in ids:
            status = await service.status(game)
            assert status.status == "finished" and status.secret is not None
            assert (await service.verify(game)).ok
        ended_by_rules = [g for g in ids[:3] if not await service.audit(g)]
        assert ended_by_rules  # toy games of 21 stones end by their rules
        if FUZZ_RULESET != "toy":
            assert [a["act"] for a in await service.audit(ids[3])] == ["end"]
            assert (await service.status(ids[3])).seq == 40
    finally:
        await service.close()


def test_umpire_fuzz_with_db_stores_verifiable_pfv_games(tmp_path, capsys):
    from bot.cli import main

    db = str(tmp_path / "fuzz.db")
    assert main(["fuzz", "pfv", "--db", db, "--games", "1", "--max-actions", "25"]) == 0
    assert capsys.readouterr().out.startswith("fuzz pfv: 1 games played through the service")
    assert main(["list", "--db", db]) == 0
    game = capsys.readouterr().out.split()[0]
    assert main(["verify", game, "--db", db]) == 0
    assert "checks out: 25 log entries" in capsys.readouterr().out
