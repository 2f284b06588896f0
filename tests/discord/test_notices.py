"""Turn notices are never lost (issue 9, item 7): the bot checks its own permissions in
a channel before a game is created or started there and names what it lacks; a post
whose map the channel refuses goes again without the map; a post the channel refuses
altogether is told to the member who acted and left queued, so the scheduler posts it
once it can, and only then marks it sent. The fake Discord refuses what the bot's
permissions in the channel do not allow, with Discord's own 403."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

import engine
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import CHANNEL_ID, Harness, posts, replies
from tests.discord.players import read_prompt
from tests.discord.test_deadlines import tick
from tests.discord.test_game import new_pfv_game
from tests.discord.test_refusals import GAME_ID, only_refusal


def without(*names: str) -> discord.Permissions:
    """Every permission but ``names``."""
    perms = discord.Permissions.all()
    for name in names:
        setattr(perms, name, False)
    return perms


async def toy_ready(harness: Harness) -> str:
    """A toy game in the channel with both seats taken, not started."""
    sent = await harness.command(ALICE, "game create", game="toy", role="north")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join")
    return game_id


async def test_create_is_refused_where_the_bot_may_not_attach_the_map(harness):
    harness.fake.permissions[str(CHANNEL_ID)] = without("attach_files")
    refusal = only_refusal(await harness.command(ALICE, "game create", game="toy"))
    assert refusal.startswith("I cannot run a game in this channel")
    assert "Attach Files" in refusal and "Send Messages" not in refusal
    assert await harness.service.list_games() == []


async def test_create_names_every_missing_permission(harness):
    harness.fake.permissions[str(CHANNEL_ID)] = without("send_messages", "attach_files")
    refusal = only_refusal(await harness.command(ALICE, "game create", game="toy"))
    assert "permissions Send Messages and Attach Files here" in refusal
    assert await harness.service.list_games() == []


async def test_a_game_in_a_new_thread_needs_the_thread_permissions(harness):
    harness.fake.permissions[str(CHANNEL_ID)] = without(
        "create_public_threads", "send_messages_in_threads"
    )
    sent = await harness.command(ALICE, "game create", game="toy", thread=True)
    refusal = only_refusal(sent)
    assert "Create Public Threads and Send Messages in Threads" in refusal
    assert not [s for s in sent if "threads" in s.kind]  # no thread was opened
    assert await harness.service.list_games() == []


async def test_a_game_in_a_thread_needs_send_messages_in_threads_to_start(harness):
    sent = await harness.command(ALICE, "game create", game="toy", role="north", thread=True)
    thread = int(re.search(r"in <#(\d+)>", replies(sent)[0].content).group(1))
    assert posts(sent, thread)  # the game was announced in its new thread
    await harness.command(BOB, "game join", channel=thread, channel_type=11)
    harness.fake.permissions[str(thread)] = without("send_messages_in_threads")
    sent = await harness.command(BOB, "game start", channel=thread, channel_type=11)
    assert "Send Messages in Threads here" in only_refusal(sent)
    harness.fake.permissions.clear()
    [post] = posts(await harness.command(BOB, "game start", channel=thread, channel_type=11))
    assert post.channel == str(thread) and post.pinged == [str(ALICE.id)]


async def test_start_is_refused_when_the_bot_lost_a_permission_since_creation(harness):
    game_id = await toy_ready(harness)
    harness.fake.permissions[str(CHANNEL_ID)] = without("send_messages")
    refusal = only_refusal(await harness.command(BOB, "game start"))
    assert "Send Messages here" in refusal
    assert (await harness.service.status(game_id)).status == "open"
    harness.fake.permissions.clear()
    [post] = posts(await harness.command(BOB, "game start"))
    assert post.pinged == [str(ALICE.id)]


async def test_a_refused_notice_is_told_to_the_actor_and_posted_once_the_channel_takes_it(
    harness,
):
    await toy_ready(harness)
    await harness.command(BOB, "game start")
    harness.fake.permissions[str(CHANNEL_ID)] = without("send_messages")
    sent = await harness.command(ALICE, "order", text="take 1")
    assert posts(sent) == [] and harness.fake.refused  # the channel refused the post
    [ack] = replies(sent)
    assert f"I could not post in <#{CHANNEL_ID}>" in ack.content
    assert "Now waiting for **south**" in ack.content

    # Past the grace the command had, the scheduler tries the notice: still refused.
    harness.clock.advance(harness.settings.notice_grace + 1)
    assert posts(await tick(harness)) == []
    tries = len(harness.fake.refused)
    assert posts(await tick(harness)) == [] and len(harness.fake.refused) == tries  # pausing

    # The server manager fixes the channel; after the pause, Bob hears it is his turn.
    harness.fake.permissions.clear()
    harness.clock.advance(61)
    [notice] = posts(await tick(harness))
    assert notice.content.startswith("Now: **south**") and notice.pinged == [str(BOB.id)]
    harness.clock.advance(3600)
    assert posts(await tick(harness)) == []  # marked sent: posted once


async def test_an_order_whose_post_went_out_leaves_no_notice_behind(harness):
    await toy_ready(harness)
    await harness.command(BOB, "game start")
    [post] = posts(await harness.command(ALICE, "order", text="take 1"))
    assert post.pinged == [str(BOB.id)]
    harness.clock.advance(harness.settings.notice_grace + 1)
    assert posts(await tick(harness)) == []


@pytest.mark.skipif("pfv" not in engine.available(), reason="pfv is not installed")
async def test_a_turn_end_the_channel_takes_only_without_its_map_still_pings_the_next_player(
    harness,
):
    harness.settings.map_width = 480
    _, players = await new_pfv_game(harness, seed=5)
    harness.fake.permissions[str(CHANNEL_ID)] = without("attach_files")
    sent = None
    while sent is None or not any("player turn is over" in p.content for p in posts(sent)):
        assert players.orders < 300, "the player turn never ended"
        sent = await players.move()
    group = posts(sent)
    first = next(i for i, p in enumerate(group) if "player turn is over" in p.content)
    group = group[first:]  # the turn's log, split to Discord's limit, the map with the last
    assert all(p.png is None for p in group)
    last = group[-1]
    assert "(The map could not be attached in this channel.)" in last.content
    nxt = read_prompt(last.content)
    assert nxt is not None and last.pinged == [str(nxt.user)]
    # the member who gave the order reads it in the answer only they see
    [told] = [r for r in replies(sent) if "The map could not be posted" in r.content]
    assert told.ephemeral and told.pinged == []
    assert ("channel-message", str(CHANNEL_ID)) in harness.fake.refused
    harness.clock.advance(harness.settings.notice_grace + 1)
    assert posts(await tick(harness)) == []  # the notice went out with the text


async def test_the_harness_refuses_a_follow_up_on_an_interaction_never_answered(harness):
    @app_commands.command(name="hasty", description="follows up without deferring")
    async def hasty(interaction: discord.Interaction) -> None:
        await interaction.followup.send("done")

    harness.bot.tree.add_command(hasty)
    with pytest.raises(AssertionError, match="never answered"):
        await harness.command(ALICE, "hasty")
