"""Sea combat (L724-857, L1257-1297) with scripted d10 dice: the digest's scenarios T8
(target rules of the casualty engine, L785 and L809) and T9 (submarines against a convoy,
L803 and L841), the Surprise Strike on a battleship (L1265, L1295), submerging, and the
sea combat move (L662-680)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position

ASHORE = [("uk", "uk.infantry", "cairo", 1), ("ger", "ger.infantry", "tripoli", 1)]
CONTROL = {"cairo": "uk", "tripoli": "ita", "tobruk": "uk"}


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def test_t8_submarine_hits_never_fall_on_air_units_and_every_hit_must_land():
    """1 destroyer and 2 submarines score 3 hits on a battleship and a fighter: the only
    legal answer is the battleship twice (sunk) and the fighter once (L785)."""
    s = position("ita", "combat", [("ita", "ita.destroyer", "sz24", 1), ("ita", "ita.submarine", "sz24", 2),
                                   ("uk", "uk.battleship", "sz24", 1), ("uk", "uk.fighter", "sz24", 1), *ASHORE],
                 control=CONTROL)
    ita = [u.id for u in s.units if u.power == "ita"]
    s.attacks = [{"id": 1, "source": "sz24", "target": "sz24", "units": ita, "paid": 0, "combat": True, "sea": True}]
    s.battle = {"sea": True, "target": "sz24", "round": 1, "attacker": "ita", "attacker_side": "axis",
                "sources": {"@sea": ita}, "flank": [], "defenders": [u.id for u in s.units if u.at == "sz24" and u.power == "uk"],
                "submerged": [], "escaped": [], "escaped_supply": {}, "stage": "fire_def", "step": "sea_casualties",
                "hits": {"other": 1, "sub": 2, "air": 0}, "taker": "def", "strike": False, "marked": {},
                "att_marked": [], "fired": ita, "cargo_hits": 0, "cargo_pick": 0}  # fmt: skip
    assert [o.text() for o in R.legal_orders(s, "allies")] == ["casualties 2 battleship 1 fighter"]
    refused(s, "allies", "casualties 1 battleship 1 fighter", "casualties at sea")
    s, ev = play(s, "allies", "casualties 2 battleship 1 fighter", ScriptedDice([9, 9]))  # both fire back
    assert at(s, "sz24", "uk") == {} and s.battle is None


def test_l809_the_defenders_submarine_hit_goes_to_the_destroyer_and_the_other_to_the_fighter():
    """A UK destroyer and fighter attack an Italian destroyer and submarine; the attackers
    miss, the defenders hit twice: the submarine's hit must take the destroyer (L809)."""
    s = position("uk", "combat_move", [("uk", "uk.destroyer", "sz17", 1), ("uk", "uk.fighter", "malta", 1),
                                       ("ita", "ita.destroyer", "sz16", 1), ("ita", "ita.submarine", "sz16", 1), *ASHORE],
                 control=CONTROL)
    s, _ = play(s, "allies", "move 1 destroyer sz17 sz16")
    s, _ = play(s, "allies", "move 1 fighter malta malta_csz sz16")
    s, _ = play(s, "allies", "done")
    dice = ScriptedDice([9, 9, 1, 1])
    s, ev = play(s, "allies", "resolve sz16", dice)
    assert dice.remaining == [] and s.battle is None
    assert at(s, "sz16") == {"ita.destroyer": 1, "ita.submarine": 1}
    assert any("1 destroyer, 1 fighter" in e.text for e in ev)


def convoy():
    """T9: in the Tripoli convoy zone, German 2 infantry, 1 scout car and 2 supply, Italian
    1 tank and 3 supply, an Italian fighter escorting; 2 UK submarines come in from SZ 15."""
    s = position("uk", "combat_move",
                 [("uk", "uk.submarine", "sz15", 2), ("ger", "ger.infantry", "tripoli_csz", 2),
                  ("ger", "ger.scout_car", "tripoli_csz", 1), ("ita", "ita.tank", "tripoli_csz", 1),
                  ("ita", "ita.fighter", "tripoli_csz", 1), *ASHORE], control=CONTROL)  # fmt: skip
    s.convoy_supply = {"tripoli_csz": {"ger": 2, "ita": 3}}
    s, _ = play(s, "allies", "move 2 sub sz15 tripoli_csz")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve tripoli_csz")
    return s


def test_t9_submarines_strike_a_convoy_and_the_hits_fall_on_the_transports():
    s = convoy()
    p = R.prompt(s)
    assert p.kind == "subs" and p.role == "allies"  # no Axis destroyer: strike or submerge (L777)
    s, ev = play(s, "allies", "submerge", ScriptedDice([2, 4]))
    # both hits go to transports: submarines cannot hit the fighter (L803)
    assert R.prompt(s).kind == "cargo" and R.prompt(s).role == "axis"
    refused(s, "axis", "cargo battleship", "Transports")
    s, _ = play(s, "axis", "cargo infantry")
    assert R.prompt(s).role == "allies"  # the attacker names the second kind (L791)
    s, _ = play(s, "allies", "cargo supply")
    assert s.convoy_supply["tripoli_csz"] == {"ger": 0, "ita": 0}
    s, _ = play(s, "axis", "cargo infantry")
    s, ev = play(s, "allies", "cargo tank", ScriptedDice([9]))  # the fighter defends and misses
    assert at(s, "tripoli_csz") == {"ger.scout_car": 1, "ita.fighter": 1, "uk.submarine": 2}
    # the scout car escaped in step 4; nothing left either side can hit: the battle ends (L831)
    assert s.battle is None and any("escapes" in e.text for e in ev)


def test_a_surprise_strike_damages_a_battleship_which_still_fires():
    """A German submarine strikes a UK battleship (no UK destroyer): one hit damages it
    (L1265); it fires in step 3 and sinks the submarine."""
    s = position("ger", "combat_move", [("ger", "ger.submarine", "sz1", 1), ("uk", "uk.battleship", "sz2", 1), *ASHORE],
                 control=CONTROL)
    s, _ = play(s, "axis", "move 1 sub sz1 sz2")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve sz2")
    s, _ = play(s, "axis", "submerge", ScriptedDice([1, 3]))
    bb = next(u for u in s.units if u.type == "uk.battleship")
    assert bb.hits == 1 and at(s, "sz2") == {"uk.battleship": 1} and s.battle is None


def test_a_submerged_submarine_leaves_the_battle():
    s = position("ger", "combat_move", [("ger", "ger.submarine", "sz1", 1), ("uk", "uk.battleship", "sz2", 1), *ASHORE],
                 control=CONTROL)
    s, _ = play(s, "axis", "move 1 sub sz1 sz2")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve sz2")
    s, ev = play(s, "axis", "submerge 1 sub")
    assert s.battle is None and at(s, "sz2") == {"ger.submarine": 1, "uk.battleship": 1}


def test_a_sea_combat_move_stops_on_entering_a_hostile_zone_and_ends_in_attack_position():
    s = position("uk", "combat_move", [("uk", "uk.destroyer", "sz13", 1), ("ita", "ita.destroyer", "sz15", 1), *ASHORE],
                 control=CONTROL)
    refused(s, "allies", "move 1 destroyer sz13 sz15 sz14", "Sea Unit Movement")
    refused(s, "allies", "move 1 destroyer sz13 sz12", "Sea Unit Movement")  # no attack there
    s, _ = play(s, "allies", "move 1 destroyer sz13 sz15")
    s, _ = play(s, "allies", "done")
    assert [a["target"] for a in s.attacks] == ["sz15"]


# -- bombers' Targeted Attack - Sea Units (L1247-1249) -------------------------------------


def test_stuka_hits_aimed_at_a_destroyer_fall_there_as_far_as_they_can():
    """Two Stukas hit twice and aim both at the destroyer: it takes one, the other falls as
    an ordinary hit, here on the battleship (L1247)."""
    s = position("ger", "combat_move", [("ger", "ger.bomber", "sicily", 2), ("uk", "uk.destroyer", "sz16", 1),
                                        ("uk", "uk.battleship", "sz16", 1), *ASHORE], control=CONTROL)
    s, _ = play(s, "axis", "move 2 bomber sicily sz16")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve sz16", ScriptedDice([1, 2]))
    p = R.prompt(s)
    assert p.kind == "sea_targets" and p.role == "axis"
    assert [o.text() for o in R.legal_orders(s, "axis")] == ["target", "target 2 battleship", "target 2 destroyer"]
    refused(s, "axis", "target 1 transport", "L1247-1249")  # no convoy here
    refused(s, "axis", "target 3 destroyer", "L1247-1249")
    s, _ = play(s, "axis", "target 2 destroyer", ScriptedDice([9, 9]))  # the defenders miss
    assert at(s, "sz16", "uk") == {"uk.battleship": 1}
    assert [u.hits for u in s.units if u.type == "uk.battleship"] == [1]


def test_without_aiming_the_defender_may_put_both_hits_on_the_battleship():
    s = position("ger", "combat_move", [("ger", "ger.bomber", "sicily", 2), ("uk", "uk.destroyer", "sz16", 1),
                                        ("uk", "uk.battleship", "sz16", 1), *ASHORE], control=CONTROL)
    s, _ = play(s, "axis", "move 2 bomber sicily sz16")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve sz16", ScriptedDice([1, 2]))
    s, _ = play(s, "axis", "target")
    assert {o.text() for o in R.legal_orders(s, "allies")} == {"casualties 2 battleship",
                                                                "casualties 1 battleship 1 destroyer"}


def test_a_stuka_may_aim_at_the_transports_past_an_escort():
    """A convoy of 2 UK infantry escorted by a destroyer: the aimed hit sinks a transport
    and both infantry although the destroyer is still afloat (L1249)."""
    s = position("ger", "combat_move", [("ger", "ger.bomber", "sicily", 1), ("uk", "uk.destroyer", "malta_csz", 1),
                                        ("uk", "uk.infantry", "malta_csz", 2), *ASHORE], control=CONTROL)
    s, _ = play(s, "axis", "move 1 bomber sicily sz16 malta_csz")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve malta_csz", ScriptedDice([3]))
    assert sea_kinds(s) == ["destroyer", "transport"]
    s, _ = play(s, "axis", "target 1 transport", ScriptedDice([9]))
    assert at(s, "malta_csz", "uk") == {"uk.destroyer": 1}


def sea_kinds(s):
    from engine.games.aa_na.context import Ctx
    from engine.games.aa_na.sea_combat import aim_kinds

    return aim_kinds(Ctx(s, None))
