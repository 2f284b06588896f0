"""A whole game of Patton's First Victory played by two users through slash commands.

The players pick random legal orders from what autocomplete offers them, and a moderator
rolls the game back in the middle. Every message the bot would have sent is checked
against the rules of the front end (ARCHITECTURE: Front ends): defer first, refusals and
private things ephemeral, the map and the turn's log after every player turn, dice as
battles happen, and pings only for the player whose decision it is.
"""

from __future__ import annotations

import random
import re

from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import CHANNEL_ID, PNG_MAGIC, Harness, Sent, posts, replies, text
from tests.discord.players import Players, read_prompt

GAME_ID = re.compile(r"Created game `(\w+)`")
ACTION = re.compile(r"^Action (\d+), ", re.M)


async def new_pfv_game(harness: Harness, seed: int) -> tuple[str, Players]:
    """Alice creates a game and takes the Allies, Bob joins as the Axis, Bob starts it."""
    sent = await harness.command(ALICE, "game create", game="pfv", role="allied")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="axis")
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(seed))
    players.read(await harness.command(BOB, "game start"))
    assert players.turn is not None and players.turn.user == ALICE.id
    return game_id, players


def last_action(players: Players) -> int:
    for sent in reversed(players.history):
        for s in replies(sent):
            m = ACTION.search(s.content)
            if m:
                return int(m.group(1))
    raise AssertionError("no order was acknowledged")


def check_front_end_rules(history: list[list[Sent]], players: dict[int, object]) -> None:
    """What must hold for every command: it was deferred before anything else, the
    answer to the caller is ephemeral, and a channel post pings at most one user: the
    one it tells that the decision is theirs."""
    for sent in history:
        assert sent[0].kind == "defer", [s.kind for s in sent]
        for s in replies(sent):
            assert s.ephemeral, s.content
            assert s.pinged == [], s.content
        for s in posts(sent):
            assert not s.ephemeral
            assert "<anyone>" not in s.pinged
            assert len(s.pinged) <= 1, s.content
            if s.pinged:
                turn = read_prompt(s.content)
                assert turn is not None and [str(turn.user)] == s.pinged, s.content
                assert turn.user in players


async def test_two_users_play_a_whole_game_with_a_moderator_rollback(harness):
    harness.settings.map_width = 640
    game_id, players = await new_pfv_game(harness, seed=7)

    while players.orders < 70:
        await players.move()
        assert not players.over

    # A moderator takes the last four actions back, in the middle of the game.
    head = last_action(players)
    sent = await harness.command(MODERATOR, "gm rollback", to=head - 4, reason="Alice misclicked")
    assert sent[0].kind == "defer" and sent[0].ephemeral
    [announcement] = posts(sent)
    assert "**Rollback.**" in announcement.content
    assert MODERATOR.mention in announcement.content
    assert f"back from action {head} to action {head - 4}" in announcement.content
    assert "Why: Alice misclicked" in announcement.content
    assert announcement.png is not None and announcement.png.startswith(PNG_MAGIC)
    turn = read_prompt(announcement.content)
    assert turn is not None and announcement.pinged == [str(turn.user)]
    assert MODERATOR.mention not in [f"<@{u}>" for u in announcement.pinged]
    players.read(sent)
    log = await harness.command(ALICE, "game log", last=10, all=True)
    assert "(undone)" in replies(log)[0].content

    while not players.over:
        assert players.orders < 600, "the game did not end"
        await players.move()

    check_front_end_rules(players.history, players.users)

    # After every player turn: the public map and that turn's log, in the channel.
    # A long log goes in several messages, each within Discord's limit, the map with the last.
    turns_over = [
        posts(sent) for sent in players.history if "player turn is over" in text(posts(sent))
    ]
    assert len(turns_over) >= 10
    for group in turns_over:
        assert all(len(s.content) <= 2000 for s in group)
        assert group[-1].png is not None and group[-1].png.startswith(PNG_MAGIC)
        assert re.search(r"`\d+` (allied|axis): `", text(group)), text(group)
    assert any(len(group) > 1 for group in turns_over), "no turn log needed splitting"

    # Battles post their dice as they happen, publicly, in the same command.
    battles = 0
    for sent in players.history:
        acks = [s for s in replies(sent) if "Dice: " in s.content]
        if acks:
            battles += 1
            assert any("Dice: " in s.content for s in posts(sent)), acks[0].content
    assert battles >= 3

    # The end: result, last map, and the dice secret made public.
    final = posts(players.history[-1])[-1]
    assert "is over" in final.content and "dice secret is now public" in final.content
    assert final.png is not None and final.pinged == []
    status = replies(await harness.command(BOB, "game status"))[0]
    assert "(finished)" in status.content and "Dice secret, revealed" in status.content

    # The log the bot kept replays exactly from its dice secret.
    report = await harness.service.verify(game_id)
    assert report.ok, report.problems


async def test_game_map_public_private_and_by_direct_message(harness):
    harness.settings.map_width = 480
    await new_pfv_game(harness, seed=3)
    public = await harness.command(BOB, "game map")
    assert public[0].kind == "defer" and not public[0].ephemeral
    [answer] = replies(public)
    assert not answer.ephemeral and answer.png.startswith(PNG_MAGIC)

    private = await harness.command(ALICE, "game map", private=True)
    assert private[0].ephemeral
    [mine] = replies(private)
    assert mine.ephemeral and mine.png.startswith(PNG_MAGIC) and "as **Allied** sees it" in mine.content
    assert posts(private) == []

    dm = await harness.command(BOB, "game map", dm=True)
    assert [s.kind for s in dm][:2] == ["defer", "POST /users/@me/channels"]
    [letter] = posts(dm)
    assert letter.channel != str(CHANNEL_ID) and letter.png.startswith(PNG_MAGIC)
    assert "as **Axis** sees it" in letter.content
    assert replies(dm)[0].ephemeral
