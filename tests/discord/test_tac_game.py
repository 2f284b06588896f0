"""The African Campaign through the Discord command tree: two users play its opening
turns with ``/order`` (moves, a minefield call, an attack and its resolution), the way
Patton's First Victory and Axis & Allies are played (the bot knows no game).

The secret of TAC is the minefield counters (16.0 procedure, L677; RULINGS): a side sees
the values it draws, nobody sees a laid counter's value. The channel, and the other
player's answers, must never name a counter drawn by a side.
"""

from __future__ import annotations

import re

from engine.core.hexgrid_rows import distance
from engine.games.tac.mines import describe
from engine.games.tac.state import ALLIED
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import PNG_MAGIC, Sent, posts, replies, text

GAME_ID = re.compile(r"Created game `(\w+)`")
MAX_ORDERS = 400


def gap(state, hex_id: str) -> int:
    """How far ``hex_id`` is from the nearest unit of the side not moving now."""
    foes = [u.hex for u in state.units.values() if u.where == "map" and u.side != state.player]
    return min(distance(hex_id, h) for h in foes)


def gap_now(state, move: str) -> int:
    """How far the first unit of ``move`` stands from the enemy now."""
    return gap(state, state.units[move.split()[1].split(",")[0]].hex)


def pick(ruleset, state, moves_made: int) -> str:
    """The next order, chosen from the legal ones: call a minefield when offered, up to
    four moves toward the enemy per Movement Phase, every attack offered, then the first
    choice of each step of a battle."""
    prompt = ruleset.prompt(state)
    offered = [o.text() for o in ruleset.legal_orders(state, prompt.role)]
    assert offered, f"no legal order at: {prompt.text}"
    by_verb = {}
    for o in offered:
        by_verb.setdefault(o.split()[0], []).append(o)
    if prompt.kind == "mines":
        return (by_verb.get("call") or by_verb["done"])[0]
    if prompt.kind == "move":
        closer = [
            o for o in by_verb.get("move", []) if gap(state, o.split()[-1]) < gap_now(state, o)
        ]
        if moves_made < 4 and closer:
            return min(closer, key=lambda o: (gap(state, o.split()[-1]), o))
        return "done"
    if prompt.kind == "combat":
        return (by_verb.get("attack") or by_verb["done"])[0]
    return offered[0]


async def test_the_opening_turns_of_a_tac_game_through_slash_commands(harness):
    harness.settings.map_width = 640
    sent = await harness.command(ALICE, "game create", game="tac", role="allied")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="axis")
    history: list[tuple[int, list[Sent]]] = [(BOB.id, await harness.command(BOB, "game start"))]

    # autocomplete offers the Allied player's orders of the first turn
    offered = await harness.autocomplete(ALICE, "order", "text")
    assert any(c["value"] in ("done", "call") or c["value"].startswith("move") for c in offered)
    refused = await harness.command(BOB, "order", text="done")
    assert replies(refused)[0].ephemeral and "Allied" in replies(refused)[0].content

    seen = {"attack": 0, "resolve": 0, "call": 0, "move": 0}
    moves_made, phase = 0, None
    for _ in range(MAX_ORDERS):
        ruleset, state, _ = await harness.service.live_state(game_id)
        if state.turn >= 3 and seen["resolve"] and seen["call"]:
            break
        if (state.player, state.phase) != phase:
            phase, moves_made = (state.player, state.phase), 0
        order = pick(ruleset, state, moves_made)
        user = ALICE if ruleset.prompt(state).role == ALLIED else BOB
        sent = await harness.command(user, "order", text=order)
        history.append((user.id, sent))
        verb = order.split()[0]
        assert any(re.search(r"^Action \d+, ", s.content, re.M) for s in replies(sent)), (
            order,
            [s.content for s in sent],
        )
        seen[verb] = seen.get(verb, 0) + 1
        moves_made += verb == "move"
    ruleset, state, head = await harness.service.live_state(game_id)
    assert state.turn >= 3, f"stopped at turn {state.turn}"
    assert seen["move"] >= 4 and seen["attack"] >= 1 and seen["resolve"] >= 1, seen
    assert seen["call"] >= 1, "no minefield was called"

    # the battles' dice went to the channel as they were rolled
    assert any("Dice: " in text(posts(s)) for _, s in history)
    # a unit moved from where it was set up, and the map shows the game as it stands
    shown = await harness.command(BOB, "game map")
    assert any(s.png and s.png.startswith(PNG_MAGIC) for s in shown)

    # no minefield a side drew is named where the other side (or the channel) reads
    drawn = {
        side: {m for m in state.mines["hands"][side]} | set(state.mines["map"].values())
        for side in state.mines["hands"]
    }
    assert drawn[ALLIED] or drawn["axis"], "nobody drew a minefield"
    channel = " ".join(text(posts(s)) for _, s in history)
    secrets = set().union(*drawn.values())
    for m in secrets:
        assert not re.search(rf"minefield {re.escape(m)}\b", channel), m
    to_bob = " ".join(s.content for uid, sent in history if uid == BOB.id for s in replies(sent))
    for m in state.mines["hands"][ALLIED]:
        assert not re.search(rf"minefield {re.escape(m)}\b", to_bob), m
    # while the drawer's own answer names the counter it drew
    mine = " ".join(s.content for uid, sent in history for s in replies(sent))
    assert re.search(r"draws minefield \w+", mine), "no draw was shown to its drawer"

    # the map each role is given: a side's hand in its own view only, on the map a hex
    public = (await harness.service.view(game_id, None)).view
    theirs = (await harness.service.view(game_id, None, "axis", moderator=True)).view
    hands = {
        v.viewer: [n for n in v.notes if n.startswith("Your minefields in hand")]
        for v in (public, theirs)
    }
    axis_hand = state.mines["hands"]["axis"]
    listed = ", ".join(describe(ruleset.board, m) for m in axis_hand)
    assert hands == {
        None: [],
        "axis": [f"Your minefields in hand (16.0): {listed}."] if axis_hand else [],
    }
    assert {k.hex for k in public.markers if k.kind == "minefield"} == set(state.mines["map"])
    assert all(k.text == "" for k in public.markers if k.kind == "minefield")
