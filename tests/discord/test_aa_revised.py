"""An Axis & Allies Revised game through the same slash commands as Patton's First
Victory: the bot knows no game, it dispatches to whichever game the channel holds."""

from __future__ import annotations

import re

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import PNG_MAGIC, posts, replies

GAME_ID = re.compile(r"Created game `(\w+)`")


async def test_a_two_player_axis_and_allies_game_takes_orders_and_posts_the_world_map(harness):
    sent = await harness.command(
        ALICE, "game create", game="aa-revised", scenario="two-players", role="allies"
    )
    assert GAME_ID.search(replies(sent)[0].content), replies(sent)[0].content
    await harness.command(BOB, "game join", role="axis")
    await harness.command(ALICE, "game start")

    # the Soviet Union opens: autocomplete offers its research orders and 'done'
    offered = await harness.autocomplete(ALICE, "order", "text")
    assert any(c["value"].startswith("research") for c in offered), offered
    refused = await harness.command(BOB, "order", text="done")
    assert "allies" in replies(refused)[0].content and replies(refused)[0].ephemeral

    await harness.command(ALICE, "order", text="done")  # no research
    bought = await harness.command(ALICE, "order", text="buy 3 inf")
    assert "3 infantry" in " ".join(s.content for s in bought).lower()

    shown = await harness.command(ALICE, "game map")
    pictures = [s.png for s in shown if s.png]
    assert pictures and pictures[0].startswith(PNG_MAGIC)
    assert all(not s.pinged for s in posts(shown))
