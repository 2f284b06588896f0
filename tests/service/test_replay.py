"""ARCHITECTURE: Storage and Dice. State after a rollback = nearest snapshot + replay =
a fresh replay from set-up; orders redone at the same numbers roll the same dice."""

from __future__ import annotations

import random

import pytest

from bot.service import Service, ServiceError
from tests.service.conftest import (
    RULESETS,
    Reference,
    fresh_replay,
    new_game,
    play,
    start_script_game,
    state_dump,
)

# Three games of the toy, one of each other ruleset (they cost more to play).
RUNS = [(r, seed) for r in RULESETS for seed in ([1, 2, 3] if r == "toy" else [1])]


@pytest.mark.parametrize("ruleset_id, seed", RUNS)
async def test_state_after_random_rollbacks_and_undos_equals_a_fresh_replay(
    service, ruleset_id, seed
):
    rng = random.Random(seed)
    options = {"pile": 600} if ruleset_id == "toy" else {}
    secret = bytes([seed]) * 32
    game = await new_game(service, ruleset_id, options=options, secret=secret)
    reference = Reference(ruleset_id, options, secret, game)
    await play(service, game, 40, rng)
    rollbacks = 0
    for _ in range(12):
        status = await service.status(game)
        if status.status == "finished":
            break
        choice = rng.random()
        if choice < 0.4 and status.seq > 0:
            await service.rollback(game, "mod", to=rng.randrange(status.seq), why="fuzz")
            rollbacks += 1
        elif choice < 0.6 and status.progress.turn > 1:
            turns = sorted({line.turn for line in await service.game_log(game)})
            try:
                await service.rollback(game, "mod", turn=rng.choice(turns), why="fuzz")
                rollbacks += 1
            except ServiceError as exc:
                assert "already" in str(exc)  # the turn began with the last order
        elif choice < 0.75 and status.seq > 0:
            last = (await service.game_log(game))[-1]
            try:
                await service.undo(game, last.user)
            except ServiceError as exc:
                assert "rolled dice" in str(exc) or "hidden information" in str(exc)
        await reference.check(service, game)
        await play(service, game, rng.randrange(1, 25), rng)
        await reference.check(service, game)
    assert rollbacks >= 3
    replayed = await fresh_replay(service, game)  # once more, from nothing but the log
    assert await state_dump(service, game) == replayed.ruleset.dump_state(replayed.state)


async def test_rollback_of_a_1000_action_game_then_the_same_orders_give_the_same_dice_and_state(
    service, long_script
):
    game = await start_script_game(service, long_script)
    for seq, (role, order) in enumerate(long_script.steps):
        await service.submit(game, f"user-{role}", order, role=role, seen=seq)
    original = await service.game_log(game, audience="*")
    assert len(original) == 1000
    assert await state_dump(service, game) == long_script.final
    assert sum(1 for line in original if line.rolls) > 20  # this test is about dice

    target = 437
    await service.rollback(game, "mod", to=target, why="test the replay")
    assert (await service.status(game)).seq == target
    for line in original[target:]:
        await service.submit(game, line.user, line.order, role=line.role, seen=line.seq - 1)

    redone = await service.game_log(game, audience="*")
    assert [(x.seq, x.order, x.rolls, x.events) for x in redone] == [
        (x.seq, x.order, x.rolls, x.events) for x in original
    ]
    assert await state_dump(service, game) == long_script.final
    everything = await service.game_log(game, audience="*", include_undone=True)
    assert len(everything) == 1000 + (1000 - target)
    assert sum(line.undone for line in everything) == 1000 - target
    replayed = await fresh_replay(service, game)
    assert replayed.ruleset.dump_state(replayed.state) == long_script.final


async def test_a_new_service_loads_a_game_from_its_snapshots(db_path, clock):
    first = await Service.open(db_path, clock=clock)
    game = await new_game(first, "toy", options={"pile": 900})
    await play(first, game, 300, random.Random(5))
    expected = await state_dump(first, game)
    await first.close()
    second = await Service.open(db_path, clock=clock)
    try:
        assert await state_dump(second, game) == expected
        async with second.store.read() as tx:
            row = await tx.game(game)
            snapshot = await tx.latest_snapshot(game, row.head)
        assert snapshot.seq > 250  # loading replays a short tail, not the whole game
    finally:
        await second.close()
