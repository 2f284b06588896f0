"""The sequence of play (Order of Play, L55-62) and set-up from the pack (L305-465)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE
from tests.aa_na.helpers import R, at, play, start


def test_rlp_opens_with_germany_requisitioning_its_national_basic_rp():
    s = start()
    p = R.prompt(s)
    assert (p.role, p.kind, s.round, s.power) == ("axis", "requisition", 1, "ger")
    # Germany controls no RP territory at the start of RLP: 18 national basic RP (L565)
    assert s.rp == 18
    assert at(s, "el_agheila", "ger") == {
        "ger.infantry": 2, "ger.mech_infantry": 1, "ger.tank": 3, "ger.anti_tank_gun": 1, "ger.truck": 1
    }  # fmt: skip
    # French pieces start as Vichy French (L1063)
    assert at(s, "casablanca", "vichy") == {"fra.infantry": 3, "fra.tank": 2}
    assert s.supply["cairo"] == 5 and s.land_mines[0]["territory"] == "el_alamein"


def test_rlp_round_one_runs_germany_uk_italy_and_skips_the_us():
    s = start(players=4)
    seen = []
    for _ in range(4):
        seen.append((s.round, s.power, R.prompt(s).role))
        for _ in range(5):  # phases 2-6, each ended with 'done'
            s, _ev = play(s, R.prompt(s).role, "done")
    assert seen == [(1, "ger", "germany"), (1, "uk", "uk"), (1, "ita", "italy"), (2, "ger", "germany")]


def test_operation_torch_skips_germanys_round_seven_turn():
    s = start("ot", players=3)
    assert (s.round, s.power, R.prompt(s).role) == (7, "uk", "allies")


def test_orders_out_of_turn_or_phase_are_refused_and_change_nothing():
    s = start()
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, "allies", "done")
    assert "Order of Play" in e.value.rule
    with pytest.raises(IllegalOrder):
        play(s, "axis", "move 1 tank el_agheila zella")
    assert R.dump_state(s) == before


@pytest.mark.parametrize("text", ["", "fly", "buy", "buy 2", "buy 0 inf", "supply x", "declare tobruk", "move 1 tank", "x" * 5000])
def test_bad_order_text_gets_one_sentence(text):
    with pytest.raises(IllegalOrder) as e:
        R.parse_order(text)
    assert e.value.reason and "\n" not in e.value.reason and len(e.value.reason) < 200


def test_order_text_round_trips():
    for text in ["buy 1 tank 2 infantry", "supply 5", "landmine tobruk mersa_matruh", "seamine sz18",
                 "move 1 tank el_agheila zella", "declare zella agedabia 1 tank pay zella", "done"]:
        o = R.parse_order(text)
        assert R.parse_order(o.text()) == o
        assert R.load_order(o.to_dict()) == o


def test_state_survives_dump_and_load():
    s = start()
    assert R.dump_state(R.load_state(R.dump_state(s))) == R.dump_state(s)
    assert R.invariant_problems(s) == []


def test_every_listed_order_is_accepted():
    s = start()
    for o in R.legal_orders(s):
        R.apply(s, "axis", o, None)
    s, _ = play(s, "axis", "done")
    orders = R.legal_orders(s)
    assert any(o.verb == "move" for o in orders) and any(o.verb == "declare" for o in orders)
    for o in orders:
        R.apply(s, "axis", o, None)
    assert R.legal_orders(s, "allies") == []


def test_nothing_is_hidden_so_every_audience_reads_the_same():
    """The pieces, markers, supply and Reinforcements Zone of these phases are open
    information: every role's view is the public view, and every event reads whole."""
    s = start()
    s, events = play(s, "axis", "buy 1 tank")
    assert R.view(s, "allies") == R.view(s, None) == R.view(s, "axis")
    assert [e.text_for(None) for e in events] == [e.text_for(EVERYONE) for e in events]
    assert R.prompt(s).text_for("allies") == R.prompt(s).text
