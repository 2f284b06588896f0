"""BIA naval combat (17.0, L2477-2744): the battle at sea off Crete as the rulebook plays
it, with scripted dice; the interception numbers of the same example; the escort
carrier's pairing in a convoy box; the class Bonus, submarines and simultaneous fire."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.games.bia import naval
from engine.games.bia.naval import Battle, Ship
from engine.games.bia.rules import BlocksInAfrika

B = BlocksInAfrika().board
SEPT_42 = 37  # the Crete example's turn (L2653, RULINGS D7)


def ship(block_id: str, side: str, value: int) -> Ship:
    b = B.block(block_id)
    values = b.values()
    pos = max(i for i, v in enumerate(values, 1) if v == value)
    planes = max(b.planes.values(), default=0)
    return Ship(block_id, side, b.kind, values, pos, block_id, planes)


def crete() -> Battle:
    pack = B.pack.tables
    ships = [
        ship("ukn_formidable", "allied", 2),  # 1 CV at full strength (L2716-2718)
        ship("ukn_7cs", "allied", 4),  # 1 4-step CA
        ship("ukn_dd1", "allied", 4),  # 1 4-step DD
        ship("itn_cesare", "axis", 2),  # 1 BB at full strength (L2731-2736)
        ship("itn_1div", "axis", 2),  # 1 2-step CA
        ship("itn_ss1", "axis", 2),  # 1 2-step SS
    ]
    tech = {"allied": pack.tech("uk", "navy", SEPT_42), "axis": pack.tech("italy", "navy", SEPT_42)}
    bombers = {
        "allied": pack.tech("uk", "bomber", SEPT_42),
        "axis": pack.tech("italy", "bomber", SEPT_42),
    }
    return Battle(ships, tech, bombers)


def strengths(b: Battle) -> dict[str, int]:
    return {s.id: s.strength if s.afloat else -1 for s in b.ships}


def test_the_battle_off_crete_as_the_rulebook_plays_it():
    b = crete()
    assert b.naval_tech == {"allied": 2, "axis": 1}  # British TECH superiority (L2737)
    assert b.bomber_tech["allied"] == 2  # TECH 2 torpedo bombers: hit on 5-6 (L2623-2626)
    assert naval.air_superiority(b) == "allied"  # the CV's 2 planes against none
    dice = ScriptedDice(
        [5, 1]  # the CV's two planes: a hit, and a 1 for the Italian flak (L2698-2700)
        + [3]  # the Italian BB, reduced to 1 die, hitting at 5-6, misses (L2703-2704)
        + [1, 2, 3, 4]  # the British cruisers fire first at 6 and miss (L2706-2707)
        + [3, 6]  # the Italian cruisers: one hit, discarded by TECH (L2708-2710)
        + [4, 4, 3, 6]  # the British destroyers: one hit, the SS from 2 to 1 (L2711-2712)
        + [6]  # the Italian sub, no Bonus against a DD, hits (L2713, L2725-2729)
    )
    naval.fight_round(b, dice)
    assert dice.remaining == []
    assert strengths(b) == {
        "ukn_formidable": 0,  # flak took the air step, the sub the deck: the hull is left
        "ukn_7cs": 4,
        "ukn_dd1": 4,  # the cruiser hit was discarded
        "itn_cesare": 1,  # the torpedo bombers' hit (the British chose the BB)
        "itn_1div": 2,
        "itn_ss1": 1,  # the destroyers' hit
    }
    carrier = next(s for s in b.ships if s.id == "ukn_formidable")
    assert carrier.afloat and carrier.planes == 0  # it lost all its torpedo bombers
    # one hit on a British ship, passed on to the landing marines (L2743-2744); the flak
    # hit on the air component is not a hit on the fleet
    assert b.ship_hits == {"allied": 1, "axis": 2}
    text = "\n".join(b.lines)
    assert "discarded by naval TECH superiority" in text
    assert "5+" in text  # the Italian BB's class Bonus (no British BB)


def test_interception_numbers_of_the_crete_example():
    # the Italian TECH Malus, no CV: the 2-block fleet needs a 6 (L2693-2695) ...
    assert naval.interception_need(2, False, 1, 2) == 6
    # ... the 3-block fleet a 5 by the modifiers as written (the example says 4: B60)
    assert naval.interception_need(3, False, 1, 2) == 5
    assert naval.interception_need(1, False, 1, 3) == 8  # a double Malus: no interception
    assert naval.interception_need(5, True, 3, 1) == naval.BEST  # a 1 never succeeds


def test_escort_carrier_pairs_with_destroyers_against_submarines_in_a_convoy_box():
    # L2515-2520: a 4-step DD, a 1-step CA and a 2-step CVE roll 7 dice, the 4 paired
    # CVE/DD dice hitting a sub at 5-6, the other 3 at 6 only
    ships = [
        ship("ukn_dd1", "allied", 4), ship("ukn_cairo", "allied", 1),
        ship("ukn_argus", "allied", 2), ship("itn_ss1", "axis", 2), ship("den_uboat", "axis", 2),
    ]  # fmt: skip
    b = Battle(ships, {"allied": 2, "axis": 1}, {"allied": 2, "axis": 1}, convoy=True)
    # CA first: 1 die (5: no hit, it needs a 6); then DD+CVE: 6 dice, the 4 paired
    # ones 5, 5, 1, 1 (two sub hits), the others 5, 1 (no hit); the subs, one step
    # each, miss with 1, 1
    dice = ScriptedDice([5] + [5, 5, 1, 1, 5, 1] + [1, 1])
    naval.fight_round(b, dice)
    assert dice.remaining == []
    assert strengths(b)["itn_ss1"] + strengths(b)["den_uboat"] == 2


def test_escort_carrier_does_not_fire_at_sea():
    ships = [ship("ukn_argus", "allied", 2), ship("itn_1div", "axis", 2)]
    b = Battle(ships, {"allied": 2, "axis": 2}, {"allied": 2, "axis": 2})
    dice = ScriptedDice([6, 6])  # only the Italian cruiser rolls: two hits sink it
    naval.fight_round(b, dice)
    assert dice.remaining == [] and strengths(b) == {"ukn_argus": -1, "itn_1div": 2}


def test_without_air_superiority_fire_is_simultaneous():
    # two cruisers of 1 step each, equal TECH, no carriers: both fire, both sink
    ships = [ship("ukn_cairo", "allied", 1), ship("itn_7div", "axis", 1)]
    b = Battle(ships, {"allied": 2, "axis": 2}, {"allied": 2, "axis": 2})
    naval.fight_round(b, ScriptedDice([6, 6]))
    assert strengths(b) == {"ukn_cairo": -1, "itn_7div": -1}


@pytest.mark.parametrize(
    ("mine", "theirs", "expect"),
    [
        (["itn_cesare"], ["ukn_dd1"], 4),  # a BB against DDs only: a double Bonus (L2533-2535)
        (["itn_cesare"], ["ukn_7cs", "ukn_dd1"], 5),
        (["itn_cesare"], ["ukn_warspite"], 6),
    ],
)
def test_class_bonus(mine, theirs, expect):
    ships = [ship(m, "axis", 1) for m in mine] + [ship(t, "allied", 1) for t in theirs]
    b = Battle(ships, {"allied": 1, "axis": 1}, {"allied": 1, "axis": 1})
    assert naval.need(naval.class_bonus(b, "axis", "bb")) == expect


def test_submarines_are_fired_on_only_by_a_side_with_destroyers_or_carriers():
    ships = [ship("ukn_7cs", "allied", 4), ship("itn_ss1", "axis", 2)]
    b = Battle(ships, {"allied": 2, "axis": 2}, {"allied": 2, "axis": 2})
    assert naval.targets(b, "allied") == []
    # the sub, unopposed by DD/CV/CVE, hits at 5-6 (L2646): two 5s sink two cruiser steps
    dice = ScriptedDice([6, 6, 6, 6, 5, 5])
    naval.fight_round(b, dice)
    assert strengths(b) == {"ukn_7cs": 2, "itn_ss1": 2}
