"""``/odds`` serves every game that has odds (issue 15 item 2): dispatched on the ruleset
of the game named, else of the channel's game; a game without odds is told so."""

from __future__ import annotations

from bot.discord.cogs.odds import ODDS
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import OTHER_CHANNEL_ID, replies
from tests.discord.test_game import new_pfv_game

NO_ODDS = (
    "Patton's First Victory: Tunisia 1943 has no odds calculator in Umpire; /odds works for "
    "Axis & Allies Revised (`aa-revised`), Axis & Allies: North Africa (`aa-na`)."
)


async def test_odds_in_a_channel_without_odds_says_so_in_one_sentence(harness):
    await new_pfv_game(harness, seed=1)
    sent = await harness.command(ALICE, "odds", attacker="1 infantry", defender="1 infantry")
    [answer] = replies(sent)
    assert answer.ephemeral and answer.content == NO_ODDS
    assert "pfv" not in ODDS
    # naming the game with odds answers there all the same
    sent = await harness.command(
        ALICE, "odds", attacker="1 infantry", defender="1 infantry", game="aa-revised"
    )
    assert "attacker wins    25.00%" in replies(sent)[0].content


async def test_odds_follow_the_game_of_the_channel_and_refuse_an_unknown_game(harness):
    await harness.command(
        ALICE,
        "game create",
        game="aa-revised",
        scenario="two-players",
        role="allies",
        channel=OTHER_CHANNEL_ID,
    )
    sent = await harness.command(
        BOB, "odds", attacker="3 inf, 1 art", defender="2 inf", channel=OTHER_CHANNEL_ID
    )
    assert "attacker wins" in replies(sent)[0].content
    [refused] = replies(
        await harness.command(BOB, "odds", attacker="1 inf", defender="1 inf", game="chess")
    )
    assert refused.ephemeral and "There is no game 'chess'" in refused.content
    assert "Traceback" not in refused.content


async def test_the_game_option_offers_every_game_and_marks_those_without_odds(harness):
    choices = await harness.autocomplete(ALICE, "odds", "game")
    values = {c["value"]: c["name"] for c in choices}
    assert values["aa-revised"].startswith("Axis & Allies Revised")
    assert values["pfv"].endswith(": no odds")
