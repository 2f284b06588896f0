"""``/odds`` serves every game that has odds (issue 15 item 2): dispatched on the ruleset
of the game named, else of the channel's game; a game without odds is told so."""

from __future__ import annotations

from bot.discord.cogs.odds import ODDS
from bot.odds_games import tac_odds
from engine.games.tac.board import Board
from engine.games.tac.odds import column_odds
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import OTHER_CHANNEL_ID, replies
from tests.discord.test_game import new_pfv_game

NO_ODDS = (
    "Patton's First Victory: Tunisia 1943 has no odds calculator in Umpire; /odds works for "
    "Axis & Allies Revised (`aa-revised`), Axis & Allies: North Africa (`aa-na`), "
    "The African Campaign (`tac`)."
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


async def test_tac_odds_give_the_column_and_each_results_chance(harness):
    """The African Campaign through the same dispatch: totals typed, the CRT column and the
    chance of each result (TAC 9.0, 9.3-9.7, 15.1, 9.4), as ``umpire odds tac`` prints them."""
    sent = await harness.command(
        ALICE, "odds", attacker="12, 2 air", defender="4, ridge", game="tac"
    )
    [answer] = replies(sent)
    assert answer.ephemeral
    text = answer.content.strip("`\n")
    assert text == tac_odds(12, 4, air=2, ridge=True).text()
    lines = text.splitlines()
    assert lines[1] == "column 1-1"
    chances = [x.chance for x in column_odds(Board(), "1-1", 0)]
    assert [line.split()[0] for line in lines[2:]] == [f"{float(c):.2%}" for c in chances]
    [bad] = replies(
        await harness.command(ALICE, "odds", attacker="twelve", defender="4", game="tac")
    )
    assert bad.ephemeral and bad.content == (
        "attacker: 'twelve' is not a whole number; write it as in '12, 2 air, die +2'."
    )
    [sea] = replies(
        await harness.command(ALICE, "odds", attacker="3", defender="2", sea=True, game="tac")
    )
    assert sea.ephemeral and "one roll on the table" in sea.content


async def test_odds_in_a_tac_channel_are_tacs(harness):
    await harness.command(ALICE, "game create", game="tac", role="allied", channel=OTHER_CHANNEL_ID)
    sent = await harness.command(
        ALICE, "odds", attacker="3, die +2", defender="2", channel=OTHER_CHANNEL_ID
    )
    [answer] = replies(sent)
    assert "column 1-1, die +2" in answer.content
    assert answer.content.strip("`\n") == tac_odds(3, 2, modifier=2).text()
    assert "tac" in ODDS


async def test_north_africa_odds_follow_the_losses_given(harness):
    """``losses:`` gives North Africa's casualty order (L785), first lost first, as
    ``umpire odds aa-na --order`` does; the other games' odds refuse it in a sentence."""
    from bot.odds_games import na_odds

    attacker, defender = "3 ger.infantry, 2 ger tank", "3 uk infantry, 1 uk tank"
    [plain] = replies(
        await harness.command(ALICE, "odds", attacker=attacker, defender=defender, game="aa-na")
    )
    [given] = replies(
        await harness.command(
            ALICE, "odds", attacker=attacker, defender=defender, game="aa-na", losses="tank"
        )
    )
    assert given.content.strip("`\n") == na_odds(attacker, defender, order="tank").text()
    assert given.content != plain.content  # losing tanks first changes the odds
    [bad] = replies(
        await harness.command(
            ALICE, "odds", attacker="1 inf", defender="1 inf", game="tac", losses="tank"
        )
    )
    assert bad.ephemeral and bad.content.startswith("losses: is for North Africa's odds")
