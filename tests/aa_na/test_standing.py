"""Standing orders for the decisions a power takes in another power's turn (issue 13:
"Decisions of the defender are prompts, with standing orders"; RULINGS: standing
orders), with scripted d10 dice: each answers its prompt the way the rulebook lets the
defender answer it, is refused in one sentence when malformed, is read by its own role
only, and survives a reload."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import lines_for, order_line
from engine.games.aa_na.orders import Standing
from tests.aa_na.helpers import R, at, play, position

CONTROL = {"cairo": "uk", "tripoli": "ita", "tobruk": "uk"}
ASHORE = [("uk", "uk.infantry", "cairo", 1), ("ita", "ita.infantry", "tripoli", 1)]


def refused(s, role, text, *words):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    msg = e.value.message
    assert msg.count(". ") <= 1 and "Traceback" not in msg, msg  # one sentence, maybe a hint
    for w in words:
        assert w in msg, msg
    assert R.dump_state(s) == before
    return e.value


def reload(s):
    return R.load_state(json.loads(json.dumps(R.dump_state(s))))


# -- the land battle of the digest's T4: the UK attacks 2 German infantry in Mersa Matruh ---


def mersa_matruh(defenders=(("ger.infantry", 2),), supply=None):
    """3 UK infantry from El Alamein (main) and 2 from Bir Hacheim (flanking) attack
    Mersa Matruh; Tobruk, German and next to it, holds the defence's supply."""
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 3), ("uk", "uk.infantry", "bir_hacheim", 2),
                  *(("ger", t, "mersa_matruh", n) for t, n in defenders)],
                 supply={"el_alamein": 1, "bir_hacheim": 1, "tobruk": 3} if supply is None else supply,
                 control={"cairo": "uk", "tobruk": "ger"})  # fmt: skip
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "declare bir_hacheim mersa_matruh")
    s, _ = play(s, "allies", "done")
    return s


def test_without_a_standing_order_the_defender_is_asked():
    s = mersa_matruh()
    s, _ = play(s, "allies", "resolve mersa_matruh")
    p = R.prompt(s)
    assert p.kind == "orders" and p.role == "axis" and "standing defend" in p.text


def test_defend_fight_pays_the_token_and_skips_the_prompt():
    """Set in the UK's own Phase 4, out of the Axis turn: the defenders fight, paying 1
    supply from Tobruk (L763), exactly as the typed 'fight' of T4 does."""
    s = mersa_matruh()
    s, _ = play(s, "axis", "standing defend fight")
    dice = ScriptedDice([9, 9, 9, 10, 8, 2, 9, 5, 10, 10])
    s, ev = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == [] and s.supply["tobruk"] == 2
    assert R.prompt(s).kind == "press" and at(s, "mersa_matruh") == {"ger.infantry": 1}
    assert any("standing order (defend fight) answers: fight" in line for line in lines_for(ev, "axis"))


def test_defend_withdraw_saves_the_token_and_the_retreat_follows_its_own_order():
    """Withdrawing (L765): no token spent, the defenders are fired on but do not fire
    back, and go where 'standing retreat' sends them (L821)."""
    s = mersa_matruh()
    s, _ = play(s, "axis", "standing defend withdraw")
    s, _ = play(s, "axis", "standing retreat tobruk")
    dice = ScriptedDice([9, 9, 9, 5, 6])  # every attacker misses; the retreating do not roll
    s, _ = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == [] and s.supply["tobruk"] == 3
    assert at(s, "tobruk") == {"ger.infantry": 2} and at(s, "mersa_matruh", "ger") == {}


def test_without_a_retreat_order_the_defender_picks_and_setting_one_answers_at_once():
    s = mersa_matruh()
    s, _ = play(s, "axis", "standing defend withdraw")
    s, _ = play(s, "allies", "resolve mersa_matruh", ScriptedDice([9, 9, 9, 5, 6]))
    p = R.prompt(s)
    assert p.kind == "retreat" and p.role == "axis"
    assert R.legal_orders(s, "axis")[0].to in ("tobruk", "siwa")  # the engine's pick first
    s, _ = play(s, "axis", "standing retreat siwa tobruk")
    assert at(s, "siwa") == {"ger.infantry": 2}


def test_ask_returns_the_decision_to_the_defender():
    s = mersa_matruh()
    s, _ = play(s, "axis", "standing defend fight")
    s, _ = play(s, "axis", "standing defend ask")
    s, _ = play(s, "allies", "resolve mersa_matruh")
    assert R.prompt(s).kind == "orders" and s.standing["ger"] == {}


def test_defend_fight_with_no_token_in_reach_keeps_the_exempt_units_fighting():
    """Nearest to fighting when no token is in reach (L765, L767): the scout car stays and
    fights, the infantry withdraw."""
    s = mersa_matruh(defenders=(("ger.infantry", 1), ("ger.scout_car", 1)),
                     supply={"el_alamein": 1, "bir_hacheim": 1})
    s, _ = play(s, "axis", "standing defend fight")
    s, ev = play(s, "allies", "resolve mersa_matruh", ScriptedDice([5] * 30))
    assert "withdraw stay" in " ".join(lines_for(ev, "axis"))


@pytest.mark.parametrize(("standing", "lost"), [("auto", "ger.infantry"), ("tank", "ger.tank"),
                                                 ("tank infantry", "ger.tank")])
def test_casualties_follow_the_defenders_order_of_kinds(standing, lost):
    """One hit on an infantry and a tank: 'auto' gives up the cheapest (L785 lets the
    defender choose any), a listed kind goes first."""
    s = mersa_matruh(defenders=(("ger.infantry", 1), ("ger.tank", 1)))
    s, _ = play(s, "axis", "standing defend fight")
    s, _ = play(s, "axis", f"standing casualties {standing}")
    dice = ScriptedDice([1, 9, 9, 5, 6, 10, 10])  # one hit; both defenders fire back and miss
    s, _ = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == [] and R.prompt(s).kind == "press"
    left = at(s, "mersa_matruh")
    assert lost not in left and sum(left.values()) == 1


def test_the_engines_own_casualty_pick_is_listed_first_for_a_passed_deadline():
    s = mersa_matruh(defenders=(("ger.infantry", 1), ("ger.tank", 1)))
    s, _ = play(s, "allies", "resolve mersa_matruh")
    s, _ = play(s, "axis", "fight", ScriptedDice([1, 9, 9, 5, 6]))
    assert R.prompt(s).kind == "def_casualties"
    assert R.legal_orders(s, "axis")[0].text() == "casualties 1 infantry"


# -- sea battles -------------------------------------------------------------------------


def sub_hunt():
    """A German submarine attacks a UK submarine and destroyer in SZ 2: the enemy destroyer
    keeps the German from striking first; the UK submarine may strike or submerge (L777,
    L1293)."""
    s = position("ger", "combat_move", [("ger", "ger.submarine", "sz1", 1), ("uk", "uk.submarine", "sz2", 1),
                                        ("uk", "uk.destroyer", "sz2", 1), *ASHORE], control=CONTROL)
    s, _ = play(s, "axis", "move 1 sub sz1 sz2")
    s, _ = play(s, "axis", "done")
    return s


def test_submerge_always_dives_and_never_strikes():
    s = sub_hunt()
    s, _ = play(s, "allies", "standing submerge always")
    s, _ = play(s, "axis", "resolve sz2", ScriptedDice([9, 9]))  # the German and the destroyer miss
    assert at(s, "sz2") == {"ger.submarine": 1, "uk.submarine": 1, "uk.destroyer": 1}
    s = sub_hunt()
    s, _ = play(s, "allies", "standing submerge never")
    s, _ = play(s, "axis", "resolve sz2", ScriptedDice([1] + [9] * 10))  # the strike sinks the German
    assert "ger.submarine" not in at(s, "sz2")
    s = sub_hunt()
    s, _ = play(s, "axis", "resolve sz2")
    assert R.prompt(s).kind == "subs" and R.prompt(s).role == "allies"


def bombers_on_a_fleet():
    """2 German bombers hit a UK destroyer and battleship twice, unaimed (L1245)."""
    s = position("ger", "combat_move", [("ger", "ger.bomber", "sicily", 2), ("uk", "uk.destroyer", "sz16", 1),
                                        ("uk", "uk.battleship", "sz16", 1), *ASHORE], control=CONTROL)
    s, _ = play(s, "axis", "move 2 bomber sicily sz16")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve sz16", ScriptedDice([1, 2]))
    return s


def test_sea_casualties_follow_the_order_of_kinds():
    """Two hits: the battleship twice (sunk) or the destroyer and one on the battleship
    (L785, L1265). 'auto' loses the least by cost; 'battleship' takes both on it."""
    s = bombers_on_a_fleet()
    s, _ = play(s, "allies", "standing casualties auto")
    s, _ = play(s, "axis", "target", ScriptedDice([9, 9]))
    assert at(s, "sz16", "uk") == {"uk.battleship": 1}
    assert [u.hits for u in s.units if u.type == "uk.battleship"] == [1]
    s = bombers_on_a_fleet()
    s, _ = play(s, "allies", "standing casualties battleship")
    s, _ = play(s, "axis", "target", ScriptedDice([9, 9]))
    assert at(s, "sz16", "uk") == {"uk.destroyer": 1}


def convoy(subs_hit=True):
    """The digest's T9: in the Tripoli convoy zone, German 2 infantry, 1 scout car and 2
    supply, Italian 1 tank and 3 supply, an Italian fighter; 2 UK submarines attack."""
    s = position("uk", "combat_move",
                 [("uk", "uk.submarine", "sz15", 2), ("ger", "ger.infantry", "tripoli_csz", 2),
                  ("ger", "ger.scout_car", "tripoli_csz", 1), ("ita", "ita.tank", "tripoli_csz", 1),
                  ("ita", "ita.fighter", "tripoli_csz", 1), *ASHORE], control=CONTROL)  # fmt: skip
    s.convoy_supply = {"tripoli_csz": {"ger": 2, "ita": 3}}
    s, _ = play(s, "allies", "move 2 sub sz15 tripoli_csz")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve tripoli_csz")
    return s


@pytest.mark.parametrize(("standing", "first"), [("auto", "ger.infantry"), ("scout_car", "ger.scout_car")])
def test_cargo_the_defenders_first_item_lost(standing, first):
    """Two transport hits (L789-791): the defender's first item by the standing order,
    the cheapest with 'auto'; the attacker still names the second."""
    s = convoy()
    s, _ = play(s, "axis", f"standing cargo {standing}")
    s, ev = play(s, "allies", "submerge", ScriptedDice([2, 4]))
    assert R.prompt(s).kind == "cargo" and R.prompt(s).role == "allies"
    gone = {"ger.infantry": 2, "ger.scout_car": 1, "ita.tank": 1}
    for t, n in at(s, "tripoli_csz").items():
        gone[t] = gone.get(t, 0) - n
    assert gone[first] == 1 and sum(v for v in gone.values() if v > 0) == 1


@pytest.mark.parametrize(("standing", "kinds"), [("auto", ["ita.tank"]), ("infantry", ["ger.infantry", "ger.infantry"])])
def test_escape_saves_the_items_the_defender_lists(standing, kinds):
    """The submarines miss: 4 units and 5 supply are left, 2 items escape (L823): the most
    costly with 'auto' (the tank and 5 supply), the infantry when listed."""
    s = convoy()
    s, _ = play(s, "axis", f"standing escape {standing}")
    s, _ = play(s, "allies", "submerge", ScriptedDice([9, 9, 9]))  # the fighter misses too
    b = s.battle
    assert sorted(u.type for u in s.units if u.id in b["escaped"]) == kinds
    assert sum(b["escaped_supply"].values()) == (5 if standing == "auto" else 0)
    assert R.prompt(s).kind == "sea_press"


# -- mines -------------------------------------------------------------------------------


def t10():
    """The digest's T10: Germany attacks Mersa Matruh from Tobruk with 2 infantry and a
    tank across a UK "2 mines" token (L956)."""
    s = position("ger", "combat_move",
                 [("ger", "ger.infantry", "tobruk", 2), ("ger", "ger.tank", "tobruk", 1),
                  ("uk", "uk.infantry", "mersa_matruh", 1)],
                 supply={"tobruk": 1}, control={"tobruk": "ger", "cairo": "uk"})  # fmt: skip
    s.land_mines = [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": [2]}]
    return play(s, "axis", "declare tobruk mersa_matruh")[0]


def test_mines_all_sets_off_every_icon_none_keeps_them_and_a_count_caps_them():
    s = t10()
    s, _ = play(s, "allies", "standing mines all")
    dice = ScriptedDice([9] * 6)  # 3 dice per icon (L968)
    s, _ = play(s, "axis", "done", dice)
    assert dice.remaining == [] and s.land_mines == [] and R.prompt(s).kind == "combat"
    s = t10()
    s, _ = play(s, "allies", "standing mines none")
    s, _ = play(s, "axis", "done")
    assert s.land_mines[0]["tokens"] == [2] and R.prompt(s).kind == "combat"
    s = t10()
    s, _ = play(s, "allies", "standing mines 1")
    s, _ = play(s, "axis", "done", ScriptedDice([2, 3, 7]))
    assert s.land_mines[0]["tokens"] == [1]  # flipped (L966)
    assert R.prompt(s).kind == "turnback" and R.prompt(s).role == "axis"  # the attacker's own choice


def t11():
    """The digest's T11: a UK sea mine in the Tripoli convoy zone; Italy deploys 2 infantry,
    1 artillery and 5 supply there."""
    s = position("ita", "deploy", [("ita", "ita.infantry", "tripoli_csz", 1), ("uk", "uk.infantry", "cairo", 1),
                                   ("ita", "ita.infantry", "tripoli", 1)], control={"tripoli": "ita", "cairo": "uk"})
    s.reserves = {"ita": {"ita.infantry": 2, "ita.artillery": 1, "supply": 5}}
    s.sea_mines = {"tripoli_csz": {"uk": 1}}
    return play(s, "axis", "deploy 2 inf 1 art 5 supply tripoli_csz")[0]


@pytest.mark.parametrize(("standing", "left"), [("auto", {"ita.infantry": 3}),
                                                 ("infantry", {"ita.infantry": 2, "ita.artillery": 1})])
def test_seamines_and_sink_answer_for_the_mine_owner(standing, left):
    """The mine goes off by 'standing seamines all' and hits (L992); Italy gives up 5
    supply first, and the UK's second pick (L994) takes the most costly new item with
    'auto' (the artillery), or the kind listed."""
    s = t11()
    s, _ = play(s, "allies", "standing seamines all")
    s, _ = play(s, "allies", f"standing sink {standing}")
    s, _ = play(s, "axis", "done", ScriptedDice([3]))
    assert R.prompt(s).kind == "seamine_cargo" and R.prompt(s).role == "axis"
    s, _ = play(s, "axis", "cargo supply")
    assert at(s, "tripoli_csz") == left


def test_seamines_none_lets_the_convoy_through():
    s = t11()
    s, _ = play(s, "allies", "standing seamines none")
    s, _ = play(s, "axis", "done")
    assert s.sea_mines["tripoli_csz"] == {"uk": 1} and s.power != "ita"


# -- refusals, privacy, reload, listing ------------------------------------------------------


@pytest.mark.parametrize(("text", "word"), [
    ("standing", "RULINGS: standing orders"),
    ("standing weather fine", "RULINGS: standing orders"),
    ("standing defend maybe", "L757-767"),
    ("standing submerge sometimes", "L1293"),
    ("standing casualties supply", "L785"),
    ("standing casualties tank ask", "L785"),
    ("standing casualties dragons", "L785"),
    ("standing mines lots", "L966"),
    ("standing seamines -1", "L990"),
    ("standing escape", "L823"),
    ("standing retreat sz16", "L821"),
    ("standing retreat atlantis", "L821"),
])  # fmt: skip
def test_a_malformed_standing_order_is_refused_naming_the_rule(text, word):
    refused(mersa_matruh(), "axis", text, word)


def test_only_a_seated_role_sets_standing_orders():
    refused(mersa_matruh(), "germany", "standing defend fight", "not a player")


def test_a_stored_standing_order_with_bad_values_is_refused_on_apply():
    s = mersa_matruh()
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder):
        R.apply(s, "axis", Standing(topic="defend", values=["\x00" * 500]), ScriptedDice([]))
    assert R.dump_state(s) == before


def test_the_other_side_never_reads_a_standing_order_or_that_it_answered():
    """The order, its log line and the answer it gives are read by the axis role only
    (ARCHITECTURE: the log is a view); the allies read what happened in the battle."""
    s = mersa_matruh(defenders=(("ger.infantry", 1), ("ger.tank", 1)))
    s, ev1 = play(s, "axis", "standing casualties tank")
    s, ev2 = play(s, "axis", "standing defend fight")
    s, ev3 = play(s, "allies", "resolve mersa_matruh", ScriptedDice([1, 9, 9, 5, 6, 10, 10]))
    for other in ("allies", None):
        for ev, text in ((ev1, "standing casualties tank"), (ev2, "standing defend fight")):
            assert order_line(text, ev, other) is None and lines_for(ev, other) == []
            assert order_line(text, ev, "axis") == text
        seen = " ".join(lines_for(ev3, other))
        assert "standing" not in seen and "fight" in seen  # the battle itself is public
        view = R.view(s, other)
        assert view["standing"] == {} and "tank" not in json.dumps(view["standing"])
        assert "standing casualties tank" not in json.dumps(view)
        assert "tank" not in R.prompt(s).text_for(other).split("standing")[-1]
    assert any("standing order (casualties tank)" in line for line in lines_for(ev3, "axis"))
    assert R.view(s, "axis")["standing"]["ger"] == {"casualties": ["tank"], "defend": "fight"}
    # with 4 players Germany's orders are not Italy's to read
    s4 = position("uk", "combat_move", [("uk", "uk.infantry", "cairo", 1)], players=4)
    s4, ev = play(s4, "germany", "standing mines none")
    assert lines_for(ev, "italy") == [] and R.view(s4, "italy")["standing"] == {}
    assert R.view(s4, "germany")["standing"] == {"ger": {"mines": "none"}, "vichy": {"mines": "none"}}


def test_standing_orders_survive_a_reload_and_still_answer():
    s = mersa_matruh(defenders=(("ger.infantry", 1), ("ger.tank", 1)))
    s, _ = play(s, "axis", "standing defend fight")
    s, _ = play(s, "axis", "standing casualties tank")
    s2 = reload(s)
    assert R.dump_state(s2) == R.dump_state(s) and s2.standing == s.standing
    s2, _ = play(s2, "allies", "resolve mersa_matruh", ScriptedDice([1, 9, 9, 5, 6, 10, 10]))
    assert at(s2, "mersa_matruh") == {"ger.infantry": 1}
    old = R.dump_state(s)
    old.pop("standing")  # a game saved before standing orders existed loads with none
    assert R.load_state(old).standing == {}


def test_phase_2_lists_standing_orders_that_random_play_applies():
    s = position("ger", "requisition", [("ger", "ger.infantry", "tripoli", 1)], control=CONTROL)
    s.rp = 10
    offered = [o for o in R.legal_orders(s, "axis") if isinstance(o, Standing)]
    assert {o.topic for o in offered} == {"defend", "casualties", "retreat", "submerge", "cargo", "escape",
                                          "mines", "seamines", "sink"}
    for o in offered:
        s2, _ = R.apply(s, "axis", o, ScriptedDice([]))
        assert R.parse_order(o.text()) == o and R.prompt(s2).kind == "requisition"
    s2, _ = R.apply(s, "axis", offered[0], ScriptedDice([]))
    again = [o.text() for o in R.legal_orders(s2, "axis") if isinstance(o, Standing)]
    assert offered[0].text() not in again and f"standing {offered[0].topic} ask" in again
    assert not any(isinstance(o, Standing) for o in R.legal_orders(mersa_matruh(), "allies"))


def test_random_play_sets_standing_orders_that_answer_for_their_role_only():
    """A seeded random game, standing orders picked among the legal ones in Phase 2: some
    decisions are answered by them, and every such line is read by its own role only."""
    import random

    from tests.aa_na.test_random_play import SeededDice

    rng, dice = random.Random(11), SeededDice(random.Random(12))
    s = R.setup("rlp", {"players": 3}, dice)
    roles = R.roles("rlp-3")
    set_, answered = 0, 0
    while R.prompt(s).role is not None:
        p = R.prompt(s)
        orders = R.legal_orders(s, p.role)
        done = [o for o in orders if o.verb == "done"]
        order = rng.choice(done) if done and rng.random() < 0.15 else rng.choice(orders)
        set_ += isinstance(order, Standing)
        s, ev = R.apply(s, p.role, order, dice)
        for e in ev:
            if e.kind == "standing":
                answered += "answers" in e.text
                assert e.seen_by is not None and len(e.seen_by) == 1
                assert all(e.text_for(r) is None for r in [None, *roles] if r not in e.seen_by)
    assert set_ > 10 and answered > 5
