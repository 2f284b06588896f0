"""BIA AFRIKA depots (3.10, L496-509; RULINGS B104): when the enemy takes the last AFRIKA
major port a side controls, the depots of its Italian, German or British powers fall at
once, their whole stock going to the conquering side's depot, or lost when it has none.
Each case is played with a real order; the amounts are read only by the sides whose
stocks change."""

from __future__ import annotations

from engine.core.events import PUBLIC, lines_for
from engine.games.bia import ledger
from engine.games.bia.board import ALLIED, AXIS
from tests.bia.test_rules import RULES, finish, game, move, place, refused

B = RULES.board
ALEXANDRIA, SUEZ, HAIFA, BEIRUT, TOBRUK = "2718", "3020", "3315", "3313", "2016"


def depot_lines(events, reader) -> list[str]:
    return [line for line in lines_for(events, reader) if "AFRIKA depot" in line]


def compass_with_alexandria_open(*, last: bool):
    """BIA3 in the Axis Movement Phase with Alexandria emptied of its blocks and the 10th
    Italian Corps next to it; with ``last``, Haifa and Suez are Axis controlled, leaving
    Alexandria the Allies' only AFRIKA major port (Basra is nobody's in BIA3)."""
    s = game("BIA3")
    if last:
        s.control[HAIFA] = s.control[SUEZ] = AXIS
    for x in s.at_hex(ALEXANDRIA):
        x.where, x.at = "pool", None
    s.pp["uk"] = {"yellow": 3, "red": 1, "blue": 0}
    place(s, "it_10c", "2619")
    return s


def test_the_pack_gives_the_afrika_major_ports_and_the_depot_powers():
    """L332-351: AFRIKA is Africa and the Middle East (Egypt and Turkey in both); 3.10
    L497-498: Italy, Germany and the British have depots, the first of a side being B32's
    leader (Italy in BIA3, Germany in BIA5); Vichy France leads BIA1's Axis and has none."""
    ports = ledger.afrika_major_ports(B)
    names = {B.hex(h).name for h in ports}
    assert names == {"Istanbul", "Izmir", "Bizerte", "Tunis", "Beirut", "Tripoli", "Haifa",
                     "Bengasi", "Tobruk", "Alexandria", "Basra", "Suez"}  # fmt: skip
    assert not {"Naples", "Athens", "Valletta", "Baku"} & names
    assert ledger.depot_powers(B, game("BIA3"), AXIS) == ["italy", "germany"]
    assert ledger.depot_powers(B, game("BIA5"), AXIS) == ["germany", "italy"]
    assert ledger.depot_powers(B, game("BIA3"), ALLIED) == ["uk"]
    assert ledger.depot_powers(B, game("BIA1"), AXIS) == []


def test_the_last_major_port_taken_moves_the_whole_depot_to_the_conqueror():
    """3.10 (L506-509): the Italian corps walks into Alexandria, the last AFRIKA major port
    the Allies held: the British stock, 3 yellow and 1 red, is added to Italy's (B32's Axis leader in
    BIA3) during the move. Both sides read the amounts; the public reads only the fall."""
    s = compass_with_alexandria_open(last=True)
    italy = dict(s.pp["italy"])
    s2, ev = move(s, AXIS, f"move it_10c {ALEXANDRIA}")
    assert s2.control[ALEXANDRIA] == AXIS
    assert s2.pp["uk"] == {"yellow": 0, "red": 0, "blue": 0}
    assert s2.pp["italy"] == {**italy, "yellow": italy["yellow"] + 3, "red": italy["red"] + 1}
    assert s2.pp["germany"] == s.pp["germany"]
    for side in (AXIS, ALLIED):
        (line,) = depot_lines(ev, side)
        assert "3 yellow and 1 red" in line and "Alexandria" in line and "Italy's AFRIKA depot" in line
    (public,) = depot_lines(ev, PUBLIC)
    assert "Italy's AFRIKA depot" in public and "3Y" not in public and "PP" not in public


def test_a_port_that_is_not_the_last_takes_no_depot():
    """3.10 (L506): Suez and Haifa still Allied, Alexandria's fall leaves the stocks alone."""
    s = compass_with_alexandria_open(last=False)
    s2, ev = move(s, AXIS, f"move it_10c {ALEXANDRIA}")
    assert s2.control[ALEXANDRIA] == AXIS
    assert s2.pp == s.pp
    assert not any(depot_lines(ev, r) for r in (AXIS, ALLIED, PUBLIC))


def test_the_depot_is_lost_when_the_conqueror_has_none():
    """3.10 (L508-509): in BIA1 the Axis side is Vichy France alone, with no AFRIKA depot.
    With Beirut the last AFRIKA major port the Allies hold, the Armee du Levant retaking it
    loses the British stock. Only the Allies read the amount."""
    s = game("BIA1")
    for h in ledger.afrika_major_ports(B):
        if s.control.get(h) == ALLIED:
            s.control[h] = AXIS
    s.control[BEIRUT] = ALLIED
    for x in s.at_hex(BEIRUT):
        x.where, x.at = "pool", None
    s.pp["uk"] = {"yellow": 2, "red": 0}
    place(s, "vf_levant_1", "3314")
    before = {p: dict(v) for p, v in s.pp.items()}
    s2, ev = move(s, AXIS, f"move vf_levant_1 {BEIRUT}")
    assert s2.control[BEIRUT] == AXIS
    assert s2.pp["uk"] == {"yellow": 0, "red": 0}
    assert s2.pp["vichy"] == before["vichy"]
    (line,) = depot_lines(ev, ALLIED)
    assert "2 yellow PP" in line and "lost" in line
    for reader in (AXIS, PUBLIC):
        (line,) = depot_lines(ev, reader)
        assert "lost" in line and "2Y" not in line


def test_a_refused_move_into_the_last_port_changes_nothing():
    """A move that overspends its MP (7.5.1) is refused in one sentence, the port, the
    stocks and the log as they were (the helper checks the state is unchanged)."""
    s = compass_with_alexandria_open(last=True)
    place(s, "it_10c", "2217")
    err = refused(s, AXIS, "move it_10c 2318 2418 2518 2618 2718")
    assert err.rule == "BIA 7.5.1"
    assert s.control[ALEXANDRIA] == ALLIED and s.pp["uk"]["yellow"] == 3


def test_the_axis_losing_its_last_port_loses_both_depots_to_the_british():
    """3.10 (L497-498, L506-509): the Axis side's last AFRIKA major port, Tobruk, taken by
    the 7th RTR in the Allied Movement Phase: the Italian and the German depots both fall
    and both stocks go to the British depot, a line for each."""
    s = game("BIA3")
    s, _ = finish(s)
    assert (s.player, s.phase) == (ALLIED, "movement")
    for h in ledger.afrika_major_ports(B):
        if s.control.get(h) == AXIS and h != TOBRUK:
            s.control[h] = ALLIED
    for x in s.at_hex(TOBRUK):
        x.where, x.at = "pool", None
    place(s, "uk_7rtr", "2017")
    italy, germany, uk = (dict(s.pp[p]) for p in ("italy", "germany", "uk"))
    s2, ev = move(s, ALLIED, f"move uk_7rtr {TOBRUK}")
    assert s2.control[TOBRUK] == ALLIED
    assert s2.pp["uk"] == {c: uk[c] + italy.get(c, 0) + germany.get(c, 0) for c in uk}
    assert not any(s2.pp["italy"].values()) and not any(s2.pp["germany"].values())
    lines = depot_lines(ev, AXIS)
    assert [line.split("'s")[0] for line in lines] == ["Italy", "Germany"]
    assert len(depot_lines(ev, PUBLIC)) == 2
