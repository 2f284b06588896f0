"""BIA: the non-phasing side's armour in Reserve Mode reacting to a blitz battle (7.8
ADVANCED GAME, L1876-1879; the Bir Hackeim example, L2213-2215; RULINGS B97-B99). The
reaction comes when the blitzing side orders the battle fought, into that battle only,
never with air units, asked under the standing order 'react ask'. Scripted dice; the
blitzing side reads the reacting block's token only until the battle reveals it."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from tests.bia.test_combat import GAZALA, MECHILI, RULES, B, bare, by_token, order, put, refused

BIR_HACKEIM, DERNA, TRIPOLI = "1817", B.pack.places["Derna"], B.pack.places["Tripoli"]
DAK = B.block("de_dak").name


def allied_blitz(react: str = "ask", advanced: bool = True):
    """The Allied Blitz Phase of turn 33: the Desert Rats (3) and the 1st Armoured won at
    Gazala and may blitz; the Ariete (3) holds Bir Hackeim; the DAK (5), which Rommel put
    in Reserve Mode for a reaction in the Axis Exploitation Phase, waits at Mechili, next
    to both; the Leichte Afrika and the Stuka, in no reserve, at Derna."""
    s = bare(side=ALLIED, phase="blitz")
    s.options["advanced"] = advanced
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "uk_1armd", GAZALA, 3)
    s.attacked = {"uk_7armd": GAZALA, "uk_1armd": GAZALA}
    put(s, "it_ariete", BIR_HACKEIM, 3)
    put(s, "de_dak", MECHILI, 5)
    put(s, "de_la", DERNA)
    put(s, "de_stuka", DERNA)
    s.control.update({GAZALA: ALLIED, BIR_HACKEIM: AXIS, MECHILI: AXIS, DERNA: AXIS})
    s.reaction_reserve = ["de_dak"] if advanced else []
    s.standing = {AXIS: {"react": react}}
    s, ev = order(s, ALLIED, f"blitz uk_7armd {BIR_HACKEIM}")
    assert s.battles == [BIR_HACKEIM] and s.blitz_reaction is None
    return s


def seen_by(ev, text: str, audience) -> str:
    return " ".join(lines_for(ev, audience)) + (order_line(text, ev, audience) or "")


def test_the_dak_in_reserve_reacts_into_the_blitz_battle_before_it_is_fought():
    """7.8 (L1876-1879; RULINGS B97, B99): when the Allies order the blitz battle fought,
    the Axis, asking to react, is prompted first; its armour in Reserve Mode moves into
    that battle's hex only (its full MP, fuelled by the reserve's AP), the engaged Ariete
    and the unreserved Leichte Afrika do not. The Allies read the DAK's token until the
    battle begins and reveals it; the DAK and Ariete then fire first: DAK 5 dice at 4+
    (6 5 4 1 1, 3 hits), Ariete 3 dice at 5+ (1 2 3): the Desert Rats' three shield hits
    take them to 0 and they are eliminated. The Allies still have a blitz to make."""
    s = allied_blitz()
    s, ev = order(s, ALLIED, f"fight {BIR_HACKEIM}")
    p = RULES.prompt(s)
    assert s.blitz_reaction == BIR_HACKEIM and s.fight is None
    assert p.role == AXIS and p.kind == "blitz_reaction" and "move" in p.verbs
    assert "Reserve Mode" in p.text_for(ALLIED) and "DAK" not in p.text_for(ALLIED)
    assert "may react with armour in Reserve Mode" in " ".join(lines_for(ev, PUBLIC))
    assert {o.text() for o in RULES.legal_orders(s, AXIS)} - {
        o.text() for o in RULES.legal_orders(s, AXIS) if o.verb == "standing"
    } == {f"move de_dak {BIR_HACKEIM}", "done"}
    assert RULES.load_state(RULES.dump_state(s)).blitz_reaction == BIR_HACKEIM
    err = refused(s, AXIS, "move de_dak 1717")
    assert err.rule == "BIA 7.8" and "only into the blitz battle" in err.reason
    err = refused(s, AXIS, f"move it_ariete {MECHILI}")
    assert err.rule == "BIA AR Appendix" and "engaged" in err.reason
    err = refused(s, AXIS, f"move de_la {BIR_HACKEIM}")
    assert err.rule == "BIA AR Appendix" and "not in Reserve Mode" in err.reason
    assert "no block called" in refused(s, AXIS, f"move uk_1armd {BIR_HACKEIM}").reason
    assert refused(s, ALLIED, f"blitz uk_1armd {MECHILI}").rule == "BIA 7.0"  # Axis decides
    fire = {"de_dak": [6, 5, 4, 1, 1], "it_ariete": [1, 2, 3]}
    dice = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s2, ev = order(s, AXIS, f"move de_dak {BIR_HACKEIM}", dice)
    token = s2.blocks["de_dak"].token
    moved = next(line for line in lines_for(ev, ALLIED) if " moves " in line)
    assert moved == f"{token} moves {MECHILI} -> {BIR_HACKEIM}." and DAK not in moved
    assert order_line(f"move de_dak {BIR_HACKEIM}", ev, ALLIED) == f"move {token} {BIR_HACKEIM}"
    shown = " ".join(lines_for(ev, ALLIED))
    assert f"{DAK} ({token}, 5)" in shown  # revealed with the others as the battle begins
    assert s2.blocks["uk_7armd"].where == "dead" and s2.control[BIR_HACKEIM] == AXIS
    assert s2.blitz_reaction is None and s2.battles == [] and s2.phase == "blitz"
    assert RULES.prompt(s2).role == ALLIED  # the 1st Armoured may still blitz


def test_an_air_unit_never_reacts_to_a_blitz_battle():
    """7.8 (L1876-1878, "cannot react with his AU"; L2213-2215): under the blitz prompt an
    Axis air unit's reaction is refused, by 'react' or by 'move', naming 7.8, and nothing
    changes; 'done' then starts the battle, the DAK staying put. With no armour in Reserve
    Mode the battle does not wait, even with 'react ask' and a Stuka at Derna. Either way
    the Ariete alone fires first, 3 dice at 5+ (6 6 5), 3 hits."""
    s = allied_blitz()
    s, _ = order(s, ALLIED, f"fight {BIR_HACKEIM}")
    for text in (f"react de_stuka {BIR_HACKEIM}", f"move de_stuka {BIR_HACKEIM}"):
        err = refused(s, AXIS, text)
        assert err.rule == "BIA 7.8" and "Air units do not react to a blitz battle" in err.reason
    s, ev = order(s, AXIS, "done", [6, 6, 5])
    assert "Axis ends its reaction to the blitz battle" in " ".join(lines_for(ev, PUBLIC))
    assert s.blocks["de_dak"].at == MECHILI and s.blocks["uk_7armd"].where == "dead"
    assert s.blocks["de_stuka"].at == DERNA and "de_stuka" not in s.aloft
    s = allied_blitz()
    s.reaction_reserve = []
    s, ev = order(s, ALLIED, f"fight {BIR_HACKEIM}", [6, 6, 5])
    assert s.blocks["de_stuka"].at == DERNA and "de_stuka" not in s.aloft
    assert s.blocks["uk_7armd"].where == "dead" and RULES.prompt(s).role == ALLIED
    assert "may react" not in " ".join(lines_for(ev, PUBLIC))


def test_the_standing_order_pass_skips_the_reaction_and_the_basic_game_has_none():
    """RULINGS B99 (7.6; B46, B95): with 'react pass', the default, the blitz battle begins
    as soon as it is ordered: the DAK stays in reserve at Mechili and the Ariete fights
    alone (3 dice at 5+: 6 6 5). In the basic game there is no Reserve Mode to react with."""
    for react, advanced in (("pass", True), ("ask", False)):
        s = allied_blitz(react, advanced)
        s, ev = order(s, ALLIED, f"fight {BIR_HACKEIM}", [6, 6, 5])
        assert s.blocks["de_dak"].at == MECHILI and s.blitz_reaction is None
        assert s.blocks["uk_7armd"].where == "dead" and RULES.prompt(s).role == ALLIED
        assert DAK not in " ".join(lines_for(ev, ALLIED))
        assert s.reaction_reserve == (["de_dak"] if advanced else [])


def test_the_reserve_lasts_until_the_end_of_the_enemys_blitz_and_is_asked_again():
    """RULINGS B98, B99: the DAK's barrel stands through the Allied Blitz for every reader;
    setting 'react pass' while asked ends the wait and the battle begins (Ariete 6 6 5);
    the Reserve Mode ends with the Allied Blitz Phase, whether the DAK moved or not."""
    s = allied_blitz()
    token = s.blocks["de_dak"].token
    dak = next(b for b in RULES.fog_view(s, ALLIED).blocks if b.token == token)
    assert dak.reserve and dak.name is None
    s, _ = order(s, ALLIED, f"fight {BIR_HACKEIM}")
    assert RULES.prompt(s).role == AXIS
    s, ev = order(s, AXIS, "standing react pass", [6, 6, 5])
    assert s.blitz_reaction is None and s.blocks["uk_7armd"].where == "dead"
    assert s.blocks["de_dak"].at == MECHILI and s.reaction_reserve == ["de_dak"]
    turn.next_phase(Ctx(B, s, ScriptedDice([])))  # the Allied Blitz ends
    assert s.phase == "final_supply" and s.reaction_reserve == []


def test_hidden_reserves_wait_whether_or_not_one_can_reach_the_battle():
    """RULINGS B99 with F6 (16.0 L2447-2448): under 'hidden_reserves' a wait only when a
    reserve can reach the blitz battle would tell the Allies where one stands, so with
    'react ask' the battle waits while the Axis has any reserve that has not moved: the DAK,
    at Tripoli far beyond its reach, is offered nothing, and 'done' starts the battle (Ariete 6 6 5). Without the option the
    battle begins at once."""
    for hide in (True, False):
        s = allied_blitz()
        s.options["hidden_reserves"] = hide
        s.blocks["de_dak"].at = TRIPOLI
        s, ev = order(s, ALLIED, f"fight {BIR_HACKEIM}", [] if hide else [6, 6, 5])
        if hide:
            assert RULES.prompt(s).role == AXIS and s.blitz_reaction == BIR_HACKEIM
            legal = [o.text() for o in RULES.legal_orders(s, AXIS) if o.verb != "standing"]
            assert legal == ["done"]
            assert "DAK" not in RULES.prompt(s).text_for(ALLIED)
            s, ev = order(s, AXIS, "done", [6, 6, 5])
        assert s.blocks["uk_7armd"].where == "dead" and RULES.prompt(s).role == ALLIED
        assert s.blocks["de_dak"].at == TRIPOLI
