"""The turn of a power and the round (Revised: Order of Play; Turn Sequence; Phases 1, 2,
5, 6 and 7; How the War Is Won), with seats for two to five players."""

from __future__ import annotations

import engine
from engine.core.dice import NoDice
from engine.games.aa_revised.state import TURN_ORDER
from tests.aa_revised_rules.helpers import RULES, board, legal, play, prompt, put, refused, scene


def test_the_five_powers_play_in_rulebook_order_and_a_round_follows_the_united_states():
    g = engine.Game.new("aa-revised", secret=b"order", game_id="order")
    seen = []
    while g.state.round == 1:
        p = g.prompt()
        if not seen or seen[-1] != g.state.power:
            seen.append(g.state.power)
        g.play("done", p.role)
    assert seen == list(TURN_ORDER)
    assert g.state.power == "ussr" and g.state.round == 2


def test_the_phases_of_a_turn_come_in_order():
    s = RULES.setup("five-players", {}, NoDice())
    kinds = []
    while s.power == "ussr":
        kinds.append(prompt(s)[1])
        s, _ = play(s, "done")
    assert kinds == ["research", "purchase", "combat_move", "noncombat"]


def test_seats_for_two_to_five_players_follow_the_rulebook():
    """Revised: The Combatants: the powers each player holds."""
    assert RULES.roles("two-players") == ["allies", "axis"]
    assert RULES.roles("three-players") == ["allies", "germany", "japan"]
    assert RULES.roles("four-players") == ["ussr-usa", "uk", "germany", "japan"]
    assert RULES.roles("five-players") == ["ussr", "germany", "uk", "japan", "usa"]
    s = RULES.setup("two-players", {}, NoDice())
    assert prompt(s) == ("allies", "research")
    s = RULES.setup("four-players", {}, NoDice())
    assert prompt(s) == ("ussr-usa", "research")


def test_research_succeeds_when_any_die_shows_the_developments_number():
    """Revised: Phase 1: 5 IPCs a die; Heavy Bombers need a 6."""
    s = scene("usa", phase="research", ipcs=40)
    s, log = play(s, "research heavy_bombers 3", dice=[2, 6, 1])
    assert s.techs["usa"] == ["heavy_bombers"] and s.ipcs["usa"] == 25
    assert "success" in log[0]
    assert prompt(s) == ("usa", "purchase")


def test_failed_research_still_costs_its_dice():
    s = scene("usa", phase="research", ipcs=40)
    s, log = play(s, "research jet 2", dice=[2, 3])
    assert s.techs["usa"] == [] and s.ipcs["usa"] == 30
    assert "no breakthrough" in log[0]
    refused(s, "research rockets 1")  # one development a turn: the phase is over


def test_jet_fighters_defend_at_five_from_the_moment_they_are_developed():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=1)
    put(s, "ussr", "caucasus", fighter=1)
    s.techs["ussr"] = ["jet_fighters"]
    s, log = play(s, "move 1 inf ukraine_ssr caucasus", "done", dice=[6, 5])
    assert any("needs 5 or less: hit" in line for line in log)


def test_heavy_bombers_roll_two_dice_in_attack():
    s = scene("usa")
    s.techs["usa"] = ["heavy_bombers"]
    put(s, "usa", "china", bomber=1)
    put(s, "japan", "kwangtung", infantry=2)
    s, log = play(s, "move 1 bmb china kwangtung", "done", dice=[1, 1, 6, 6])
    assert sum("bomber" in line and "hit" in line for line in log) == 2


def test_purchases_wait_for_mobilization_and_are_paid_at_once():
    s = scene("germany", phase="purchase", ipcs=40)
    s, log = play(s, "buy 3 inf 1 arm", "buy 1 ftr")
    assert s.pending == {"infantry": 3, "tank": 1, "fighter": 1} and s.ipcs["germany"] == 16
    assert "buy 1 bb" not in legal(s)  # 24 IPCs
    assert "buy 1 ftr" in legal(s)


def test_income_is_the_national_production_and_then_the_next_power_plays():
    s = scene("germany", phase="mobilize", ipcs=5)
    s, log = play(s, "done")
    assert s.ipcs["germany"] == 45
    assert s.power == "uk" and s.phase == "research"


def test_victory_is_checked_only_at_the_end_of_the_round():
    """Revised: Check for Victory: after the U.S. turn."""
    s = scene("japan", phase="mobilize")
    for t in ("india", "karelia_ssr"):
        s.control[t] = "germany"
    s, _ = play(s, "done")
    assert not s.over  # 8 Axis cities during Japan's turn is not yet a win
    s.control["india"] = "uk"  # the U.S. turn takes one back
    s.phase = "mobilize"
    s, _ = play(s, "done")
    assert not s.over and s.round == 2
    s = scene("usa", phase="mobilize")
    for t in ("india", "karelia_ssr"):
        s.control[t] = "germany"
    s, log = play(s, "done")
    result = RULES.result(s)
    assert result.winner == "axis" and result.level == "minor"
    assert prompt(s) == (None, "over")


def test_the_victory_level_is_chosen_at_setup():
    s = scene("usa", phase="mobilize", victory_level="major")
    for t in ("india", "karelia_ssr"):
        s.control[t] = "germany"
    s, _ = play(s, "done")
    assert not s.over


def test_the_round_limit_ends_the_game_on_victory_cities():
    """RULINGS R40: with max_rounds the side holding more cities wins on points."""
    s = scene("usa", phase="mobilize", max_rounds=1)
    s.control["india"] = "japan"
    s, log = play(s, "done")
    assert RULES.result(s).winner == "axis" and RULES.result(s).level == "points"
    s = scene("usa", phase="mobilize", max_rounds=1)
    s, log = play(s, "done")  # cities 6-6: the Allies' greater production decides
    assert RULES.result(s).winner == "allies" and "national production" in RULES.result(s).text
    s = scene("usa", phase="mobilize", max_rounds=1)
    for t in ("sinkiang", "china", "alaska", "brazil", "mexico", "panama", "west_indies"):
        s.control[t] = "germany"  # 13 IPCs change sides: 83 each
    s, log = play(s, "done")
    assert RULES.result(s).winner is None and RULES.result(s).level == "draw"
    s = scene("usa", phase="mobilize", max_rounds=None)
    s, log = play(s, "done")
    assert not s.over


def test_a_power_without_its_capital_skips_research_purchase_mobilization_and_income():
    s = scene("uk", phase="mobilize")
    s.turn = 2
    s.control["united_kingdom"] = "germany"
    s.phase = "income"
    s, log = play(s, "standing submerge never", role="uk")
    # settle ran: no income collected, Japan plays next
    assert any("collects no income" in line for line in log)
    assert s.power == "japan"


def test_noncombat_moves_pass_through_territory_captured_this_turn():
    """FAQ: Movement: a tank that did not fight may cross a territory taken this turn."""
    s = scene("germany")
    s.control["kazakh_ssr"] = s.start_control["kazakh_ssr"] = "germany"
    first, second = put(s, "germany", "ukraine_ssr", tank=2)
    s, _ = play(s, f"move {first} ukraine_ssr caucasus", "done")
    assert s.control["caucasus"] == "germany"
    s, _ = play(s, "move 1 arm ukraine_ssr caucasus kazakh_ssr")
    assert board(s, "kazakh_ssr") == {"germany": {"tank": 1}}
    assert s.units[second].at == "kazakh_ssr"


def test_aircraft_land_at_the_end_of_the_noncombat_move_or_are_lost():
    """Revised: Completing Air Units' Move: a bomber left over hostile land is lost; a
    fighter at sea goes aboard a friendly carrier with room."""
    s = scene("germany", phase="noncombat")
    b = put(s, "germany", "karelia_ssr", bomber=1)[0]
    cv = put(s, "germany", "sz5", carrier=1)[0]
    f = put(s, "germany", "norway", fighter=1)[0]
    s.units[b].cm = True
    s, _ = play(s, "move 1 ftr norway sz5")
    assert "can still land" in str(refused(s, "done"))  # the bomber could fly home
    s, log = play(s, "done confirm")
    assert b not in s.units
    assert s.units[f].aboard == cv


def test_a_committed_carrier_follows_through_at_the_end_of_the_noncombat_move():
    """Revised: Completing Air Units' Move: the carrier must go where the fighter waits."""
    s = scene("usa")
    f = put(s, "usa", "hawaiian_islands", fighter=1)[0]
    put(s, "japan", "sz42", destroyer=1)
    cv = put(s, "usa", "sz53", carrier=1)[0]
    s, _ = play(s, "move 1 ftr hawaiian_islands sz42", "done", dice=[1, 6])
    zone = s.units[cv].pickup
    s, log = play(s, f"move 1 ftr sz42 {zone}")
    s, log = play(s, "done")
    assert s.units[cv].at == zone and s.units[f].aboard == cv
    assert any("to take the fighters" in line for line in log)


def test_a_fighter_needs_a_free_place_on_its_own_carrier_in_the_combat_move():
    """Revised: Completing Air Units' Move; Appendix 1, Aircraft Carriers (two fighters
    to a carrier): the U.S. carrier already carries one fighter, so only one of the two
    fighters from Hawaii, which have no land in reach of Sea Zone 42, can count on it."""
    s = scene("usa")
    f1, f2 = put(s, "usa", "hawaiian_islands", fighter=2)
    put(s, "japan", "sz42", destroyer=1)
    cv, aboard = put(s, "usa", "sz53", carrier=1, fighter=1)
    assert s.units[aboard].aboard == cv
    err = refused(s, "move 2 ftr hawaiian_islands sz42")
    assert "free place" in str(err)
    s, _ = play(s, f"move {f1} hawaiian_islands sz42")
    assert s.units[f1].deck == cv and s.units[cv].pickup
    err = refused(s, f"move {f2} hawaiian_islands sz42")
    assert "free place" in str(err) and "(Revised: Completing Air Units' Move)" in str(err)


def test_a_fighter_launched_from_a_carrier_frees_its_place():
    """The fighter aboard takes off to attack Sea Zone 53's neighbour and has Hawaii in
    reach: its place is free for a fighter that needs the carrier (FAQ: Transports and
    Carriers, a carrier's own planes need another landing place)."""
    s = scene("usa")
    f1, f2 = put(s, "usa", "hawaiian_islands", fighter=2)
    put(s, "japan", "sz42", destroyer=1)
    put(s, "japan", "sz54", submarine=1)
    cv, aboard = put(s, "usa", "sz53", carrier=1, fighter=1)
    s, _ = play(s, f"move {aboard} sz53 sz54", f"move {f1} hawaiian_islands sz42",
                f"move {f2} hawaiian_islands sz42")  # fmt: skip
    assert s.units[f1].deck == cv and s.units[f2].deck == cv
    assert s.units[aboard].deck is None  # Hawaii is in its reach: no deck promised
    err = refused(s, "move 1 cv sz53 sz55")
    assert "landing deck" in str(err)


def test_in_the_noncombat_move_a_full_carrier_takes_no_more_fighters():
    """Appendix 1, Aircraft Carriers: two fighters to a carrier, the player's own too;
    a landing the end of the turn could not honour is refused, not lost later."""
    s = scene("usa", phase="noncombat")
    put(s, "usa", "sz53", carrier=1, fighter=2)
    put(s, "usa", "hawaiian_islands", fighter=1)
    err = refused(s, "move 1 ftr hawaiian_islands sz53")
    assert "free place" in str(err)
    assert "sz53" not in {o.split()[-1] for o in legal(s) if o.startswith("move 1 ftr hawaiian")}
    other = put(s, "usa", "sz52", carrier=1)[0]
    s, log = play(s, "move 1 ftr hawaiian_islands sz53")  # the empty carrier can come
    assert s.units[other].pickup == "sz53"
    s, log = play(s, "done")
    assert s.units[other].at == "sz53"


def test_submerged_submarines_surface_at_the_end_of_the_noncombat_move():
    """Appendix 1, Submarines: Submerge; FAQ: no combat follows."""
    s = scene("uk")
    put(s, "uk", "united_kingdom", fighter=1)
    sub = put(s, "germany", "sz6", submarine=1)[0]
    # the submarine has no ship to fire at, so it does not roll; the fighter rolls 6
    s, _ = play(s, "move 1 ftr united_kingdom sz6", "done", dice=[6])
    s, _ = play(s, "press")
    assert prompt(s) == ("germany", "submerge")
    s, _ = play(s, "submerge 1 sub")
    assert s.units[sub].submerged
    s, _ = play(s, "move 1 ftr sz6 united_kingdom")
    s, log = play(s, "done")
    assert not s.units[sub].submerged
    assert any("surface" in line for line in log)


def test_standing_orders_answer_for_an_absent_defender():
    """ARCHITECTURE: standing orders: casualties chosen by the player's list."""
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=1, artillery=1)
    put(s, "ussr", "caucasus", infantry=1, tank=1)
    s, _ = play(s, "standing casualties arm inf", role="ussr")
    s, log = play(s, "move 1 inf 1 art ukraine_ssr caucasus", "done", dice=[1, 6, 6, 6])
    assert any("tank" in line and "is a casualty" in line for line in log)


def test_the_game_replays_exactly_from_its_log():
    g = engine.Game.new("aa-revised", secret=b"replay", game_id="replay")
    import random

    from engine.fuzz import random_order

    rng = random.Random(3)
    for _ in range(300):
        role, order = random_order(g.ruleset, g.state, rng)
        g.play(order, role)
    again = engine.Game.replay("aa-revised", g.scenario, g.options, b"replay", "replay",
                               [(a.role, a.order) for a in g.actions])  # fmt: skip
    assert RULES.dump_state(again.state) == RULES.dump_state(g.state)
    assert RULES.load_state(RULES.dump_state(g.state)) == g.state


def test_the_view_is_json_and_shows_the_board():
    import json

    s = RULES.setup("five-players", {}, NoDice())
    v = RULES.view(s, None)
    json.dumps(v)
    assert v["spaces"]["germany"]["owner"] == "germany"
    assert v["spaces"]["germany"]["units"]["germany"]["infantry"] == 3
    assert v["powers"]["usa"]["production"] == 42
    assert v["victory"] == {"level": "minor", "needed": 8, "allies": 6, "axis": 6}


def test_the_view_carries_the_area_map_the_renderer_draws():
    """The ``map`` part validates as the renderer's AreaMapView and agrees with the
    renderer's own opening view of the setup."""
    from renderer.areaview import AreaMapView, opening_view

    s = RULES.setup("five-players", {}, NoDice())
    area = AreaMapView.model_validate(RULES.view(s, "uk")["map"])
    opening = opening_view()
    assert area.territories["germany"].units == opening.territories["germany"].units
    assert area.sea_zones["sz35"].units == opening.sea_zones["sz35"].units
    assert area.income == opening.income and area.bank == opening.bank


def test_a_state_in_the_middle_of_a_battle_survives_the_round_trip_to_json():
    import json

    s = scene("germany")
    put(s, "germany", "sz8", submarine=1)
    put(s, "uk", "sz7", destroyer=1, carrier=1)
    s, _ = play(s, "move 1 sub sz8 sz7", "done", dice=[1])
    assert s.battle is not None
    data = json.loads(json.dumps(RULES.dump_state(s), sort_keys=True))
    again = RULES.load_state(data)
    assert again == s
    assert RULES.dump_state(again) == RULES.dump_state(s)


def test_starting_production_matches_the_rulebook():
    """Revised: Setup: 24, 40, 30, 30, 42."""
    s = RULES.setup("five-players", {}, NoDice())
    assert s.start_production == {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}
    assert s.ipcs == s.start_production
