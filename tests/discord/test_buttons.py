"""Buttons and select menus (issue 15 item 1), clicked through discord.py's own
dispatch: the lobby filled by clicks, the turn buttons, small choices made from a select
menu, and buttons posted before a restart answering after it."""

from __future__ import annotations

import random
import re

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import PNG_MAGIC, Harness, Sent, click, posts, replies
from tests.discord.players import Players
from tests.discord.test_refusals import only_refusal, toy_game

GAME_ID = re.compile(r"created game `(\w+)`")


def last_with(history: list[Sent], prefix: str) -> Sent:
    """The latest message carrying a control whose custom id begins with ``prefix``."""
    for s in reversed(history):
        if any(c.get("custom_id", "").startswith(prefix) for c in s.controls):
            return s
    raise AssertionError(f"no message carries {prefix}")


async def lobby_by_clicks(harness: Harness) -> tuple[str, Players, list[Sent]]:
    """Alice creates a game without a seat; the seats are taken and play begun by clicks."""
    sent = await harness.command(ALICE, "game create", game="pfv")
    [lobby] = posts(sent)
    game = GAME_ID.search(lobby.content).group(1)
    assert {c["custom_id"] for c in lobby.controls} == {
        f"umpire:join:{game}:allied",
        f"umpire:join:{game}:axis",
        f"umpire:start:{game}",
    }
    joined = await click(harness, ALICE, lobby, f"umpire:join:{game}:allied")
    assert joined[0].kind == "defer" and joined[0].ephemeral
    assert "as **allied**" in replies(joined)[0].content and replies(joined)[0].ephemeral
    [news] = posts(joined)
    assert "joins game" in news.content
    assert [c["custom_id"] for c in news.controls] == [
        f"umpire:join:{game}:axis",
        f"umpire:start:{game}",
    ]  # the taken seat has no button any more
    # the seat already taken, clicked on the old lobby post: one sentence, nothing changed
    again = await click(harness, BOB, lobby, f"umpire:join:{game}:allied")
    assert replies(again)[0].ephemeral and posts(again) == []
    await click(harness, BOB, news, f"umpire:join:{game}:axis")
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(11))
    history: list[Sent] = []
    started = await click(harness, BOB, news, f"umpire:start:{game}")
    assert "has started" in replies(started)[0].content
    players.read(started)
    history += started
    assert players.turn is not None and players.turn.user == ALICE.id
    return game, players, history


async def test_the_lobby_fills_by_clicks_and_the_turn_buttons_answer_privately(harness):
    harness.settings.map_width = 320
    game, players, history = await lobby_by_clicks(harness)
    notice = last_with(history, "umpire:orders:")
    assert f"<@{ALICE.id}>" in notice.content and not notice.ephemeral
    assert [c["label"] for c in notice.controls] == ["My view", "Orders", "Undo", "Done"]

    # My view: the clicker's own side, to them alone; nothing in the channel
    mine = await click(harness, ALICE, notice, f"umpire:view:{game}")
    [view] = replies(mine)
    assert view.ephemeral and view.png.startswith(PNG_MAGIC) and "as **Allied** sees it" in view.content
    assert posts(mine) == []
    theirs = await click(harness, BOB, notice, f"umpire:view:{game}")
    assert "as **Axis** sees it" in replies(theirs)[0].content and replies(theirs)[0].ephemeral
    outsider = await click(harness, CAROL, notice, f"umpire:view:{game}")
    assert replies(outsider)[0].png is None and "no seat" in replies(outsider)[0].content

    # Orders: the decider's legal orders, privately; the other player is told whose it is
    wrong = await click(harness, BOB, notice, f"umpire:orders:{game}")
    assert "not yours" in replies(wrong)[0].content and "**allied**" in replies(wrong)[0].content
    listed = await click(harness, ALICE, notice, f"umpire:orders:{game}")
    [orders] = replies(listed)
    assert orders.ephemeral and "legal order" in orders.content and posts(listed) == []

    # Undo with nothing to take back, and Done before the set-up is finished, are refused
    # in a sentence to the clicker, and nothing changes
    for button in ("undo", "done"):
        refused = await click(harness, ALICE, notice, f"umpire:{button}:{game}")
        [answer] = replies(refused)
        assert answer.ephemeral and "Action " not in answer.content and posts(refused) == []
    assert (await harness.service.status(game)).seq == 0


async def test_buttons_posted_before_a_restart_answer_after_it(harness):
    harness.settings.map_width = 320
    sent = await harness.command(ALICE, "game create", game="pfv", role="allied")
    [lobby] = posts(sent)
    game = GAME_ID.search(lobby.content).group(1)
    old_bot = harness.bot

    await harness.restart()
    assert harness.bot is not old_bot

    joined = await click(harness, BOB, lobby, f"umpire:join:{game}:axis")
    assert "as **axis**" in replies(joined)[0].content
    started = await click(harness, BOB, posts(joined)[0], f"umpire:start:{game}")
    notice = last_with(started, "umpire:orders:")

    await harness.restart()
    listed = await click(harness, ALICE, notice, f"umpire:orders:{game}")
    assert "legal order" in replies(listed)[0].content
    mine = await click(harness, ALICE, notice, f"umpire:view:{game}")
    assert replies(mine)[0].png.startswith(PNG_MAGIC)


async def test_a_game_whose_small_choices_are_all_made_from_select_menus(harness):
    """Whenever the decider's legal orders fit one select menu, the order is picked from
    it (the Orders button of the latest notice); otherwise it is typed. The game runs to
    its end, and a pick from a menu offered before the game moved on is refused."""
    harness.settings.map_width = 240
    game, players, history = await lobby_by_clicks(harness)
    picked: set[str] = set()
    stale: Sent | None = None
    while not players.over:
        assert players.orders < 700, "the game did not end"
        decider = players.users[players.turn.user]
        notice = last_with(history, "umpire:orders:")
        listed = await click(harness, decider, notice, f"umpire:orders:{game}")
        answer = replies(listed)[-1]  # a long list is split; the menu goes with the last
        assert all(s.ephemeral for s in replies(listed))
        menu = [c for c in answer.controls if c["type"] == 3]
        if not menu:
            history += await players.move()
            continue
        values = [o["value"] for o in menu[0]["options"]]
        choice = players.rng.choice(values)
        sent = await click(harness, decider, answer, menu[0]["custom_id"], values=[choice])
        ack = replies(sent)[0]
        assert ack.ephemeral and "Action " in ack.content, ack.content
        picked.add(choice.split()[0])
        stale = stale or answer
        players.orders += 1
        players.history.append(sent)
        players.read(sent)
        history += sent
    # every small decision of a battle was made from a menu at least once
    assert {"loss", "retreat", "advance"} <= picked, picked
    assert stale is not None
    option = stale.controls[0]["options"][0]["value"]
    late = await click(harness, ALICE, stale, stale.controls[0]["custom_id"], values=[option])
    assert replies(late)[0].ephemeral and posts(late) == []
    report = await harness.service.verify(game)
    assert report.ok, report.problems


async def test_rollback_end_and_kick_wait_for_the_moderators_confirmation(harness):
    harness.settings.confirm_moderation = True
    game = await toy_game(harness)
    await harness.command(ALICE, "order", text="take 1")
    await harness.command(BOB, "order", text="take 1")
    head = (await harness.service.status(game)).seq
    assert head == 2

    # the command only asks; nothing happens until the moderator confirms
    asked = await harness.command(MODERATOR, "gm rollback", to=0, reason="a misclick")
    [question] = replies(asked)
    assert question.ephemeral and posts(asked) == []
    assert "back to action 0" in question.content and "Why: a misclick" in question.content
    assert [c["label"] for c in question.controls] == ["Confirm", "Cancel"]
    assert (await harness.service.status(game)).seq == head
    # another member cannot press it for them
    other = await click(harness, ALICE, question, question.controls[0]["custom_id"])
    assert "Only the moderator" in replies(other)[0].content and posts(other) == []
    assert (await harness.service.status(game)).seq == head
    done = await click(harness, MODERATOR, question, question.controls[0]["custom_id"])
    assert done[0].kind == "defer" and done[0].ephemeral
    assert "Rolled game" in replies(done)[0].content
    [announcement] = posts(done)
    assert "**Rollback.**" in announcement.content
    assert (await harness.service.status(game)).seq == 0

    # Cancel changes nothing
    asked = await harness.command(MODERATOR, "gm kick", user=BOB, reason="away")
    [question] = replies(asked)
    assert f"Remove {BOB.mention}" in question.content
    cancelled = await click(harness, MODERATOR, question, question.controls[1]["custom_id"])
    assert "Cancelled" in replies(cancelled)[0].content and posts(cancelled) == []
    seats = {s.role: s.user for s in (await harness.service.status(game)).seats}
    assert seats["south"] == str(BOB.id)

    # a refused act is refused at the command, before anything is asked
    refusal = only_refusal(await harness.command(BOB, "gm end", reason="I am losing"))
    assert "Confirm" not in refusal

    asked = await harness.command(MODERATOR, "gm end", reason="agreed")
    [question] = replies(asked)
    ended = await click(harness, MODERATOR, question, question.controls[0]["custom_id"])
    assert "dice secret is now public" in posts(ended)[-1].content
    assert (await harness.service.status(game)).status == "finished"
