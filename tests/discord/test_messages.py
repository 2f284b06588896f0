"""Discord's limits and the event loop: long messages are split, a map over the upload
limit is drawn smaller, rendering runs in a worker thread, and a failing renderer costs
the picture, not the announcement."""

from __future__ import annotations

import threading

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import PNG_MAGIC, posts, replies
from tests.discord.test_deadlines import toy_game
from tests.discord.test_game import new_pfv_game


async def test_a_log_longer_than_a_message_comes_in_several_messages(harness):
    await toy_game(harness, options="pile=400")
    for _ in range(45):
        await harness.command(ALICE, "order", text="take 1")
        await harness.command(BOB, "order", text="take 1")
    sent = await harness.command(ALICE, "game log", last=90)
    parts = replies(sent)
    assert len(parts) >= 2
    assert all(p.ephemeral and len(p.content) <= 2000 for p in parts)
    lines = "\n".join(p.content for p in parts).splitlines()[1:]
    assert [int(line.split("`")[1]) for line in lines] == list(range(1, 91))


async def test_a_map_over_the_upload_limit_is_drawn_smaller(harness):
    await new_pfv_game(harness, seed=1)
    harness.upload_limit = 120_000  # the full-width map is about 290 kB
    [answer] = replies(await harness.command(ALICE, "game map"))
    assert answer.png.startswith(PNG_MAGIC) and len(answer.png) <= 120_000
    assert "pixels wide to fit the upload limit" in answer.content


async def test_rendering_runs_in_a_worker_thread_not_on_the_event_loop(harness):
    from renderer import render_png

    threads: list[int] = []

    def draw(view, width):
        threads.append(threading.get_ident())
        return render_png(view, width)

    harness.bot.table.draw = draw
    await new_pfv_game(harness, seed=1)
    [answer] = replies(await harness.command(ALICE, "game map"))
    assert answer.png.startswith(PNG_MAGIC)
    assert threads and threading.get_ident() not in threads


async def test_a_failing_renderer_still_posts_the_announcement_without_a_map(harness, caplog):
    def draw(view, width):
        raise ValueError("no ink")

    harness.bot.table.draw = draw
    sent = await harness.command(ALICE, "game create", game="pfv", role="allied")
    await harness.command(BOB, "game join")
    [post] = posts(await harness.command(BOB, "game start"))
    assert post.png is None and "(The map could not be drawn this time" in post.content
    assert post.pinged == [str(ALICE.id)]
    assert any(r.exc_info and "no ink" in str(r.exc_info[1]) for r in caplog.records)
    assert sent[0].kind == "defer"
