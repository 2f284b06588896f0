"""Cheap at scale (issue 15 item 6): cooldowns on the heavy commands, heavy work on a
bounded pool off the event loop, and only the gateway intents the bot uses."""

from __future__ import annotations

import asyncio
import re
import threading
import time

import discord

from bot.discord.images import WORKERS, off_loop
from bot.discord.respond import COOLDOWNS, Cooldowns
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import click, posts, replies

WAIT = re.compile(r"please wait (\d+) seconds? before using it again")


async def test_game_list_used_too_often_is_refused_with_the_seconds_to_wait(harness):
    uses, per = COOLDOWNS["game list"]
    for _ in range(uses):
        [answer] = replies(await harness.command(CAROL, "game list"))
        assert "No games here yet" in answer.content
    harness.clock.advance(10)
    sent = await harness.command(CAROL, "game list")
    [refusal] = replies(sent)
    assert refusal.ephemeral and posts(sent) == []
    assert sent[0].kind == "message"  # refused at once: nothing deferred, nothing read
    assert f"You have used /game list {uses} times in the last {per:g} seconds" in refusal.content
    assert int(WAIT.search(refusal.content).group(1)) == per - 10
    # another member is not held up, and the wait ends
    assert "No games" in replies(await harness.command(BOB, "game list"))[0].content
    harness.clock.advance(per)
    assert "No games" in replies(await harness.command(CAROL, "game list"))[0].content


async def test_odds_and_maps_have_their_own_cooldowns(harness):
    uses, _ = COOLDOWNS["odds"]
    for _ in range(uses):
        [answer] = replies(await harness.command(ALICE, "odds", attacker="1 inf", defender="1 inf"))
        assert "attacker wins" in answer.content
    [refusal] = replies(await harness.command(ALICE, "odds", attacker="1 inf", defender="1 inf"))
    assert "/odds" in refusal.content and WAIT.search(refusal.content)
    assert "attacker wins" not in refusal.content
    # /game map counts apart from /odds
    [answer] = replies(await harness.command(ALICE, "game map"))
    assert "No game is played in this channel" in answer.content


def test_a_cooldown_counts_uses_per_member_and_command_on_its_clock():
    now = [1000.0]
    cool = Cooldowns(lambda: now[0], {"odds": (2, 60.0)})
    assert cool.wait("odds", 1) == 0 and cool.wait("odds", 1) == 0
    assert cool.wait("odds", 1) == 60.0
    assert cool.wait("odds", 2) == 0  # another member
    assert cool.wait("game status", 1) == 0  # not a cooled-down command
    now[0] += 30
    assert cool.wait("odds", 1) == 30.0
    now[0] += 31
    assert cool.wait("odds", 1) == 0


async def test_heavy_work_runs_on_a_bounded_pool_so_a_burst_queues():
    running = 0
    most = 0
    names: set[str] = set()
    lock = threading.Lock()

    def work(n: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            names.add(threading.current_thread().name)
        time.sleep(0.02)
        with lock:
            running -= 1
        return n * n

    ticks = 0

    async def loop_alive() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(loop_alive())
    results = await asyncio.gather(*(off_loop(work, n) for n in range(4 * WORKERS)))
    ticker.cancel()
    assert results == [n * n for n in range(4 * WORKERS)]
    assert most == WORKERS  # never more at once: the rest waited their turn
    assert all(name.startswith("umpire-heavy") for name in names)
    assert ticks >= 4  # the event loop kept running meanwhile


def test_the_bot_asks_discord_only_for_the_events_it_uses(harness):
    intents = harness.bot.intents
    assert intents.guilds
    for unused in ("members", "presences", "message_content", "guild_messages", "dm_messages"):
        assert not getattr(intents, unused), unused
    assert intents.value == discord.Intents(guilds=True).value


async def test_my_view_shares_the_allowance_of_game_map_and_is_refused_alike(harness):
    """The My view button draws what ``/game map private:True`` draws: its clicks count
    against the same 5 a minute, and one too many is refused in the same sentence, with
    the seconds to wait, before anything is read or drawn."""
    uses, per = COOLDOWNS["game map"]
    await harness.command(ALICE, "game create", game="toy", role="north")
    await harness.command(BOB, "game join", role="south")
    started = await harness.command(BOB, "game start")
    [game] = await harness.service.list_games()
    [notice] = [
        p
        for p in posts(started)
        if any(c.get("custom_id") == f"umpire:view:{game.game}" for c in p.controls)
    ]
    button = f"umpire:view:{game.game}"
    for _ in range(uses - 2):
        [answer] = replies(await click(harness, ALICE, notice, button))
        assert answer.ephemeral and "as **north** sees it" in answer.content
    for _ in range(2):  # the command draws on the same allowance
        assert (
            "sees it" in replies(await harness.command(ALICE, "game map", private=True))[0].content
        )
    harness.clock.advance(15)
    refused = await click(harness, ALICE, notice, button)
    [refusal] = replies(refused)
    assert refusal.ephemeral and posts(refused) == []
    assert refused[0].kind == "message"  # refused at once: nothing deferred, nothing read
    assert (
        f"You have used /game map or the My view button {uses} times in the last {per:g} seconds"
        in refusal.content
    )
    assert int(WAIT.search(refusal.content).group(1)) == per - 15
    assert "sees it" not in refusal.content
    # the command is refused alike, another member is not held up, and the wait ends
    [again] = replies(await harness.command(ALICE, "game map"))
    assert again.ephemeral and WAIT.search(again.content) and again.png is None
    assert "as **south** sees it" in replies(await click(harness, BOB, notice, button))[0].content
    harness.clock.advance(per)
    assert "as **north** sees it" in replies(await click(harness, ALICE, notice, button))[0].content
