"""Invariants of a game state, for the fuzzer and the tests: things the rules never
allow at rest, whatever orders were given."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.state import SIDE


def problems(ctx: Ctx) -> list[str]:
    s = ctx.state
    g = ctx.geo
    out: list[str] = []
    for uid, u in s.units.items():
        if uid != u.id:
            out.append(f"{uid}: stored under the wrong id {u.id}")
        if u.at not in g.land and u.at not in g.sea:
            out.append(f"{uid}: in {u.at!r}, which is not a passable space")
            continue
        kind = ctx.kind(u)
        if kind == "sea" and u.at not in g.sea:
            out.append(f"{uid}: a ship on land in {u.at}")
        if kind == "land" and u.at in g.sea and u.aboard is None:
            out.append(f"{uid}: a land unit at sea in {u.at} without a transport")
        if u.aboard is not None:
            c = s.units.get(u.aboard)
            if c is None:
                out.append(f"{uid}: aboard {u.aboard}, which does not exist")
            elif c.at != u.at:
                out.append(f"{uid}: aboard {c.id} in {c.at} but itself in {u.at}")
            elif SIDE[c.owner] != SIDE[u.owner]:
                out.append(f"{uid}: aboard an enemy ship {c.id}")
        if u.type == "industrial_complex":
            out.append(f"{uid}: industrial complexes are not units")
    for t in s.ics:
        if t not in g.land:
            out.append(f"industrial complex in {t}, not a territory")
    if len(set(s.ics)) != len(s.ics):
        out.append("two industrial complexes in one territory")
    for t, p in s.control.items():
        if t not in g.land:
            out.append(f"control of {t}, not a territory")
        for u in ctx.at(t):
            if SIDE[u.owner] != SIDE[p] and ctx.kind(u) == "land" and s.battle is None:
                if not (
                    s.phase in ("combat_move", "enigma", "combat") and u.owner in ctx.commanded()
                ):
                    out.append(f"{u.id}: an enemy land unit at rest in {t}")
    for p, n in s.ipcs.items():
        if n < 0:
            out.append(f"{p} has {n} IPCs")
    # cargo within capacity
    load: dict[str, int] = {}
    for u in s.units.values():
        if u.aboard and ctx.kind(u) == "land":
            load[u.aboard] = load.get(u.aboard, 0) + (ctx.info(u.type).transport_cost or 0)
    for tid, n in load.items():
        if n > 5:
            out.append(f"transport {tid} carries {n} points of cargo (5 at most)")
    decks: dict[str, int] = {}
    for u in s.units.values():
        if u.aboard and u.type == "fighter":
            decks[u.aboard] = decks.get(u.aboard, 0) + 1
    for cid, n in decks.items():
        if n > 2:
            out.append(f"carrier {cid} carries {n} fighters (2 at most)")
    if s.phase not in ("combat_move", "enigma", "combat", "noncombat"):
        for u in s.units.values():
            if ctx.kind(u) == "air" and u.at in g.sea and u.aboard is None and s.phase != "over":
                out.append(f"{u.id}: a fighter at sea off any carrier outside the movement phases")
    return out
