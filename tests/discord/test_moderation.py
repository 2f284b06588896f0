"""The moderators' seat, kick and end, and the players' own join, leave and list: each
audited by the service and announced in the channel without pinging anybody but the
player whose decision it becomes."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import OTHER_CHANNEL_ID, posts, replies
from tests.discord.test_refusals import only_refusal, toy_game


async def test_a_moderator_seats_a_new_player_who_is_pinged_when_the_decision_is_theirs(harness):
    game_id = await toy_game(harness)
    [post] = posts(
        await harness.command(
            MODERATOR, "gm seat", role="north", user=CAROL, reason="Alice is away"
        )
    )
    assert (
        f"seated {CAROL.mention} as **north**" in post.content
        and f"replacing {ALICE.mention}" in post.content
    )
    assert post.pinged == [str(CAROL.id)]  # north must decide now
    only_refusal(await harness.command(ALICE, "order", text="take 1"))
    assert replies(await harness.command(CAROL, "order", text="take 1"))[0].content.startswith(
        "Action 1"
    )
    audit = [a for a in await harness.service.audit(game_id) if a["act"] == "seat"]
    assert audit[-1]["detail"] == {"role": "north", "from": str(ALICE.id), "to": str(CAROL.id)}
    assert audit[-1]["why"] == "Alice is away"


async def test_a_moderator_kicks_a_player_and_their_seat_becomes_free(harness):
    await toy_game(harness)
    [post] = posts(await harness.command(MODERATOR, "gm kick", user=BOB, reason="left the server"))
    assert "south now free" in post.content and post.pinged == []
    refusal = only_refusal(await harness.command(MODERATOR, "gm kick", user=BOB, reason="again"))
    assert (
        refusal
        == f"{BOB.mention} holds no seat in game {(await harness.service.list_games())[0].game}."
    )
    [post] = posts(await harness.command(CAROL, "game join"))
    assert f"{CAROL.mention} joins game" in post.content and "as **south**" in post.content


async def test_a_moderator_ends_the_game_and_the_dice_secret_is_revealed(harness):
    await toy_game(harness)
    sent = await harness.command(MODERATOR, "gm end", reason="both players agreed")
    [post] = posts(sent)
    assert (
        "Why: both players agreed" in post.content and "dice secret is now public" in post.content
    )
    assert post.pinged == []
    assert "is over" in only_refusal(await harness.command(ALICE, "order", text="take 1"))


async def test_players_join_leave_and_list_their_games(harness):
    sent = await harness.command(ALICE, "game create", game="toy")
    assert [c["value"] for c in await harness.autocomplete(BOB, "game join", "role")] == [
        "north",
        "south",
    ]
    await harness.command(BOB, "game join", role="south")
    assert [c["value"] for c in await harness.autocomplete(ALICE, "game join", "role")] == ["north"]
    [post] = posts(await harness.command(BOB, "game leave"))
    assert "leaves **south**" in post.content
    assert "cannot start while north, south has no player" in only_refusal(
        await harness.command(ALICE, "game start")
    )
    await harness.command(ALICE, "game create", game="toy", channel=OTHER_CHANNEL_ID)
    listing = replies(await harness.command(CAROL, "game list"))[0]
    assert listing.ephemeral and listing.content.count("toy standard, open") == 2
    assert "(yours)" not in listing.content
    assert replies(await harness.command(ALICE, "game list"))[0].content.count("(yours)") == 2
    assert sent[0].kind == "defer"
