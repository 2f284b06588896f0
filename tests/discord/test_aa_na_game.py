"""Axis & Allies: North Africa through the Discord command tree: two users play Germany's
opening turn of Rommel's Last Push with ``/order`` (requisition, a combat move, an attack
declared and its battle fought to the end, a non-combat move, deployment), the way the
other games are played (the bot knows no game). North Africa hides nothing (RULINGS:
hidden information), so both players and the channel read the same map.
"""

from __future__ import annotations

import re

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import PNG_MAGIC, Sent, posts, replies, text

GAME_ID = re.compile(r"Created game `(\w+)`")
MAX_ORDERS = 300


def pick(ruleset, state, done_here: dict[str, int], state_moved_to: dict[str, str]) -> str:
    """The next order, from the legal ones: two infantry bought, one land move and one
    attack declared, every declared battle resolved (each decision of a battle the first
    offered, fighting rather than withdrawing), one non-combat move, one deployment."""
    prompt = ruleset.prompt(state)
    offered = [o.text() for o in ruleset.legal_orders(state, prompt.role)]
    assert offered, f"no legal order at: {prompt.text}"
    by_verb: dict[str, list[str]] = {}
    for o in offered:
        by_verb.setdefault(o.split()[0], []).append(o)
    count = done_here.get(prompt.kind, 0)
    finish = "done" if "done" in offered else offered[0]
    land_moves = [o for o in by_verb.get("move", []) if not o.split()[1].startswith("u")]
    if prompt.kind == "requisition":
        buy = [o for o in by_verb.get("buy", []) if o == "buy 1 infantry"]
        return buy[0] if count < 2 and buy else "done"
    if prompt.kind == "combat_move":
        if count == 0 and land_moves:
            state_moved_to["to"] = land_moves[0].split()[-1]
            return land_moves[0]
        # the units that moved must attack (L688): declare from where they went
        moved_to = state_moved_to.get("to")
        declares = sorted(by_verb.get("declare", []), key=lambda o: o.split()[1] != moved_to)
        if declares and (count <= 1 or "done" not in offered):
            return declares[0]
        return "done" if "done" in offered else offered[0]
    if prompt.kind == "combat":
        return (by_verb.get("resolve") or by_verb["done"])[0]
    if prompt.kind == "orders":
        return (by_verb.get("fight") or offered)[0]
    if prompt.kind == "noncombat":
        return land_moves[0] if count == 0 and land_moves else finish
    if prompt.kind == "deploy":
        return by_verb["deploy"][0] if count == 0 and by_verb.get("deploy") else finish
    return offered[0]


async def test_germanys_opening_turn_of_north_africa_through_slash_commands(harness):
    harness.settings.map_width = 640
    sent = await harness.command(ALICE, "game create", game="aa-na", scenario="rlp-2", role="axis")
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="allies")
    history: list[tuple[int, list[Sent]]] = [(BOB.id, await harness.command(BOB, "game start"))]

    # autocomplete offers Germany's requisition; the Allied player may not order now
    offered = await harness.autocomplete(ALICE, "order", "text")
    assert any(c["value"].startswith("buy 1 infantry") for c in offered), offered
    refused = await harness.command(BOB, "order", text="done")
    assert replies(refused)[0].ephemeral and "allies" in replies(refused)[0].content.lower()

    ruleset, state, _ = await harness.service.live_state(game_id)
    opening = (state.round, state.power)
    seen: dict[str, int] = {}
    done_here: dict[str, int] = {}
    kind = None
    moved_to: dict[str, str] = {}
    for _ in range(MAX_ORDERS):
        ruleset, state, _ = await harness.service.live_state(game_id)
        if (state.round, state.power) != opening:
            break
        prompt = ruleset.prompt(state)
        if prompt.kind != kind and prompt.kind in (
            "requisition",
            "combat_move",
            "noncombat",
            "deploy",
        ):
            kind, done_here = prompt.kind, {}
        order = pick(ruleset, state, done_here, moved_to)
        user = ALICE if prompt.role == "axis" else BOB
        sent = await harness.command(user, "order", text=order)
        history.append((user.id, sent))
        assert any(re.search(r"^Action \d+, ", s.content, re.M) for s in replies(sent)), (
            order,
            [s.content for s in sent],
        )
        key = f"{prompt.kind}:{order.split()[0]}"
        seen[key] = seen.get(key, 0) + 1
        done_here[prompt.kind] = done_here.get(prompt.kind, 0) + 1
    ruleset, state, _ = await harness.service.live_state(game_id)
    assert (state.round, state.power) != opening, f"Germany's turn did not end: {seen}"
    assert seen.get("requisition:buy") == 2, seen
    assert seen.get("combat_move:move") == 1 and seen.get("combat_move:declare", 0) >= 1, seen
    assert seen.get("combat:resolve", 0) >= 1, seen
    assert seen.get("noncombat:move") == 1 and seen.get("deploy:deploy", 0) >= 1, seen
    # the battle's dice went to the channel as they were rolled
    assert any("Dice: " in text(posts(s)) for _, s in history)
    # the turn passed on with no declared attack left unfought
    assert not state.attacks

    # the map the channel is shown is North Africa's, drawn as the game stands
    shown = await harness.command(BOB, "game map")
    assert any(s.png and s.png.startswith(PNG_MAGIC) for s in shown)
    public = (await harness.service.view(game_id, None)).view
    assert public["map"]["game"] == "aa-na" and "tobruk" in public["map"]["territories"]


async def test_odds_of_a_north_african_land_battle_and_a_bad_force(harness):
    sent = await harness.command(
        ALICE,
        "odds",
        attacker="3 ger.infantry, 1 ger tank, 1 ger.scout_car flank",
        defender="2 uk.infantry, 1 uk.anti_tank_gun",
        game="aa-na",
    )
    [answer] = replies(sent)
    assert answer.ephemeral and "flanking: 1 ger.scout_car" in answer.content
    wins = re.search(r"attacker wins\s+(\d+\.\d+)%", answer.content)
    assert wins and 0 < float(wins.group(1)) < 100, answer.content
    [refused] = replies(
        await harness.command(
            ALICE, "odds", attacker="3 orcs", defender="1 uk.infantry", game="aa-na"
        )
    )
    assert refused.ephemeral and "'3 orcs' is not a count and a unit" in refused.content
    [sea] = replies(
        await harness.command(
            ALICE,
            "odds",
            attacker="1 uk.destroyer",
            defender="1 ita.destroyer",
            sea=True,
            game="aa-na",
        )
    )
    assert "land battles" in sea.content and "Traceback" not in sea.content
