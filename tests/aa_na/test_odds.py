"""The exact odds of an A&A:NA land battle against the battle itself: thousands of battles
fought through ``land_combat`` with seeded dice, every choice made as ``odds`` assumes
(defender fights, attacker presses, casualties in the stated orders, bomber hits aimed at
the defender's strongest kind)."""

from __future__ import annotations

import math
import random

import pytest

from engine.games.aa_na import air, land_combat, land_conclude
from engine.games.aa_na.context import Ctx, chart
from engine.games.aa_na.odds import aim, attacker_order, defender_order, land_odds
from engine.games.aa_na.orders import Casualties, Fight, Press, Target
from tests.aa_na.helpers import position

TARGET, MAIN, FLANK = "sirte", "misurata", "el_agheila"


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


def _battle(  # noqa: PLR0912
    main, flank, defenders, seed, defender_power="uk", vichy=False, loses=(None, None)
):
    attacker = next(iter(main)).split(".")[0]
    units = [(attacker, r, MAIN, n) for r, n in main.items()]
    units += [(attacker, r, FLANK, n) for r, n in flank.items()]
    units += [("vichy" if vichy else defender_power, r, TARGET, n) for r, n in defenders.items()]
    s = position(
        attacker,
        "combat",
        units,
        supply={TARGET: 200, MAIN: 200, FLANK: 200},
        control={MAIN: attacker, FLANK: attacker},
    )
    attacks = []
    for src in (MAIN, FLANK):
        land = [u.id for u in s.units if u.at == src and chart()[u.type].kind == "land"]
        if land:
            attacks.append({"id": src, "source": src, "target": TARGET, "units": land})
    flying = [u.id for u in s.units if u.at == MAIN and chart()[u.type].kind == "air"]
    if flying:
        attacks.append(
            {"id": "air", "source": MAIN, "target": TARGET, "units": flying, "air": True}
        )
    s.attacks = attacks
    ctx = Ctx(s, SeededDice(seed))
    attacking = {i for a in attacks for i in a["units"]}
    defending = {u.id for u in s.units if u.at == TARGET}
    land_combat.start(ctx, TARGET, MAIN)
    while s.battle is not None:
        b = s.battle
        step = b["step"]
        if step == "aa_casualties":
            pool = air.attacking_air(ctx)
            air.aa_casualties(ctx, Casualties(ids=_in_order(pool, b, b["aa_hits"], loses[0])))
        elif step == "orders":
            land_combat.fight(ctx, Fight())
        elif step == "bomber_targets":
            rows = {}
            for u in land_combat._pool(ctx, True):
                rows[u.type] = rows.get(u.type, 0) + 1
            land_combat.target(ctx, Target(units={aim(rows): b["hits"]["bomber"]}))
        elif step == "def_casualties":
            land_combat.casualties(ctx, Casualties(ids=_defender_choice(ctx, b, loses[1])))
        elif step == "att_casualties":
            land_combat.casualties(ctx, Casualties(ids=_attacker_choice(ctx, b, loses[0])))
        elif step == "press":
            land_conclude.press(ctx, Press())
        elif step == "advance":
            break
        else:  # pragma: no cover - a step the odds do not model
            raise AssertionError(f"unexpected step {step}")
    alive = {u.id: u for u in s.units}
    # surrendered Vichy units have joined the Allies as Free French (L1071-1073)
    left_def = [u for u in s.units if u.id in defending and u.power != "free_french"]
    left_att = [
        alive[i] for i in attacking if i in alive and chart()[alive[i].type].type != "scout_car"
    ]
    if left_def:
        return "defender"
    return "attacker" if left_att else "mutual"


def _in_order(pool, b, n, given=None):
    flank = set(b["flank"])

    def cls(u):
        src = next(s for s, ids in b["sources"].items() if u.id in ids)
        return (u.type, src in flank)

    order = attacker_order(sorted({cls(u) for u in pool}), given)
    ranked = sorted(pool, key=lambda u: (order.index(cls(u)), int(u.id[1:])))
    return [u.id for u in ranked[:n]]


def _attacker_choice(ctx, b, given=None):
    """The defenders' first-round anti-tank hits on tanks where there are any (L1137), the
    rest in the attacker's order."""
    pool = land_combat._pool(ctx, False)
    tanks = b.get("def_tank_hits", 0)
    ranked = _in_order(pool, b, len(pool), given)
    kinds = {u.id: chart()[u.type] for u in pool}
    on_tanks = [i for i in ranked if kinds[i].kind == "land" and kinds[i].type == "tank"][:tanks]
    rest = [i for i in ranked if i not in on_tanks]
    n = min(b["def_hits"] - len(on_tanks), len(rest))
    return on_tanks + rest[:n]


def _defender_choice(ctx, b, given=None):
    pool = land_combat._pool(ctx, True)
    hits = dict(b["hits"])
    rows = defender_order(sorted({u.type for u in pool}), given)
    ranked = sorted(pool, key=lambda u: (rows.index(u.type), int(u.id[1:])))
    chosen: list = []
    spare = hits.get("any", 0)
    demands = {"tank": hits.get("tank", 0)}
    for k, v in hits.items():
        if k.startswith("f:"):
            demands[k[2:]] = demands.get(k[2:], 0) + v
    for kind, k in demands.items():
        fit = [
            u
            for u in ranked
            if chart()[u.type].type == kind and chart()[u.type].kind == "land" and u not in chosen
        ]
        chosen += fit[:k]
        spare += k - len(fit[:k])
    fit = [u for u in ranked if chart()[u.type].kind == "air" and u not in chosen]
    chosen += fit[: hits.get("air", 0)]
    spare += hits.get("air", 0) - len(fit[: hits.get("air", 0)])
    rest = [u for u in ranked if u not in chosen]
    chosen += rest[:spare]
    return [u.id for u in chosen]


CASES = {
    # flanking, artillery support, first-round anti-tank fire on tanks, a scout car's hit
    # on air, Air Defense against a fighter, a German bomber aiming at the best defenders
    "mixed": (
        {
            "ger.infantry": 2,
            "ger.artillery": 1,
            "ger.tank": 1,
            "ger.anti_tank_gun": 1,
            "ger.fighter": 1,
            "ger.bomber": 1,
        },
        {"ger.infantry": 1, "ger.scout_car": 1},
        {
            "uk.infantry": 2,
            "uk.tank": 2,
            "uk.aaa": 1,
            "uk.fighter": 1,
            "uk.artillery": 1,
            "uk.anti_tank_gun": 1,
        },
        False,
    ),
    "vichy": (
        {"uk.infantry": 2, "uk.tank": 1},
        {},
        {"fra.infantry": 2, "fra.tank": 1},
        True,
    ),
}


CASES["mixed, orders given"] = CASES["mixed"]
#: the casualty orders the players give (first lost first), where not the default
LOSES = {"mixed, orders given": (["tank", "ger.fighter", "artillery"], ["uk.tank", "fighter"])}


@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_odds_agree_with_the_battle_fought(case):
    main, flank, defenders, vichy = CASES[case]
    loses = LOSES.get(case, (None, None))
    exact = land_odds(
        main, defenders, flank, vichy=vichy, attacker_loses=loses[0], defender_loses=loses[1]
    )
    assert abs(exact.attacker + exact.defender + exact.mutual - 1) < 1e-9
    n = 1500
    got = {"attacker": 0, "defender": 0, "mutual": 0}
    for seed in range(n):
        got[_battle(main, flank, defenders, seed, vichy=vichy, loses=loses)] += 1
    for end in got:
        p = getattr(exact, end)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(got[end] / n - p) < 4.5 * sigma, (end, got[end] / n, p)


def test_one_against_one_by_hand():
    """One German infantry (2) against one British infantry (3), no flank: each round ends
    the battle unless both miss (0.8 x 0.7); attacker wins 0.2 x 0.7 / 0.44."""
    o = land_odds({"ger.infantry": 1}, {"uk.infantry": 1})
    assert o.attacker == pytest.approx(0.14 / 0.44)
    assert o.defender == pytest.approx(0.24 / 0.44)
    assert o.mutual == pytest.approx(0.06 / 0.44)


def test_flanking_and_tobruk_change_the_chances():
    """A flanking infantry hits 2/7 of the time (L740); Tobruk's reroll of 9-10 raises a
    defence of 3 to 0.36 (L807)."""
    o = land_odds({}, {"uk.infantry": 1}, {"ger.infantry": 1})
    a, d = 2 / 7, 0.3
    assert o.attacker == pytest.approx(a * (1 - d) / (1 - (1 - a) * (1 - d)))
    t = land_odds({"ger.infantry": 1}, {"uk.infantry": 1}, bonus=(9, 10))
    d = 0.36
    assert t.attacker == pytest.approx(0.2 * (1 - d) / (1 - 0.8 * (1 - d)))


def test_unknown_unit_is_one_sentence():
    with pytest.raises(ValueError, match="no unit 'ger.panther'"):
        land_odds({"ger.panther": 1}, {"uk.infantry": 1})


def test_a_given_casualty_order_changes_the_odds_where_it_must():
    """Losing tanks (attack 6) before infantry (attack 2) lowers the attacker's chance;
    the default order (lowest attack first) is what naming nothing gives; a kind covers
    the flanking units of that kind too (L785: the owner chooses)."""
    main, flank = {"ger.infantry": 3, "ger.tank": 2}, {"ger.tank": 1}
    defenders = {"uk.infantry": 3, "uk.tank": 1, "uk.artillery": 1}
    default = land_odds(main, defenders, flank)
    tanks_first = land_odds(main, defenders, flank, attacker_loses=["tank"])
    assert tanks_first.attacker < default.attacker - 0.02
    named = land_odds(main, defenders, flank, attacker_loses=["infantry"])
    assert named == default
    # the defender losing its tank (defence 6) first helps the attacker
    d_tank = land_odds(main, defenders, flank, defender_loses=["uk.tank"])
    assert d_tank.attacker > default.attacker + 0.02
    assert attacker_order(
        [("ger.infantry", False), ("ger.tank", False), ("ger.tank", True)], ["tank"]
    ) == [("ger.tank", False), ("ger.tank", True), ("ger.infantry", False)]
    assert defender_order(["uk.tank", "uk.infantry"], ["artillery"]) == [
        "uk.infantry",
        "uk.tank",
    ]


def test_a_casualty_order_naming_no_unit_is_one_sentence():
    with pytest.raises(ValueError, match="attacker's casualty order names 'panzer'"):
        land_odds({"ger.infantry": 1}, {"uk.infantry": 1}, attacker_loses=["panzer"])
