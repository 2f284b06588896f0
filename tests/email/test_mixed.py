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
