"""BIA Panzers Attack! (AR 14.0, L2365-2386) and Cavalry Charge! (AR 13.0, L2344-2356) with
scripted dice: in a clear hex the attacker's armour facing no armour fires before the
defender in the ground step and takes the answering hits first; the attacker's standing
order decides whether it charges; the basic game never does."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for
from engine.games.bia.board import ALLIED, AXIS
from tests.bia.test_combat import BIR_HACKEIM, MECHILI, RULES, bare, order, put, value


def bir_hackeim(advanced: bool = True):
    """The DAK (3) and Ariete (2) attack the FF Brigade (2) in Bir Hackeim, a clear hex
    (the blitz of L2189-2252, fought here from Mechili). Under the advanced rules they are
    fuelled as the HQ example fuels them for Gazala (L2136-2143): a Mussolini AP for the
    Ariete, Rommel, activated beside them, for the DAK (AR 11.0-11.10)."""
    s = bare(turn=22)
    if advanced:
        s.options["advanced"] = True
    put(s, "de_dak", MECHILI, 3)
    put(s, "it_ariete", MECHILI, 2)
    put(s, "ff_brigade", BIR_HACKEIM, 2)
    s.control[BIR_HACKEIM] = ALLIED
    if advanced:
        put(s, "de_rommel", MECHILI, 3)
        s, _ = order(s, AXIS, "fuel it_ariete mussolini")
        s, _ = order(s, AXIS, "activate de_rommel")
        s, _ = order(s, AXIS, "fuel de_dak de_rommel")
        assert s.fuelled == {"it_ariete": "mussolini", "de_dak": "de_rommel"}
    s, _ = order(s, AXIS, f"move de_dak {BIR_HACKEIM}")
    s, _ = order(s, AXIS, f"move it_ariete {BIR_HACKEIM}")
    return s


def test_panzers_attack_fires_before_the_defender():
    """14.0 (L2375-2386; the Bir Hackeim example, L2233-2246): the Axis armour rolls
    before the FF Brigade and scores three hits; the brigade is eliminated without a shot
    and the extra hits are lost."""
    s = bir_hackeim()
    dice = {"de_dak": [4, 5, 1], "it_ariete": [6, 1]}
    first, second = sorted(("de_dak", "it_ariete"), key=lambda i: s.blocks[i].token)
    s, ev = order(s, AXIS, "done", dice[first] + dice[second])
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Charge (AR 13.0-14.0)" in text and "find no target" in text
    assert "Ground fire at" not in text  # the FF Brigade never fired
    assert s.blocks["ff_brigade"].where == "dead" and s.control[BIR_HACKEIM] == AXIS


def test_without_the_advanced_rules_or_with_charge_hold_the_defender_fires_first():
    """Basic rules (the default) and 'standing charge hold': the ground step as 7.7.5,
    the FF Brigade first (2 dice at 6)."""
    for advanced, hold in ((False, False), (True, True)):
        s = bir_hackeim(advanced)
        if hold:
            s, _ = order(s, AXIS, "standing charge hold")
        dice = {"de_dak": [4, 5, 6], "it_ariete": [1, 1]}
        first, second = sorted(("de_dak", "it_ariete"), key=lambda i: s.blocks[i].token)
        s, ev = order(s, AXIS, "done", [1, 1] + dice[first] + dice[second])
        text = " ".join(lines_for(ev, PUBLIC))
        assert "Charge" not in text and "Ground fire at 1817 (Bir Hackeim), Allied" in text
        assert s.blocks["ff_brigade"].where == "dead"


def test_the_chargers_take_the_answering_hits_first():
    """14.0 (L2384-2386): the defender's hits fall on the charging armour before any other
    attacker, stronger or not: the Italian infantry (3) stands beside the Ariete (2);
    the FF Brigade's one hit takes the Ariete 2 -> 1. A defender with armour stops the
    charge: no charge against the Desert Rats."""
    s = bare(turn=22)
    s.options["advanced"] = True
    put(s, "it_10c", MECHILI, 3)
    put(s, "it_ariete", MECHILI, 2)
    put(s, "ff_brigade", BIR_HACKEIM, 2)
    s.control[BIR_HACKEIM] = ALLIED
    s, _ = order(s, AXIS, "fuel it_ariete mussolini")  # armour attacks fuelled (AR 11.10)
    s, _ = order(s, AXIS, f"move it_10c {BIR_HACKEIM}")
    s, _ = order(s, AXIS, f"move it_ariete {BIR_HACKEIM}")
    s.standing = {AXIS: {"retreat": "ask"}}
    # the Ariete charges (2 dice, miss); the FF Brigade hits once (2 dice at 6);
    # the 10th Corps fires its 3 dice after (miss): the Axis is asked about retreats
    s, ev = order(s, AXIS, "done", [1, 1] + [6, 1] + [1, 1, 1])
    assert value(s, "it_ariete") == 1 and value(s, "it_10c") == 3
    s = bare(turn=22)
    s.options["advanced"] = True
    put(s, "de_dak", MECHILI, 3)
    put(s, "uk_7armd", BIR_HACKEIM, 3)
    s.control[BIR_HACKEIM] = ALLIED
    s, _ = order(s, AXIS, "fuel de_dak hitler")
    s, _ = order(s, AXIS, f"move de_dak {BIR_HACKEIM}")
    s.standing = {AXIS: {"retreat": "ask"}}
    s, ev = order(s, AXIS, "done", [1, 1, 1] + [1, 1, 1])  # the Rats first, then the DAK
    assert "Charge" not in " ".join(lines_for(ev, PUBLIC))
    assert RULES.parse_order("standing charge hold").text() == "standing charge hold"
    with pytest.raises(IllegalOrder):
        RULES.parse_order("standing charge maybe")
