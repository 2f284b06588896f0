"""Reading a mail (issue 14, items 3 and 5): which lines are orders, HTML reduced to
text, which mail a machine sent, and where the seat's key is found."""

from __future__ import annotations

import pytest

from bot.email.parse import html_to_text, order_lines, parse_mail
from bot.email.tokens import seat_token, token_hash, token_in_address, token_in_subject
from tests.email.conftest import letter

UMPIRE = "umpire@example.org"


def test_reading_stops_at_signature_quote_and_end() -> None:
    body = "move 1arm 8113 8114\r\n\r\n# a comment\r\n// another\r\ndone\r\n-- \r\nAlice\r\nauto"
    assert order_lines(body) == ["move 1arm 8113 8114", "done"]
    assert order_lines("auto\n> done\n") == ["auto"]
    assert order_lines("auto\nOn Mon, 1 Jan 2024, Umpire <u@x.org> wrote:\ndone") == ["auto"]
    assert order_lines("auto\nOn Mon, 1 Jan 2024 at 10:00, Umpire\n<u@x.org> wrote:\ndone") == [
        "auto"
    ]
    assert order_lines("auto\nEND\ndone") == ["auto"]
    assert order_lines("auto\n-----Original Message-----\ndone") == ["auto"]
    assert order_lines("auto\n--\nsig") == ["auto"]  # a client that trims the space


def test_a_line_that_only_starts_with_on_is_an_order() -> None:
    assert order_lines("on second thoughts\ndone") == ["on second thoughts", "done"]


def test_html_is_reduced_to_lines_and_quotes_marked() -> None:
    html = "<p>auto</p><div>done<br>done&nbsp;now</div><blockquote>old</blockquote><style>x</style>"
    assert html_to_text(html).splitlines() == ["auto", "done", "done now", "> old"]


@pytest.mark.parametrize(
    "headers, sender, why",
    [
        ({"Auto-Submitted": "auto-replied"}, "bob@example.net", "Auto-Submitted"),
        ({"Precedence": "bulk"}, "bob@example.net", "Precedence"),
        ({"X-Autoreply": "yes"}, "bob@example.net", "auto-reply"),
        ({"List-Unsubscribe": "<mailto:x@y>"}, "bob@example.net", "mailing list"),
        ({}, "MAILER-DAEMON@example.net", "mail system"),
        ({"X-Umpire-Loop": UMPIRE}, "bob@example.net", "own"),
        ({}, UMPIRE, "own"),
    ],
)
def test_mail_from_machines_is_recognised(headers, sender, why) -> None:
    mail = parse_mail(letter(sender, UMPIRE, "x", "done", headers=headers), UMPIRE)
    assert mail.automatic is not None and why in mail.automatic


def test_a_person_s_mail_is_not_automatic_and_auto_submitted_no_is_a_person() -> None:
    raw = letter("bob@example.net", UMPIRE, "x", "done", headers={"Auto-Submitted": "no"})
    mail = parse_mail(raw, UMPIRE)
    assert mail.automatic is None and mail.sender == "bob@example.net"
    assert order_lines(mail.text) == ["done"]


def test_garbage_is_read_without_raising() -> None:
    mail = parse_mail(b"\x00\xff\xfe not a mail at all \x80", UMPIRE)
    assert mail.message_id and mail.automatic is not None  # no sender: never answered


def test_the_key_rides_in_the_sub_address_or_the_subject() -> None:
    token = seat_token(b"k" * 32, "g1", "axis", "bob@example.net", "n1")
    assert len(token) == 16 and token == token.lower()
    assert token != seat_token(b"k" * 32, "g1", "axis", "bob@example.net", "n2")  # reissued
    assert token_in_address(f"Umpire+{token}@Example.org", "umpire", "example.org") == token
    assert token_in_address(f"other+{token}@example.org", "umpire", "example.org") is None
    assert token_in_address("umpire@example.org", "umpire", "example.org") is None
    assert token_in_subject(f"Re: [umpire g1 axis] Your move (key:{token.upper()})") == token
    assert token_hash(token) != token and len(token_hash(token)) == 64
