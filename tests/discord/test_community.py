"""/game mine, /game export and /help (issue 15 items 3 and 4), through the real tree."""

from __future__ import annotations

import json

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import GUILD_ID, OTHER_CHANNEL_ID, posts, replies
from tests.discord.test_refusals import only_refusal, toy_game


async def test_game_mine_lists_the_callers_games_with_whose_move_first(harness):
    first = await toy_game(harness)  # Alice (north) to move
    await harness.command(BOB, "game create", game="toy", role="north", channel=OTHER_CHANNEL_ID)
    sent = await harness.command(ALICE, "game mine")
    assert sent[0].kind == "defer" and sent[0].ephemeral and posts(sent) == []
    [listing] = replies(sent)
    lines = listing.content.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"`{first}`")
    assert "**your move** as north" in lines[0]
    assert f"https://discord.com/channels/{GUILD_ID}/" in lines[0]
    assert "due <t:" in lines[0]  # the default policy gives the decision a deadline

    bob = replies(await harness.command(BOB, "game mine"))[0].content.splitlines()
    assert len(bob) == 2
    assert "north's move" in bob[0] and "waiting for players (south free)" in bob[1]
    assert str(OTHER_CHANNEL_ID) in bob[1]
    nothing = replies(await harness.command(CAROL, "game mine"))[0]
    assert nothing.ephemeral and "no game under way" in nothing.content


async def test_game_export_keeps_the_secret_until_the_end(harness):
    game = await toy_game(harness)
    sent = await harness.command(CAROL, "game export")
    [answer] = replies(sent)
    assert answer.ephemeral and posts(sent) == []
    [(name, blob)] = answer.files
    assert name == f"umpire-{game}.json"
    data = json.loads(blob)
    assert data["game"]["id"] == game and data["secret"] is None
    assert "left out" in answer.content

    await harness.command(MODERATOR, "gm end", reason="agreed")
    [after] = replies(await harness.command(CAROL, "game export"))
    data = json.loads(after.files[0][1])
    assert data["secret"] == (await harness.service.status(game)).secret
    assert "carries the dice secret" in after.content

    assert "No game" in only_refusal(
        await harness.command(ALICE, "game export", channel=OTHER_CHANNEL_ID)
    )


async def test_help_gives_the_guide_and_each_games_rulings(harness):
    [general] = replies(await harness.command(CAROL, "help"))
    assert general.ephemeral and "/game mine" in general.content and "`pfv`" in general.content
    [pfv] = replies(await harness.command(CAROL, "help", game="pfv"))
    assert "Patton's First Victory" in pfv.content
    assert "engine/games/pfv/RULINGS.md" in pfv.content
    [aa] = replies(await harness.command(CAROL, "help", game="aa-revised"))
    assert "engine/games/aa_revised/RULINGS.md" in aa.content
    [unknown] = replies(await harness.command(CAROL, "help", game="chess"))
    assert unknown.ephemeral and "no game 'chess'" in unknown.content
    offered = [c["value"] for c in await harness.autocomplete(CAROL, "help", "game", game="aa")]
    assert offered == ["aa-revised", "aa-na"]
    [na] = replies(await harness.command(CAROL, "help", game="aa-na"))
    assert "engine/games/aa_na/RULINGS.md" in na.content


async def test_game_map_of_a_past_turn_public_or_as_ones_own_side(harness):
    game = await toy_game(harness)
    await harness.command(ALICE, "order", text="take 1")
    await harness.command(BOB, "order", text="take 1")  # turn 2 begins
    assert (await harness.service.status(game)).progress.turn == 2

    sent = await harness.command(CAROL, "game map", turn=1)
    [public] = replies(sent)
    assert not public.ephemeral and "start of turn 1 (after action 0)." in public.content
    [now] = replies(await harness.command(CAROL, "game map", turn=2))
    assert "start of turn 2 (after action 2)." in now.content

    [mine] = replies(await harness.command(ALICE, "game map", turn=1, private=True))
    assert mine.ephemeral and "as **north** saw it" in mine.content
    assert "no seat" in only_refusal(await harness.command(CAROL, "game map", turn=1, private=True))
    # the public placeholder goes; the refusal is the caller's alone
    sent = await harness.command(CAROL, "game map", turn=9)
    [refusal] = replies(sent)
    assert refusal.ephemeral and "not turn 9" in refusal.content and posts(sent) == []
    assert "delete-original" in [s.kind for s in sent]


async def test_a_game_thread_keeps_the_longest_auto_archive(harness):
    sent = await harness.command(ALICE, "game create", game="toy", thread=True)
    [made] = [s for s in sent if s.kind == "POST /channels/{channel_id}/threads"]
    assert made.payload["auto_archive_duration"] == 10080
