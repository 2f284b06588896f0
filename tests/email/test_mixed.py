"""One game, two front ends: the Allies on Discord (through the command-tree harness), the
Axis by mail (issue 14). The mail loop runs as its own service over the same database,
as ``umpire email`` does beside ``umpire bot``."""

from __future__ import annotations

import re

from bot.email.transport import open_mail
from tests.discord.conftest import ALICE as DISCORD_ALICE
from tests.discord.harness import PNG_MAGIC, Harness, replies
from tests.email.conftest import BOB, answer, mail_config
from tests.service.conftest import FakeClock

GAME_ID = re.compile(r"Created game `(\w+)`")


async def test_discord_allies_against_an_axis_by_mail(tmp_path, smtp, imap) -> None:
    controller, sink = smtp
    harness = Harness(str(tmp_path / "umpire.db"), FakeClock())
    await harness.start()
    cfg = mail_config(tmp_path, imap.port, controller.port)
    service, desk, box = await open_mail(cfg, maps=True)
    service.clock = harness.clock
    try:
        sent = await harness.command(DISCORD_ALICE, "game create", game="pfv", role="allied")
        game = GAME_ID.search(replies(sent)[0].content).group(1)
        await desk.seat(game, "axis", BOB, "mod")
        await harness.command(DISCORD_ALICE, "game start")
        await harness.command(DISCORD_ALICE, "order", text="auto")
        await harness.command(DISCORD_ALICE, "done")
        await box.once()  # the hand-over reaches the Axis by mail
        welcome, move = await sink.wait_for(BOB, 2)
        assert "Your move" in move.subject
        assert "allied: auto" in move.body and "allied: done" in move.body
        ((name, png),) = move.attachments
        assert name.endswith("-axis.png") and png.startswith(PNG_MAGIC)

        await imap.deliver(answer(move, BOB, ["auto", "done"]))
        assert await box.once() == 1
        reply = (await sink.wait_for(BOB, 3))[2]
        assert reply.body.count("Applied") == 2
        # the Discord side's service sees the orders given by mail
        log = await harness.service.game_log(game)
        assert [(line.role, line.order) for line in log] == [
            ("allied", "auto"), ("allied", "done"), ("axis", "auto"), ("axis", "done"),
        ]
        assert log[-1].user == f"mail:{BOB}"
    finally:
        await service.close()
        await harness.stop()


async def test_a_discord_moderator_seats_a_player_by_email(tmp_path, smtp, imap) -> None:
    """Issue 14 item 2: `/gm seat` with an email option seats a player by address, who
    gets the welcome mail; without mail configured, or naming both a member and an
    address, the moderator gets one sentence and nothing changes."""
    from types import SimpleNamespace

    from tests.discord.conftest import MODERATOR

    controller, sink = smtp
    harness = Harness(str(tmp_path / "umpire.db"), FakeClock())
    await harness.start()
    cfg = mail_config(tmp_path, imap.port, controller.port)
    service, desk, box = await open_mail(cfg, maps=False)
    try:
        sent = await harness.command(DISCORD_ALICE, "game create", game="pfv", role="allied")
        game = GAME_ID.search(replies(sent)[0].content).group(1)

        unset = await harness.command(MODERATOR, "gm seat", role="axis", email=BOB)
        assert "Play by email is not set up" in replies(unset)[0].content
        assert not await service.email_seats(game)

        harness.bot.table.mail = SimpleNamespace(box=box)
        both = await harness.command(
            MODERATOR, "gm seat", role="axis", email=BOB, user=DISCORD_ALICE
        )
        assert "either a member" in replies(both)[0].content

        done = await harness.command(MODERATOR, "gm seat", role="axis", email=BOB.upper())
        assert f"seated `{BOB}` (by email) as **axis**" in replies(done)[0].content
        (welcome,) = await sink.wait_for(BOB, 1)
        assert f"game {game}" in welcome.body and "as axis" in welcome.body
        assert [s.address for s in await service.email_seats(game)] == [BOB]
        status = await harness.service.status(game)
        assert {s.role: s.user for s in status.seats}["axis"] == f"mail:{BOB}"
    finally:
        await service.close()
        await harness.stop()
