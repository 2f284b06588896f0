"""Exact odds: cases worked out by hand, and the laws every result obeys."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_revised.battle import CasualtyOrder
from engine.games.aa_revised.odds import battle_odds, describe

BATTLES = [
    ({"infantry": 3, "artillery": 1, "tank": 1}, {"infantry": 2, "fighter": 1}, {}),
    ({"infantry": 2, "fighter": 2, "bomber": 1}, {"infantry": 3, "aa_gun": 2}, {}),
    (
        {"submarine": 2, "destroyer": 1},
        {"battleship": 1, "carrier": 1, "fighter": 2},
        {"sea": True},
    ),
    ({"battleship": 2, "transport": 1}, {"submarine": 3, "transport": 2}, {"sea": True}),
    ({"infantry": 2, "tank": 1}, {"infantry": 2}, {"bombarding": {"battleship": 2}}),
    ({"infantry": 6, "tank": 2}, {"infantry": 6}, {"retreat_when": 3}),
    ({"infantry": 6, "tank": 2}, {"infantry": 6}, {"rounds": 2}),
    ({"bomber": 2}, {"infantry": 2, "fighter": 1}, {"attacker_techs": {"heavy_bombers"}}),
]


def total(r) -> float:
    return r.attacker_win + r.defender_win + r.draw


@pytest.mark.parametrize(("attackers", "defenders", "options"), BATTLES)
def test_outcomes_and_survivors_each_sum_to_one(attackers, defenders, options):
    r = battle_odds(attackers, defenders, **options)
    assert abs(total(r) - 1) < 1e-12
    assert abs(sum(r.attacker_survivors.values()) - 1) < 1e-12
    assert abs(sum(r.defender_survivors.values()) - 1) < 1e-12
    assert 0 <= r.attacker_retreat <= r.defender_win + 1e-15
    # an attacker win leaves defenders with nothing, and only then
    no_defenders = r.defender_survivors.get((), 0.0)
    assert abs(no_defenders - r.attacker_win - r.draw) < 1e-12


def test_one_infantry_against_nothing_wins_for_certain():
    r = battle_odds({"infantry": 1}, {})
    assert (r.attacker_win, r.defender_win, r.draw) == (1.0, 0.0, 0.0)
    assert r.attacker_survivors == {(("infantry", 1),): 1.0}
    assert r.expected_rounds == 1.0


def test_one_infantry_against_one_infantry_matches_the_geometric_series():
    """The attacker hits on 1 (1/6), the defender on 2 (2/6); a cycle where both miss
    repeats, so each outcome's chance is its one-cycle chance over 1 - P(both miss)."""
    a, d = Fraction(1, 6), Fraction(2, 6)
    again = (1 - a) * (1 - d)
    win = a * (1 - d) / (1 - again)
    lose = (1 - a) * d / (1 - again)
    draw = a * d / (1 - again)
    r = battle_odds({"infantry": 1}, {"infantry": 1})
    assert r.attacker_win == pytest.approx(float(win), abs=1e-15)
    assert r.defender_win == pytest.approx(float(lose), abs=1e-15)
    assert r.draw == pytest.approx(float(draw), abs=1e-15)
    assert r.expected_rounds == pytest.approx(float(1 / (1 - again)), abs=1e-12)


def test_one_round_limit_gives_the_one_cycle_distribution():
    """A tank (hits on 3) against an infantry (hits on 2), withdrawing after a cycle."""
    r = battle_odds({"tank": 1}, {"infantry": 1}, rounds=1)
    a, d = 1 / 2, 1 / 3
    assert r.attacker_win == pytest.approx(a * (1 - d))
    assert r.draw == pytest.approx(a * d)
    assert r.attacker_retreat == pytest.approx((1 - a) * (1 - d))
    assert r.defender_win == pytest.approx((1 - a) * d + (1 - a) * (1 - d))


def test_antiaircraft_fire_gives_each_plane_a_one_in_six_chance_of_falling():
    """Two fighters against a lone gun: the attack fails only if both dice are 1s."""
    r = battle_odds({"fighter": 2}, {"aa_gun": 1})
    assert r.attacker_win == pytest.approx(35 / 36, abs=1e-15)
    assert r.defender_win == pytest.approx(1 / 36, abs=1e-15)
    assert r.attacker_survivors[(("fighter", 2),)] == pytest.approx(25 / 36)


def test_bombardment_fires_once_before_the_defenders_shoot():
    """One battleship (hits on 4) bombards a lone infantry an infantry lands against: the
    defender dies before firing 2 times in 3; otherwise it is 1 infantry against 1."""
    plain = battle_odds({"infantry": 1}, {"infantry": 1})
    r = battle_odds({"infantry": 1}, {"infantry": 1}, bombarding={"battleship": 1})
    assert r.attacker_win == pytest.approx(2 / 3 + 1 / 3 * plain.attacker_win, abs=1e-15)


def test_a_lone_submarine_always_gets_a_battleship_to_fire_back():
    """FAQ: Submarines. A sub can sink a battleship only over two cycles."""
    r = battle_odds({"submarine": 1}, {"battleship": 1}, sea=True, rounds=1)
    assert r.attacker_win == 0.0
    two = battle_odds({"submarine": 2}, {"battleship": 1}, sea=True, rounds=1)
    assert two.attacker_win == pytest.approx((2 / 6) ** 2)


def test_retreating_earlier_trades_victories_for_survivors():
    kw = {"attackers": {"infantry": 6, "tank": 2}, "defenders": {"infantry": 6}}
    to_the_end = battle_odds(**kw)
    cautious = battle_odds(**kw, retreat_when=4)
    assert cautious.attacker_win < to_the_end.attacker_win
    assert cautious.attacker_retreat > 0 and to_the_end.attacker_retreat == 0
    assert cautious.attacker_survivors.get((), 0) < to_the_end.attacker_survivors.get((), 0)


def test_keeping_the_last_land_unit_changes_what_survives():
    kw = {"attackers": {"infantry": 1, "fighter": 2}, "defenders": {"infantry": 2}}
    cheap = battle_odds(**kw)
    keep = battle_odds(**kw, attacker_order=CasualtyOrder(keep_land_unit=True))
    with_land = [k for k in keep.attacker_survivors if dict(k).get("infantry")]
    assert sum(keep.attacker_survivors[k] for k in with_land) > sum(
        cheap.attacker_survivors.get(k, 0) for k in with_land
    )


def test_jet_fighters_make_a_defense_stronger():
    kw = {"attackers": {"infantry": 3, "tank": 2}, "defenders": {"infantry": 2, "fighter": 2}}
    assert (
        battle_odds(**kw, defender_techs={"jet_fighters"}).attacker_win
        < battle_odds(**kw).attacker_win
    )


def test_survivors_read_as_a_list_of_units():
    assert describe((("infantry", 2), ("tank", 1))) == "2 infantry, 1 tank"
    assert describe((("fighter", 2),)) == "2 fighters"
    assert describe(()) == "nothing"
    r = battle_odds({"infantry": 1}, {})
    assert r.to_json()["attacker_survivors"] == {"1 infantry": 1.0}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attackers": {"battleship": 1}, "defenders": {"infantry": 1}}, "only in sea zones"),
        ({"attackers": {"infantry": -1}, "defenders": {}}, "whole number"),
        ({"attackers": {"infantry": 1}, "defenders": {}, "rounds": 0}, "at least 1"),
        (
            {
                "attackers": {"infantry": 1},
                "defenders": {"infantry": 1},
                "bombarding": {"battleship": 1},
                "retreat_when": 0,
            },
            "cannot retreat",
        ),
    ],
)
def test_impossible_battles_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(IllegalOrder, match=message):
        battle_odds(**kwargs)
