"""BIA's optional rules as set-up options (issue 11; RULINGS F5-F7): the Players Agreement
of 7.7.7.1 (``bonus_cancels_malus``, L1693-1699) and the hidden Reserve Mode of 16.0
(``hidden_reserves``, L2447-2448), each off by default. Scripted dice for the battle; the
hidden reserves under a scan of random play that fails if the enemy or the public can
tell which block is in reserve (and a test that it does fail on the open barrels)."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE, PUBLIC, Event, lines_for, order_line
from engine.games.bia import firepower, movement
from engine.games.bia.board import ALLIED, AXIS, enemy
from engine.games.bia.context import Ctx
from engine.games.bia.options import ADVANCED, BONUS_CANCELS_MALUS, HIDDEN_RESERVES, Options
from engine.games.bia.rules import OPTIONS
from tests.bia.test_combat import GAZALA, MECHILI, RULES, B, bare, order, put
from tests.bia.test_random_play import SEEDS_FOR_COVERAGE, Dice, play
from tests.bia.test_reserve import DERNA, advanced, seen_by

#: a forest hex (Persia) and a clear neighbour across no river; every forest of the map
#: lies in Turkey or Persia
FOREST, CLEAR = "5006", "4906"
BIR_HACKEIM = "1817"


# -- the options as set up and listed ----------------------------------------------------


def test_the_options_are_listed_with_what_they_turn_on():
    """What ``umpire new --help`` prints is the field's comment; a refused option's
    sentence lists the constants: both say the same of each option."""
    from bot.console_text import option_lines

    assert OPTIONS == {
        "advanced": ADVANCED,
        "bonus_cancels_malus": BONUS_CANCELS_MALUS,
        "hidden_reserves": HIDDEN_RESERVES,
    }
    assert option_lines(RULES) == [
        f"    {key}=true|false (default false): {text}" for key, text in OPTIONS.items()
    ]
    assert set(Options.model_fields) == set(OPTIONS)
    assert Options() == Options(advanced=False, bonus_cancels_malus=False, hidden_reserves=False)
    assert "7.7.7.1" in BONUS_CANCELS_MALUS and "set-up board" in HIDDEN_RESERVES


def test_hidden_reserves_without_the_advanced_rules_is_refused_at_set_up():
    """RULINGS F7: Reserve Mode is an advanced rule, so the option alone would hide
    nothing; set-up says so in one sentence and sets nothing up."""
    with pytest.raises(IllegalOrder) as err:
        RULES.setup("BIA4", {"hidden_reserves": True}, ScriptedDice([1] * 14))
    text = str(err.value)
    assert "advanced=true" in text and "\n" not in text
    with pytest.raises(IllegalOrder) as err:
        RULES.setup("BIA4", {"hidden_reserves": True, "advanced": False}, ScriptedDice([]))
    assert "advanced=true" in str(err.value)
    s = RULES.setup("BIA4", {"hidden_reserves": True, "advanced": True}, ScriptedDice([1] * 14))
    assert s.options == {"hidden_reserves": True, "advanced": True}
    s = RULES.setup("BIA4", {"bonus_cancels_malus": True}, ScriptedDice([1] * 14))
    assert s.options == {"bonus_cancels_malus": True}  # a basic rule: no advanced needed
    with pytest.raises(IllegalOrder) as err:
        RULES.setup("BIA4", {"bonus_cancels_malus": "yes"}, ScriptedDice([]))
    assert "on (true) or off (false)" in str(err.value)


def test_fuzz_turns_each_option_on_for_a_share_of_its_games():
    picks = [RULES.fuzz_setup(seed) for seed in range(40)]
    hidden = [(sc, o) for sc, o in picks if o.get("hidden_reserves")]
    assert all(o.get("advanced") for _, o in hidden)  # never refused at set-up (F7)
    assert {sc for sc, _ in hidden} == {f"BIA{i}" for i in range(1, 11)}
    assert len(hidden) == 10
    agreed = [o for _, o in picks if o.get("bonus_cancels_malus")]
    assert len(agreed) == 14 and any(o.get("advanced") for o in agreed)
    assert any(not o.get("advanced") for o in agreed)
    assert picks == [RULES.fuzz_setup(seed) for seed in range(40)]  # by the seed alone
    for scenario, options in hidden[:2]:
        s = RULES.setup(scenario, options, Dice(random.Random(0)))
        assert s.options["hidden_reserves"]


# -- 7.7.7.1 Players Agreement (RULINGS F5) -----------------------------------------------


def forest_battle(agreed: bool):
    """The example of 7.7.7.1 (L1697-1699) with BIA's blocks (RULINGS F5): the Leichte
    Afrika, elite (1 Bonus), 4 on its top edge, TECH 2 infantry attacking at 6, has
    entered a forest (1 Malus) held by the XIII Corps (1). Two other battles wait, so the
    Combat Phase stops after this one."""
    s = bare(scenario="BIA4", turn=33)
    if agreed:
        s.options["bonus_cancels_malus"] = True
    put(s, "de_la", FOREST, 4)
    put(s, "uk_xiii", FOREST, 1)
    s.control[FOREST] = ALLIED
    s.entered_from["de_la"] = CLEAR
    put(s, "de_dak", GAZALA, 5)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "it_ariete", BIR_HACKEIM, 3)
    put(s, "uk_9aus", BIR_HACKEIM, 3)
    s.battles, s.phase = [FOREST, GAZALA, BIR_HACKEIM], "combat"
    assert B.hex(FOREST).terrain == "forest" and not B.features(CLEAR, FOREST)
    return s


def test_the_players_agreement_example_rolls_four_dice_at_6():
    """With the option the LA's Bonus and Malus cancel: its full 4 dice at 6, where three
    5s miss and a 6 eliminates the XIII Corps (it fires first, 1 die at 5, and misses)."""
    s = forest_battle(agreed=True)
    la = s.blocks["de_la"]
    assert firepower.modifiers(B, s, la, FOREST, attacking=True) == (0, 0)
    s, ev = order(s, AXIS, f"fight {FOREST}", [1] + [5, 5, 5, 6])
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Leichte Afrika Division (LA) (DE-" in text and "4 dice at 6+: 5 5 5 6. 1 hit(s)" in text
    assert s.blocks["uk_xiii"].where == "dead" and s.battles == [GAZALA, BIR_HACKEIM]


def test_without_the_agreement_the_example_rolls_two_dice_at_5():
    """The default, unchanged: all modifiers cumulative (7.7.7, L1668), 2 dice at 5-6."""
    s = forest_battle(agreed=False)
    la = s.blocks["de_la"]
    assert firepower.modifiers(B, s, la, FOREST, attacking=True) == (1, 1)
    s, ev = order(s, AXIS, f"fight {FOREST}", [1] + [5, 2])
    assert "2 dice at 5+: 5 2. 1 hit(s)" in " ".join(lines_for(ev, PUBLIC))
    assert s.blocks["uk_xiii"].where == "dead"


def test_the_agreement_cancels_pair_by_pair():
    """Three Maluses (the forest and a fortress's two) against the elite Bonus: one pair
    goes, two Maluses stay: the LA's 4 dice quartered to 1, at its Play Aid 6. Without the
    agreement it rolls 4 >> 3 = 0, so the minimum of 1 die, at 5 (3.20, L594-597)."""
    for agreed, mods, plan in ((True, (0, 2), (1, 6)), (False, (1, 3), (1, 5))):
        s = forest_battle(agreed)
        s.localities[FOREST] = "fortress"
        la = s.blocks["de_la"]
        assert firepower.modifiers(B, s, la, FOREST, attacking=True) == mods
        [(_, dice, need)] = firepower.fire_plan(B, s, [la], FOREST, True)
        assert (dice, need) == plan


# -- hidden reserves (RULINGS F6) ---------------------------------------------------------


def hidden(side: str = AXIS, phase: str = "movement"):
    s = advanced(side, phase)
    s.options["hidden_reserves"] = True
    return s


def test_a_hidden_reserve_is_its_owners_to_see():
    """16.0 L2447-2448 (RULINGS F6): Rommel puts the DAK in reserve. The Allies and the
    public read that Rommel spent 1 AP on an Axis unit's Reserve Mode, and see Rommel face
    up; never the DAK's token, its hex, nor a black barrel on any block. The Axis and the
    audit see the barrel. The Axis alone is refused moving it."""
    s = hidden()
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    put(s, "de_la", DERNA)
    s2, ev = order(s, AXIS, "reserve de_dak de_rommel")
    assert s2.reserve == ["de_dak"]
    dak, rommel = s2.blocks["de_dak"].token, s2.blocks["de_rommel"].token
    for audience in (ALLIED, PUBLIC):
        seen = seen_by(ev, "reserve de_dak de_rommel", audience)
        assert "Rommel" in seen and "spends 1 AP: an Axis unit goes into Reserve Mode" in seen
        assert dak not in seen and DERNA not in seen and "de_dak" not in seen
        assert order_line("reserve de_dak de_rommel", ev, audience) == (
            f"reserve (Axis unit) {rommel}"
        )
        assert not [b.token for b in RULES.fog_view(s2, audience).blocks if b.reserve]
        mv = RULES.view(s2, audience)
        assert not [c for st in mv.stacks for c in st.counters if "reserve" in c.tags]
        assert not [n for n in mv.notes if "Reserve Mode" in n]
    for audience in (AXIS, EVERYONE):
        assert [b.token for b in RULES.fog_view(s2, audience).blocks if b.reserve] == [dak]
    assert f"{dak} at {DERNA}" not in seen_by(ev, "reserve de_dak de_rommel", ALLIED)
    assert "Deutsches Afrikakorps" in seen_by(ev, "reserve de_dak de_rommel", AXIS)
    notes = RULES.view(s2, AXIS).notes
    assert "1 block in Reserve Mode (black barrel), to move in the Exploitation Phase." in notes


def test_a_hidden_reserve_is_seen_as_it_moves():
    """F6: a reserve moving in the Exploitation Phase is read with its token, as any move;
    the barrel itself stays its owner's."""
    s = hidden(phase="exploitation")
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    s.reserve = ["de_dak"]
    s.hq_active = {"de_rommel": 2}
    s.hq_done = {"de_rommel": ["reserve"]}
    token = s.blocks["de_dak"].token
    legal = [o for o in RULES.legal_orders(s, AXIS) if o.verb == "move" and o.block == "de_dak"]
    assert legal
    s2, ev = order(s, AXIS, legal[0].text())
    for audience in (ALLIED, PUBLIC):
        seen = seen_by(ev, legal[0].text(), audience)
        assert token in seen and "Reserve" not in seen
        dak = next(b for b in RULES.fog_view(s2, audience).blocks if b.token == token)
        assert dak.at == legal[0].path[-1] and not dak.reserve


def test_the_exploitation_line_tells_no_one_which_blocks_are_barred(monkeypatch):
    """7.10 (L1845-1851; RULINGS F6): the blocks out of supply as the Exploitation Phase
    begins may not exploit if armour, or if in Reserve Mode. The others read the tokens of
    every block of the side out of supply (their white barrels are public), so their line
    is the same whether the infantry is in reserve or not, hidden reserves or not: it tells
    neither which block is armour nor which is in reserve. The owner reads what is barred."""
    for hide in (True, False):
        theirs: dict[tuple[bool, str], str] = {}
        for held in (["it_10c"], []):
            s = hidden(phase="exploitation") if hide else advanced(phase="exploitation")
            put(s, "it_10c", DERNA, 2)
            put(s, "de_dak", MECHILI, 5)
            s.reserve = list(held)
            monkeypatch.setattr(
                movement.supply, "out_of_supply", lambda board, state, side: ["it_10c", "de_dak"]
            )
            ctx = Ctx(B, s, ScriptedDice([]))
            movement.start_exploitation(ctx)
            assert sorted(s.barred) == sorted(["de_dak", *held])
            mine = " ".join(lines_for(ctx.events, AXIS))
            assert "Afrikakorps" in mine and (B.block("it_10c").name in mine) is bool(held)
            infantry, dak = s.blocks["it_10c"].token, s.blocks["de_dak"].token
            for audience in (ALLIED, PUBLIC):
                line = " ".join(lines_for(ctx.events, audience))
                assert dak in line and infantry in line
                theirs[(bool(held), audience)] = line
        for audience in (ALLIED, PUBLIC):
            assert theirs[(True, audience)] == theirs[(False, audience)]


def _held(s, side: str) -> set[str]:
    return {i for i in (*s.reserve, *s.reaction_reserve) if s.blocks[i].side == side}


def _without(s, side: str):
    """``s`` as it would be had ``side`` put nothing in reserve."""
    twin = s.clone()
    twin.reserve = [i for i in twin.reserve if twin.blocks[i].side != side]
    twin.reaction_reserve = [i for i in twin.reaction_reserve if twin.blocks[i].side != side]
    return twin


def scan_reserves(before, s, order, ev) -> None:
    """What the enemy and the public receive of an action tells nothing of which block is
    in reserve (RULINGS F6): (1) what the game shows them after it (the view, the map, the
    prompt, their legal orders) is the same as if the owner had no unit in reserve; (2)
    its lines and its order line name no reserve unit that stayed where it was, face down
    and in supply (a unit that moved is seen moving; one face up, or under the white
    barrel, is named for that, which all read); (3) when the enemy is to act, an order of
    his naming a unit in reserve is answered as if it were not."""
    shown = {t for e in ev if e.kind == "reveal" for t in e.data.get("tokens", [])}
    for owner in (AXIS, ALLIED):
        held = _held(before, owner) | _held(s, owner)
        if not held:
            continue
        twin = _without(s, owner)
        quiet = [
            s.blocks[i].token for i in held
            if (s.blocks[i].where, s.blocks[i].at) == (before.blocks[i].where, before.blocks[i].at)
            and not (s.blocks[i].revealed or before.blocks[i].revealed)
            and not (s.blocks[i].oos or before.blocks[i].oos)
            and s.blocks[i].token not in shown
        ]  # fmt: skip
        for reader in (enemy(owner), PUBLIC):
            what = (order.text(), reader)
            assert RULES.fog_view(s, reader) == RULES.fog_view(twin, reader), what
            assert RULES.view(s, reader) == RULES.view(twin, reader), what
            if reader is not None:
                mine = [o.text() for o in RULES.legal_orders(s, reader)]
                assert mine == [o.text() for o in RULES.legal_orders(twin, reader)], what
            text = " ".join([*lines_for(ev, reader), order_line(order.text(), ev, reader) or ""])
            assert [t for t in quiet if t in text] == [], (what, text)
        foe = enemy(owner)
        if RULES.prompt(s).role == foe:
            b = s.blocks[min(held)]
            for text in (f"move {b.token} {b.at}", f"reserve {b.token}", f"hit {b.token}"):
                assert _answer(s, foe, text) == _answer(twin, foe, text), (order.text(), text)


def _answer(s, role: str, text: str) -> str:
    """What ``role`` is told of an order: the refusal, or the lines of what it did."""
    try:
        after, ev = RULES.apply(s, role, RULES.parse_order(text), Dice(random.Random(0)))
    except IllegalOrder as err:
        return str(err)
    return " ".join(lines_for(ev, role))


def test_the_scan_sees_the_open_barrels_and_a_planted_line():
    """The scan can fail: without the option the black barrel is public (B62, B95), and a
    line naming the reserve's token to the others is caught."""
    s = advanced()
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    after, ev = order(s, AXIS, "reserve de_dak de_rommel")
    with pytest.raises(AssertionError):
        scan_reserves(s, after, RULES.parse_order("reserve de_dak de_rommel"), ev)
    s.options["hidden_reserves"] = True
    after, ev = order(s, AXIS, "reserve de_dak de_rommel")
    scan_reserves(s, after, RULES.parse_order("reserve de_dak de_rommel"), ev)
    token = after.blocks["de_dak"].token
    planted = [*ev, Event("note", f"{token} waits at {DERNA}.")]
    with pytest.raises(AssertionError):
        scan_reserves(s, after, RULES.parse_order("reserve de_dak de_rommel"), planted)


def test_random_play_with_hidden_reserves_tells_the_enemy_nothing():
    """Random play of the desert scenarios under ``advanced`` and ``hidden_reserves``,
    every decision asked and Reserve Mode chosen as often as a battle, under the leak
    scans of test_random_play and :func:`scan_reserves` after every action, until reserves
    have moved both in the Exploitation Phase and in the enemy's Defender Reaction."""
    seen: set[str] = set()
    moved: set[str] = set()

    def scan(before, s, order, ev):
        scan_reserves(before, s, order, ev)
        if order.verb == "move" and order.block in before.reserve:
            moved.add(before.phase)
        if order.verb == "move" and order.block in before.reaction_reserve:
            moved.add(before.phase)

    options = {"hidden_reserves": True}
    for seed in range(SEEDS_FOR_COVERAGE):
        for scenario in ("BIA4", "BIA5", "BIA6"):
            s, kinds = play(
                scenario, seed, ask=True, advanced=True, options=options, scan=scan,
                keen=("reserve",),
            )  # fmt: skip
            assert RULES.result(s) is not None
            seen |= kinds
        if {"exploitation", "reaction"} <= moved:
            break
    assert {"order:reserve", "reserve"} <= seen, sorted(seen)
    assert {"exploitation", "reaction"} <= moved, moved
