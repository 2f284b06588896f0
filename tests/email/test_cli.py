"""``umpire seat GAME ROLE --email ADDRESS`` and ``umpire email --once`` as a moderator and
a cron job run them, against the real servers; bad input gets one sentence, exit 2."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from tests.email.conftest import BOB, IMAP_PASSWORD, IMAP_USER, UMPIRE, answer


@pytest.fixture
def mail_env(monkeypatch, tmp_path, smtp, imap):
    controller, _ = smtp
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    values = {
        "UMPIRE_IMAP_HOST": "127.0.0.1",
        "UMPIRE_IMAP_PORT": str(imap.port),
        "UMPIRE_IMAP_USER": IMAP_USER,
        "UMPIRE_IMAP_PASSWORD": IMAP_PASSWORD,
        "UMPIRE_IMAP_TLS": "off",
        "UMPIRE_SMTP_HOST": "127.0.0.1",
        "UMPIRE_SMTP_PORT": str(controller.port),
        "UMPIRE_SMTP_TLS": "off",
        "UMPIRE_MAIL_FROM": UMPIRE,
        "UMPIRE_DB": str(tmp_path / "umpire.db"),
    }
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return values


async def umpire(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


async def test_seat_by_email_then_email_once(mail_env, smtp, imap, capsys) -> None:
    _, sink = smtp
    assert await umpire("new", "pfv") == 0
    game = capsys.readouterr().out.split()[0]
    assert await umpire("seat", game, "axis", "--email", BOB, "--timezone", "Europe/Paris") == 0
    assert "The welcome mail was sent" in capsys.readouterr().out
    (welcome,) = sink.to(BOB)
    assert "You are seated" in welcome.subject and "as axis" in welcome.body

    await imap.deliver(answer(welcome, BOB, ["show", "log"]))
    assert await umpire("email", "--once") == 0
    assert "1 mails handled" in capsys.readouterr().out
    (_, reply) = sink.to(BOB)
    assert "> show" in reply.body and "> log" in reply.body
    assert await imap.unseen() == 0

    assert await umpire("seat", game, "axis", "--reissue") == 0
    (_, _, renewed) = sink.to(BOB)
    assert "Your key is renewed" in renewed.subject
    old_key = welcome.subject.split("key:")[1]
    assert old_key not in renewed.subject
    # the old key no longer works
    await imap.deliver(answer(welcome, BOB, ["log"]))
    assert await umpire("email", "--once") == 0
    assert "no longer" in sink.to(BOB)[-1].body


async def test_bad_input_gets_one_sentence(mail_env, monkeypatch, capsys) -> None:
    assert await umpire("new", "pfv") == 0
    game = capsys.readouterr().out.split()[0]
    assert await umpire("seat", game, "axis", "--email", "not-an-address") == 2
    assert await umpire("seat", game, "nobody", "--email", BOB) == 2
    assert await umpire("seat", game, "axis", "--email", BOB, "--timezone", "Mars/Base") == 2
    assert await umpire("seat", game, "axis", "--reissue") == 2  # not played by email
    monkeypatch.setenv("UMPIRE_MAIL_FROM", "umpire+x@example.org")
    assert await umpire("email", "--once") == 2
    monkeypatch.delenv("UMPIRE_IMAP_HOST")
    assert await umpire("email", "--once") == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line]
    assert len(lines) == 6 and all(line.startswith("umpire: ") for line in lines), err
    assert "Traceback" not in err
