"""Issue 9, item 3: no work lost silently. A ``done`` that would destroy units the player
could still save is refused with what would be lost and what is still possible, unless
the player writes ``done confirm``; a phase that ends by itself says so; an aircraft
that truly cannot land is lost with the reason.

Rulebook: Completing Air Units' Move (aircraft that cannot land are lost), Phase 6 with
the FAQ (units not placed are lost), Phase 2 (purchase).
"""

from __future__ import annotations

from tests.aa_revised_rules.helpers import RULES, legal, play, put, refused, scene


def test_done_is_refused_while_a_fighter_can_still_land_and_confirm_loses_it():
    s = scene("germany", phase="noncombat")
    f = put(s, "germany", "karelia_ssr", fighter=1)[0]  # Soviet land, 4 spaces of movement
    err = refused(s, "done")
    assert f"fighter {f} in Karelia S.S.R. can still land in" in err.message
    assert "Eastern Europe" in err.message and "done confirm" in err.legal
    assert "done confirm" in legal(s) and "done" not in legal(s)
    s, log = play(s, "done confirm")
    assert f not in s.units
    assert any(f in line and "did not fly on to land although it could" in line for line in log)


def test_a_fighter_that_truly_cannot_land_is_lost_on_done_with_the_reason():
    s = scene("germany", phase="noncombat")
    f = put(s, "germany", "karelia_ssr", fighter=1)[0]
    s.units[f].moved = 4  # it spent its whole movement reaching the battle
    assert "done" in legal(s)
    s, log = play(s, "done")
    assert f not in s.units
    lost = next(line for line in log if f in line)
    assert "it has no movement left" in lost and "cannot land there" in lost


def test_a_bomber_out_of_range_of_any_friendly_territory_says_how_far_it_is():
    s = scene("germany", phase="noncombat")
    b = put(s, "germany", "sz17", bomber=1)[0]  # far in the Pacific
    s.units[b].moved = 5
    s, log = play(s, "done")
    lost = next(line for line in log if b in line)
    assert "1 space of movement left and the nearest friendly territory is" in lost


def test_mobilization_done_is_refused_while_a_factory_has_room_for_waiting_units():
    s = scene("germany", phase="mobilize")
    s.pending = {"infantry": 2}
    err = refused(s, "done")
    assert "would lose 2 infantry" in err.message and "Germany" in err.message
    assert "done confirm" in err.legal and "done confirm" in legal(s)
    s2, log = play(s, "done confirm")
    assert s2.pending == {} and any("they are lost" in line for line in log)
    s3, _ = play(s, "place 2 inf germany", "done")
    assert s3.pending == {}


def test_mobilization_ends_without_asking_when_no_factory_has_room_left():
    s = scene("germany", phase="mobilize")
    s.pending = {"infantry": 2}
    s.placed = {t: 99 for t in s.ics}
    assert "done" in legal(s)
    s, log = play(s, "done")
    assert any("could not place 2 infantry" in line for line in log)


def test_a_purchase_with_nothing_affordable_ends_by_itself_and_says_so():
    s = scene("germany", phase="research", ipcs=2)
    s, log = play(s, "done")
    assert RULES.prompt(s).kind == "combat_move"
    assert any(
        "Germany has 2 IPCs, less than the cheapest unit (3 IPCs): the purchase phase ends "
        "by itself" in line
        for line in log
    )
