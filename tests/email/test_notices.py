"""Notices by mail (issue 14, item 4): the hand-over with the seat's own log and map, the
"your move" mail with the deadline in the seat's time zone, reminders when they fall
due, and the rollback, pause and end notices with the dice secret. The mail leaves
through a real SMTP server (aiosmtpd) on the loopback interface."""

from __future__ import annotations

from bot.email.transport import open_mail
from tests.discord.harness import PNG_MAGIC
from tests.email.conftest import ALICE, BOB, mail_config
from tests.service.conftest import FakeClock

HOUR = 3600.0


async def test_turn_deadline_reminder_rollback_pause_and_end_notices(tmp_path, smtp) -> None:
    controller, sink = smtp
    cfg = mail_config(tmp_path, 1, controller.port)
    service, desk, box = await open_mail(cfg, maps=True)
    clock = FakeClock()
    service.clock = clock
    try:
        game = (await service.create("pfv", created_by="mod")).game
        await desk.seat(game, "allied", ALICE, "mod")
        await desk.seat(game, "axis", BOB, "mod")
        await service.set_seat_preferences(game, f"mail:{BOB}", "axis", timezone="Asia/Tokyo")
        await service.start(game, "mod")
        await desk.notices()
        await box.outbox.flush()
        welcome, move = sink.to(ALICE)
        assert "You are seated" in welcome.subject and "Your move" in move.subject
        assert welcome.attachments[0][1].startswith(PNG_MAGIC)
        assert len(sink.to(BOB)) == 1  # nothing new for the Axis yet

        for order in ("auto", "done"):
            await service.submit(game, f"mail:{ALICE}", order)
        due = clock() + 10 * HOUR
        await service.set_deadline(game, "mod", due, role="axis", remind_before=[HOUR])
        await desk.notices()
        await box.outbox.flush()
        (_, bob_move) = sink.to(BOB)
        assert "Your move" in bob_move.subject
        assert "allied: auto" in bob_move.body and "allied: done" in bob_move.body
        assert "JST" in bob_move.body and "Deadline:" in bob_move.body  # Tokyo time
        assert bob_move.attachments[0][0].endswith("-axis.png")

        clock.advance(9.5 * HOUR)  # the reminder falls due one hour before
        await desk.notices()
        await box.outbox.flush()
        assert "Reminder" in sink.to(BOB)[-1].subject
        # the Allies gave their orders outside mail, so they are sent the hand-over too
        assert "] axis to move (key:" in sink.to(ALICE)[2].subject
        await desk.notices()  # a second pass mails nothing again
        await box.outbox.flush()
        assert len(sink.mail) == 6

        await service.rollback(game, "mod", why="a misclick", to=1)
        await service.set_status(game, "mod", "paused", why="holidays")
        await desk.notices()
        await box.outbox.flush()
        for address in (ALICE, BOB):
            subjects = [m.subject for m in sink.to(address)[-2:]]
            assert any("Rolled back" in s for s in subjects), subjects
            assert any("Game paused" in s for s in subjects), subjects
        assert "a misclick" in sink.to(BOB)[-2].body + sink.to(BOB)[-1].body

        status = await service.end(game, "mod", why="time is up")
        await desk.notices()
        await box.outbox.flush()
        for address in (ALICE, BOB):
            last = sink.to(address)[-1]
            assert "The game is over" in last.subject
            assert status.secret and status.secret in last.body
    finally:
        await service.close()
