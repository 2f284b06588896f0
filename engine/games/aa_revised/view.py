"""What a player sees: the whole board, as plain JSON for the area-map renderer.

Axis & Allies has no hidden information, so every role (and the public) gets the same
view. Its shape::

    {
      "game": "aa-revised", "viewer": role or None,
      "round": 3, "power": "germany", "power_name": "Germany",
      "phase": "combat_move", "phase_name": "Combat move",
      "active_role": "germany", "prompt": "...", "result": None or "...",
      "victory": {"level": "minor", "needed": 8, "allies": 6, "axis": 6},
      "powers": {power: {"name", "side", "colour", "ipcs", "production", "income",
                         "capital", "capital_held", "techs": [...], "advantages": [...]}},
      "pending": {unit type: count},            # bought, not yet placed (phasing power)
      "spaces": {space id: {
          "name", "kind": "land"|"sea", "owner": power or None (sea zones, neutrals),
          "original_owner", "ipc", "neutral", "island", "capital_of", "victory_city",
          "industrial_complex": bool,
          "units": {power: {unit type: count}},   # everything in the space, cargo included
          "cargo": {power: {unit type: count}},   # of which aboard transports or carriers
          "pieces": [{"id", "type", "owner", "aboard", "submerged", "moved"}]}},
      "battles": [space ids still to fight], "raids": [...],
      "battle": None or {"space", "attacker", "defender", "cycle", "step",
                         "attackers": [{"id", "type", "owner", "hits"}], "defenders": [...]},
      "recent": [{"kind": "move"|"attack"|"air"|"retreat"|"battle"|"capture"|"place"|...,
                  "power", "path": [space ids], "text"}],
      "map": {...},   # the same board in the shape of renderer.areaview.AreaMapView
    }

``map`` holds exactly the fields of the area-map renderer's ``AreaMapView`` (game, viewer,
title, round, power, phase, income, bank, territories {id: {owner, units,
industrial_complex}}, sea_zones {id: {units}}, battles [{territory, text}], notes), so
``AreaMapView.model_validate(view["map"])`` draws it.

Unit types are the data pack's ids (``infantry``, ``tank``, ``aa_gun``, ``fighter``...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.games.aa_revised import pack
from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.income import victory_cities
from engine.games.aa_revised.state import PHASE_NAME, POWER_NAME, SIDE, TURN_ORDER, State

if TYPE_CHECKING:
    from engine.games.aa_revised.rules import AxisAndAlliesRevised


def build_view(rules: AxisAndAlliesRevised, state: State, role: str | None) -> dict[str, Any]:
    g = geography()
    ctx = Ctx(g, rules.options(state), state, None)
    p = rules.prompt(state)
    tables = pack.load_tables()
    colours = {pw.id: pw.colour for pw in tables.powers}
    need = {v.id: v.cities for v in tables.victory_levels}[ctx.opts.victory_level]
    spaces: dict[str, Any] = {}
    for sid in sorted(g.names):
        spaces[sid] = {
            "name": g.name(sid),
            "kind": g.kind[sid],
            "owner": state.control.get(sid),
            "original_owner": g.original.get(sid),
            "ipc": g.ipc.get(sid, 0),
            "neutral": sid in g.neutral,
            "island": sid in g.island,
            "capital_of": g.capital_of.get(sid),
            "victory_city": g.victory_city.get(sid),
            "industrial_complex": sid in state.ics,
            "units": {},
            "cargo": {},
            "pieces": [],
        }
    for u in sorted(state.units.values(), key=lambda u: int(u.id[1:])):
        sp = spaces[u.at]
        per = sp["units"].setdefault(u.owner, {})
        per[u.type] = per.get(u.type, 0) + 1
        if u.aboard:
            c = sp["cargo"].setdefault(u.owner, {})
            c[u.type] = c.get(u.type, 0) + 1
        sp["pieces"].append(
            {"id": u.id, "type": u.type, "owner": u.owner, "aboard": u.aboard,
             "submerged": u.submerged, "moved": u.moved}
        )  # fmt: skip
    powers = {}
    for pw in TURN_ORDER:
        powers[pw] = {
            "name": POWER_NAME[pw],
            "side": SIDE[pw],
            "colour": colours.get(pw),
            "ipcs": state.ipcs.get(pw, 0),
            "production": ctx.production(pw),
            "income": ctx.production(pw) if ctx.capital_held(pw) else 0,
            "capital": g.capital[pw],
            "capital_held": ctx.capital_held(pw),
            "techs": list(state.techs.get(pw, [])),
            "advantages": list(state.advantages.get(pw, [])),
        }
    battle = None
    if state.battle is not None:
        a = state.battle
        battle = {
            "space": a.space,
            "attacker": a.attacker,
            "defender": a.defender,
            "cycle": a.b.cycle,
            "step": a.b.step,
            "attackers": [{"id": u.uid, "type": u.type, "owner": u.owner, "hits": u.hits} for u in a.b.attackers],
            "defenders": [{"id": u.uid, "type": u.type, "owner": u.owner, "hits": u.hits} for u in a.b.defenders],
        }  # fmt: skip
    vc = victory_cities(ctx)
    area = _area_map(state, role, spaces, powers, p.text, vc, need)
    return {
        "game": "aa-revised",
        "viewer": role,
        "round": state.round,
        "power": state.power,
        "power_name": POWER_NAME[state.power],
        "phase": state.phase,
        "phase_name": PHASE_NAME.get(state.phase, state.phase),
        "active_role": p.role,
        "prompt": p.text,
        "result": state.result_text or None,
        "victory": {"level": ctx.opts.victory_level, "needed": need, **vc},
        "powers": powers,
        "pending": dict(state.pending),
        "spaces": spaces,
        "battles": list(state.battles),
        "raids": list(state.raids),
        "battle": battle,
        "recent": [dict(r) for r in state.recent],
        "map": area,
    }


def _area_map(state, role, spaces, powers, prompt, vc, need) -> dict[str, Any]:
    """The board in the area-map renderer's shape (``renderer.areaview.AreaMapView``)."""
    g = geography()
    territories = {}
    sea_zones = {}
    for sid, sp in spaces.items():
        units = {p: dict(c) for p, c in sp["units"].items()}
        if sp["kind"] == "land":
            territories[sid] = {
                "owner": sp["owner"],
                "units": units,
                "industrial_complex": sp["industrial_complex"],
            }
        else:
            sea_zones[sid] = {"units": units}
    battles = [
        {"territory": r["path"][0], "text": f"{g.name(r['path'][0])}: {r['text']}"}
        for r in state.recent
        if r["kind"] in ("battle", "capture") and r["path"]
    ]
    notes = [f"Victory cities: Allies {vc['allies']}, Axis {vc['axis']} ({need} to win)."]
    if state.result_text:
        notes.append(state.result_text)
    else:
        notes.append(prompt)
    return {
        "game": "aa-revised",
        "viewer": role,
        "title": "",
        "round": state.round,
        "power": None if state.over else state.power,
        "phase": PHASE_NAME.get(state.phase, state.phase),
        "income": {pw: v["income"] for pw, v in powers.items()},
        "bank": {pw: v["ipcs"] for pw, v in powers.items()},
        "territories": territories,
        "sea_zones": sea_zones,
        "battles": battles,
        "notes": notes,
    }
