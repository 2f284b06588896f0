"""Asynchronous play (ARCHITECTURE: Asynchronous play): deadlines per phase shown as
Discord timestamps, reminders at lead times, pause and resume, and standing orders or
the defined default applied by the scheduler when a deadline passes, with a line saying
so. The clock is fake: it moves only when a test advances it."""

from __future__ import annotations

import asyncio
import re

from bot.discord.config import HOUR
from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import Harness, Sent, posts, replies
from tests.discord.players import read_prompt
from tests.discord.test_game import new_pfv_game
from tests.discord.test_refusals import GAME_ID, only_refusal
from tests.service.conftest import T0

TIMESTAMPS = re.compile(r"<t:(\d+):F> \(<t:\1:R>\)")


async def tick(harness: Harness) -> list[Sent]:
    """One pass of the bot's scheduler; what it sent."""
    mark = len(harness.fake.sent)
    await harness.bot.scheduler.tick()
    return harness.fake.sent[mark:]


async def toy_game(harness: Harness, **create: object) -> tuple[str, list[Sent]]:
    sent = await harness.command(ALICE, "game create", game="toy", role="north", **create)
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join")
    return game_id, await harness.command(BOB, "game start")


async def test_each_decision_gets_its_deadline_as_discord_timestamps(harness):
    _, sent = await toy_game(harness, deadline_hours=24)
    [start] = posts(sent)
    due = int(TIMESTAMPS.search(start.content).group(1))
    assert due == T0 + 24 * HOUR
    assert start.pinged == [str(ALICE.id)]
    # South's decision gets its own deadline, a day from when it became theirs.
    harness.clock.advance(2 * HOUR)
    [post] = posts(await harness.command(ALICE, "order", text="take 1"))
    assert int(TIMESTAMPS.search(post.content).group(1)) == T0 + 26 * HOUR
    status = replies(await harness.command(BOB, "game status"))[0].content
    assert f"<t:{int(T0 + 26 * HOUR)}:F>" in status


async def test_reminders_come_before_the_deadline_then_the_default_applies(harness):
    await toy_game(harness, deadline_hours=24)  # reminders 12 h and 1 h before
    assert await tick(harness) == []

    harness.clock.advance(12 * HOUR + 1)
    [reminder] = posts(await tick(harness))
    assert reminder.content.startswith("Reminder: **north**")
    assert reminder.pinged == [str(ALICE.id)]
    assert TIMESTAMPS.search(reminder.content)

    harness.clock.advance(11 * HOUR)
    [second] = posts(await tick(harness))
    assert second.content.startswith("Reminder: **north**")

    harness.clock.advance(1 * HOUR)
    [applied] = posts(await tick(harness))
    # The toy has no pass, so the default is the first legal order.
    assert "The deadline for **north**" in applied.content
    assert "the default (the first legal order) applied, `take 1`" in applied.content
    assert applied.pinged == [str(BOB.id)]  # only the player who must decide next
    assert await tick(harness) == []  # handled once


async def test_a_passed_deadline_applies_the_defenders_standing_order(harness):
    game_id, players = await new_pfv_game(harness, seed=11)
    for user in (ALICE, BOB):
        sent = await harness.command(user, "standing", air="any", retreat="none")
        assert "air: any" in replies(sent)[0].content and posts(sent) == []

    # Play until a defender must choose air support and has an air piece in range.
    while True:
        await players.move()
        assert not players.over
        if players.turn.commands == ["/order text:air"]:
            defender = players.users[players.turn.user]
            offered = [
                c["value"].split("~")[0].split()[1]
                for c in await harness.autocomplete(defender, "order", "text", text="air")
            ]
            if any(v != "none" for v in offered):
                break
    expected = next(v for v in offered if v != "none")

    harness.clock.advance(12 * HOUR + 1)  # the default time for a reply mid-turn
    sent = await tick(harness)
    text = "\n".join(s.content for s in posts(sent))
    assert f"The deadline for **{players.turn.role}** ({defender.mention}) passed" in text
    # the channel reads the order as the public does: the air is hidden under its stack
    assert "their standing order (air: any) applied, `air (hidden)`" in text
    assert expected not in text
    print(text)
    for s in posts(sent):
        if s.pinged:  # only the player told that the decision is now theirs
            assert s.pinged == [str(read_prompt(s.content).user)], s.content
    audit = [a for a in await harness.service.audit(game_id) if a["act"] == "deadline-default"]
    assert audit[0]["detail"]["order"] == f"air {expected}"
    assert audit[0]["why"] == "their standing order (air: any)"


async def test_a_paused_game_takes_no_orders_and_its_deadlines_wait(harness):
    await toy_game(harness, deadline_hours=24)
    [post] = posts(await harness.command(MODERATOR, "gm pause", reason="holiday"))
    assert "paused game" in post.content and "holiday" in post.content and post.pinged == []
    refusal = only_refusal(await harness.command(ALICE, "order", text="take 1"))
    assert "is paused by a moderator" in refusal

    harness.clock.advance(30 * HOUR)
    sent = await tick(harness)
    assert [s for s in posts(sent) if "passed" in s.content] == []

    [resumed] = posts(await harness.command(MODERATOR, "gm resume"))
    assert int(TIMESTAMPS.search(resumed.content).group(1)) == T0 + 54 * HOUR
    assert resumed.pinged == [str(ALICE.id)]
    await harness.command(ALICE, "order", text="take 1")


async def test_a_moderator_sets_the_deadline_and_the_games_default(harness):
    game_id, _ = await toy_game(harness)
    sent = await harness.command(MODERATOR, "gm deadline", hours=3, default_hours=6, reply_hours=0)
    [post] = posts(sent)
    assert f"<t:{int(T0 + 3 * HOUR)}:F>" in post.content
    assert "6 h a phase, none for a reply" in post.content
    [post] = posts(await harness.command(ALICE, "order", text="take 1"))
    assert f"<t:{int(T0 + 6 * HOUR)}:F>" in post.content


async def test_a_notice_no_command_posted_is_sent_by_the_scheduler(harness):
    """An order given outside Discord (the console, another process) still reaches the
    channel: the service queued a notice, and the scheduler posts it after a grace time."""
    game_id, _ = await toy_game(harness)
    await harness.service.submit(game_id, str(ALICE.id), "take 1")
    assert posts(await tick(harness)) == []  # a command may still announce it
    harness.clock.advance(harness.settings.notice_grace + 1)
    [post] = posts(await tick(harness))
    assert post.content.startswith("Now: **south**") and post.pinged == [str(BOB.id)]


async def test_the_scheduler_task_wakes_when_poked_and_serves_what_fell_due(harness):
    """The one scheduler task of the bot, running: it sleeps until something falls due,
    and a command that sets a deadline wakes it to look again."""
    await toy_game(harness, deadline_hours=1)
    scheduler = harness.bot.scheduler
    scheduler.start()
    try:
        mark = len(harness.fake.sent)
        harness.clock.advance(HOUR + 1)
        scheduler.poke()
        for _ in range(200):
            if posts(harness.fake.sent[mark:]):
                break
            await asyncio.sleep(0.01)
        [post] = posts(harness.fake.sent[mark:])
        assert "the default (the first legal order) applied, `take 1`" in post.content
    finally:
        await scheduler.stop()
