"""BIA scenario special rules (Scenario Booklet in the data pack; engine.games.bia.special,
RULINGS D10-D15): one test per kind of rule, each showing the refusal, that it names the
scenario's rule and changes nothing, that legal orders do not offer it, and the allowed
case; and ``umpire datapack check`` refusing a rule that disagrees with the rest of the
pack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from engine.core.datapack import pack_path
from engine.core.dice import ScriptedDice
from engine.games.bia import combat, special, srm
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import Attack, Fly, Move, Ship
from engine.games.bia.pack import DieppeFrom, check
from tests.bia.test_combat import RULES, B, bare, order, put, refused

P = B.pack.places
TOBRUK = P["Tobruk"]


def offered(s, role: str, verb: str, block: str) -> list:
    return [o for o in RULES.legal_orders(s, role) if o.verb == verb and o.block == block]


# -- no_entry -----------------------------------------------------------------------------


def test_no_entry_german_units_stay_out_of_egypt_until_turn_18():
    """BIA3 special rule 2 (RULINGS D11): before February 1941 (turn 18) a German unit
    may not enter Egypt; an Italian one may; from turn 18 the German may too."""
    s = bare("BIA3", turn=17)
    libya, egypt = "2118", "2218"
    assert (B.hex(libya).country, B.hex(egypt).country) == ("libya", "egypt")
    put(s, "de_dak", libya)
    put(s, "it_ariete", "2019")
    err = refused(s, AXIS, f"move de_dak {egypt}")
    assert err.rule == "BIA3 special rule 2"
    assert err.reason.startswith("BIA3 special rule: German units may not enter Egypt")
    assert "before turn 18" in err.reason
    dests = {o.path[-1] for o in offered(s, AXIS, "move", "de_dak")}
    assert dests and all(B.hex(h).country != "egypt" for h in dests)
    s2, _ = order(s, AXIS, "move it_ariete 2119")  # Italians are free to go
    assert s2.blocks["it_ariete"].at == "2119" and B.hex("2119").country == "egypt"
    s.turn = 18
    assert Move(block="de_dak", path=[egypt]) in offered(s, AXIS, "move", "de_dak")
    s3, _ = order(s, AXIS, f"move de_dak {egypt}")
    assert s3.blocks["de_dak"].at == egypt


def test_no_entry_persia_is_not_attacked_from_the_air_or_ground_before_turn_24():
    """BIA2 special rule 1 (RULINGS D10): before August 1941 no Allied unit enters a
    Persian hex, so neither the Basra garrison's move nor the AASF's air attack on Abadan;
    from turn 24 both are offered and allowed."""
    basra, abadan = P["Basra"], P["Abadan"]
    s = bare("BIA2", turn=23, side=ALLIED)
    put(s, "pe_rp", abadan)
    put(s, "uk_10ind", basra)
    put(s, "uk_aasf", basra)
    for text in (f"attack uk_aasf {abadan}", f"move uk_10ind {abadan}"):
        err = refused(s, ALLIED, text)
        assert err.reason.startswith("BIA2 special rule: Persia may be attacked only from")
    assert Attack(block="uk_aasf", to=abadan) not in offered(s, ALLIED, "attack", "uk_aasf")
    assert all(o.path[-1] != abadan for o in offered(s, ALLIED, "move", "uk_10ind"))
    s.turn = 24
    assert Attack(block="uk_aasf", to=abadan) in offered(s, ALLIED, "attack", "uk_aasf")
    s2, _ = order(s, ALLIED, f"attack uk_aasf {abadan}")
    assert abadan in s2.battles and s2.blocks["uk_aasf"].at == abadan


# -- confine --------------------------------------------------------------------------------


def test_confine_vichy_units_do_not_leave_the_levant():
    """BIA1 special rule 1 (RULINGS D12): a Vichy unit moves within the Levant but never
    out of it, by ground move or by rail."""
    s = bare("BIA1", turn=22)
    levant, haifa = "3414", P["Haifa"]
    put(s, "vf_levant_1", levant)
    err = refused(s, AXIS, f"move vf_levant_1 {haifa}")
    assert err.rule == "BIA1 special rule 1"
    assert err.reason.startswith("BIA1 special rule: Vichy units may not leave the Levant.")
    dests = {o.path[-1] for o in offered(s, AXIS, "move", "vf_levant_1")}
    assert dests and {B.hex(h).country for h in dests} == {"levant"}
    assert all(B.hex(h).country == "levant" for h in srm.rail_reach(B, s, s.blocks["vf_levant_1"]))
    inside = sorted(dests)[0]
    s2, _ = order(s, AXIS, f"move vf_levant_1 {inside}")
    assert s2.blocks["vf_levant_1"].at == inside


def test_confine_holds_for_retreats_too():
    """BIA1 special rule 1 in a retreat (7.7.11, L1781-1782; RULINGS D10): the Armee du
    Levant retreats within the Levant only; in BIA2, free of the rule, it may fall back
    into Palestine."""
    bia1, bia2 = bare("BIA1", turn=22), bare("BIA2", turn=22)
    for s in (bia1, bia2):
        put(s, "vf_levant_1", "3415")
    ways = {
        s.scenario: {
            B.hex(h).country
            for h in combat.retreat_hexes(Ctx(B, s, ScriptedDice([])), s.blocks["vf_levant_1"])
        }
        for s in (bia1, bia2)
    }
    assert ways == {"BIA1": {"levant"}, "BIA2": {"levant", "palestine"}}


# -- in_play ----------------------------------------------------------------------------------


def test_in_play_nobody_enters_egypt_in_operation_exporter():
    """BIA1 special rule 3 (RULINGS D13): Egypt is out of play, so a British unit in
    Palestine may not march, sail or ride the rail into it; Cyprus is in play."""
    s = bare("BIA1", turn=22, side=ALLIED)
    put(s, "uk_6div", "3219")
    put(s, "uk_7aus", P["Haifa"])
    err = refused(s, ALLIED, "move uk_6div 3218")
    assert err.rule == "BIA1 special rule 3" and "which is out of play" in err.reason
    assert err.reason.startswith("BIA1 special rule: Only the Levant, Palestine and Transjordan")
    err = refused(s, ALLIED, f"ship uk_7aus {P['Port Said']}")
    assert err.rule == "BIA1 special rule 3"
    assert Ship(block="uk_7aus", to=P["Port Said"]) not in offered(s, ALLIED, "ship", "uk_7aus")
    assert all(B.hex(o.path[-1]).country != "egypt" for o in offered(s, ALLIED, "move", "uk_6div"))
    assert Ship(block="uk_7aus", to=P["Nicosia"]) in offered(s, ALLIED, "ship", "uk_7aus")
    s2, _ = order(s, ALLIED, f"ship uk_7aus {P['Nicosia']}", dice=[1])
    assert s2.blocks["uk_7aus"].at == P["Nicosia"]


def test_in_play_the_railway_into_egypt_is_closed_in_operation_exporter():
    """BIA1 special rule 3 by SRM (7.4): the line from Haifa runs into Egypt, which is out
    of play; the Palestinian stations stay open."""
    s = bare("BIA1", turn=22, side=ALLIED, phase="srm")
    put(s, "uk_7aus", P["Haifa"])
    s.pp["uk"] = {"yellow": 2}
    assert B.hex("2819").country == "egypt" and "2819" in srm.rail_graph(B)
    err = refused(s, ALLIED, "rail uk_7aus 2819")
    assert err.rule == "BIA1 special rule 3" and "2819 lies in Egypt" in err.reason
    stations = {o.to for o in RULES.legal_orders(s, ALLIED) if o.verb == "rail"}
    assert stations and {B.hex(h).country for h in stations} <= {"palestine", "levant", "iraq"}
    to = sorted(stations)[0]
    s2, _ = order(s, ALLIED, f"rail uk_7aus {to}")
    assert s2.blocks["uk_7aus"].at == to


def test_the_turkish_ban_is_named_before_neutrality():
    """BIA1 special rule 2: Turkey is neutral too, but the refusal names the scenario rule."""
    s = bare("BIA1", turn=22, side=ALLIED)
    put(s, "uk_1cav", P["Aleppo"])
    turkey = next(n for n in B.adjacent(P["Aleppo"]) if B.hex(n).country == "turkey")
    err = refused(s, ALLIED, f"move uk_1cav {turkey}")
    assert err.rule == "BIA1 special rule 2" and "Allied units may not enter Turkey" in err.reason


# -- air_route ---------------------------------------------------------------------------------


def test_air_route_german_air_units_reach_iraq_only_from_the_levant():
    """BIA2 special rule 2 (RULINGS D14): the Fliegerfuehrer Irak flies into Iraq from
    Damascus, never from Tehran; once in Iraq it moves within it."""
    iraq_field = "4213"
    assert B.hex(iraq_field).country == "iraq"
    s = bare("BIA2", turn=21)
    put(s, "de_flfirak", P["Tehran"])
    err = refused(s, AXIS, f"fly de_flfirak {iraq_field}")
    assert err.rule == "BIA2 special rule 2"
    assert err.reason.startswith("BIA2 special rule: German air units reach Iraq only through")
    assert "from 5310 (Tehran): it must take off from Syria and Lebanon" in err.reason
    assert Fly(block="de_flfirak", to=iraq_field) not in offered(s, AXIS, "fly", "de_flfirak")
    put(s, "de_flfirak", P["Damascus"])
    assert Fly(block="de_flfirak", to=iraq_field) in offered(s, AXIS, "fly", "de_flfirak")
    s2, _ = order(s, AXIS, f"fly de_flfirak {iraq_field}")
    assert s2.blocks["de_flfirak"].at == iraq_field
    put(s, "de_flfirak", P["Mosul"])  # already in Iraq
    assert Fly(block="de_flfirak", to=iraq_field) in offered(s, AXIS, "fly", "de_flfirak")


# -- locality -----------------------------------------------------------------------------------


def _axis_takes_tobruk(scenario: str, turn: int):
    s = bare(scenario, turn=turn)
    put(s, "de_dak", TOBRUK)
    s.control[TOBRUK] = ALLIED
    s.battles = [TOBRUK]
    s.phase = "combat"
    s.fight = {"hex": TOBRUK, "attacker": AXIS, "round": 2, "step": 0, "pending": None,
               "queue": [], "shield": {}, "wait": None, "a2a": 0, "grounded": []}  # fmt: skip
    ctx = Ctx(B, s, ScriptedDice([]))
    assert combat._over(ctx)
    return s


def test_locality_tobruk_taken_by_the_axis_in_bia6_becomes_a_minor_city():
    """BIA6 special rule 1 (RULINGS D15): Tobruk is a British bunker which the Axis
    takes as a minor city (L1751-1756); in BIA4 the same bunker taken is destroyed
    (7.7.9, L1749). The scenario's type agrees with the rule (datapack check)."""
    assert combat.locality(B, bare("BIA6"), TOBRUK) == "bunker"
    s6 = _axis_takes_tobruk("BIA6", 35)
    assert s6.localities[TOBRUK] == "minor" and combat.locality(B, s6, TOBRUK) == "minor"
    s4 = _axis_takes_tobruk("BIA4", 21)
    assert s4.localities[TOBRUK] is None
    assert special.when_captured(B, s6, TOBRUK, "bunker", ALLIED) is None  # its holder


# -- dieppe_from ------------------------------------------------------------------------------


def test_dieppe_bonus_from_the_turn_the_scenario_names():
    """BIA6 special rule 2: the long-range crossing from the UK to an Indian Ocean port
    (L1200-1206) is refused on turn 36 and allowed from turn 37."""
    suez = P["Suez"]
    s = bare("BIA6", turn=36, side=ALLIED)
    b = s.blocks["uk_2nz"]
    b.where, b.at = "box", "london"
    err = refused(s, ALLIED, f"ship uk_2nz {suez}")
    assert "after the Dieppe Raid" in err.reason
    assert Ship(block="uk_2nz", to=suez) not in offered(s, ALLIED, "ship", "uk_2nz")
    s.turn = 37
    assert special.dieppe_in_force(B, s)
    assert Ship(block="uk_2nz", to=suez) in offered(s, ALLIED, "ship", "uk_2nz")
    s2, _ = order(s, ALLIED, f"ship uk_2nz {suez}", dice=[1])
    assert s2.blocks["uk_2nz"].at == suez
    rules = B.pack.scenario("BIA5").special_rules
    assert any(isinstance(r, DieppeFrom) and r.turn <= 38 for r in rules)  # BIA5 starts on 38


# -- the data pack check: every kind ---------------------------------------------------------


def _pack_with(tmp_path: Path, change) -> list[str]:
    for name in ("map", "strategic", "units", "tables", "scenarios"):
        shutil.copy(pack_path("bia", name), tmp_path / f"{name}.json")
    data = json.loads((tmp_path / "scenarios.json").read_text())
    change({s["id"]: s for s in data["scenarios"]})
    (tmp_path / "scenarios.json").write_text(json.dumps(data))
    return [message for _, _, message in check(tmp_path)]


def _rule(sc: dict, kind: str) -> dict:
    return next(r for r in sc["special_rules"] if r["kind"] == kind)


def test_the_shipped_special_rules_pass_the_check_and_are_described():
    """Every rule's sentence is in its scenario's description; BIA5's control rule is the
    set-up's (Tunis Axis, RULINGS D16)."""
    assert check() == []
    s = RULES.setup("BIA5", {}, ScriptedDice([1, 2, 3, 4] + [1] * 10))
    assert s.control[P["Tunis"]] == AXIS and s.control[P["Bizerte"]] == AXIS
    for sc in RULES.scenarios():
        for r in B.pack.scenario(sc.id).special_rules:
            assert r.text in sc.description
    kinds = {r.kind for s in B.pack.scenarios.scenarios for r in s.special_rules}
    assert kinds == {"no_entry", "confine", "in_play", "air_route", "locality", "control",
                     "dieppe_from", "example"}  # fmt: skip


def test_datapack_check_refuses_special_rules_that_disagree(tmp_path):
    def change(sc):
        _rule(sc["BIA3"], "locality")["locality"] = "bunker"  # the pack says fortress
        _rule(sc["BIA4"], "locality")["held_by"] = "axis"  # the British hold it
        _rule(sc["BIA5"], "control")["side"] = "allied"  # Tunisia is the Axis's
        _rule(sc["BIA6"], "dieppe_from")["turn"] = 36  # the raid is turn 36, bonus 37
        _rule(sc["BIA4"], "example")["turn"] = 30  # outside turns 20-24
        _rule(sc["BIA1"], "in_play")["countries"] = ["palestine", "iraq", "cyprus"]  # no Levant
        _rule(sc["BIA1"], "confine")["countries"] = ["iraq"]  # the Vichy stand in the Levant
        _rule(sc["BIA3"], "no_entry")["powers"] = ["italy"]  # Italians stand in Egypt
        _rule(sc["BIA2"], "air_route")["via"] = ["atlantis"]
        _rule(sc["BIA2"], "no_entry")["before_turn"] = 40

    found = _pack_with(tmp_path, change)
    expect = [
        "BIA3 special rule 1: Tobruk is a fortress in this scenario's data, not a bunker",
        "BIA4 special rule 1: Tobruk is held by the allied at the start, not the axis",
        "BIA5 special rule 3: tunisia is axis's at the start, not the allied's",
        "BIA6 special rule 2: the Dieppe Raid bonus applies from turn 37",
        "BIA4 special rule 2: turn 30 is outside the scenario",
        "BIA2 special rule 2: unknown country 'atlantis'",
        "BIA2 special rule 1: turn 40 is not within turns 22-25",
    ]
    for text in expect:
        assert any(m.startswith(text) for m in found), (text, found)
    assert any(m.startswith("BIA1 special rule 3: victory names") for m in found)
    assert any(m.startswith("BIA1 special rule 3:") and "not in play" in m for m in found)
    assert any(m.startswith("BIA1 special rule 1:") and "outside its confine" in m for m in found)
    assert any(m.startswith("BIA3 special rule 2:") and "may not enter" in m for m in found)


def test_datapack_check_refuses_a_rule_of_unknown_kind_or_missing_field(tmp_path):
    found = _pack_with(
        tmp_path, lambda sc: sc["BIA3"]["special_rules"].append({"kind": "sunrise", "text": "x"})
    )
    assert found and not any("is valid" in m for m in found)
    found = _pack_with(tmp_path, lambda sc: _rule(sc["BIA3"], "no_entry").pop("countries"))
    assert found
