"""A restart in the middle of a game loses nothing: a new bot object over the same
database knows the game of each channel, the seats, the standing orders, the deadline
policy and the deadline already set, and the scheduler of the new bot serves it."""

from __future__ import annotations

import re

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import posts, replies
from tests.discord.test_deadlines import TIMESTAMPS, tick
from tests.discord.test_game import new_pfv_game


def without_deadline_countdown(text: str) -> str:
    return re.sub(r"<t:\d+:R>", "", text)


async def test_a_restart_in_the_middle_of_a_game_loses_nothing(harness):
    harness.settings.map_width = 480
    game_id, players = await new_pfv_game(harness, seed=5)
    await harness.command(BOB, "standing", air="none", loss="90le")
    while players.orders < 40:
        await players.move()
    before = replies(await harness.command(ALICE, "game status"))[0].content
    due = int(TIMESTAMPS.search(before).group(1))
    log_before = replies(await harness.command(ALICE, "game log", last=500))[0].content
    old_bot = harness.bot

    await harness.restart()
    assert harness.bot is not old_bot

    after = replies(await harness.command(ALICE, "game status"))[0].content
    assert without_deadline_countdown(after) == without_deadline_countdown(before)
    assert replies(await harness.command(ALICE, "game log", last=500))[0].content == log_before
    standing = replies(await harness.command(BOB, "standing"))[0].content
    assert standing.endswith("air: none; loss: 90le.")

    # The deadline set before the restart is served by the new bot's scheduler.
    harness.clock.now = due + 1
    sent = await tick(harness)
    assert any("passed" in s.content and "applied" in s.content for s in posts(sent))
    players.read(sent)

    # And play goes on to the end, through the new bot.
    while not players.over:
        assert players.orders < 600
        await players.move()
    report = await harness.service.verify(game_id)
    assert report.ok, report.problems
