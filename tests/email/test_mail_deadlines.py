"""Deadlines of a game played only by mail (issue 16, item 2): the mail loop's scheduler
applies the default when one passes, tells the late seat what was ordered for it and
hands the turn over by mail; it leaves the deadlines of Discord games to the bot, and
``umpire email --once`` applies what fell due before reading the mailbox."""

from __future__ import annotations

from bot.deadlines import DEFAULT_APPLIED_ACT
from bot.email.transport import open_mail
from tests.email.conftest import ALICE, BOB, mail_config
from tests.email.test_cli import mail_env  # noqa: F401  (the fixture)
from tests.service.conftest import FakeClock

HOUR = 3600.0


async def _mail_game(service, desk) -> str:
    game = (await service.create("pfv", created_by="mod")).game
    await desk.seat(game, "allied", ALICE, "mod")
    await desk.seat(game, "axis", BOB, "mod")
    await service.start(game, "mod")
    for order in ("auto", "done"):
        await service.submit(game, f"mail:{ALICE}", order)
    return game


async def test_a_passed_deadline_of_a_mail_game_applies_the_default_and_mails_the_seat(
    tmp_path, smtp
) -> None:
    controller, sink = smtp
    cfg = mail_config(tmp_path, 1, controller.port)
    service, desk, box = await open_mail(cfg, maps=False)
    clock = FakeClock()
    service.clock = clock
    try:
        game = await _mail_game(service, desk)
        due = clock() + 120
        await service.set_deadline(game, "mod", due, role="axis", remind_before=[60])
        await desk.notices()
        await box.outbox.flush()
        runner = desk.deadline_runner()
        assert await runner.tick() == 120  # asleep until the deadline, not the reminder
        assert [a for a in await service.audit(game) if a["act"] == DEFAULT_APPLIED_ACT] == []

        clock.advance(120)
        was = await service.status(game)
        before = was.seq
        await runner.tick()
        status = await service.status(game)
        applied = [a for a in await service.audit(game) if a["act"] == DEFAULT_APPLIED_ACT]
        assert applied and status.seq == before + len(applied)
        assert all(a["detail"]["role"] == "axis" for a in applied)
        assert status.progress != was.progress  # the Axis set-up is over
        await runner.tick()  # fired: nothing applied twice
        assert len([a for a in await service.audit(game) if a["act"] == DEFAULT_APPLIED_ACT]) == len(
            applied
        )

        await desk.notices()
        await box.outbox.flush()
        told = sink.to(BOB)[-2:]
        passed = next(m for m in told if "Deadline passed" in m.subject)
        assert "Umpire gave these orders for you" in passed.body
        assert applied[0]["detail"]["order"] in passed.body
        assert any("Your move" in m.subject for m in told)  # the Axis move that follows
        assert "axis to move" in sink.to(ALICE)[-1].subject  # the Allies see the hand-over
    finally:
        await service.close()


async def test_the_mail_loop_leaves_the_deadlines_of_discord_games_to_the_bot(tmp_path, smtp):
    controller, _ = smtp
    cfg = mail_config(tmp_path, 1, controller.port)
    service, desk, _ = await open_mail(cfg, maps=False)
    clock = FakeClock()
    service.clock = clock
    try:
        game = (
            await service.create(
                "pfv", created_by="mod", seats={"allied": "1", "axis": "2"}, channel="99"
            )
        ).game
        await service.start(game, "mod")
        await service.set_deadline(game, "mod", clock() + HOUR)
        clock.advance(2 * HOUR)
        await desk.deadline_runner().tick()
        assert [d.game for d in await service.deadlines(game)] == [game]  # still open
        assert (await service.status(game)).seq == 0
    finally:
        await service.close()


async def test_umpire_email_once_applies_what_fell_due_before_reading_the_mailbox(
    mail_env, smtp, imap, capsys  # noqa: F811  (fixtures)
) -> None:
    import asyncio
    import time

    from bot.email.config import load_config
    from bot.service import Service
    from tests.email.test_cli import umpire

    _, sink = smtp
    service, desk, box = await open_mail(load_config(), maps=False)
    try:
        game = await _mail_game(service, desk)
        await service.set_deadline(game, "mod", time.time() + 0.5, role="axis")
        await box.outbox.flush()
    finally:
        await service.close()
    await asyncio.sleep(0.7)
    assert await umpire("email", "--once") == 0
    service = await Service.open(mail_env["UMPIRE_DB"])
    try:
        applied = [a for a in await service.audit(game) if a["act"] == DEFAULT_APPLIED_ACT]
        assert applied and await service.deadlines(game) == []
    finally:
        await service.close()
    assert any("Deadline passed" in m.subject for m in sink.to(BOB))
