"""Private close-ups (issue 15 item 4), through the real command tree and the real
buttons: ``/game map private:True`` and the My view button give a player, privately, the
close-up of the latest action beside their own map, as the channel's turn post has it.
The close-up is cut from that player's own view: what is drawn is compared with what the
service shows that role, and an enemy's close-up draws no piece hidden from them (in
Patton's First Victory the pieces under the top of an enemy stack are hidden)."""

from __future__ import annotations

import io
import random
import re

import pytest
from discord import Interaction, app_commands
from PIL import Image

import renderer.closeup as closeup_module
from bot.discord.images import PICTURES, role_title
from renderer.closeup import CLOSEUP_WIDTH, MAX_HEIGHT, places_named
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import CHANNEL_ID, PNG_MAGIC, click, posts, replies
from tests.discord.players import Players
from tests.discord.test_buttons import last_with
from tests.discord.test_closeup import play_until_a_turn_ends
from tests.discord.test_game import new_pfv_game

TITLE = "**Patton's First Victory: Tunisia 1943**"
SEATS = {"allied": ALICE, "axis": BOB}
#: the number of an action in a posted log line
LOGGED = re.compile(r"^`(\d+)` ", re.M)


@pytest.fixture
def cuts(monkeypatch):
    """Every close-up drawn meanwhile, as (the view it was drawn from, the cut)."""
    drawn: list[tuple[object, closeup_module.Closeup]] = []
    real = closeup_module.closeup

    def recording(view, places=None, width=CLOSEUP_WIDTH):
        cut = real(view, places, width)
        if cut is not None:
            drawn.append((view, cut))
        return cut

    monkeypatch.setattr(closeup_module, "closeup", recording)
    PICTURES.clear()  # drawn again, not taken from an earlier test's pictures
    return drawn


def counters(view) -> set[str]:
    return {c.id for s in view.stacks for c in s.counters if c.id}


def turn_actions(sent) -> set[int]:
    """The actions of the player turn whose end the channel was just told (its log may
    take several posts)."""
    group = posts(sent)
    at = next(i for i, p in enumerate(group) if "player turn is over" in p.content)
    return {int(n) for p in group[at:] for n in LOGGED.findall(p.content)}


async def check_private_closeup(
    harness, game: str, role: str, sent, cuts, actions: set[int]
) -> set[str]:
    """``sent`` answered ``role``'s player with the close-up of the places the orders of
    ``actions`` (the latest player turn) name as that role reads them, then the map,
    privately, and cut from that role's own view; the faces the close-up draws."""
    assert sent[0].kind == "defer" and sent[0].ephemeral and posts(sent) == []
    close, whole = replies(sent)
    assert close.ephemeral and whole.ephemeral
    name = role_title("pfv", role)
    assert close.content.startswith(f"Close-up of the latest action in {TITLE} (game `{game}`)")
    assert f"as **{name}** sees it" in close.content and f"as **{name}** sees it" in whole.content
    assert close.png.startswith(PNG_MAGIC) and whole.png.startswith(PNG_MAGIC)
    assert close.png != whole.png
    image = Image.open(io.BytesIO(close.png))
    assert image.width <= CLOSEUP_WIDTH and image.height <= MAX_HEIGHT

    own = (await harness.service.view(game, str(SEATS[role].id), role)).view
    public = (await harness.service.view(game, None)).view
    [(drawn_from, cut)] = cuts
    assert drawn_from == own and drawn_from != public  # the role's own view, nothing else
    assert cut.png() == close.png
    orders = [
        line.order
        for line in await harness.service.game_log(game, audience=role)
        if line.seq in actions
    ]
    places = places_named(own, orders)
    assert places and set(cut.places) <= set(places)  # all, or the busiest part
    assert ", ".join(cut.places[:6]) in close.content
    cuts.clear()
    faces = {p.id for p in cut.pieces if p.id}
    assert faces and faces <= counters(own)
    return faces


async def test_an_enemys_private_close_up_draws_none_of_the_pieces_hidden_from_them(harness, cuts):
    game, players = await new_pfv_game(harness, seed=4)
    await play_until_a_turn_ends(players, 300)  # the Allied set-up
    actions = turn_actions(await play_until_a_turn_ends(players, 300))  # the Axis set-up
    cuts.clear()
    views = {
        role: (await harness.service.view(game, str(user.id), role)).view
        for role, user in SEATS.items()
    }
    for role, user in SEATS.items():
        enemy = "axis" if role == "allied" else "allied"
        hidden = counters(views[enemy]) - counters(views[role])
        assert hidden, f"the {enemy} player has pieces the {role} player may not see"
        sent = await harness.command(user, "game map", private=True)
        places = [p for _, cut in cuts for p in cut.places]
        faces = await check_private_closeup(harness, game, role, sent, cuts, actions)
        assert not faces & hidden, (role, faces & hidden)
        # the same places cut from the enemy's view draw some of them: the close-up is
        # where pieces hidden from this player are, and it left them out
        theirs = closeup_module.closeup(views[enemy], places)
        cuts.clear()
        assert {p.id for p in theirs.pieces if p.id} & hidden


async def test_the_my_view_button_gives_the_same_private_close_up(harness, cuts):
    game, players = await new_pfv_game(harness, seed=4)
    sent = await play_until_a_turn_ends(players, 300)
    cuts.clear()
    notice = last_with(posts(sent), f"umpire:view:{game}")
    for role, user in SEATS.items():
        clicked = await click(harness, user, notice, f"umpire:view:{game}")
        await check_private_closeup(harness, game, role, clicked, cuts, turn_actions(sent))


async def test_by_direct_message_the_close_up_goes_first(harness, cuts):
    game, players = await new_pfv_game(harness, seed=4)
    await play_until_a_turn_ends(players, 300)
    cuts.clear()
    sent = await harness.command(BOB, "game map", dm=True)
    close, whole = posts(sent)
    assert close.channel == whole.channel != str(CHANNEL_ID)
    assert close.content.startswith(f"Close-up of the latest action in {TITLE} (game `{game}`)")
    assert "as **Axis** sees it" in close.content and "as **Axis** sees it" in whole.content
    [(drawn_from, cut)] = cuts
    assert drawn_from == (await harness.service.view(game, str(BOB.id), "axis")).view
    assert close.png == cut.png() and whole.png.startswith(PNG_MAGIC)
    [answer] = replies(sent)
    assert answer.ephemeral and "direct messages" in answer.content


async def test_no_action_yet_no_close_up_only_the_map(harness, cuts):
    game, _ = await new_pfv_game(harness, seed=4)
    sent = await harness.command(BOB, "game map", private=True)
    [whole] = replies(sent)
    assert whole.ephemeral and whole.png.startswith(PNG_MAGIC) and cuts == []
    assert whole.content.startswith(f"{TITLE} (game `{game}`) as **Axis** sees it")


async def test_captions_name_the_game_and_roles_as_players_read_them(harness):
    await harness.command(ALICE, "game create", game="pfv", role="allied")
    await harness.command(BOB, "game join", role="axis")
    started = await harness.command(BOB, "game start")
    [game] = [g.game for g in await harness.service.list_games()]
    assert any(p.content.startswith(f"{TITLE} (game `{game}`) begins.") for p in posts(started))
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(4))
    players.read(started)
    [public] = replies(await harness.command(BOB, "game map"))
    assert public.content.startswith(f"{TITLE} (game `{game}`), turn 1:")
    sent = await play_until_a_turn_ends(players, 300)
    assert "**Turn 1: the Allied player turn is over.**" in "\n".join(
        p.content for p in posts(sent)
    )
    [close] = [p for p in posts(sent) if p.content.startswith("Close-up of the action")]
    assert close.content.startswith(f"Close-up of the action in {TITLE} (game `{game}`): ")
    [past] = replies(await harness.command(ALICE, "game map", turn=1, private=True))
    assert f"{TITLE} (game `{game}`) at the start of turn 1" in past.content
    assert "as **Allied** saw it" in past.content
    assert role_title("aa-revised", "ussr-usa") == "Soviet Union and United States"
    assert role_title("aa-revised", "allies") == "Allies"
    assert role_title("toy", "north") == "north"  # a game that names none keeps the id


async def test_the_harness_shows_a_first_follow_up_as_its_deferral_was(harness):
    """Discord's rule the harness enforces: the first follow-up after "thinking..."
    replaces that placeholder, so it stays private after a private deferral, and one
    meant to be private after a public deferral would be public, which fails the test."""

    @app_commands.command(name="quiet", description="defers privately, follows up plainly")
    async def quiet(interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("first")
        await interaction.followup.send("second")

    @app_commands.command(name="leaky", description="defers publicly, follows up privately")
    async def leaky(interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=False, thinking=True)
        await interaction.followup.send("secret", ephemeral=True)

    harness.bot.tree.add_command(quiet)
    harness.bot.tree.add_command(leaky)
    first, second = replies(await harness.command(ALICE, "quiet"))
    assert first.ephemeral and not second.ephemeral  # only the first takes the deferral's
    with pytest.raises(AssertionError, match="private follow-up after a public deferral"):
        await harness.command(ALICE, "leaky")


async def test_an_axis_and_allies_player_gets_the_close_up_of_their_own_world_map(harness, cuts):
    await harness.command(
        ALICE, "game create", game="aa-revised", scenario="two-players", role="allies"
    )
    await harness.command(BOB, "game join", role="axis")
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(2))
    players.read(await harness.command(ALICE, "game start"))
    [game] = [g.game for g in await harness.service.list_games()]
    for _ in range(3):  # the first powers' turns may move nothing
        sent = await play_until_a_turn_ends(players, 400)
        if any(p.content.startswith("Close-up of the action") for p in posts(sent)):
            break
    cuts.clear()
    mine = await harness.command(ALICE, "game map", private=True)
    close, whole = replies(mine)
    assert close.ephemeral and whole.ephemeral and posts(mine) == []
    assert "as **Allies** sees it" in close.content and "as **Allies** sees it" in whole.content
    [(drawn_from, cut)] = cuts
    assert drawn_from == (await harness.service.view(game, str(ALICE.id), "allies")).view
    assert close.png == cut.png()
