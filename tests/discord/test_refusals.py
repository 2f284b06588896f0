"""Who may order, and how the bot says no: always to the caller alone, in one sentence,
and with nothing changed (ARCHITECTURE: Front ends; the service's rules on seats, stale
orders and undo). The toy ruleset keeps these fast: north and south take stones."""

from __future__ import annotations

import logging
import re

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Harness, User, posts, replies

GAME_ID = re.compile(r"Created game `(\w+)`")


async def toy_game(harness: Harness) -> str:
    """Alice (north) and Bob (south) in a started game of the toy; north moves first."""
    sent = await harness.command(ALICE, "game create", game="toy", role="north")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="south")
    await harness.command(BOB, "game start")
    return game_id


async def action_number(harness: Harness, user: User = ALICE) -> int:
    status = replies(await harness.command(user, "game status"))[0].content
    return int(re.search(r"action (\d+)\.", status).group(1))


def only_refusal(sent) -> str:
    """The one private answer of a refused command; the channel heard nothing."""
    assert sent[0].kind == "defer" and sent[0].ephemeral
    assert posts(sent) == [], [s.content for s in posts(sent)]
    [answer] = replies(sent)
    assert answer.ephemeral and answer.pinged == []
    return answer.content


async def test_a_member_without_a_seat_cannot_order(harness):
    game_id = await toy_game(harness)
    refusal = only_refusal(await harness.command(CAROL, "order", text="take 1"))
    assert "no seat" in refusal and game_id in refusal
    assert await action_number(harness) == 0


async def test_a_player_cannot_order_when_it_is_the_other_players_decision(harness):
    await toy_game(harness)
    refusal = only_refusal(await harness.command(BOB, "order", text="take 1"))
    assert "north" in refusal and "north: take 1-3 stones from 21, or gamble." in refusal
    assert await harness.autocomplete(BOB, "order", "text") == []
    assert await action_number(harness) == 0


async def test_an_illegal_order_is_refused_with_the_rule_that_forbids_it(harness):
    await toy_game(harness)
    refusal = only_refusal(await harness.command(ALICE, "order", text="take 5"))
    assert refusal == "You may take 1, 2 or 3 stones. (Toy 2) Take 1 to 3."


async def test_an_order_picked_before_the_game_moved_on_is_refused_with_the_current_prompt(harness):
    game_id = await toy_game(harness)
    offered = {c["name"]: c["value"] for c in await harness.autocomplete(ALICE, "order", "text")}
    assert offered["take 1"] == "take 1~0"  # offered at action 0
    await harness.command(ALICE, "order", text=offered["take 1"])
    await harness.command(BOB, "order", text="take 1")
    # Alice sends another value from the list she saw at action 0.
    refusal = only_refusal(await harness.command(ALICE, "order", text=offered["take 2"]))
    assert "action 0" in refusal and game_id in refusal
    assert refusal.endswith("north: take 1-3 stones from 19, or gamble.")  # the current prompt
    assert await action_number(harness) == 2


async def test_orders_in_a_channel_without_a_game_are_refused(harness):
    await toy_game(harness)
    refusal = only_refusal(await harness.command(ALICE, "done", channel=OTHER_CHANNEL_ID))
    assert refusal.startswith("No game is played in this channel")


async def test_a_player_who_is_not_a_moderator_cannot_roll_back(harness):
    await toy_game(harness)
    await harness.command(ALICE, "order", text="take 2")
    await harness.command(BOB, "order", text="take 1")
    refusal = only_refusal(await harness.command(BOB, "gm rollback", to=0, reason="I want a redo"))
    assert refusal == (
        "Only moderators may do that: members with the 'Umpire Moderator' role, server "
        "administrators and members who may manage the server, and the game's creator "
        f"({ALICE.mention}) when not playing in it."
    )
    assert await action_number(harness) == 2


async def test_a_moderator_an_administrator_and_a_server_manager_may_roll_back(harness):
    # Alice created the game but plays in it, so she may not (tests/hostile_db/test_moderators.py)
    await toy_game(harness)
    admin = User(100_000_000_000_000_009, "owner", permissions=8)  # ADMINISTRATOR
    manager = User(100_000_000_000_000_010, "manager", permissions=0x20)  # MANAGE_GUILD
    for who in (MODERATOR, admin, manager):
        await harness.command(ALICE, "order", text="take 1")
        sent = await harness.command(who, "gm rollback", to=0, reason=f"test by {who.name}")
        [post] = posts(sent)
        assert f"Why: test by {who.name}" in post.content and who.mention in post.content
        assert post.pinged == [str(ALICE.id)]  # the decision is Alice's again; only she is pinged
        assert await action_number(harness) == 0


async def test_a_player_takes_back_an_order_that_rolled_no_dice_but_not_one_that_did(harness):
    await toy_game(harness)
    await harness.command(ALICE, "order", text="take 2")
    sent = await harness.command(ALICE, "undo")
    assert replies(sent)[0].content.startswith("Took back action 1 (`take 2`).")
    assert "took back action 1 (north: `take 2`)" in posts(sent)[0].content
    assert await action_number(harness) == 0
    await harness.command(ALICE, "order", text="gamble")
    refusal = only_refusal(await harness.command(ALICE, "undo"))
    assert "rolled dice" in refusal and "moderator" in refusal


async def test_an_unexpected_error_answers_with_a_reference_and_logs_the_traceback(harness, caplog):
    await toy_game(harness)

    async def broken(*args, **kwargs):
        raise RuntimeError("the database caught fire")

    harness.bot.table.play = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="bot.discord.client"):
        refusal = only_refusal(await harness.command(ALICE, "order", text="take 1"))
    ref = re.search(r"reference `([0-9a-f]{8})`", refusal).group(1)
    assert "database caught fire" not in refusal
    [record] = [r for r in caplog.records if ref in r.getMessage()]
    assert record.exc_info and "database caught fire" in str(record.exc_info[1])


async def test_one_channel_holds_one_game_and_a_thread_holds_another(harness):
    first = await toy_game(harness)
    refusal = only_refusal(await harness.command(CAROL, "game create", game="toy"))
    assert f"This channel already holds game {first} (active)" in refusal

    sent = await harness.command(CAROL, "game create", game="toy", thread=True, role="south")
    [thread_call] = [s for s in sent if s.kind == "POST /channels/{channel_id}/threads"]
    assert thread_call.channel == str(CHANNEL_ID)
    [announcement] = posts(sent)
    thread_id = int(announcement.channel)
    assert thread_id != CHANNEL_ID and "created game" in announcement.content
    second = GAME_ID.search(replies(sent)[0].content).group(1)
    assert second != first

    # Commands in the thread reach the thread's game, those in the channel the first game.
    await harness.command(ALICE, "game join", channel=thread_id, channel_type=11)
    sent = await harness.command(CAROL, "game start", channel=thread_id, channel_type=11)
    assert all(p.channel == str(thread_id) for p in posts(sent))
    status = replies(
        await harness.command(CAROL, "game status", channel=thread_id, channel_type=11)
    )[0]
    assert f"game `{second}`" in status.content
    assert f"game `{first}`" in replies(await harness.command(CAROL, "game status"))[0].content
