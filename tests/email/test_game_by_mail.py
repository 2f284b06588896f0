"""A whole game of Patton's First Victory played by two players by mail (issue 14).

Umpire's loop runs against a real IMAP server (pymap) and a real SMTP server (aiosmtpd)
on the loopback interface. Each player answers only Umpire's latest mail to them, by
replying to it (its Reply-To carries the seat's key), quoting it and signing, with the
order they prefer among the legal ones it lists, then ``done`` lines.
"""

from __future__ import annotations

import asyncio
import re
import time

from bot.email.tokens import token_in_address
from tests.email.conftest import ALICE, BOB, UMPIRE, Post, Received, answer, new_game

LEGAL = re.compile(r"^Legal now: (.*?)(?: \.\.\. \(\d+ in all.*)?$", re.M)
APPLIED = re.compile(r"Applied \(action (\d+)\)")
PREFERRED = ("auto", "done", "advance none", "air none")


def pick(received: Received) -> str:
    """The order a hurried player gives: auto, done or a refusal of options, else the
    first legal order the mail lists."""
    m = LEGAL.search(received.body)
    assert m, received.body
    legal = m.group(1).split(", ")
    for wanted in PREFERRED:
        if wanted in legal:
            return wanted
    return legal[0]


async def play_by_mail(post: Post, players: dict[str, str], limit: float = 600.0) -> int:
    """Play until both players are told the game is over; how many mails they sent.
    ``limit`` only stops a game that never ends (a hang), not a slow one: a whole game
    takes some 30 s on a quiet machine and has taken over 90 on a busy one."""
    read = dict.fromkeys(players, 0)
    waiting = dict.fromkeys(players, False)
    latest: dict[str, Received | None] = dict.fromkeys(players)
    over: set[str] = set()
    sent = 0
    deadline = time.monotonic() + limit
    while over != set(players):
        assert time.monotonic() < deadline, f"the game did not end; {sent} mails sent"
        for address in players:
            new = post.sink.to(address)[read[address] :]
            read[address] += len(new)
            for m in new:
                if "Re: your orders" in m.subject:
                    waiting[address] = False
                if "The game is over" in m.body:
                    over.add(address)
                latest[address] = m
        acted = False
        for address in players:
            m = latest[address]
            if m is None or waiting[address] or address in over:
                continue
            if "it is YOUR decision" in m.body:
                await post.imap.deliver(answer(m, address, [pick(m), "done", "done"]))
                waiting[address] = True
                latest[address] = None
                sent += 1
                acted = True
        if not acted:
            post.sink.changed.clear()
            try:
                await asyncio.wait_for(post.sink.changed.wait(), timeout=1.0)
            except TimeoutError:
                pass
    return sent


async def test_a_whole_pfv_game_by_mail(post: Post) -> None:
    game = await new_game(post, {"allied": ALICE, "axis": BOB})
    post.run()
    sent = await play_by_mail(post, {ALICE: "allied", BOB: "axis"})

    status = await post.service.status(game)
    assert status.status == "finished" and status.secret
    log = await post.service.game_log(game)
    assert len(log) >= 20, len(log)
    assert {line.user for line in log} == {f"mail:{ALICE}", f"mail:{BOB}"}
    # every action was applied once: each is acknowledged in exactly one reply
    acknowledged = [
        int(n) for address in (ALICE, BOB) for m in post.sink.to(address)
        if "Re: your orders" in m.subject for n in APPLIED.findall(m.body)
    ]
    assert sorted(acknowledged) == [line.seq for line in log], acknowledged
    assert sent < len(log), "several orders went in one mail"
    # both learn the result and the dice secret
    for address in (ALICE, BOB):
        last = post.sink.to(address)[-1]
        assert "The game is over" in last.body
        assert status.secret in last.body
    # every mail is Umpire's, marked as automatic, and carries only its seat's key
    keys: dict[str, set[str]] = {ALICE: set(), BOB: set()}
    for m in post.sink.mail:
        assert m.msg["Auto-Submitted"] in ("auto-replied", "auto-generated")
        assert m.msg["X-Umpire-Loop"] == UMPIRE
        (to,) = m.to
        keys[to].add(token_in_address(str(m.msg["Reply-To"]), "umpire", "example.org"))
        assert m.subject.endswith(")") and "key:" in m.subject
    assert len(keys[ALICE]) == len(keys[BOB]) == 1 and keys[ALICE] != keys[BOB]
    # each player read only their own view of the log
    for address, role, other in ((ALICE, "allied", "axis"), (BOB, "axis", "allied")):
        mine = {e for line in await post.service.game_log(game, audience=role) for e in line.events}
        theirs = {e for line in await post.service.game_log(game, audience=other) for e in line.events}
        secret = theirs - mine
        for m in post.sink.to(address):
            for text in secret:
                assert text not in m.body, (address, text)
    # nothing left unseen in the mailbox
    assert await post.imap.unseen() == 0
