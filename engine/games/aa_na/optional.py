"""The optional rules (Optional Rules, L1365-1441), each a set-up option, off by default.

Options (``state.options``):

- ``bid``: Reinforcement Point Bidding (L1367-1379), the accepted bid as the RP each power
  of the side that took it adds in its turn of the scenario's first round, e.g.
  ``{"ger": 3, "ita": 2}`` (the side's controller divides the bid, L1371);
- ``reinforcing_attacks``: Reinforcing Land Attacks (L1381-1385), the ``reinforce`` order
  at step 5 of a land battle;
- ``tiger_tanks`` (L1393-1401), ``air_transport`` (L1403-1405), ``suez_mines``
  (L1407-1409): Axis advantages;
- ``us_landing_choice`` (L1413-1415), ``anzac`` (L1417-1419): Allied advantages;
- ``strategic_reserve``: Strategic Supply Reserve for Air and Sea Attacks (L1421-1441);
- ``break_draws``: the tie-break of L259 (``victory``).
"""

from __future__ import annotations

from math import ceil
from typing import Any

from engine.core.errors import IllegalOrder
from engine.games.aa_na import pack
from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.state import SIDE, TURN_ORDER, State, Unit

R_OPTIONS = "North Africa: Optional Rules (L1365-1441)"
R_BID = "North Africa: Optional Rules, Reinforcement Point Bidding (L1367-1381)"
R_REINFORCE = "North Africa: Optional Rules, Reinforcing Land Attacks (L1381-1385)"
R_TIGER = "North Africa: Optional Rules, Tiger Tanks (L1393-1401)"
R_AIRLIFT = "North Africa: Optional Rules, Air Transport (L1403-1405)"
R_SUEZ = "North Africa: Optional Rules, Mining the Suez Canal (L1407-1409)"
R_RESERVE = "North Africa: Optional Rules, Strategic Supply Reserve for Air and Sea Attacks (L1421-1441)"

FLAGS = ("reinforcing_attacks", "tiger_tanks", "air_transport", "suez_mines", "us_landing_choice", "anzac", "strategic_reserve",
         "break_draws")
#: the reserve each side starts with in its staging territory (L1425-1435)
RESERVE = {"rlp": {"axis": 4, "allies": 9}, "ot": {"axis": 6, "allies": 4}}
#: where each side's strategic reserve lies: Italy, and Gibraltar for both Allied powers
#: (L503, L1441)
RESERVE_AT = {"axis": "italy", "allies": "gibraltar"}
AIRLIFT_TYPES = ("infantry", "mech_infantry", "artillery", "anti_tank_gun", "aaa")
TIGER_FROM_ROUND = 8
SUEZ = "suez_canal_csz"
CRETE = "crete"
ANZAC_ZONE = "indian_ocean_csz"


def on(state: State, name: str) -> bool:
    return bool(state.options.get(name))


# ------------------------------------------------------------------ set-up


def validate(scenario: str, options: dict[str, Any]) -> None:
    """One clear sentence for an option the engine cannot take."""
    from engine.games.aa_na.setup import skipped

    for k in FLAGS:
        if k in options and not isinstance(options[k], bool):
            raise IllegalOrder(R_OPTIONS, f"The option {k!r} is on (true) or off (false).")
    bid = options.get("bid")
    if bid is None:
        return
    if not isinstance(bid, dict) or not bid or any(p not in TURN_ORDER or not isinstance(n, int) or n < 1
                                                   for p, n in bid.items()):
        raise IllegalOrder(R_BID, "The bid gives RP (1 or more) to powers that take turns, e.g. {'ger': 3, 'ita': 2}.")
    if len({SIDE[p] for p in bid}) > 1:
        raise IllegalOrder(R_BID, "The bid goes to one side only: the side nobody disputed (L1371).")
    sc = next(s for s in pack.load_setup().scenarios if s.id == scenario)
    probe = State(scenario=scenario, players=2, options={}, round=sc.first_round, power="ger", phase="convoys",
                  units=[], control={}, convoy_markers={}, supply={}, convoy_supply={}, reserves={},
                  land_mines=[], sea_mines={})
    idle = [p for p in bid if skipped(probe, sc.first_round, p)]
    if idle:
        raise IllegalOrder(R_BID, f"{listing(idle)} has no turn in round {sc.first_round} of this scenario, where the "
                           "bid is spent (L1373).")


def place_reserves(state: State) -> None:
    """The strategic reserves start in the staging territories (L1423-1435)."""
    if not on(state, "strategic_reserve"):
        return
    for side, n in RESERVE[state.scenario].items():
        at = RESERVE_AT[side]
        state.supply[at] = state.supply.get(at, 0) + n


# ------------------------------------------------------------------ Phase 2


def bid_rp(ctx: Ctx) -> int:
    """The bid's RP for the active power in the scenario's first round only (L1373)."""
    s = ctx.state
    if s.round != ctx.scenario().first_round:
        return 0
    return int((s.options.get("bid") or {}).get(s.power, 0))


def check_unit(ctx: Ctx, tid: str, n: int) -> tuple[int, int]:
    """A row only an optional rule brings in: the Tiger, one a turn from round 8 (L1395-1399).
    Returns its piece count in play and its limit: a Tiger is a Panzer IV piece marked as
    one (L1395; RULINGS: optional rules)."""
    s = ctx.state
    if tid != "ger.tiger" or not on(s, "tiger_tanks"):
        raise refuse(R_OPTIONS, f"The {chart()[tid].name} is used only with its optional rule.")
    if s.round < TIGER_FROM_ROUND:
        raise refuse(R_TIGER, f"Tigers are requisitioned from round {TIGER_FROM_ROUND} on.")
    if n + s.bought.get("tigers", 0) > 1:
        raise refuse(R_TIGER, "Germany requisitions at most one Tiger a turn.")
    s.bought["tigers"] = s.bought.get("tigers", 0) + n
    from engine.games.aa_na.requisition import in_play

    return in_play(ctx, "ger.tank") + in_play(ctx, "ger.tiger"), chart()["ger.tank"].pieces


def suez_mine(ctx: Ctx, zone: str) -> bool:
    """Whether this Axis sea mine goes in the Suez Canal convoy zone under Mining the Suez
    Canal: a bomber of the power on Crete, one token a turn (L1409)."""
    s = ctx.state
    if zone != SUEZ or SIDE[s.power] != "axis" or not on(s, "suez_mines"):
        return False
    if not any(u.power == s.power and chart()[u.type].type == "bomber" for u in ctx.standing(CRETE)):
        raise refuse(R_SUEZ, f"{ctx.who(s.power)} needs a bomber on Crete to mine the Suez Canal.")
    if s.bought.get("suez"):
        raise refuse(R_SUEZ, "The Axis mines the Suez Canal at most once a turn.")
    s.bought["suez"] = True
    return True


# ------------------------------------------------------------------ Phase 3


def reserve_cost(ctx: Ctx) -> int:
    """1 token per 5 attacking air and sea units, or part of 5 (L1439)."""
    n = sum(1 for u in ctx.state.units if ctx.mine(u) and chart()[u.type].kind in ("air", "sea")
            and (u.airborne or (chart()[u.type].kind == "sea" and u.moved)))
    return ceil(n / 5)


def reserve_left(ctx: Ctx) -> int:
    at = RESERVE_AT[ctx.side]
    return ctx.state.supply.get(at, 0) if ctx.supply_usable(at, ctx.side) else 0


def check_reserve(ctx: Ctx) -> None:
    """With the option, a combat move of air or sea units must leave the side's reserve able
    to pay for every air and sea unit sent to attack so far (L1439)."""
    if on(ctx.state, "strategic_reserve") and reserve_cost(ctx) > reserve_left(ctx):
        raise refuse(R_RESERVE, f"Attacking air and sea units cost 1 supply token per 5 from the strategic reserve in "
                     f"{ctx.name(RESERVE_AT[ctx.side])}, which holds {reserve_left(ctx)}: not enough for "
                     f"{reserve_cost(ctx)}.")


def pay_reserve(ctx: Ctx) -> None:
    """After the declarations: the tokens for every air and sea unit in an attack (L1439).
    Units that must fight without having moved are paid for as far as the reserve goes
    (RULINGS: optional rules)."""
    s = ctx.state
    if not on(s, "strategic_reserve"):
        return
    ids = {i for a in s.attacks for i in a["units"]}
    n = sum(1 for u in s.units if u.id in ids and chart()[u.type].kind in ("air", "sea"))
    cost = min(ceil(n / 5), reserve_left(ctx))
    if cost:
        at = RESERVE_AT[ctx.side]
        s.supply[at] -= cost
        if not s.supply[at]:
            del s.supply[at]
        ctx.log("supply", f"{ctx.who(s.power)} spends {cost} supply from the strategic reserve in {ctx.name(at)} for "
                f"{n} attacking air and sea unit(s) (L1439).")


# ------------------------------------------------------------------ Phase 5


def airlift(ctx: Ctx, bombers: list[Unit], start: str, cargo: dict[str, int]) -> list[Unit]:
    """Axis bombers in Italy each carry one infantry, mechanized infantry, artillery,
    anti-tank gun or AAA of their own power, from Italy to where they land (L1405)."""
    from engine.games.aa_na.noncombat import may_move

    s = ctx.state
    if not on(s, "air_transport") or SIDE[s.power] != "axis":
        raise refuse(R_AIRLIFT, "Air units carry nothing without the optional rule Air Transport (L1405).")
    if start != "italy" or any(chart()[u.type].type != "bomber" for u in bombers):
        raise refuse(R_AIRLIFT, "Only Axis bombers flying from Italy carry land units (L1405).")
    if sum(cargo.values()) > len(bombers):
        raise refuse(R_AIRLIFT, f"{len(bombers)} bomber(s) carry at most {len(bombers)} unit(s), one each (L1405).")
    out: list[Unit] = []
    for word, n in cargo.items():
        if word not in AIRLIFT_TYPES:
            raise refuse(R_AIRLIFT, f"Bombers carry {listing(w.replace('_', ' ') for w in AIRLIFT_TYPES)}.")
        fit = [u for u in ctx.units_at(start) if u.type == f"{s.power}.{word}" and may_move(ctx, u) and u not in out]
        if len(fit) < n:
            raise refuse(R_AIRLIFT, f"Italy holds {len(fit)} {word.replace('_', ' ')} of {ctx.who(s.power)} free to "
                         f"fly, not {n}.")
        out += fit[:n]
    return out


# ------------------------------------------------------------------ Phase 6


def extra_places(ctx: Ctx, tid: str) -> list[str]:
    """ANZAC Reinforcements: one UK infantry a turn straight to the Indian Ocean convoy
    zone (L1419); with the strategic reserve, the US may stage supply in Gibraltar
    (L1441)."""
    s = ctx.state
    if on(s, "anzac") and s.power == "uk" and tid == "uk.infantry" and not s.bought.get("anzac"):
        return [ANZAC_ZONE]
    if on(s, "strategic_reserve") and s.power == "us" and tid == "supply":
        return [RESERVE_AT["allies"]]
    return []


# ------------------------------------------------------------------ Phase 4, step 5


def reinforcers(ctx: Ctx, source: str) -> list[Unit]:
    """Land combat units in ``source``, next to the battle, that may join it when the
    attacker presses: not scout cars, with a combat-move point left, in no attack this turn
    (L1383-1385)."""
    from engine.games.aa_na.combat_move import _check_space, can_attack, is_scout

    s = ctx.state
    b = s.battle
    if b is None or b.get("sea") or source == b["target"] or not ctx.board.adjacent(source, b["target"]):
        return []
    if not ctx.mat_open(ctx.side) and ctx.board.spaces[b["target"]].mat:
        return []
    busy = set(s.engaged) | {i for a in s.attacks for i in a["units"]} | {i for v in b["sources"].values() for i in v}
    out = []
    for u in ctx.units_at(source):
        if not ctx.mine(u) or not can_attack(u) or is_scout(u) or u.id in busy or u.ncm:
            continue
        if chart()[u.type].movement - u.moved < 1:
            continue
        try:
            _check_space(ctx, b["target"], [u], R_REINFORCE)
        except IllegalOrder:
            continue
        out.append(u)
    return out


def reinforce(ctx: Ctx, order) -> None:
    """The named units join the battle from their territory before the supply for the
    next round is paid; a new source flanks, the main attack staying where it was
    (L1383; RULINGS: optional rules)."""
    from engine.games.aa_na.combat_move import pick

    s = ctx.state
    if not on(s, "reinforcing_attacks"):
        raise refuse(R_REINFORCE, "Reinforcing a land attack needs the optional rule Reinforcing Land Attacks.")
    src = ctx.find(order.source, R_REINFORCE)
    ok = {u.id for u in reinforcers(ctx, src)}
    units = pick(ctx, src, order.units, order.ids, R_REINFORCE, lambda u: u.id in ok)
    if not units:
        raise refuse(R_REINFORCE, "Name land units next to the battle, with a combat-move point left and in no attack "
                     "this turn (scout cars never reinforce).")
    b = s.battle
    if src not in b["sources"]:
        b["sources"][src] = []
        b["flank"] = sorted([*b["flank"], src])
    b["sources"][src] += [u.id for u in units]
    s.engaged += [u.id for u in units]
    ctx.log("battle", f"{len(units)} unit(s) from {ctx.name(src)} reinforce the attack on {ctx.name(b['target'])} "
            "(L1383).", units=[u.id for u in units])
