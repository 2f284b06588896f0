"""The close-up beside the map (issue 15 item 4) and the finished-picture cache (item 6),
through the real command tree: after a player turn, the channel gets a close-up of where
the turn's orders were, cut from the public view, 550 pixels wide; a map asked for again
is not drawn again."""

from __future__ import annotations

import io
import random
import re

from PIL import Image

from bot.discord.images import PICTURES, logged_orders, render
from renderer import render_png
from renderer.closeup import CLOSEUP_WIDTH, MAX_HEIGHT, closeup, places_named
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import PNG_MAGIC, posts, replies
from tests.discord.players import Players
from tests.discord.test_game import new_pfv_game

TURN_OVER = "player turn is over"
CLOSE_UP = "Close-up of the action"


async def play_until_a_turn_ends(players: Players, limit: int) -> list:
    while True:
        assert players.orders < limit, "no player turn ended"
        sent = await players.move()
        if any(TURN_OVER in p.content for p in posts(sent)):
            return sent


async def check_the_close_up(harness, sent: list, game_id: str) -> tuple[list[str], object]:
    """The close-up post of a turn's end, checked against the public view; its places."""
    group = posts(sent)
    [at] = [i for i, p in enumerate(group) if p.content.startswith(CLOSE_UP)]
    turn = next(i for i, p in enumerate(group) if TURN_OVER in p.content)
    assert at < turn, "the close-up goes just before the turn's log and its map"
    post = group[at]
    assert post.pinged == [] and post.png is not None and post.png.startswith(PNG_MAGIC)
    assert group[-1].png is not None and group[-1].png != post.png  # the full map, last
    image = Image.open(io.BytesIO(post.png))
    assert image.width <= CLOSEUP_WIDTH and image.height <= MAX_HEIGHT

    # the places the turn's orders named, as the channel read them
    log = "\n".join(p.content for p in group[turn:])
    view = (await harness.service.view(game_id, None)).view
    places = places_named(view, logged_orders(log))
    assert places, log
    # it is the close-up of exactly those places, cut from the public view
    cut = closeup(view, places)
    assert cut is not None and cut.png() == post.png
    assert cut.places and set(cut.places) <= set(places)  # all, or the busiest part
    assert ", ".join(cut.places[:6]) in post.content
    assert all(0 <= x <= image.width and 0 <= y <= image.height for x, y in cut.points.values())
    return places, cut


async def test_a_turns_end_posts_a_close_up_of_its_action_from_the_public_view(harness):
    game_id, players = await new_pfv_game(harness, seed=4)
    sent = await play_until_a_turn_ends(players, 300)
    places, cut = await check_the_close_up(harness, sent, game_id)
    moved = {
        w
        for order in logged_orders("\n".join(p.content for p in posts(sent)))
        for w in order.split()
        if re.fullmatch(r"\d{4}", w)
    }
    assert moved and moved <= set(places)
    # the public close-up shows no piece the public may not see: every face it draws is
    # in the public view, and the pieces under the top of a stack are blank backs
    public = (await harness.service.view(game_id, None)).view
    faces = {p.id for p in cut.pieces if p.id}
    assert faces <= {c.id for s in public.stacks for c in s.counters}
    allied = (await harness.service.view(game_id, ALICE and str(ALICE.id), "allied")).view
    axis = (await harness.service.view(game_id, str(BOB.id), "axis")).view
    secret = {c.id for v in (allied, axis) for s in v.stacks for c in s.counters} - {
        c.id for s in public.stacks for c in s.counters
    }
    assert not secret & faces


async def test_an_axis_and_allies_turn_gets_a_close_up_of_the_world_map(harness):
    await harness.command(
        ALICE, "game create", game="aa-revised", scenario="two-players", role="allies"
    )
    await harness.command(BOB, "game join", role="axis")
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(2))
    players.read(await harness.command(ALICE, "game start"))
    [game] = await harness.service.list_games()
    for _ in range(3):  # the first powers' turns may move nothing
        sent = await play_until_a_turn_ends(players, 400)
        if any(p.content.startswith(CLOSE_UP) for p in posts(sent)):
            break
    await check_the_close_up(harness, sent, game.game)


async def test_a_map_asked_for_again_is_not_drawn_again(harness):
    drawn: list[int] = []

    def draw(view, width):
        drawn.append(width)
        return render_png(view, width)

    harness.bot.table.draw = draw
    await new_pfv_game(harness, seed=1)
    assert drawn, "the start's post drew the public map"
    drawn.clear()
    hits = PICTURES.hits
    [first] = replies(await harness.command(ALICE, "game map"))
    [second] = replies(await harness.command(CAROL, "game map"))
    assert first.png.startswith(PNG_MAGIC) and second.png == first.png
    assert drawn == [] and PICTURES.hits == hits + 2  # both from the start's picture
    # a private view is another picture, drawn once
    [mine] = replies(await harness.command(ALICE, "game map", private=True))
    [again] = replies(await harness.command(ALICE, "game map", private=True))
    assert mine.png != first.png and again.png == mine.png and len(drawn) == 1


async def test_another_width_or_a_moved_game_is_another_picture(harness):
    drawn: list[int] = []

    def draw(view, width):
        drawn.append(width)
        return render_png(view, width)

    _, players = await new_pfv_game(harness, seed=1)
    [game] = await harness.service.list_games()
    view = (await harness.service.view(game.game, None)).view
    wide, _ = await render(view, 1200, 10**7, draw)
    narrow, _ = await render(view, 800, 10**7, draw)
    assert await render(view, 800, 10**7, draw) == (narrow, "")
    assert wide != narrow and drawn == [1200, 800]
    await players.move()  # the game moves on: its view, and so its picture, changes
    moved = (await harness.service.view(game.game, None)).view
    await render(moved, 800, 10**7, draw)
    assert drawn == [1200, 800, 800]
