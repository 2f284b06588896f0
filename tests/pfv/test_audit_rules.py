"""The rules the audit found (issue 9, item 4, PFV): stacking that could leave the movement
phase stuck, supports that move with a unit as far as their own MP allow, and the rulings
R14, R17, R22, R24, R25, R26 and R32 read against the literal text. Each test says which
lines of the rulebook (``shared/rules/004_f3aaafc52767e845.txt``) it follows.

The fixture map is open ground; columns 74-77 are Algeria, the rest Tunisia; odd columns sit
half a hex lower, so the neighbours of 8113 are 8213 8214 8112 8013 8014 8114.
"""

from __future__ import annotations

import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.pfv import movement
from engine.games.pfv.orders import Done, Move
from engine.games.pfv.rules import PattonsFirstVictory
from tests.pfv.fixtures import fixture_board, fixture_counters, play, scene
from tests.pfv.helpers import (
    BYSTANDER,
    KEEP_FIGHTING,
    hex_of,
    legal,
    prompt_of,
    refused,
    slow_unit,
    stack,
)


def moves_of(rules, state, piece: str) -> set[str]:
    """The destinations the legal orders offer ``piece`` moving alone."""
    return {
        o.path[-1] for o in rules.legal_orders(state) if o.verb == "move" and o.pieces == [piece]
    }


# -- PFV 6 (L66-68): stacking is checked when movement ends, and the phase can always end ----


def pocket_board():
    """8113 opens only on 8213: its other five neighbours are salt marsh, and every other
    neighbour of 8213 is mountain (3 MP). The slow column (MF 2) in 8113 can reach 8213 and
    nothing else."""
    board = fixture_board()
    terrain = {n: ["mountain"] for n in board.grid.neighbours("8213") if n != "8113"}
    terrain.update({n: ["marsh"] for n in board.grid.neighbours("8113") if n != "8213"})
    return fixture_board(terrain=terrain, counters=fixture_counters(extra=[slow_unit()]))


def test_a_unit_may_not_end_its_move_on_a_unit_that_has_already_moved_L66_L68_R34():
    """L68 checks stacking once every piece has moved, and L78 lets each piece move once: a
    unit ending on one that has moved already could never be put right, so the move is
    refused, and 'done' stays possible."""
    where = {"1arm": "8313", "6arm": "8515", **BYSTANDER}
    rules, s = scene(fixture_board(), where, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8213")
    err = refused(rules, s, "allied", "move 6arm 8213")
    assert err.rule == "PFV 6"
    assert "8213 would be over-stacked (only one unit may stand in a hex)" in str(err)
    assert "could never end" in str(err)
    assert "8213" not in moves_of(rules, s, "6arm")
    s, _ = play(rules, s, "allied", "done", [12])  # 12: no Patton yet
    assert (s.turn, s.player) == (2, "axis")  # the Allied player turn is over


def test_a_unit_may_end_on_one_that_has_not_moved_which_must_then_leave_L68_R34():
    """In transit a piece is not stacked (L68): 1st Armored may end on the 6th Armoured,
    which has not moved; 'done' waits until the 6th has moved away."""
    where = {"1arm": "8313", "6arm": "8113", **BYSTANDER}
    rules, s = scene(fixture_board(), where, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8213 8113")
    assert stack(s, "8113") == {"1arm", "6arm"}
    err = refused(rules, s, "allied", "done")
    assert err.rule == "PFV 6" and "8113 (only one unit may stand in a hex)" in str(err)
    s, _ = play(rules, s, "allied", "move 6arm 8013")
    s, _ = play(rules, s, "allied", "done", [12])  # 12: no Patton yet
    assert (s.turn, s.player) == (2, "axis")  # the Allied player turn is over


def test_a_unit_may_not_end_on_one_whose_only_way_out_holds_a_moved_unit_R34():
    """The slow column in 8113 can go only to 8213. With the 34th already moved into 8213,
    it could not leave, so 1st Armored may not end its move on it."""
    where = {"slow": "8113", "34th": "8313", "1arm": "8413", **BYSTANDER}
    rules, s = scene(pocket_board(), where, player="allied")
    s, _ = play(rules, s, "allied", "move 34th 8213")
    err = refused(rules, s, "allied", "move 1arm 8313 8213 8113")
    assert "8113 would be over-stacked" in str(err)


def test_no_move_may_close_the_way_out_of_an_over_stacked_hex_R34():
    """1st Armored ends on the slow column, whose one way out is 8213: moving the 34th into
    8213 would trap it, so that move is neither listed nor accepted."""
    where = {"slow": "8113", "1arm": "8413", "34th": "8414", **BYSTANDER}
    rules, s = scene(pocket_board(), where, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8313 8213 8113")
    assert moves_of(rules, s, "slow") == {"8213"}
    assert "8213" not in moves_of(rules, s, "34th")
    refused(rules, s, "allied", "move 34th 8313 8213")
    s, _ = play(rules, s, "allied", "move slow 8213")
    s, _ = play(rules, s, "allied", "done", [12])  # 12: no Patton yet
    assert (s.turn, s.player) == (2, "axis")  # the Allied player turn is over


class RandomDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


def movement_can_end(rules, state, dice, depth: int = 4) -> bool:
    """'done' is accepted now, or after some legal moves of pieces in over-stacked hexes."""
    try:
        rules.apply(state, state.player, Done(), dice)
        return True
    except IllegalOrder:
        pass
    if depth == 0:
        return False
    b = rules.board
    crowded = {h for h, ps in b.stacks(state).items() if b.stacking_problem(ps)}
    for order in rules.legal_orders(state):
        if order.verb == "move" and state.pieces[order.pieces[0]].hex in crowded:
            after, _ = rules.apply(state, state.player, order, dice)
            if movement_can_end(rules, after, dice, depth - 1):
                return True
    return False


def wild_move(rules, state, rng: random.Random) -> Move | None:
    """A move a player might type: any piece or stack of pieces that has not moved, to any
    hex it can reach, over-stacked or not (half the time onto a friendly stack)."""
    b = rules.board
    side = state.player
    stacks = b.stacks(state)
    groups = []
    for pieces in stacks.values():
        mine = [p for p in pieces if b.side(p) == side and not b.is_air(p)]
        mine = [p for p in mine if p not in state.moved]
        groups += [[p] for p in mine] + ([mine] if len(mine) > 1 else [])
    if not groups:
        return None
    group = rng.choice(groups)
    start = state.pieces[group[0]].hex
    mf = movement.movement_factor(b, state, movement.leader(b, state, group))
    tree = movement.reachable(b, rules.options(state), state, start, mf, side)
    dests = [h for h in tree if h != start]
    friendly = [h for h in dests if stacks.get(h) and b.side(stacks[h][0]) == side]
    if not dests:
        return None
    dest = rng.choice(friendly if friendly and rng.random() < 0.5 else dests)
    return Move(pieces=group, path=[dest])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_never_leaves_the_movement_phase_stuck_L68_R34(seed):
    """Random games on the shipped map: every listed order is accepted, some order is always
    listed, and after every order in a movement phase (listed or typed: half the moves end on
    a friendly stack) the phase can still be ended."""
    rng = random.Random(seed)
    dice = RandomDice(rng)
    rules = PattonsFirstVictory()
    state = rules.setup("standard", {}, dice)
    typed = accepted = 0
    for _ in range(500):
        prompt = rules.prompt(state)
        if prompt.role is None:
            break
        orders = rules.legal_orders(state, prompt.role)
        assert orders, f"no legal order at: {prompt.text}"
        if prompt.kind == "move" and rng.random() < 0.5:
            order = wild_move(rules, state, rng)
            if order is not None:
                typed += 1
                try:
                    state, _ = rules.apply(state, prompt.role, order, dice)
                    accepted += 1
                except IllegalOrder:
                    pass
                assert movement_can_end(rules, state, dice), f"stuck after {order.text()}"
                continue
        finishing = [o for o in orders if o.verb in ("done", "auto")]
        others = [o for o in orders if o.verb not in ("done", "auto")]
        order = rng.choice(
            finishing if finishing and (not others or rng.random() < 0.1) else others
        )
        state, _ = rules.apply(state, prompt.role, order, dice)
        if state.phase == "move":
            assert movement_can_end(rules, state, dice), f"stuck after {order.text()}"
    assert typed > 20 and accepted > 10


# -- PFV 7 phase 1 (L78): supports move with their unit until they lack the MP --------------


def hills_board():
    return fixture_board(terrain={h: ["hills"] for h in ("8213", "8313", "8413")})


def test_a_support_out_of_mp_stops_while_its_unit_goes_on_L78():
    """6th Armoured (MF 6) and the RA artillery (MF 3) cross three hills hexes (2 MP each):
    the artillery enters the first and lacks the MP for the second; the 6th goes on."""
    rules, s = scene(hills_board(), {"6arm": "8113", "arty": "8113", **BYSTANDER}, player="allied")
    after, events = rules.apply(
        s, "allied", rules.parse_order("move 6arm,arty 8213 8313 8413"), ScriptedDice([])
    )
    assert (hex_of(after, "6arm"), hex_of(after, "arty")) == ("8413", "8213")
    assert {"6arm", "arty"} <= after.moved
    stop = [e for e in events if "stops in 8213" in e.text]
    assert len(stop) == 1 and stop[0].text_for("allied") and stop[0].text_for("axis") is None
    refused(rules, after, "allied", "move arty 8313")  # it has moved: once is all


def test_a_support_may_always_enter_the_first_hex_whatever_it_costs_L78_L144():
    """Across an unbridged river into open ground costs 4: the artillery (MF 3) still enters
    that one hex, and stops there; 1st Armored (MF 6) goes one hex further."""
    board = fixture_board(hexsides={"8113|8213": ["river"]})
    rules, s = scene(board, {"1arm": "8113", "arty": "8113", **BYSTANDER}, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm,arty 8213 8313")
    assert (hex_of(s, "1arm"), hex_of(s, "arty")) == ("8313", "8213")


def test_a_group_is_refused_only_when_its_unit_lacks_the_mp_and_the_reason_names_it_L78():
    rules, s = scene(hills_board(), {"1arm": "8113", "arty": "8113", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move 1arm,arty 8213 8313 8413 8513")  # 7 > 6
    assert "1st Armored would need 7 MP to reach 8513 but has 6" in str(err)
    assert "RA artillery" not in err.reason


def test_a_support_stopping_short_may_not_leave_a_hex_over_stacked_for_good_L78_R34():
    """The artillery would stop in 8213 on two supports that have moved already: three
    ground supports, and none of them could leave."""
    where = {"1arm": "8113", "arty": "8113", "td": "8314", "patton": "8314", **BYSTANDER}
    rules, s = scene(hills_board(), where, player="allied")
    s, _ = play(rules, s, "allied", "move td,patton 8213")
    err = refused(rules, s, "allied", "move 1arm,arty 8213 8313 8413")
    assert "8213 would be over-stacked (at most two non-air support assets" in str(err)


# -- RULINGS R14 (L118, L198): an eliminated battlegroup is an eliminated unit ---------------


def two_battles(**options):
    """The Axis attacks the Allied battlegroup in 8113, then reduced 1st Armored in 8116."""
    where = {"10pz": "8213", "bg_allied_1": "8113", "x": "8216", "1arm": "8116", **KEEP_FIGHTING}
    return scene(fixture_board(), where, phase="combat", reduced=("1arm",), options=options or None)


def test_an_eliminated_battlegroup_never_comes_back_to_stand_for_another_unit_R14():
    """L198: a battlegroup functions like a unit in every respect and is eliminated when
    reduced; L118: no eliminated unit is ever reclaimed. So when 1st Armored, reduced, loses
    another step, no battlegroup is left to replace it and it is eliminated."""
    rules, s = two_battles()
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert hex_of(s, "bg_allied_1") == "dead"
    s, _ = play(rules, s, "axis", "advance none")
    s, _ = play(rules, s, "axis", "attack x 8116", [1, 12])
    assert hex_of(s, "1arm") == "dead" and hex_of(s, "bg_allied_1") == "dead"
    assert stack(s, "8116") == set()


def test_battlegroup_recycled_option_returns_the_counter_to_the_pool_R14():
    rules, s = two_battles(battlegroup_recycled=True)
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert hex_of(s, "bg_allied_1") == "pool"
    s, _ = play(rules, s, "axis", "advance none")
    s, _ = play(rules, s, "axis", "attack x 8116", [1, 12])
    assert hex_of(s, "1arm") == "dead" and hex_of(s, "bg_allied_1") == "8116"


# -- RULINGS R17 (L46-48, L68): a hex changes hands where a unit comes to rest ---------------


@pytest.mark.parametrize("transit, owner", [(False, "axis"), (True, "allied")])
def test_a_unit_passing_through_an_airfield_does_not_take_it_R17(transit, owner):
    """L68: a piece moving through a hex is not in it; L46-48: a port entered and left is
    not captured. 1st Armored drives through the Axis airfield 8412 and on to 8512."""
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = scene(
        board,
        {"1arm": "8312", **BYSTANDER},
        player="allied",
        options={"control_by_transit": transit},
    )
    s, _ = play(rules, s, "allied", "move 1arm 8412 8512")
    assert s.control["8412"] == owner and s.control["8512"] == "allied"


def test_a_unit_ending_its_move_on_an_airfield_takes_it_R17():
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = scene(board, {"1arm": "8312", **BYSTANDER}, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8412")
    assert s.control["8412"] == "allied"
    assert rules.board.friendly_airfields(s, "allied", rules.options(s)) == ["8412"]


# -- RULINGS R24 (L46-48, L226): ports "presently owned" are ports an Allied unit occupies ---


def rommel_roll(roll: int, **options):
    """End of game turn 6 of 8: the Allies have been in Gabes (8419) and Sfax (8715) and
    control both, but only Gabes holds an Allied unit now. Mareth is Axis: no modifier."""
    where = {"10pz": "8412", "rommel": "8412", "6arm": "8419"}
    rules, s = scene(
        fixture_board(features={h: ["port"] for h in ("8419", "8715")}),
        where,
        phase="replace",
        player="allied",
        turn=6,
        control={"8419": "allied", "8715": "allied", "8519": "axis"},
        options=options or None,
    )
    s.patton_arrived = True
    s, log = play(rules, s, "allied", "done", [roll])
    return s, log


def test_rommel_counts_only_ports_an_allied_unit_occupies_now_R24():
    s, log = rommel_roll(2)
    assert any("recalled on 1 or less" in line for line in log)
    assert not s.rommel_recalled


def test_rommel_ports_option_counts_controlled_ports_R24():
    s, log = rommel_roll(2, rommel_ports="controlled")
    assert any("recalled on 2 or less" in line for line in log)
    assert s.rommel_recalled


# -- RULINGS R25 (L68, L226): "occupied" an 8th Army hex means came to rest in it ------------


@pytest.mark.parametrize(
    "path, occupied",
    [("8719 8720 8620", False), ("8719 8720", True), ("8718", False)],
)
def test_an_axis_unit_only_passing_through_an_8th_army_hex_has_not_occupied_it_R25(path, occupied):
    rules, s = scene(fixture_board(), {"x": "8619", "1arm": "8113"}, player="axis")
    s, _ = play(rules, s, "axis", f"move x {path}")
    assert s.axis_entered_8th_army == occupied


# -- RULINGS R26 (L60, L226): the airbase 8821 is not an 8th Army hex -----------------------


def axis_setup(**options):
    """The Axis sets up on the shipped map (8821 and the 8th Army hexes are off the fixture)."""
    real = PattonsFirstVictory().board
    return scene(real, {}, phase="setup", player="axis", options=options or None)


def test_the_axis_may_set_up_in_the_airbase_8821_and_has_then_occupied_it_R26():
    """L60 keeps the Axis out of the 8th Army and II Corps hexes; L226 lists 8821 apart from
    the 8th Army hexes. A unit set up there occupies the airbase (L226) and controls it."""
    rules, s = axis_setup()
    assert s.control["8821"] == "allied" and not s.axis_entered_8th_army
    s, _ = play(rules, s, "axis", "place 10pz 8821")
    assert hex_of(s, "10pz") == "8821"
    assert s.axis_entered_8th_army and s.control["8821"] == "axis"
    err = refused(rules, s, "axis", "place 15pz 8721")
    assert "outside the 8th Army and II Corps hexes" in str(err)


def test_option_keeps_the_axis_out_of_the_airbase_at_set_up_R26():
    rules, s = axis_setup(axis_setup_in_8821=False)
    err = refused(rules, s, "axis", "place 10pz 8821")
    assert "the airbase (RULINGS R26)" in str(err)


# -- RULINGS R22 (L56, L220): Patton's forced arrival goes to a printed II Corps hex --------

II_CORPS_HEXES = ("7914", "8014", "8113")


def patton_board():
    features = {h: ["crest_ii_corps"] for h in II_CORPS_HEXES}
    features["7712"] = ["airfield_allied"]
    return fixture_board(features=features)


def end_of_turn(turn: int, roll: int, **options):
    """1st Armored, the one II Corps unit in Tunisia, stands in 8313, outside the printed II
    Corps hexes."""
    where = {"1arm": "8313", "10pz": "8617"}
    rules, s = scene(
        patton_board(), where, phase="replace", player="allied", turn=turn, options=options or None
    )
    s, log = play(rules, s, "allied", "done", [roll])
    return rules, s, log


def test_patton_arriving_on_a_roll_goes_to_a_hex_with_a_ii_corps_unit_L220_R22():
    """The only such hex is 8313, so he is placed there at once (RULINGS R35)."""
    rules, s, log = end_of_turn(2, 1)
    assert any("he arrives." in line for line in log)
    assert hex_of(s, "patton") == "8313"


def test_patton_forced_to_arrive_goes_to_a_printed_ii_corps_hex_L56_L220_R22():
    """'In any US II Corps hex' (L220) uses the words of L56 and L60 for the hexes printed
    with the II Corps crest."""
    rules, s, log = end_of_turn(3, 12)
    assert any("he arrives anyway" in line for line in log)
    assert legal(rules, s) == {f"place patton {h}" for h in II_CORPS_HEXES}
    refused(rules, s, "allied", "place patton 8313")
    s, _ = play(rules, s, "allied", "place patton 8014")
    assert hex_of(s, "patton") == "8014"


def test_option_sends_the_forced_patton_to_a_ii_corps_unit_R22():
    rules, s, _ = end_of_turn(3, 12, patton_forced_hex="ii_corps_unit")
    assert hex_of(s, "patton") == "8313"


# -- RULINGS R32 (L88, L100): air on its airfield may defend its own hex at range 0 ----------


def home_air(**options):
    board = fixture_board(features={"8412": ["airfield_axis"]})
    return scene(
        board,
        {"luft": "8412", "x": "8412", "1arm": "8312", **KEEP_FIGHTING},
        phase="combat",
        player="allied",
        options=options or None,
    )


def test_air_on_its_airfield_may_fly_to_the_defence_of_its_own_hex_L88_R32():
    """L88: air may fly from its airfield to the defending unit's hex if that hex is within
    its range; its own hex is at range 0. After the battle it goes to Return to Base (L100),
    so it is not caught when Unit X must retreat."""
    rules, s = home_air()
    s, _ = play(rules, s, "allied", "attack 1arm 8412")
    assert "air luft" in legal(rules, s)
    s, log = play(rules, s, "axis", "air luft", [4, 12])
    assert any("Defence: Unit X rolls 12 -3 support" in line for line in log)
    assert s.pieces["x"].reduced and prompt_of(rules, s) == ("axis", "retreat")
    assert hex_of(s, "luft") == "rtb"


def test_grounded_air_option_keeps_it_from_defending_its_own_hex_R32():
    rules, s = home_air(air_defends_own_hex=False)
    s, _ = play(rules, s, "allied", "attack 1arm 8412", [4, 12])  # no air prompt at all
    assert hex_of(s, "luft") == "dead"  # on the ground in a hex that must retreat (L208)


def test_a_lone_air_asset_cannot_fly_to_its_own_defence_L190_L202_R32():
    board = fixture_board(features={"8412": ["airfield_axis"]})
    where = {"luft": "8412", "regia": "8408", "1arm": "8312", **KEEP_FIGHTING}
    rules, s = scene(board, where, phase="combat", player="allied")
    s, _ = play(rules, s, "allied", "attack 1arm 8412")
    assert legal(rules, s) == {"air none", "air regia"}
    err = refused(rules, s, "axis", "air luft")
    assert "nothing else of yours is there to defend" in str(err)
