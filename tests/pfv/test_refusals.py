"""Illegal orders of every kind are refused with a sentence that names the rule, and the
state is left exactly as it was (ARCHITECTURE: the rules contract; STYLE: refusals).

Each case builds a scene at the right step of play, applies one illegal order and checks
the IllegalOrder's rule tag; ``refused`` compares ``rules.dump_state`` before and after.
"""

import pytest

from engine.core.errors import IllegalOrder, OrderSyntaxError
from tests.pfv.fixtures import fixture_board, play, scene
from tests.pfv.helpers import KEEP_FIGHTING, refused

FEATURES = {"8412": ["airfield_axis"], "7712": ["airfield_allied"], "8510": ["village"]}


def movement():
    """The Axis movement phase: 10th Panzer in 8213, the 1st Armored in 8113 beside it."""
    where = {
        "10pz": "8213",
        "88s": "8213",
        "x": "8413",
        "luft": "8412",
        "1arm": "8113",
        "td": "8312",
    }
    return scene(fixture_board(features=FEATURES), where, player="axis")


def combat():
    where = {
        "10pz": "8213",
        "x": "8413",
        "luft": "8412",
        "1arm": "8113",
        "34th": "8115",
        "p38": "7712",
        **KEEP_FIGHTING,
    }
    return scene(fixture_board(features=FEATURES), where, phase="combat", player="axis")


def retreating():
    """T05: the 1st Armored was hit and must retreat two hexes."""
    rules, s = scene(
        fixture_board(),
        {"10pz": "8213", "1arm": "8113", **KEEP_FIGHTING},
        phase="combat",
        player="axis",
    )
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [6, 7])
    return rules, s


def advancing():
    rules, s = retreating()
    s, _ = play(rules, s, "allied", "retreat 1arm 8014 7914")
    return rules, s


def choosing_loss():
    rules, s = scene(
        fixture_board(),
        {"10pz": "8213", "1arm": "8113", "td": "8113", **KEEP_FIGHTING},
        phase="combat",
        player="axis",
    )
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [6, 7])
    return rules, s


def rebasing():
    rules, s = scene(
        fixture_board(features=FEATURES),
        {"10pz": "8213", "1arm": "8618"},
        phase="rtb",
        player="axis",
        rtb=("luft", "p38"),
    )
    s.rebasing = "axis"
    return rules, s


def replacing():
    rules, s = scene(
        fixture_board(features=FEATURES),
        {"10pz": "8213", "1arm": "8113"},
        phase="replace",
        player="axis",
        reduced=("10pz",),
        dead=("x", "88s"),
    )
    s.replacements_left = 1
    return rules, s


CASES = [
    # wrong step of play or wrong player (PFV 7)
    ("attack in the movement phase", movement, "axis", "attack 10pz 8113", "PFV 7"),
    ("the other side moves", movement, "allied", "move 1arm 8014", "PFV 7"),
    ("rebuild in the movement phase", movement, "axis", "rebuild 10pz", "PFV 7"),
    ("move in the combat phase without breakthrough", combat, "axis", "move 10pz 8313", "PFV 7"),
    ("defender air before the attack is declared", combat, "allied", "air p38", "PFV 7"),
    ("attack before the advance is decided", advancing, "axis", "attack 10pz 8113", "PFV 7"),
    ("attacker answers the retreat", retreating, "axis", "retreat 1arm 8014 7914", "PFV 7"),
    # movement (PFV 6, 8, 9)
    ("unknown piece", movement, "axis", "move panzerlehr 8313", "PFV 8"),
    ("an enemy piece", movement, "axis", "move 1arm 8014", "PFV 8"),
    ("air never moves", movement, "axis", "move luft 8411", "PFV 8"),
    ("hex off the map", movement, "axis", "move 10pz 8221", "PFV 8"),
    ("unreachable hex", movement, "axis", "move 10pz 8820", "PFV 8"),
    ("enemy-occupied hex", movement, "axis", "move 10pz 8113", "PFV 8"),
    ("hex with a lone enemy support", movement, "axis", "move 88s 8312", "PFV 8"),
    ("path not contiguous", movement, "axis", "move 10pz 8313 8513", "PFV 8"),
    ("beyond the movement factor", movement, "axis", "move 88s 8313 8314 8315 8316 8317", "PFV 8"),
    ("past an enemy zone of control", movement, "axis", "move 10pz 8214 8215", "PFV 9"),
    ("pieces from two hexes as a group", movement, "axis", "move 10pz,x 8313", "PFV 7"),
    ("a piece named twice", movement, "axis", "move 10pz,10pz 8313", "PFV 8"),
    ("a move back into its own hex", movement, "axis", "move 10pz 8213", "PFV 8"),
    ("a piece not yet in play", movement, "axis", "move bg_axis_1 8313", "PFV 8"),
    # combat (PFV 7, 11)
    ("attack a hex that is not adjacent", combat, "axis", "attack 10pz 8115", "PFV 11"),
    ("attack an empty hex", combat, "axis", "attack 10pz 8313", "PFV 11"),
    ("attack with an enemy unit", combat, "axis", "attack 1arm 8213", "PFV 11"),
    ("attack with an unknown unit", combat, "axis", "attack ghost 8113", "PFV 11"),
    ("attack with air out of range", combat, "axis", "attack x 8314 air ghost", "PFV 11"),
    ("air that is not one's own", combat, "axis", "attack 10pz 8113 air p38", "PFV 7"),
    # losses, retreats, advances (PFV 13, 14)
    ("loss by a piece not in the hex", choosing_loss, "allied", "loss 34th", "PFV 13"),
    ("loss chosen by the other side", choosing_loss, "axis", "loss 10pz", "PFV 7"),
    (
        "retreat into an enemy zone of control",
        retreating,
        "allied",
        "retreat 1arm 8214 8215",
        "PFV 14",
    ),
    ("retreat of a piece not retreating", retreating, "allied", "retreat 34th 8014 7914", "PFV 14"),
    ("retreat one hex only", retreating, "allied", "retreat 1arm 8014", "PFV 14"),
    ("advance by a piece that did not attack", advancing, "axis", "advance x", "PFV 14"),
    # Return to Base and replacements (PFV 7, 17)
    ("rebase to a hex that is not an airfield", rebasing, "axis", "rebase luft 8413", "PFV 7"),
    ("rebase air not in the box", rebasing, "axis", "rebase regia 8412", "PFV 7"),
    ("rebase the enemy's air", rebasing, "axis", "rebase p38 8412", "PFV 7"),
    ("rebase to the enemy's airfield", rebasing, "axis", "rebase luft 7712", "PFV 7"),
    ("the other side rebases first", rebasing, "allied", "rebase p38 7712", "PFV 7"),
    ("the other side replaces", replacing, "allied", "rebuild 1arm", "PFV 7"),
    ("replace an eliminated unit", replacing, "axis", "replace x 8510", "PFV 7"),
    ("replace in a hex that is not a village", replacing, "axis", "replace 88s 8511", "PFV 7"),
    ("rebuild a piece that is not reduced", replacing, "axis", "rebuild 1arm", "PFV 7"),
]


@pytest.mark.parametrize("situation, build, role, text, rule", CASES, ids=[c[0] for c in CASES])
def test_illegal_order_is_refused_naming_its_rule_and_the_state_is_unchanged(
    situation, build, role, text, rule
):
    """M-1..M-9, C-1..C-8, LS-2, RT-2, RT-3, AD-1, AD-2, R-1, R-2, P-2, P-6: one illegal
    order of each kind, refused with its section named and nothing changed."""
    rules, s = build()
    err = refused(rules, s, role, text)
    assert err.rule == rule, f"{situation}: {err}"
    assert f"({rule})" in str(err)
    assert err.reason.endswith((".", "!", "?")) and "Traceback" not in str(err)


def test_air_out_of_range_names_the_range_and_what_is_in_range_C5():
    from tests.pfv.fixtures import counter, fixture_counters

    short = counter("ju87", "axis", "air", "Stukas", modifier=2, rng=1, symbol="air")
    board = fixture_board(features=FEATURES, counters=fixture_counters(extra=[short]))
    rules, s = scene(
        board,
        {"10pz": "8213", "1arm": "8113", "ju87": "8412", "luft": "8511", **KEEP_FIGHTING},
        phase="combat",
        player="axis",
    )
    err = refused(rules, s, "axis", "attack 10pz 8113 air ju87")
    assert err.rule == "PFV 7"
    assert "range 1" in str(err) and "2 hexes away" in str(err)
    assert "Air in range: luft." in str(err)


def test_refusal_says_what_would_be_legal():
    """STYLE: what is wrong, which rule, and what would be legal (M-3, M-7, RT-3)."""
    rules, s = movement()
    err = refused(rules, s, "axis", "move panzerlehr 8313")
    assert "Your pieces on the map: 10pz, 88s, x." in str(err)
    err = refused(rules, s, "axis", "move 10pz 8820")
    assert "Reachable hexes:" in str(err)
    rules, s = retreating()
    err = refused(rules, s, "allied", "retreat 1arm 8214 8215")
    assert "Legal destinations: 7912, 7913, 7914, 8012, 8015, 8115, 8215." in str(err)


def test_stacking_over_the_limit_is_refused_when_movement_ends_ST1():
    rules, s = movement()
    s, _ = play(rules, s, "axis", "move x 8313 8213")
    err = refused(rules, s, "axis", "done")
    assert err.rule == "PFV 6" and "8213" in str(err)


def test_the_game_over_refuses_everything_PFV4():
    rules, s = scene(
        fixture_board(), {"1arm": "8113", "z": "8213"}, phase="combat", player="allied"
    )
    s, _ = play(rules, s, "allied", "attack 1arm 8213", [2, 12])
    for role, text in (("allied", "done"), ("axis", "move 10pz 8313")):
        err = refused(rules, s, role, text)
        assert err.rule == "PFV 4"


# -- text that is not an order ------------------------------------------------------------

GARBAGE = [
    "",
    "   ",
    "hello world",
    "attack",
    "attack 10pz",
    "attack 10pz 81a3",
    "attack 10pz 8113 air",
    "attack 10pz 8113 air luft air regia",
    "move 10pz",
    "move 10pz eighty",
    "retreat 1arm",
    "retreat 1arm 8014 7914 7915",
    "done now",
    "air",
    "air luft regia",
    "loss",
    "rebase luft",
    "replace 88s 85100",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_text_that_is_not_an_order_is_refused_with_the_grammar(text):
    """Garbage and malformed verbs are IllegalOrders that show how to write the order."""
    rules, s = movement()
    err = refused(rules, s, "axis", text)
    assert isinstance(err, OrderSyntaxError) and isinstance(err, IllegalOrder)
    assert "Write it as:" in str(err) or "The orders are:" in str(err)


@pytest.mark.parametrize("text", ["hello world", "attack 10pz", "move 10pz eighty"])
def test_text_that_is_not_an_order_names_a_rule(text):
    """Even a syntax error names a section (PFV 7 for unknown verbs, the verb's own rule
    for a malformed order)."""
    rules, s = movement()
    err = refused(rules, s, "axis", text)
    assert "(PFV " in str(err)


def test_orders_round_trip_through_their_text():
    """The orders offered (C-1, C-5, RT-2) parse back from the text a player would type."""
    rules, s = retreating()
    for order in rules.legal_orders(s):
        assert rules.parse_order(order.text()) == order
    rules, s = combat()
    for order in rules.legal_orders(s):
        assert rules.parse_order(order.text()) == order


class _AlwaysSeven:
    """Dice for checking that listed orders are accepted; the rolls do not matter here."""

    def roll(self, sides: int, purpose: str = "") -> int:
        return 7


@pytest.mark.parametrize(
    "build", [movement, combat, retreating, advancing, choosing_loss, rebasing, replacing]
)
def test_every_order_the_engine_lists_is_accepted(build):
    """The other side of refusing: whatever legal_orders offers, apply takes (PFV 7)."""
    rules, s = build()
    orders = rules.legal_orders(s)
    assert orders
    role = rules.prompt(s).role
    for order in orders:
        before = rules.dump_state(s)
        new, _ = rules.apply(s, role, order, _AlwaysSeven())
        assert rules.dump_state(s) == before  # apply works on a copy
        assert rules.invariant_problems(new) == [], order.text()
