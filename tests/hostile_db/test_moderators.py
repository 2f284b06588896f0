"""A player is not their own moderator (issue 10 item 5).

The creator of a game who also plays in it could ``/gm seat`` themselves into the other
side, then order for both, and roll back alone. Now a creator moderates their game only
while they hold no seat in it, unless they moderate the server (administrator, Manage
Server, or the configured moderator role); and nobody holds two seats of one game,
whoever seats them. The console's hot-seat games, seated at creation, stay as they are.
"""

from __future__ import annotations

import re

import pytest

import tests.service.toy  # noqa: F401  (registers the "toy" ruleset)
from bot.service import ServiceError
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import User, posts, replies
from tests.discord.test_refusals import action_number, only_refusal, toy_game

GAME_ID = re.compile(r"`([0-9a-f]{12})`")


async def seats(harness) -> dict[str, str | None]:
    game = (await harness.service.list_games())[-1].game
    return {s.role: s.user for s in (await harness.service.status(game)).seats}


async def test_a_seated_creator_cannot_seat_themselves_into_the_other_side(harness):
    game_id = await toy_game(harness)  # Alice created it and plays north
    refusal = only_refusal(
        await harness.command(ALICE, "gm seat", role="south", user=ALICE, reason="mine now")
    )
    assert refusal.startswith(f"You play north in game `{game_id}`, so creating it does not")
    assert await seats(harness) == {"north": str(ALICE.id), "south": str(BOB.id)}
    assert not [a for a in await harness.service.audit(game_id) if a["act"] == "seat"]


async def test_a_seated_creator_cannot_roll_back_or_end_alone(harness):
    game_id = await toy_game(harness)
    await harness.command(ALICE, "order", text="take 2")
    await harness.command(BOB, "order", text="take 1")
    for command, args in (
        ("gm rollback", {"to": 0, "reason": "I want a redo"}),
        ("gm pause", {"reason": "hm"}),
        ("gm end", {"reason": "I am losing"}),
        ("gm kick", {"user": BOB, "reason": "bye"}),
    ):
        refusal = only_refusal(await harness.command(ALICE, command, **args))
        assert "so creating it does not make you its moderator" in refusal, command
    assert await action_number(harness) == 2
    assert (await harness.service.status(game_id)).status == "active"


async def test_a_creator_who_does_not_play_moderates_their_game(harness):
    sent = await harness.command(CAROL, "game create", game="toy")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(ALICE, "game join", role="north")
    await harness.command(BOB, "game join", role="south")
    await harness.command(BOB, "game start")
    await harness.command(ALICE, "order", text="take 2")
    [post] = posts(await harness.command(CAROL, "gm rollback", to=0, reason="a misclick"))
    assert "Why: a misclick" in post.content
    assert await action_number(harness, ALICE) == 0
    # ... until she takes a seat herself
    await harness.command(CAROL, "gm seat", role="south", user=CAROL, reason="Bob left")
    assert (await seats(harness))["south"] == str(CAROL.id)
    refusal = only_refusal(await harness.command(CAROL, "gm rollback", to=0, reason="again"))
    assert refusal.startswith(f"You play south in game `{game_id}`")


async def test_a_server_moderator_who_plays_still_moderates_but_holds_one_seat(harness):
    sent = await harness.command(MODERATOR, "game create", game="toy", role="north")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="south")
    await harness.command(BOB, "game start")
    await harness.command(MODERATOR, "order", text="take 1")
    [post] = posts(await harness.command(MODERATOR, "gm rollback", to=0, reason="typo"))
    assert "Why: typo" in post.content
    refusal = only_refusal(
        await harness.command(MODERATOR, "gm seat", role="south", user=MODERATOR, reason="x")
    )
    assert refusal == (
        f"{MODERATOR.id} already holds north in game {game_id}, and nobody may hold two "
        "seats of one game."
    )
    assert (await seats(harness))["south"] == str(BOB.id)


async def test_nobody_is_seated_twice_by_a_moderator_or_by_joining(harness):
    game_id = await toy_game(harness)
    refusal = only_refusal(
        await harness.command(MODERATOR, "gm seat", role="north", user=BOB, reason="swap")
    )
    assert f"already holds south in game {game_id}" in refusal
    await harness.command(MODERATOR, "gm kick", user=ALICE, reason="left")
    refusal = only_refusal(await harness.command(BOB, "game join", role="north"))
    assert f"already holds south in game {game_id}" in refusal
    assert await seats(harness) == {"north": None, "south": str(BOB.id)}


async def test_a_server_manager_is_a_moderator_without_the_role(harness):
    await toy_game(harness)
    manager = User(100_000_000_000_000_011, "manager", permissions=0x20)  # MANAGE_GUILD
    [post] = posts(await harness.command(manager, "gm pause", reason="holiday"))
    assert "paused game" in post.content


# -- the service ------------------------------------------------------------------------


async def started(service, seats: dict[str, str], created_by: str = "alice") -> str:
    created = await service.create("toy", created_by=created_by, seats=seats, game_id="g1")
    await service.start(created.game, created_by)
    return created.game


async def test_the_service_refuses_a_seated_creator_acting_as_creator(service):
    game = await started(service, {"north": "alice", "south": "bob"})
    await service.submit(game, "alice", "take 1")
    with pytest.raises(ServiceError, match="You play north in game g1"):
        await service.rollback(game, "alice", why="redo", to=0, as_creator=True)
    with pytest.raises(ServiceError, match="You play north"):
        await service.assign_seat(game, "alice", "south", "alice", as_creator=True)
    with pytest.raises(ServiceError, match="You play north"):
        await service.set_status(game, "alice", "paused", "x", as_creator=True)
    with pytest.raises(ServiceError, match="You play north"):
        await service.end(game, "alice", "x", as_creator=True)
    with pytest.raises(ServiceError, match="Only a moderator of the server or the creator"):
        await service.rollback(game, "bob", why="redo", to=0, as_creator=True)
    status = await service.status(game)
    assert status.seq == 1 and status.status == "active"
    assert [s.user for s in status.seats] == ["alice", "bob"]
    assert [a["act"] for a in await service.audit(game)] == []


async def test_the_service_lets_an_unseated_creator_moderate(service):
    game = await started(service, {"north": "bob", "south": "carol"})
    await service.submit(game, "bob", "take 1")
    result = await service.rollback(game, "alice", why="redo", to=0, as_creator=True)
    assert result.to_seq == 0
    await service.assign_seat(game, "alice", "south", "dave", "carol left", as_creator=True)
    assert [s.user for s in (await service.status(game)).seats] == ["bob", "dave"]


async def test_the_service_seats_nobody_twice(service):
    game = await started(service, {"north": "alice"} | {"south": "bob"})
    with pytest.raises(ServiceError, match="bob already holds south in game g1"):
        await service.assign_seat(game, "mod", "north", "bob")
    await service.assign_seat(game, "mod", "north", None)
    with pytest.raises(ServiceError, match="bob already holds south"):
        await service.join(game, "bob", "north")
    await service.assign_seat(game, "mod", "south", "bob")  # the seat one holds: no change
    await service.join(game, "alice", "north")
    assert [s.user for s in (await service.status(game)).seats] == ["alice", "bob"]


async def test_the_console_hot_seat_game_still_seats_its_owner_everywhere(service):
    game = await started(service, {"north": "console", "south": "console"}, "console")
    await service.submit(game, "console", "take 1", role="north")
    await service.submit(game, "console", "take 1", role="south")
    assert (await service.status(game)).seq == 2
    # the local owner moderates (the console passes no as_creator)
    assert (await service.rollback(game, "console", why="undo both", to=0)).to_seq == 0


async def test_one_mail_address_is_not_seated_in_two_roles(service):
    game = await started(service, {"north": "alice", "south": "bob"})
    await service.seat_email(game, "mod", "north", "Eve@example.org", "h1", "n1")
    with pytest.raises(ServiceError, match="mail:eve@example.org already holds north"):
        await service.seat_email(game, "mod", "south", "eve@example.org", "h2", "n2")
    assert [s.user for s in (await service.status(game)).seats] == [
        "mail:eve@example.org",
        "bob",
    ]
