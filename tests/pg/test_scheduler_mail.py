"""Play by email over PostgreSQL (issue 16, item 5): the mail store on the store protocol
(bot/email/store.py: the same "one transaction for an order and its mail" over a
PostgreSQL write), run through the mail tests written for SQLite, among them the mail
loop's deadlines; and a PostgreSQL database without UMPIRE_MAIL_SECRET is refused in one
sentence, since there is no database file to keep the token key beside."""

from __future__ import annotations

import dataclasses

import pytest

from bot.email.config import MailConfigError
from bot.email.transport import open_mail
from tests.email import test_game_by_mail, test_mail_deadlines, test_notices, test_safety
from tests.email.conftest import Post, imap, mail_config, smtp  # noqa: F401  (fixtures)


class _Url:
    """Stands for ``tmp_path`` in the mail tests: the database "file" is the URL."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __truediv__(self, name: str) -> str:
        return self.url


@pytest.fixture
async def post(pg_url, smtp, imap):  # noqa: F811  (the fixtures imported above)
    controller, sink = smtp
    cfg = mail_config(_Url(pg_url), imap.port, controller.port)
    service, desk, box = await open_mail(cfg, maps=False)
    p = Post(cfg, sink, imap, service, desk, box)
    yield p
    await p.close()


async def test_the_mail_desk_keeps_its_records_in_postgresql(post):
    assert type(post.service.store).__name__ == "PgMailStore"
    assert post.cfg.db_path.startswith("postgresql://")


async def test_a_passed_deadline_of_a_mail_game_on_postgresql(pg_url, smtp):  # noqa: F811
    await test_mail_deadlines.test_a_passed_deadline_of_a_mail_game_applies_the_default_and_mails_the_seat(
        _Url(pg_url), smtp
    )


async def test_the_mail_loop_leaves_discord_deadlines_on_postgresql(pg_url, smtp):  # noqa: F811
    await test_mail_deadlines.test_the_mail_loop_leaves_the_deadlines_of_discord_games_to_the_bot(
        _Url(pg_url), smtp
    )


async def test_notices_by_mail_on_postgresql(pg_url, smtp):  # noqa: F811
    await test_notices.test_turn_deadline_reminder_rollback_pause_and_end_notices(
        _Url(pg_url), smtp
    )


async def test_the_same_message_id_is_handled_once_on_postgresql(post):
    await test_safety.test_the_same_message_id_is_handled_once(post)


async def test_a_refused_line_stops_reading_on_postgresql(post):
    await test_safety.test_refused_line_stops_reading_and_says_what_is_legal(post)


async def test_a_whole_pfv_game_by_mail_on_postgresql(post):
    await test_game_by_mail.test_a_whole_pfv_game_by_mail(post)


async def test_postgresql_without_a_mail_secret_is_refused_in_one_sentence(pg_url):
    cfg = dataclasses.replace(mail_config(_Url(pg_url), 1, 1), secret="")
    with pytest.raises(MailConfigError) as refused:
        await open_mail(cfg, maps=False)
    assert "UMPIRE_MAIL_SECRET" in str(refused.value) and "\n" not in str(refused.value)
