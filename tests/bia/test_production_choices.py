"""BIA production choices (issue 11): holding a reinforcement back by choice and bringing
it into play later (7.3.5, L1261-1265; RULINGS B100-B101), the minor powers' armour and
air bought with their leader's PP (L1097-1099; B102) and PP shipped between ports
(L355-358; B103). Each refusal names its rule and changes nothing."""

from __future__ import annotations

from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import ledger
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.orders import Done, Hold, Release
from tests.bia.test_random_play import SEEDS_FOR_COVERAGE, play
from tests.bia.test_rules import RULES, Dice, game, move, refused

B = RULES.board
JERUSALEM = B.pack.places["Jerusalem"]


def _to_production(s, turn: int, side: str):
    """'done' until ``side``'s Production Phase of ``turn``; the events of the last step."""
    ev: list = []
    while (s.turn, s.player, s.phase) != (turn, side, "production"):
        s, ev = RULES.apply(s, RULES.prompt(s).role, Done(), Dice())
    return s, ev


def _seen(ev, s, audience) -> str:
    return " ".join([*lines_for(ev, audience), RULES.view(s, audience).model_dump_json()])


def test_a_reinforcement_held_back_by_choice_is_never_seen_and_released_later():
    """7.3.5 (L1261-1265): the 6th Division arrives at Jerusalem in the Allied Production
    Phase of turn 22 of BIA2; held back, it waits for 'release' in a later turn, where it
    enters at its place at no cost. The Axis reads nothing of it until then (B100)."""
    s, ev = _to_production(game("BIA2"), 22, ALLIED)
    b = s.blocks["uk_6div"]
    token = b.token
    assert (b.where, b.at) == ("map", JERUSALEM) and s.fresh == {"uk_6div": 3}
    assert "uk_6div" in " ".join(lines_for(ev, ALLIED))
    assert token not in _seen(ev, s, AXIS) and token not in _seen(ev, s, PUBLIC)
    assert Hold(block="uk_6div") in RULES.legal_orders(s, ALLIED)
    pp = dict(s.pp["uk"])

    s, ev = move(s, ALLIED, "hold uk_6div")
    b = s.blocks["uk_6div"]
    assert (b.where, b.at) == ("pool", None) and s.held == {"uk_6div": 22}
    assert s.arrivals.get(JERUSALEM, 0) == 0 and s.pp["uk"] == pp  # no cost, room freed
    assert order_line("hold uk_6div", ev, AXIS) is None and lines_for(ev, AXIS) == []
    assert "held back" in " ".join(lines_for(ev, ALLIED))
    err = refused(s, ALLIED, "release uk_6div")  # not in the phase it was held back
    assert err.rule == "BIA 7.3.5" and "later turn" in err.reason

    s, ev = RULES.apply(s, ALLIED, Done(), Dice())  # the phase ends: nothing to announce
    assert token not in _seen(ev, s, AXIS)
    s, ev = _to_production(s, 23, ALLIED)
    assert s.blocks["uk_6div"].where == "pool"  # held by choice: it waits for its release
    assert Release(block="uk_6div") in RULES.legal_orders(s, ALLIED)
    err = refused(s, ALLIED, "release uk_6div 3514")
    assert err.rule == "BIA 7.3.5" and "Jerusalem" in err.reason
    pp = dict(s.pp["uk"])
    s, ev = move(s, ALLIED, f"release uk_6div {JERUSALEM}")
    b = s.blocks["uk_6div"]
    assert (b.where, b.at, b.token) == ("map", JERUSALEM, token) and s.held == {}
    assert s.pp["uk"] == pp  # released at no cost
    theirs = " ".join(lines_for(ev, AXIS))
    assert f"A new Allied block, {token}, arrives at {JERUSALEM}" in theirs
    assert "6th" not in theirs and "uk_6div" not in theirs
    assert order_line(f"release uk_6div {JERUSALEM}", ev, AXIS) is None
    assert Hold(block="uk_6div") not in RULES.legal_orders(s, ALLIED)  # released: stays


def test_an_arrival_the_owner_keeps_is_told_to_the_others_as_the_phase_ends():
    """B100: the Axis reads the 6th Division's token at the end of the Allied Production
    Phase, as it read every reinforcement before, and sees it on the map from then on."""
    s, _ = _to_production(game("BIA2"), 22, ALLIED)
    token = s.blocks["uk_6div"].token
    s, ev = RULES.apply(s, ALLIED, Done(), Dice())
    assert f"A new Allied block, {token}, arrives at {JERUSALEM}" in " ".join(lines_for(ev, AXIS))
    assert any(v.token == token for v in RULES.view(s, AXIS).blocks)
    assert s.fresh == {}


def test_holding_back_is_refused_for_others_and_after_a_repair():
    """7.3.5: only a reinforcement that arrived in this phase, before anything is bought
    for it; an enemy block is refused in the words of one that does not exist (1.3)."""
    s = game("BIA2")
    s.blocks["uk_6div"].steps = 1  # arriving weakened, as the test's set-up makes it
    s, _ = _to_production(s, 22, ALLIED)
    foe = next(b for b in s.on_map(AXIS))
    said = [refused(s, ALLIED, f"hold {name}") for name in (foe.id, "nobody")]
    assert said[0].reason.replace(foe.id, "X") == said[1].reason.replace("nobody", "X")
    old = next(b.id for b in s.on_map(ALLIED) if b.id not in s.fresh)
    err = refused(s, ALLIED, f"hold {old}")
    assert err.rule == "BIA 7.3.5" and "arrived in this Production Phase" in err.reason
    s, _ = move(s, ALLIED, "repair uk_6div")
    err = refused(s, ALLIED, "hold uk_6div")
    assert err.rule == "BIA 7.3.5" and "repaired" in err.reason
    assert Hold(block="uk_6div") not in RULES.legal_orders(s, ALLIED)


def test_a_fresh_arrival_disbanded_is_never_told_to_the_others():
    """7.3.6 with B100: the Axis never read that the block arrived, so it reads nothing of
    its disbanding either."""
    s, _ = _to_production(game("BIA2"), 22, ALLIED)
    token = s.blocks["uk_6div"].token
    s, ev = move(s, ALLIED, "disband uk_6div")
    assert lines_for(ev, AXIS) == [] and s.blocks["uk_6div"].where == "dead"
    s, ev = RULES.apply(s, ALLIED, Done(), Dice())
    assert token not in _seen(ev, s, AXIS)


def test_a_reinforcement_held_back_by_force_is_released_only_where_its_place_serves():
    """7.3.4 (L1258-1260) and 7.3.5: with Jerusalem in Axis hands the 6th Division is held
    back by force; 'release' is refused while the place is not a friendly source, and
    with the place back it arrives by itself (B14)."""
    s = game("BIA2")
    s.control[JERUSALEM] = AXIS
    s, _ = _to_production(s, 22, ALLIED)
    assert s.blocks["uk_6div"].where == "pool" and s.held == {}
    err = refused(s, ALLIED, "release uk_6div")
    assert err.rule == "BIA 7.3.4" and "not a friendly supply source" in err.reason
    assert Release(block="uk_6div") not in RULES.legal_orders(s, ALLIED)
    err = refused(s, ALLIED, "release uk_21ind")  # due on turn 24
    assert err.rule == "BIA 7.3.5" and "no reinforcement held back" in err.reason


def test_release_and_hold_survive_dump_and_load():
    s, _ = _to_production(game("BIA2"), 22, ALLIED)
    s, _ = move(s, ALLIED, "hold uk_6div")
    again = RULES.load_state(RULES.dump_state(s))
    assert (again.held, again.fresh) == ({"uk_6div": 22}, {})


def test_random_play_holds_reinforcements_back_and_releases_them():
    """The legal orders offer both, and random play of BIA2 gives both and ends."""
    want = {"order:hold", "order:release"}
    seen: set[str] = set()
    for seed in range(SEEDS_FOR_COVERAGE):
        s, kinds = play("BIA2", seed=seed, keen=("hold", "release"))
        assert RULES.result(s) is not None
        seen |= kinds
        if want <= seen:
            break
    assert want <= seen, sorted(want - seen)


# -- minor powers' armour and air (L1097-1099; RULINGS B102) ------------------------------------


def test_no_minor_power_armour_or_air_block_can_be_bought_apart_from_its_leader():
    """B102: every armour or air block of a minor power has a blue cadre (never bought,
    L1059); the only one any scenario puts in play, the Vichy Levant Air Group, is paid
    from the stock of its side's leader, which holds any blue PP the side has."""
    minors = {p for p, x in B.pack.units.powers.items() if not x.major}
    found = {
        x.id for x in B.pack.units.blocks
        if x.power in minors and x.unit_class in ("armored", "air")
    }  # fmt: skip
    assert found == {"vf_tunisia_2", "vf_levant_2", "tr_air"}
    assert all(ledger.step_cost(B, B.block(i), 1) is None for i in found)
    for sc in (B.pack.scenario(x.id) for x in RULES.scenarios()):
        units = {u.unit for u in [*sc.setup, *sc.reinforcements]}
        assert units & found <= {"vf_levant_2"}, sc.id
        if "vf_levant_2" in units:
            s = RULES.setup(sc.id, {}, Dice((11, 22, 33, 44)))
            side = B.side_of_power("vichy")
            assert ledger.payer(B, s, "vichy") == ledger.leader(B, s, side), sc.id


# -- PP shipped between ports (L355-358; RULINGS B103) -------------------------------------------


def test_production_in_africa_is_not_capped_by_port_capacity():
    """B103: the text ties no purchase to PP shipped through a port, so a power spends
    more than a major port's 5 PP a turn on blocks in Africa in one Production Phase."""
    s = RULES.setup("BIA3", {}, Dice((11, 22, 33, 44)))
    assert (s.player, s.phase) == (AXIS, "production")
    weak = [b for b in s.on_map(AXIS) if B.block(b.id).power == "italy"
            and len(B.block(b.id).track) > 2 and not b.oos
            and ledger.step_cost(B, B.block(b.id), 2) == {"yellow": 1}]  # fmt: skip
    assert len(weak) >= 6
    for b in weak:
        b.steps = 1
    s.pp["italy"] = {"yellow": 20}
    spent = 0
    for b in weak:
        for edge in (2, 3):  # never the last edge: the desert limit is B33's
            if edge < len(B.block(b.id).track):
                spent += ledger.step_cost(B, B.block(b.id), edge)["yellow"]
                s, _ = move(s, AXIS, f"repair {b.id}")
    assert spent > 5 and s.pp["italy"]["yellow"] == 20 - spent
