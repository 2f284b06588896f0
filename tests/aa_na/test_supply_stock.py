"""The supply token stock: 40 "1 Supply" and 15 "5 Supply" tokens (L105-106), strictly
limited (L459-461), not exchanged in the Reinforcements Zone or while being deployed
(L696); enforced where tokens come into play (Phase 2, L565) and where a holding is split
(Phase 6, L917-936). RULINGS: supply token stock."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_na.orders import Deploy, Supply
from engine.games.aa_na.requisition import ones_needed
from tests.aa_na.helpers import R, play, position, start


def refused(s, role, text):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert "supply tokens" in e.value.rule and "L105-106" in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def german_requisition(supply: dict[str, int]):
    """Germany's Phase 2 with exactly ``supply`` in play (nothing in convoys or reserves)."""
    s = start()
    assert (s.power, s.phase) == ("ger", "requisition")
    s.supply = dict(supply)
    s.convoy_supply = {}
    s.reserves = {p: {} for p in s.reserves}
    return s


def supply_orders(s):
    return [o for o in R.legal_orders(s, "axis") if isinstance(o, Supply)]


def test_ones_needed_counts_each_holding_exactly():
    assert ones_needed([]) == 0
    assert ones_needed([5] * 15) == 0
    assert ones_needed([5] * 16) == 5  # the 16th five is made of ones
    assert ones_needed([4] * 10) == 40
    assert ones_needed([112]) == 2 + 5 * (22 - 15)


def test_requisition_stops_where_the_115_in_the_box_run_out():
    """112 in play: 3 more make the whole stock (40 + 75 = 115); a fourth is refused with
    the amounts still legal, and the legal orders offer supply only while some is left."""
    s = german_requisition({"tripoli": 112})
    assert supply_orders(s) == [Supply(amount=1)]
    e = refused(s, "axis", "supply 4")
    assert "only these amounts of supply this turn: 1, 2, 3" in e.reason
    s, _ = play(s, "axis", "supply 3")
    assert s.reserves["ger"]["supply"] == 3
    e = refused(s, "axis", "supply 1")
    assert "no more supply until some is spent" in e.reason
    assert supply_orders(s) == []


def test_the_one_tokens_can_run_out_before_the_total():
    """Ten territories holding 4 each use all 40 one-tokens (a 4 cannot be a five): the
    Reinforcements Zone cannot make change (L696), so 1 to 4 more are refused but a whole
    five-token is not, and the listing offers that five."""
    spaces = [
        "tripoli",
        "el_agheila",
        "cairo",
        "tobruk",
        "agedabia",
        "benghazi",
        "malta",
        "sirte",
        "misurata",
        "derna",
    ]
    s = german_requisition({t: 4 for t in spaces})
    assert sum(s.supply.values()) == 40
    e = refused(s, "axis", "supply 2")
    assert "only these amounts of supply this turn: 5" in e.reason
    assert supply_orders(s) == [Supply(amount=5)]
    s, _ = play(s, "axis", "supply 5")
    assert s.reserves["ger"]["supply"] == 5


def test_within_the_stock_nothing_changes():
    s = german_requisition({"tripoli": 20})
    s, _ = play(s, "axis", "supply 5")
    assert s.reserves["ger"]["supply"] == 5 and s.rp == 18 - 5


def _deploying(reserve: int, board: dict[str, int]):
    s = position("ger", "deploy", [], supply=board, control=start().control)
    s.convoy_supply = {}
    s.reserves = {p: {} for p in s.reserves}
    s.reserves["ger"] = {"supply": reserve}
    return s


def test_a_deployment_that_splits_a_five_without_ones_left_is_refused():
    """All 40 one-tokens are on the board (ten holdings of 4) and the Reinforcements Zone
    holds a five: 1 of it cannot go on its own (no change while deployed, L696), all 5 to
    one place can, and the listing offers that."""
    spaces = [
        "el_agheila",
        "cairo",
        "tobruk",
        "agedabia",
        "benghazi",
        "malta",
        "sirte",
        "misurata",
        "derna",
        "mersa_brega",
    ]
    s = _deploying(5, {t: 4 for t in spaces})
    legal = [o for o in R.legal_orders(s, "axis") if isinstance(o, Deploy)]
    assert legal and all(o.units == {"supply": 5} for o in legal if "supply" in o.units)
    e = refused(s, "axis", "deploy 1 supply tripoli_csz")
    assert "deploy all 5 to one place" in e.legal
    s, _ = play(s, "axis", "deploy 5 supply tripoli_csz")
    assert s.convoy_supply["tripoli_csz"] == {"ger": 5} and not s.reserves["ger"]


def test_splitting_is_free_while_ones_are_left():
    s = _deploying(5, {"tripoli": 10})
    s, _ = play(s, "axis", "deploy 2 supply tripoli_csz")
    assert s.convoy_supply["tripoli_csz"] == {"ger": 2} and s.reserves["ger"]["supply"] == 3


def test_a_truck_load_that_needs_change_the_stock_has_not_is_refused():
    """Tokens are exchanged in a territory (L696) only for tokens left in the box (L105-106,
    L459-461): with every 1-token out (ten holdings of 4), 3 of the 5 in Tripoli would
    need change, so a truck may load all 5 or none, not 3."""
    from engine.games.aa_na.pack import load_board

    spare = [t for t, sp in sorted(load_board().spaces.items())
             if sp.kind == "territory" and t not in ("tripoli", "misurata", "cairo", "sfax")][:10]
    supply = {t: 4 for t in spare} | {"tripoli": 5}
    s = position("ger", "noncombat", [("ger", "ger.truck", "tripoli", 1), ("uk", "uk.infantry", "cairo", 1),
                                      ("ger", "ger.infantry", "sfax", 1)], supply=supply,
                 control={"tripoli": "ita", "benghazi": "ger", "tobruk": "uk", "cairo": "uk"}, round_=8)
    assert ones_needed(list(supply.values())) == 40
    e = refused(s, "axis", "move 1 truck tripoli misurata carry 3 supply")
    assert "Loading 3 of the 5 supply in Tripoli would take more" in e.reason and "without change" in e.legal
    s, _ = play(s, "axis", "move 1 truck tripoli misurata carry 5 supply")
    assert s.supply.get("tripoli", 0) == 0 and s.supply["misurata"] == 5
