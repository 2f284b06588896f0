"""BIA Production Points (3.5, 4.5, 5.1, 7.1, 7.3, 7.4): income less Strategic Warfare,
the cost of steps (every example of 7.3.1), repairs, rebuilds, disbanding, storage, the
SRM's yellow PP, removal payments and the gains of surrender and conquest. Scripted
dice; each refusal names its rule and changes nothing."""

from __future__ import annotations

from engine.core.events import PUBLIC, lines_for
from engine.games.bia import ledger, spending, supply, turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import Done
from tests.bia.test_rules import RULES, Dice, finish, move, place, refused

B = RULES.board


def cost(block_id: str) -> list[dict[str, int] | None]:
    block = B.block(block_id)
    return [ledger.step_cost(B, block, e) for e in range(1, len(block.track) + 1)]


def at_production(scenario: str = "BIA3", sw: tuple[int, ...] = ()):
    """A scenario set up (token dice 11 22 33 44, then the Axis Strategic Warfare dice
    ``sw``) and waiting in the Axis Production Phase."""
    s = RULES.setup(scenario, {}, Dice((11, 22, 33, 44, *sw)))
    assert (s.player, s.phase) == (AXIS, "production")
    return s


# -- what steps cost: the examples of 7.3.1 ---------------------------------------------------


def test_the_step_costs_of_every_example_in_7_3_1():
    """L1065-1070, L1075-1078, L1083-1091, L1127-1133, L1141-1145, L1146-1158, L1060-1061."""
    assert cost("uk_sa_garrison") == [{"yellow": 1}, {"yellow": 2}]  # total 3 YPP
    assert cost("tr_1c") == [None, {"yellow": 1}, {"yellow": 1}]  # blue cadre: never rebuilt
    assert cost("uk_8art") == [{"yellow": 3}, {"yellow": 1}, {"yellow": 2}, {"yellow": 2}]
    assert ledger.full_cost(B, B.block("uk_8art")) == {"yellow": 8}
    assert ledger.full_cost(B, B.block("uk_7armd")) == {"yellow": 6, "red": 6}
    assert ledger.full_cost(B, B.block("de_stuka")) == {"yellow": 8, "blue": 8}
    assert ledger.full_cost(B, B.block("pe_rp")) == {"yellow": 5, "oil": 5}
    assert cost("de_la") == [{"yellow": 2, "red": 2}, {"yellow": 1}, {"yellow": 1},
                             {"yellow": 2, "red": 2}]  # fmt: skip
    assert ledger.full_cost(B, B.block("de_la")) == {"yellow": 6, "red": 4}
    assert cost("it_20mot")[3] is None  # the red-circled Italian 4 is never built in BIA
    assert ledger.full_cost(B, B.block("tr_1c")) is None


# -- income and Strategic Warfare (7.1, 7.3) ------------------------------------------------------


def test_income_arrives_in_production_less_the_strategic_warfare_hits():
    """7.1 (L1009-1012): in BIA4 the Allies roll 2 dice against the Axis; two 6s take 1 PP
    from Italy AND 1 from Germany each, yellow first by default (RULINGS B30)."""
    s = at_production("BIA4", sw=(6, 6))
    assert s.pp_lost[AXIS] == 2
    assert s.pp["italy"] == {"yellow": 2, "red": 1, "blue": 1}  # 4Y 1R 1B less 2
    assert s.pp["germany"] == {"yellow": 1, "red": 2, "blue": 1}  # 3Y 2R 1B less 2
    assert "uk" not in s.pp  # the Allies are paid in their own Production Phase
    s = at_production("BIA4", sw=(5, 1))
    assert s.pp["italy"] == {"yellow": 4, "red": 1, "blue": 1}


def test_the_allied_standing_order_chooses_the_colour_hits_take():
    """7.1 (L1011, L1015): the Allied player chooses the colour; his standing order names
    the first one, then yellow; income never goes below 0. The Axis may not give it."""
    s = at_production("BIA4")
    err = refused(s, AXIS, "standing warfare red")
    assert err.rule == "BIA 7.1"
    s.pp, s.pp_lost = {}, {AXIS: 3}
    s.standing[ALLIED] = {"warfare": "red"}
    ctx = Ctx(B, s, Dice())
    ledger.collect_income(ctx)
    assert s.pp["italy"] == {"yellow": 2, "red": 0, "blue": 1}  # 1 red, then 2 yellow
    assert s.pp["germany"] == {"yellow": 2, "red": 0, "blue": 1}
    s.pp, s.pp_lost = {}, {AXIS: 9}
    ledger.collect_income(ctx)
    assert all(n >= 0 for stock in s.pp.values() for n in stock.values())
    assert "Italy receives" in " ".join(lines_for(ctx.events, PUBLIC))  # public (digest 4.2)


# -- storage (7.3.1) -----------------------------------------------------------------------------------


def test_coloured_pp_are_kept_only_beside_a_yellow_one():
    """7.3.1 (L1034-1039): at the end of Production each coloured PP needs a yellow one;
    the rest are discarded, oil first (RULINGS B31). Only the owner reads it."""
    s = at_production()
    s.pp["italy"] = {"yellow": 2, "red": 1, "blue": 2, "oil": 1}
    s.pp["germany"] = {"red": 2}  # only coloured PP left: all discarded (L1038-1039)
    s, ev = RULES.apply(s, AXIS, Done(), Dice())
    assert s.pp["italy"] == {"yellow": 2, "red": 1, "blue": 1, "oil": 0}
    assert s.pp["germany"] == {"red": 0}
    assert "discards" in " ".join(lines_for(ev, AXIS))
    assert "discards" not in " ".join(lines_for(ev, ALLIED) + lines_for(ev, PUBLIC))


# -- repairs (7.3, L1040-1053) --------------------------------------------------------------------------


def test_a_supplied_block_is_repaired_one_edge_at_a_time_for_its_cost():
    s = at_production()
    b = s.blocks["it_10c"]
    b.steps = 1
    before = dict(s.pp["italy"])
    s2, ev = move(s, AXIS, "repair it_10c")
    colour = B.block("it_10c").track[1][1]
    paid = B.pack.tables.edge_cost_ypp[colour]
    assert s2.blocks["it_10c"].steps == 2
    assert s2.pp["italy"]["yellow"] == before["yellow"] - paid
    theirs = " ".join(lines_for(ev, ALLIED) + lines_for(ev, PUBLIC))
    assert "it_10c" not in theirs and "10th" not in theirs and b.token not in theirs
    assert "repair" in " ".join(lines_for(ev, AXIS))


def test_repairs_are_refused_when_unpaid_full_out_of_supply_or_blue():
    s = at_production()
    s.blocks["it_10c"].steps = 1
    s.pp["italy"] = {"yellow": 0}
    assert refused(s, AXIS, "repair it_10c").rule == "BIA 7.3.1"
    s.pp["italy"] = {"yellow": 9}
    full = next(b for b in s.on_map(AXIS) if b.steps == len(B.block(b.id).track))
    assert "full strength" in refused(s, AXIS, f"repair {full.id}").reason
    s.blocks["it_10c"].oos = True
    assert refused(s, AXIS, "repair it_10c").rule == "BIA 7.3"
    foe = s.on_map(ALLIED)[0]  # an enemy block reads as nobody's
    said = refused(s, AXIS, f"repair {foe.id}").reason.replace(foe.id, "X")
    assert said == refused(s, AXIS, "repair nobody").reason.replace("nobody", "X")


def test_the_desert_limits_full_strength_to_ports_and_rail_joined_to_them():
    """7.3 SPECIAL DESERT (L1048-1053): the last edge only in a controlled port or on a
    railway joined to one; lower edges anywhere supplied."""
    s = at_production()
    s.pp["italy"] = {"yellow": 20}
    supplied = supply.supplied_hexes(B, s, "italy")
    inland = next(
        h for h in sorted(supplied)
        if B.is_land(h) and s.control.get(h) == AXIS and not s.at_hex(h)
        and not spending.port_linked(B, s, h, AXIS) and B.hex(h).terrain == "clear"
    )  # fmt: skip
    port = next(h for h in sorted(B.ports) if s.control.get(h) == AXIS and B.is_land(h))
    block = B.block("it_10c")
    place(s, "it_10c", inland)
    s.blocks["it_10c"].steps = len(block.track) - 1
    assert "Desert" in refused(s, AXIS, "repair it_10c").reason
    s.blocks["it_10c"].steps = len(block.track) - 2
    s2, _ = move(s, AXIS, "repair it_10c")  # a lower edge may be bought there
    assert s2.blocks["it_10c"].steps == len(block.track) - 1
    place(s2, "it_10c", port)
    s3, _ = move(s2, AXIS, "repair it_10c")
    assert s3.blocks["it_10c"].steps == len(block.track)


# -- rebuilds and disbanding (7.3, 7.3.2, 7.3.6) ------------------------------------------------------------


def test_an_eliminated_block_is_rebuilt_at_home_on_its_cadre_under_a_new_token():
    """L1045, L1104-1106: an Italian block comes back in Rome, paying its weakest edge
    (RULINGS B36), under a fresh token (RULINGS B37)."""
    s = at_production()
    b = s.blocks["it_10c"]
    old = b.token
    b.where, b.at = "dead", None
    s.pp["italy"] = {"yellow": 5}
    first = ledger.step_cost(B, B.block("it_10c"), 1)
    assert RULES.prompt(s).role == AXIS
    assert "rebuild it_10c" in [o.text() for o in RULES.legal_orders(s, AXIS)]
    s2, ev = move(s, AXIS, "rebuild it_10c")
    nb = s2.blocks["it_10c"]
    assert (nb.where, nb.at, nb.steps) == ("box", "rome", 1)
    assert nb.token != old and s2.pp["italy"]["yellow"] == 5 - first["yellow"]
    theirs = " ".join(lines_for(ev, ALLIED))
    assert nb.token in theirs and "10th" not in theirs and "it_10c" not in theirs


def test_resident_garrisons_come_back_in_a_major_port_and_blue_cadres_never():
    """L1138-1139: the Italian static garrisons in any controlled AFRIKA major port;
    L1059: a blue first edge is never rebuilt."""
    s = at_production()
    g = s.blocks["it_static_tobruk"]
    g.where, g.at = "dead", None
    s.pp["italy"] = {"yellow": 5}
    sites = spending.sites(Ctx(B, s, Dice()), g)
    assert sites and all(B.hex(h).port == "major" for h in sites)
    assert not {B.pack.places["Taranto"], B.pack.places["Naples"]} & set(sites)  # not AFRIKA
    err = refused(s, AXIS, "rebuild it_static_tobruk") if len(sites) > 1 else None
    assert err is None or err.rule == "BIA 7.3.2"
    s2, _ = move(s, AXIS, f"rebuild it_static_tobruk {sites[0]}")
    assert (s2.blocks["it_static_tobruk"].where, s2.blocks["it_static_tobruk"].at) == (
        "map",
        sites[0],
    )
    s1 = at_production("BIA1")
    s1.player = AXIS
    v = s1.blocks["vf_levant_1"]
    v.where, v.at = "dead", None
    s1.pp["vichy"] = {"yellow": 9}
    assert refused(s1, AXIS, "rebuild vf_levant_1").rule == "BIA 7.3.1"


def test_disbanding_pays_one_yellow_and_ends_the_buying():
    """7.3.6 (L1266-1271): after all production a supplied block may be disbanded for 1
    YPP; nothing is bought after, and it is rebuilt from the next turn only."""
    s = at_production()
    s.pp["italy"] = {"yellow": 0}
    b = s.blocks["it_10c"]
    at, token = b.at, b.token
    s2, ev = move(s, AXIS, "disband it_10c")
    assert s2.blocks["it_10c"].where == "dead" and s2.pp["italy"]["yellow"] == 1
    theirs = " ".join(lines_for(ev, ALLIED))
    assert f"{token} is disbanded at {at}" in theirs and "10th" not in theirs
    assert refused(s2, AXIS, "rebuild it_10c").rule == "BIA 7.3.6"
    assert refused(s2, AXIS, "repair it_10c").rule == "BIA 7.3.6"


# -- SRM's yellow PP (7.4) ----------------------------------------------------------------------------------


def test_an_srm_costs_one_yellow_pp_and_none_is_offered_without_it():
    """7.4 (L1226-1227)."""
    s = at_production()
    s.pp["italy"]["yellow"] = 1
    s, _ = RULES.apply(s, AXIS, Done(), Dice())
    assert s.phase == "srm"
    rail = next(o for o in RULES.legal_orders(s, AXIS) if o.verb == "rail")
    s2, _ = RULES.apply(s, AXIS, rail, Dice())
    payer = ledger.payer(B, s, B.block(rail.block).power)
    assert s2.pp[payer]["yellow"] == s.pp[payer]["yellow"] - 1
    s.pp = {p: {**v, "yellow": 0} for p, v in s.pp.items()}
    assert all(o.verb != "rail" for o in RULES.legal_orders(s, AXIS))
    assert refused(s, AXIS, rail.text()).rule == "BIA 7.4"


# -- removals, surrender and conquest (7.3.3, 4.5, 5.1) ------------------------------------------------------


def test_a_removal_of_a_unit_not_in_play_costs_its_full_rebuild():
    """7.3.3 (L1217-1219): the 4th Indian, eliminated before its withdrawal on turn 16,
    costs the British its full rebuild, 3 YPP (three black edges), before any purchase."""
    s = at_production()
    s.blocks["uk_4ind"].where, s.blocks["uk_4ind"].at = "dead", None
    before, ev = s, []
    while (s.turn, s.player, s.phase) != (16, ALLIED, "production"):
        before = s
        s, ev = RULES.apply(s, RULES.prompt(s).role, Done(), Dice())
    assert ledger.full_cost(B, B.block("uk_4ind")) == {"yellow": 3}
    assert s.blocks["uk_4ind"].where == "removed"
    assert "its removal costs 3 yellow PP" in " ".join(lines_for(ev, ALLIED))
    got = 4 - min(s.pp_lost[ALLIED], 4)  # BIA3: 4 yellow, hits on yellow first
    assert s.pp["uk"]["yellow"] == before.pp["uk"]["yellow"] + got - 3


def test_a_surrendering_block_gives_its_pp_to_the_enemy():
    """4.5 (L714-723): 1 YPP, and 1 RPP for armour, to the opponent; told to that side."""
    s = at_production("BIA6")
    reach = supply.supplied_hexes(B, s, "germany")
    far = next(
        h.id for h in B.pack.map.hexes
        if h.country == "libya" and B.is_land(h.id) and not s.at_hex(h.id) and h.id not in reach
    )  # fmt: skip
    place(s, "de_dak", far)
    s.blocks["de_dak"].oos = True
    s.phase = "final_supply"
    ctx = Ctx(B, s, Dice())
    turn.final_supply_phase(ctx)
    assert s.blocks["de_dak"].where == "dead"
    assert s.pp["uk"] == {"yellow": 1, "red": 1}
    mine = " ".join(lines_for(ctx.events, ALLIED))
    assert "gains 1 yellow and 1 red PP" in mine
    assert "gains" not in " ".join(lines_for(ctx.events, PUBLIC))


def test_a_conquered_power_gives_a_pp_per_block_and_per_factory():
    """5.1 (L762-768): Iraq falls with Baghdad: its army leaves play for 1 YPP and the
    Kirkuk oil centre is destroyed for 1 oil (RULINGS B38)."""
    s = RULES.setup("BIA2", {}, Dice((11, 22, 33, 44)))
    s.pp = {}
    s.control[B.pack.places["Baghdad"]] = ALLIED
    ctx = Ctx(B, s, Dice())
    turn.conquest(ctx)
    assert "iraq" in s.conquered
    in_play = sum(
        1 for b in s.blocks.values() if B.block(b.id).power == "iraq" and b.where == "removed"
    )
    assert s.pp["uk"] == {"oil": 1, "yellow": in_play} and in_play >= 1
    assert B.pack.places["Kirkuk"] in s.factories_lost


# -- the fog of war --------------------------------------------------------------------------------


def test_each_side_sees_only_its_own_pp():
    """Digest 4.2: the PP stock is its owner's."""
    s = at_production("BIA4")
    assert set(RULES.view(s, AXIS).pp) == {"italy", "germany"}
    assert RULES.view(s, ALLIED).pp == {} and RULES.view(s, None).pp == {}
    s, _ = finish(s)
    assert "uk" in RULES.view(s, ALLIED).pp and "uk" not in RULES.view(s, AXIS).pp
