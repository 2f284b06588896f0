"""Safe mail handling (issue 14, item 5) and the body rules (item 3), through the real loop:
forged senders, auto-replies, HTML-only mail, quoted replies, mail without a key, a
flooding sender, a Message-ID seen twice, and the IMAP server restarting under IDLE."""

from __future__ import annotations

import asyncio

from tests.email.conftest import (
    ALICE,
    BOB,
    MALLORY,
    UMPIRE,
    Post,
    answer,
    letter,
    new_game,
)


async def _orders(post: Post, game: str) -> list[str]:
    return [f"{line.role}: {line.order}" for line in await post.service.game_log(game)]


async def _settled(post: Post) -> None:
    """Until the mailbox has nothing unseen and the outbox is empty."""
    for _ in range(200):
        if await post.imap.unseen() == 0 and not await post.service.unsent_email():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the loop did not handle the mail")


async def test_forged_sender_is_refused_and_the_seat_holder_told(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (welcome, move) = await post.sink.wait_for(ALICE, 2)
    assert "Your move" in move.subject
    forged = answer(move, ALICE, ["auto", "done"])
    forged = forged.replace(f"From: {ALICE}".encode(), f"From: {MALLORY}".encode())
    await post.imap.deliver(forged)
    mails = await post.sink.wait_for(ALICE, 3)
    assert "another address" in mails[2].subject and MALLORY in mails[2].body
    await _settled(post)
    assert post.sink.to(MALLORY) == []
    assert await _orders(post, game) == []


async def test_auto_replies_bounces_and_lists_get_no_answer(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    vacation = answer(move, ALICE, ["I am away until Monday."])
    vacation = vacation.replace(b"Subject:", b"Auto-Submitted: auto-replied\r\nSubject:", 1)
    bounce = letter(
        "MAILER-DAEMON@example.net", UMPIRE, "Undelivered Mail Returned to Sender", "gone"
    )
    listed = letter(
        "list@example.net", UMPIRE, "Digest", "news", headers={"List-Id": "<x.example.net>"}
    )
    own = letter(UMPIRE, UMPIRE, "loop", "auto", headers={"X-Umpire-Loop": UMPIRE})
    for raw in (vacation, bounce, listed, own):
        await post.imap.deliver(raw)
    await _settled(post)
    assert len(post.sink.mail) == 3  # the two welcomes, and Alice's "your move"
    assert await _orders(post, game) == []


async def test_html_only_mail_is_read_as_text(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    html = (
        "<html><body><div>auto</div><div>done<br></div>"
        "<div class='gmail_quote'>On Mon, Umpire wrote:<blockquote>done</blockquote></div>"
        "</body></html>"
    )
    raw = letter(ALICE, str(move.msg["Reply-To"]), f"Re: {move.subject}", "", html=html)
    await post.imap.deliver(raw)
    reply = (await post.sink.wait_for(ALICE, 3))[2]
    assert "Re: your orders" in reply.subject and "read its HTML as text" in reply.body
    assert await _orders(post, game) == ["allied: auto", "allied: done"]


async def test_quoted_text_and_signature_are_not_read(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    # the quoted mail itself says "done" lines; only the new text counts
    await post.imap.deliver(answer(move, ALICE, ["auto"], quote=True))
    reply = (await post.sink.wait_for(ALICE, 3))[2]
    assert "> auto\n  Applied" in reply.body
    signed = answer(reply, ALICE, ["orders", "end", "done"], quote=False)
    await post.imap.deliver(signed)
    listing = (await post.sink.wait_for(ALICE, 4))[3]
    assert "> orders" in listing.body and "done" in listing.body
    assert await _orders(post, game) == ["allied: auto"]


async def test_refused_line_stops_reading_and_says_what_is_legal(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    await post.imap.deliver(answer(move, ALICE, ["move nothing 0000", "auto", "done"]))
    reply = (await post.sink.wait_for(ALICE, 3))[2]
    assert "Refused:" in reply.body
    assert "Not tried, because they may depend on the refused line: auto; done" in reply.body
    assert "Legal now: " in reply.body
    assert await _orders(post, game) == []


async def test_mail_without_a_key_gets_one_clear_reply(post: Post) -> None:
    await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    await post.sink.wait_for(ALICE, 2)
    await post.imap.deliver(letter(MALLORY, UMPIRE, "hello", "move 1arm 8113 8114"))
    (reply,) = await post.sink.wait_for(MALLORY, 1)
    assert "no seat key" in reply.body and "Traceback" not in reply.body
    bad_key = letter(MALLORY, "umpire+aaaaaaaaaaaaaaaa@example.org", "x", "done")
    await post.imap.deliver(bad_key)
    (_, again) = await post.sink.wait_for(MALLORY, 2)
    assert "not (or no longer) the key of a seat" in again.body


async def test_a_flooding_sender_is_answered_once_then_ignored(post: Post) -> None:
    post.cfg = post.desk.cfg = post.box.cfg = type(post.cfg)(
        **{**post.cfg.__dict__, "rate_limit": 3}
    )
    post.run()
    for i in range(6):
        await post.imap.deliver(letter(MALLORY, UMPIRE, f"spam {i}", "buy now"))
    await _settled(post)
    replies = post.sink.to(MALLORY)
    assert len(replies) == 4, [r.body for r in replies]
    assert "limit" in replies[3].body


async def test_the_same_message_id_is_handled_once(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    raw = answer(move, ALICE, ["auto"])
    await post.imap.deliver(raw)
    await post.sink.wait_for(ALICE, 3)
    await post.imap.deliver(raw)  # the same mail again (a resend, a second copy)
    await _settled(post)
    assert len(post.sink.to(ALICE)) == 3
    assert await _orders(post, game) == ["allied: auto"]


async def test_the_loop_reconnects_when_the_imap_server_restarts_under_idle(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    await asyncio.sleep(0.5)  # the loop is in IDLE now
    assert post.box.connections == 1
    post.imap.stop()
    await post.imap.start()
    await post.imap.deliver(answer(move, ALICE, ["auto"]))
    reply = (await post.sink.wait_for(ALICE, 3, timeout=30))[2]
    assert "Applied" in reply.body
    assert post.box.connections >= 2
    assert await _orders(post, game) == ["allied: auto"]


async def test_undo_and_help_by_mail(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    (_, move) = await post.sink.wait_for(ALICE, 2)
    await post.imap.deliver(answer(move, ALICE, ["auto"]))
    reply = (await post.sink.wait_for(ALICE, 3))[2]
    await post.imap.deliver(answer(reply, ALICE, ["undo", "help"]))
    undone = (await post.sink.wait_for(ALICE, 4))[3]
    assert "Took back action 1 (auto)" in undone.body and "one order per line" in undone.body
    assert await _orders(post, game) == []


async def test_a_failure_inside_umpire_gets_one_reply_with_a_reference(post: Post) -> None:
    async def broken(raw: bytes) -> str:
        raise RuntimeError("a bug")

    post.desk.handle = broken
    raw = letter(ALICE, UMPIRE, "orders", "auto")
    assert await post.box.handle(raw) == "failed"
    await post.box.outbox.flush()
    (reply,) = post.sink.to(ALICE)
    assert "Something went wrong inside Umpire" in reply.body and "reference" in reply.body
    assert "Traceback" not in reply.body and "a bug" not in reply.body
    # the mail is recorded, so once the bug is fixed it is not handled (or answered) again
    del post.desk.handle
    assert await post.box.handle(raw) == "duplicate"
    assert len(post.sink.to(ALICE)) == 1
    record = await post.service.email_message(
        next(line.split(":", 1)[1].strip() for line in raw.decode().splitlines()
             if line.lower().startswith("message-id:"))
    )
    assert record is not None and record.status == "refused"
