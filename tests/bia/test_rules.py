"""BIA rules engine, first phases: set-up from the pack, the sequence of play (7.0),
supply and zones of control (3.22, 4.0, 7.2, 7.9), ground movement (7.5) and the fog of
war (1.3; digest 4.2). Each test reads like a rulebook case, with scripted dice."""

from __future__ import annotations

import json
import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import supply
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.movement import allowance
from engine.games.bia.orders import Done
from engine.games.bia.pack import distance, neighbour
from engine.games.bia.rules import BlocksInAfrika

RULES = BlocksInAfrika()
B = RULES.board


class Dice:
    """The given values first, then seeded random rolls (Strategic Warfare and battles
    roll in phases these tests only pass through)."""

    def __init__(self, values=(), seed: int = 7) -> None:
        self.values = list(values)
        self.rng = random.Random(seed)

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.values.pop(0) if self.values else self.rng.randint(1, sides)


def game(scenario: str = "BIA3", salt: tuple[int, ...] = (11, 22, 33, 44), srm: bool = False):
    """A scenario set up, past the Axis Production (nothing bought) and, unless ``srm``,
    past the Axis Strategic Rail Movement."""
    s = RULES.setup(scenario, {}, Dice(salt))
    if s.phase == "production":
        s, _ = RULES.apply(s, AXIS, Done(), Dice())
    if s.phase == "srm" and not srm:
        s, _ = RULES.apply(s, AXIS, Done(), Dice())
    return s


def place(state, block_id: str, hex_id: str, side: str | None = None) -> None:
    b = state.blocks[block_id]
    b.where, b.at = "map", hex_id
    if side:
        b.side = side


def finish(state):
    """'done' until the other side's Movement Phase (or the end); all events on the way."""
    side, events = state.player, []
    while RULES.prompt(state).role is not None:
        if state.player != side and state.phase == "movement":
            break
        state, ev = RULES.apply(state, RULES.prompt(state).role, Done(), Dice())
        events += ev
    return state, events


def refused(state, role: str, text: str) -> IllegalOrder:
    """Apply an order that must be refused; check the state is unchanged."""
    before = json.dumps(RULES.dump_state(state), sort_keys=True)
    with pytest.raises(IllegalOrder) as err:
        RULES.apply(state, role, RULES.parse_order(text), ScriptedDice([]))
    assert json.dumps(RULES.dump_state(state), sort_keys=True) == before
    assert "\n" not in str(err.value) and "Traceback" not in str(err.value)
    return err.value


def move(state, role: str, text: str):
    return RULES.apply(state, role, RULES.parse_order(text), Dice())


# -- set-up (2.0) and the sequence of play (7.0) ---------------------------------------


def test_compass_sets_up_from_the_pack_and_the_axis_moves_first():
    s = game()
    sc = B.pack.scenario("BIA3")
    for p in sc.setup:
        b = s.blocks[p.unit]
        assert (b.where, b.at) == ("map", p.hex)
        assert B.block(p.unit).track[b.steps - 1][0] == p.steps  # the printed edge (3.14)
    assert s.turn == sc.first_turn == 15 and s.player == AXIS and s.phase == "movement"
    p = RULES.prompt(s)
    assert p.role == AXIS and p.verbs == ["move", "fly", "attack", "ship", "done", "standing"]
    # Supply ran before Movement (7.0 B 2): every block at set-up traces a line.
    assert not [b for b in s.blocks.values() if b.oos]
    assert s.control[B.pack.places["Tobruk"]] == AXIS
    assert s.control[B.pack.places["Alexandria"]] == ALLIED


def test_tokens_are_unique_per_nation_and_drawn_with_the_dice():
    s1, s2 = game(salt=(11, 22, 33, 44)), game(salt=(500, 9, 33, 44))
    tokens = [b.token for b in s1.blocks.values()]
    assert len(set(tokens)) == len(tokens)
    assert all(t[:3] in {"IT-", "DE-", "UK-"} for t in tokens)
    assert {b.id: b.token for b in s1.blocks.values()} != {
        b.id: b.token for b in s2.blocks.values()
    }


def test_an_unknown_scenario_is_refused_in_one_sentence():
    with pytest.raises(IllegalOrder) as err:  # the naval ones are played (tests/bia/test_naval*)
        RULES.setup("BIA99", {}, ScriptedDice([1, 1, 1, 1]))
    assert "no land scenario" in str(err.value)


def test_the_turn_runs_axis_then_allied_then_the_next_turn():
    s = game()
    s, ev = finish(s)
    assert (s.turn, s.player, s.phase) == (15, ALLIED, "movement")
    s, ev = finish(s)
    assert (s.turn, s.player, s.phase) == (16, AXIS, "movement")
    assert any("Turn 16 begins" in line for line in lines_for(ev, PUBLIC))


def test_out_of_turn_and_wrong_verb_are_refused_naming_the_sequence():
    s = game()
    err = refused(s, ALLIED, "done")
    assert err.rule == "BIA 7.0"


def test_the_last_turn_ends_in_the_scenario_victory_check():
    s = game()
    s.turn = s.last_turn
    s.control[B.pack.places["Bengasi"]] = ALLIED  # BIA3: the Allies win with Bengasi
    s, _ = finish(s)
    s, ev = finish(s)
    r = RULES.result(s)
    assert r is not None and r.winner == ALLIED
    assert RULES.prompt(s).role is None and RULES.legal_orders(s) == []
    refused(s, AXIS, "done")


def test_state_survives_dump_and_load():
    s = game()
    s, _ = move(s, AXIS, "move it_10c 2117")
    again = RULES.load_state(json.loads(json.dumps(RULES.dump_state(s))))
    assert RULES.dump_state(again) == RULES.dump_state(s)


# -- movement (7.5) ----------------------------------------------------------------------


def test_italian_infantry_has_3_mp_in_1940_and_pays_terrain():
    s = game()
    b = s.blocks["it_10c"]
    assert allowance(B, s, b) == 3  # 7.5.1: a TECH 1 Italian GU has 3 MP (L1352)
    s2, ev = move(s, AXIS, "move it_10c 2218 2318")
    assert s2.blocks["it_10c"].at == "2318"
    assert s.blocks["it_10c"].at == "2217"  # the state given is never changed
    assert s2.control["2318"] == AXIS  # 3.3: entered, so controlled


def test_german_ground_units_have_4_mp():
    s = game()
    place(s, "de_dak", "1516")
    assert allowance(B, s, s.blocks["de_dak"]) == 4  # L1352: a TECH 2 German GU, 4 MP


def test_hexes_may_not_be_skipped_nor_mp_overspent():
    s = game()
    assert refused(s, AXIS, "move it_10c 2418").rule == "BIA 7.5"
    err = refused(s, AXIS, "move it_10c 2218 2318 2418 2518")
    assert err.rule == "BIA 7.5.1" and "0 MP left" in err.reason


def test_a_unit_moves_once_per_phase():
    s = game()
    s, _ = move(s, AXIS, "move it_10c 2117")
    assert "already moved" in refused(s, AXIS, "move it_10c 2318").reason


def test_no_ground_unit_crosses_the_yellow_border_by_alam_halfa():
    """L1329-1332: not from the hex SW of Alam Halfa to the hex W of it, nor back."""
    s = game()
    halfa = B.pack.places["Alam Halfa"]
    west, south_west = neighbour(halfa, "W"), neighbour(halfa, "SW")
    place(s, "it_10c", south_west)
    err = refused(s, AXIS, f"move it_10c {west}")
    assert err.rule == "BIA 7.5.2" and "yellow border" in err.reason
    place(s, "it_10c", west)
    refused(s, AXIS, f"move it_10c {south_west}")


def test_ground_units_may_not_enter_the_sea():
    s = game()
    sea = next(n for n in B.adjacent("2217") if B.hex(n).terrain == "sea")
    assert refused(s, AXIS, f"move it_10c {sea}").rule == "BIA 7.5.2"


def test_armour_never_enters_mountains():
    s = game()
    mountain, start = next(
        (h.id, n)
        for h in B.pack.map.hexes
        if h.terrain == "mountain" and h.playable
        for n in B.adjacent(h.id)
        if B.is_land(n) and B.hex(n).terrain == "clear" and not B.features(h.id, n)
    )
    place(s, "it_maletti", start)
    assert refused(s, AXIS, f"move it_maletti {mountain}").rule == "BIA 7.5.1"
    place(s, "it_10c", start)
    s2, _ = move(s, AXIS, f"move it_10c {mountain}")  # infantry pays 3 MP and may
    assert s2.blocks["it_10c"].at == mountain


def test_movement_stops_on_entering_an_enemy_hex_which_becomes_a_battle_hex():
    s = game()
    place(s, "it_10c", "2318")
    err = refused(s, AXIS, "move it_10c 2317 2418")
    assert "ends on entering" in err.reason
    s2, ev = move(s, AXIS, "move it_10c 2317")
    assert s2.battles == ["2317"]
    assert any("battle hex opens at 2317" in line for line in lines_for(ev, PUBLIC))


def test_out_of_supply_units_have_half_mp_and_may_not_attack():
    s = game()
    place(s, "it_10c", "2318")
    s.blocks["it_10c"].oos = True
    assert allowance(B, s, s.blocks["it_10c"]) == 1  # 3 halved, rounded down (4.4)
    assert refused(s, AXIS, "move it_10c 2317").rule == "BIA 4.4"


def test_minimum_movement_is_one_mp():
    s = game()
    place(s, "it_art", "2218")
    s.blocks["it_art"].oos = True
    assert allowance(B, s, s.blocks["it_art"]) == 1  # 3.21


def test_stacking_three_ground_units_of_which_two_combat_units():
    s = game()
    # 2218 holds the Libyans and Maletti (two GCU); with the artillery it is full on both
    place(s, "it_art", "2218")
    err = refused(s, AXIS, "move it_10c 2218")
    assert err.rule == "BIA 3.13" and "3 of your ground units" in err.reason
    place(s, "it_art", "2016")
    err = refused(s, AXIS, "move it_10c 2218")
    assert err.rule == "BIA 3.13" and "2 of your combat units" in err.reason
    s2, _ = move(s, AXIS, "move it_10c 2218 2318")  # passing through may overstack
    assert s2.blocks["it_10c"].at == "2318"


def test_static_infantry_and_air_units_do_not_take_ground_moves():
    s = game()
    assert "static infantry" in refused(s, AXIS, "move it_static_bengasi 1517").reason
    assert "not a ground unit" in refused(s, AXIS, "move it_sm79 1816").reason


def test_legal_orders_are_all_accepted():
    s = game()
    legal = RULES.legal_orders(s, AXIS)
    assert RULES.legal_orders(s, ALLIED) == []
    moves = [o for o in legal if o.verb == "move"]
    assert moves and legal[-1].verb == "done"
    for o in moves[::7]:
        RULES.apply(s, AXIS, RULES.parse_order(o.text()), ScriptedDice([]))


# -- ZOC and supply (3.22, 4.0, 7.2, 7.9) -------------------------------------------------


def test_zoc_covers_the_six_neighbours_but_not_enemy_hexes():
    s = game()
    z = supply.zoc(B, s, ALLIED)
    matruh = "2317"
    for n in B.adjacent(matruh):
        if B.is_land(n) and n != "2217" and not {x.side for x in s.at_hex(n)} & {AXIS}:
            assert n in z
    assert "2217" not in z  # Sidi Barrani holds the 10th Corps


def test_bengasi_supplies_three_hexes_and_a_road_two(monkeypatch):
    """4.3 (L622-624) and its example: 3 hexes from the port of Bengasi, 2 from a road
    (El Agheila, on the Via Balbia)."""
    s = game()
    srcs = supply.sources(B, s, "italy")
    assert srcs[B.pack.places["Bengasi"]] == 3
    agheila = B.pack.places["El Agheila"]
    assert srcs[agheila] == 2

    # Alone, each source reaches exactly its length of line over clear desert.
    for source, length in ((B.pack.places["Bengasi"], 3), (agheila, 2)):
        monkeypatch.setattr(supply, "sources", lambda *a, src=source, n=length: {src: n})
        reach = supply.supplied_hexes(B, s, "italy")
        assert max(distance(source, h) for h in reach) == length
        assert [h for h in reach if distance(source, h) == length]


def test_a_block_far_from_any_source_is_out_of_supply_and_surrenders():
    s = game()
    deep = next(
        h.id for h in B.pack.map.hexes
        if h.country == "libya" and B.is_land(h.id)
        and h.id not in supply.supplied_hexes(B, s, "italy")
    )  # fmt: skip
    place(s, "it_libyan", deep)
    s.phase = "supply"
    from engine.games.bia.context import Ctx
    from engine.games.bia.rules import final_supply_phase, supply_phase

    ctx = Ctx(B, s, ScriptedDice([]))
    supply_phase(ctx)
    assert s.blocks["it_libyan"].oos
    assert "Libyan" not in " ".join(lines_for(ctx.events, ALLIED))
    assert s.blocks["it_libyan"].token in " ".join(lines_for(ctx.events, ALLIED))
    s.blocks["it_static_bengasi"].oos = True  # static infantry never surrenders
    place(s, "it_static_bengasi", deep)
    final_supply_phase(ctx)
    assert s.blocks["it_libyan"].where == "dead"
    assert s.blocks["it_static_bengasi"].where == "map"


def test_enemy_zoc_cuts_supply_lines_unless_the_unit_fights_in_a_battle_hex():
    """4.3 (L625-631): no line through enemy ZOC; 3.22 (L632-633): units in a battle hex
    have no ZOC."""
    s = game()
    before = supply.supplied_hexes(B, s, "uk")
    place(s, "it_libyan", "2519")
    cut = before - supply.supplied_hexes(B, s, "uk")
    assert "2519" in before and "2519" in cut  # the enemy's own hex is no way through
    assert cut - {"2519"}  # and lines through its ZOC are cut beyond it
    s.battles.append("2519")
    assert before - supply.supplied_hexes(B, s, "uk") == {"2519"}


# -- fog of war (1.3; digest 4.2) ------------------------------------------------------


def _axis_secrets(s) -> list[str]:
    """What the Allied side may not read of the Axis blocks: ids, and names that are not
    also the name of an Allied block."""
    allied_names = {B.block(b.id).name for b in s.blocks.values() if b.side == ALLIED}
    out = []
    for b in s.blocks.values():
        if b.side == AXIS:
            out.append(b.id)
            if B.block(b.id).name not in allied_names:
                out.append(B.block(b.id).name)
    return out


def test_each_side_sees_its_own_faces_and_only_tokens_of_the_enemy():
    s = game()
    secrets = _axis_secrets(s)
    for audience in (ALLIED, PUBLIC):
        text = RULES.view(s, audience).model_dump_json()
        assert [x for x in secrets if x in text] == []
        assert s.blocks["it_10c"].token in text
    own = RULES.view(s, AXIS)
    mine = {v.id: v for v in own.blocks if v.id}
    assert mine["it_10c"].name == "10th Corps" and mine["it_10c"].strength == 3
    theirs = [v for v in own.blocks if v.side == ALLIED]
    assert theirs and all(v.id is None and v.kind is None for v in theirs)


def test_moves_reach_the_enemy_and_the_public_as_tokens_only():
    s = game()
    secrets = _axis_secrets(s)
    s2, ev = move(s, AXIS, "move it_10c 2218 2318")
    token = s.blocks["it_10c"].token
    for audience in (ALLIED, PUBLIC):
        seen = " ".join(lines_for(ev, audience))
        seen += " " + (order_line("move it_10c 2218 2318", ev, audience) or "")
        seen += " " + RULES.prompt(s2).text_for(audience)
        assert [x for x in secrets if x in seen] == []
        assert token in seen
    assert "10th Corps" in " ".join(lines_for(ev, AXIS))


def test_refusals_do_not_tell_an_enemy_block_from_no_block():
    s = game()
    mine = refused(s, AXIS, "move uk_7armd 2418")
    none = refused(s, AXIS, "move nobody 2418")
    assert mine.reason.replace("uk_7armd", "X") == none.reason.replace("nobody", "X")


def test_a_block_may_be_named_by_its_token():
    s = game()
    token = s.blocks["it_10c"].token
    s2, _ = move(s, AXIS, f"move {token} 2117")
    assert s2.blocks["it_10c"].at == "2117"


def test_no_block_enters_a_neutral_country():
    """RULINGS B13: Turkey and Tunisia stand aside in Operation Compass."""
    s = game()
    tunisia, start = next(
        (h.id, n)
        for h in B.pack.map.hexes
        if h.country == "tunisia" and B.is_land(h.id)
        for n in B.adjacent(h.id)
        if B.is_land(n) and B.hex(n).country == "libya" and not B.features(h.id, n)
    )
    place(s, "it_10c", start)
    err = refused(s, AXIS, f"move it_10c {tunisia}")
    assert "neutral" in err.reason
    assert tunisia not in supply.supplied_hexes(B, s, "italy")


def test_combat_opens_with_both_sides_revealing_the_battle_hex_until_final_supply():
    """7.7 (L1446-1447): units are revealed before the battle; they stay face up until
    the Final Supply Check (L2416-2417)."""
    s = game()
    place(s, "it_10c", "2318")
    s, _ = move(s, AXIS, "move it_10c 2317")
    hidden = RULES.view(s, ALLIED).model_dump_json()
    assert "it_10c" not in hidden and "10th Corps" not in hidden  # not yet: 3.23, L651-653
    from engine.games.bia.context import Ctx
    from engine.games.bia.rules import final_supply_phase, next_phase, settle

    s.phase = "reaction"
    ctx = Ctx(B, s, ScriptedDice([]))
    next_phase(ctx)  # into Combat
    assert s.phase == "combat"
    from engine.games.bia import combat

    combat.reveal_battles(ctx)
    line = " ".join(lines_for(ctx.events, PUBLIC))
    assert "10th Corps" in line and "Desert Rats" in line and ctx.events[-1].reveals
    allied_view = {v.token: v for v in RULES.view(s, ALLIED).blocks}
    assert allied_view[s.blocks["it_10c"].token].name == "10th Corps"
    assert allied_view[s.blocks["it_21c"].token].name is None  # not in the battle
    final_supply_phase(ctx)
    assert not any(b.revealed for b in s.blocks.values())
    assert settle is not None


def _to_turn(s, turn: int, side: str):
    """Play 'done' until ``side``'s Movement Phase of ``turn``; returns the state and the
    events of the last action."""
    ev: list = []
    while (s.turn, s.player) != (turn, side):
        s, ev = finish(s)
    return s, ev


def test_the_4th_indian_leaves_compass_in_december_1940():
    """7.3.3 (L1213-1222): BIA3 withdraws the 4th Indian on turn 16, in the Allied
    Production Phase; the Axis reads only that a token left."""
    s, ev = _to_turn(game(), 16, ALLIED)
    b = s.blocks["uk_4ind"]
    assert b.where == "removed"
    mine, theirs = " ".join(lines_for(ev, ALLIED)), " ".join(lines_for(ev, AXIS))
    assert "4th Indian" in mine
    assert f"{b.token} leaves the theatre" in theirs and "4th Indian" not in theirs
    assert "uk_4ind" not in RULES.view(s, AXIS).model_dump_json()


def test_a_removal_waits_while_the_unit_is_out_of_supply():
    s, _ = _to_turn(game(), 16, AXIS)
    place(s, "uk_4ind", "2519")
    ring = [h for h in B.adjacent("2519") if B.is_land(h)]
    axis = ["it_10c", "it_libyan", "it_23c", "it_21c", "it_maletti", "it_art"]
    for block, h in zip(axis, ring, strict=False):
        place(s, block, h)  # surrounded: no line enters a hex the enemy holds (4.3)
    s, ev = finish(s)
    assert s.blocks["uk_4ind"].oos and s.blocks["uk_4ind"].where == "map"
    assert "postponed" in " ".join(lines_for(ev, ALLIED))
    assert "postponed" not in " ".join(lines_for(ev, AXIS))


def test_reinforcements_arrive_at_home_boxes_and_friendly_sources_or_are_held_back():
    """7.3.2, 7.3.4 (L1159-1172, L1253-1260)."""
    s, ev = _to_turn(game(), 17, AXIS)
    assert (s.blocks["de_xfk"].where, s.blocks["de_xfk"].at) == ("box", "berlin")
    assert s.blocks["de_dak"].where == "pool"  # due on turn 18
    theirs = " ".join(lines_for(ev, ALLIED))
    assert s.blocks["de_xfk"].token in theirs and "X Flieger" not in theirs

    s = game("BIA2")
    jerusalem = B.pack.places["Jerusalem"]
    s.control[jerusalem] = AXIS  # the arrival place is not the Allies' to use
    s, ev = _to_turn(s, 22, ALLIED)
    assert s.blocks["uk_6div"].where == "pool"
    assert "held back" in " ".join(lines_for(ev, ALLIED))
    assert "held back" not in " ".join(lines_for(ev, AXIS))
    s.control[jerusalem] = ALLIED
    s, ev = _to_turn(s, 23, ALLIED)
    assert (s.blocks["uk_6div"].where, s.blocks["uk_6div"].at) == ("map", jerusalem)
