"""What can never be true of a North Africa position, checked after every order of the
random legal play (STYLE: Rally the Troops' fuzzer)."""

from __future__ import annotations

from engine.games.aa_na import pack
from engine.games.aa_na.context import Ctx
from engine.games.aa_na.state import PHASES, SIDE


def problems(ctx: Ctx) -> list[str]:
    """What can never be true: units off the board or in spaces of the wrong kind, a side
    over a stacking limit (L487-491), markers where none may stand (L485), negative
    supply or sea mines, more sea mine tokens than exist (L589), air units in the air outside
    their power's Phases 3-5, a battle naming units that are gone."""
    state = ctx.state
    board = ctx.board
    convoy_zones = {c.id for c in pack.load_board().pack.convoys}
    out = []
    for u in state.units:
        sp = board.spaces.get(u.at)
        if sp is None:
            out.append(f"{u.id} stands on unknown space {u.at!r}")
            continue
        kind = ctx.kind(u)
        if kind == "sea" and sp.kind != "sea":
            out.append(f"{u.id}, a sea unit, is on land in {u.at}")
        if kind == "land" and sp.kind == "sea" and u.at not in convoy_zones:
            out.append(f"{u.id}, a land unit, is at sea in {u.at} outside a convoy")
        if kind == "air" and sp.kind == "sea" and u.at not in convoy_zones and not u.airborne:
            out.append(f"{u.id}, an air unit, is over {u.at} outside a convoy")
        if u.airborne and (u.power != state.power or state.phase not in ("combat_move", "combat", "noncombat")):
            out.append(f"{u.id} is still in the air after its power's Phase 5")
    for t in {u.at for u in state.units}:
        sp = board.spaces.get(t)
        if sp is not None and sp.kind == "territory":
            for side in ("axis", "allies"):
                if ctx.stacked(t, side) > ctx.limit(t):
                    out.append(f"{t}: {side} over the stacking limit")
    out += [f"a control marker on {t}, which has no RP value" for t in state.control
            if t not in board.spaces or not board.spaces[t].rp]
    out += [f"negative supply in {k}" for k, v in state.supply.items() if v < 0]
    out += [f"negative convoy supply in {k}" for k, d in state.convoy_supply.items() for v in d.values() if v < 0]
    out += [f"negative reserve of {t} for {p}" for p, d in state.reserves.items() for t, v in d.items() if v < 0]
    comps = pack.load_tables().components
    for side, key in (("axis", "sea_mines_axis"), ("allies", "sea_mines_allied")):
        n = sum(v for zone in state.sea_mines.values() for p, v in zone.items() if SIDE[p] == side)
        if n > comps[key]:
            out.append(f"{n} sea mine tokens of {side} on the board; {comps[key]} exist (L589)")
    out += [f"negative sea mines in {z}" for z, d in state.sea_mines.items() for v in d.values() if v < 0]
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    if state.battle is not None:
        ids = {u.id for u in state.units}
        named = set(state.battle.get("defenders", [])) | {i for v in state.battle["sources"].values() for i in v}
        out += [f"the battle names unit {i}, which is gone" for i in sorted(named - ids)]
    return out
