"""The A&A: North Africa state as the area-map renderer draws it (renderer/areaview.py).

:func:`map_view` turns a :class:`~engine.games.aa_na.state.State` into the dict of an
``AreaMapView`` for ``game = "aa-na"``: who controls each territory, every unit on the
board by power and type, the supply tokens and mines, what sits in the convoy boxes, the
round, the power to play and the phase, and the battle being fought.

What it reads, and from where in the rules:

- control: a territory's control marker, or the permanent emblem printed on it (L475,
  L485); a territory with neither is drawn uncontrolled, whoever's units stand there
  (only RP territories carry markers, L485);
- units: each unit at its space, counted under its power and the last part of its chart
  row (``ger.tank`` -> ``tank``; the UK's Sherman and Germany's Tiger keep their own row
  names, ``sherman`` and ``tiger``, being other pieces with other values, L1393-1401);
  units in the Reinforcements Zone are off the board and are listed in the notes;
- supply tokens: their total value in each territory (tokens of 1 and 5 trade freely,
  L696), and in each convoy box the supply stacked on its markers (L698-700);
- land mines: the number of mine icons in each territory, whichever border they face
  (L587); sea mines: the tokens in each sea zone, all powers together (L589);
- income: the RP of the territories each power controls (Resource Points, L485); the RP
  left to spend is shown for the power to play during requisition (L565).

The rules hide nothing from anyone (RULINGS: hidden information), so every role, and the
public, get the same map; ``role`` is only named as the viewer.
"""

from __future__ import annotations

from typing import Any

from engine.games.aa_na import pack
from engine.games.aa_na.state import PHASE_NAME, POWER_NAME, State

GAME = "aa-na"


def unit_key(type_id: str) -> str:
    """The name a unit is counted under on the map: its chart row without the power."""
    return type_id.split(".", 1)[1] if "." in type_id else type_id


def _add(counts: dict[str, dict[str, int]], power: str, key: str, n: int = 1) -> None:
    row = counts.setdefault(power, {})
    row[key] = row.get(key, 0) + n


def map_view(state: State, role: str | None = None) -> dict[str, Any]:
    """The map of ``state`` as ``role`` sees it (every role sees all of it), in the shape
    of :class:`renderer.areaview.AreaMapView`."""
    board = pack.load_board()
    spaces = board.spaces
    territories: dict[str, dict[str, Any]] = {}
    seas: dict[str, dict[str, Any]] = {}
    for sp in board.pack.spaces:
        if sp.kind == "territory":
            owner = sp.permanent or state.control.get(sp.id)
            territories[sp.id] = {"owner": owner, "units": {}, "tokens": {}}
        else:
            seas[sp.id] = {"units": {}, "tokens": {}}
    for u in state.units:
        holder = territories.get(u.at) or seas.get(u.at)
        if holder is not None:
            _add(holder["units"], u.power, unit_key(u.type))
    for t, value in state.supply.items():
        if t in territories and value > 0:
            territories[t]["tokens"]["supply"] = value
    for zone, by_power in state.convoy_supply.items():
        total = sum(v for v in by_power.values() if v > 0)
        if zone in seas and total:
            seas[zone]["tokens"]["supply"] = total
    for mine in state.land_mines:
        t = mine.get("territory")
        if t in territories:
            tokens = territories[t]["tokens"]
            tokens["land_mine"] = tokens.get("land_mine", 0) + sum(mine.get("tokens", []))
    for zone, by_power in state.sea_mines.items():
        total = sum(v for v in by_power.values() if v > 0)
        if zone in seas and total:
            seas[zone]["tokens"]["sea_mine"] = total
    income: dict[str, int] = {}
    for sp in board.pack.spaces:
        owner = territories.get(sp.id, {}).get("owner")
        if sp.rp and owner:
            income[owner] = income.get(owner, 0) + sp.rp
    bank = {state.power: state.rp} if state.phase == "requisition" and not state.over else {}
    battles = []
    if state.battle is not None:
        b = state.battle
        battles.append(
            {
                "territory": b["target"],
                "text": f"being fought: round {b['round']}, {POWER_NAME.get(b['attacker'], b['attacker'])} attacking",
            }
        )
    return {
        "game": GAME,
        "viewer": role,
        "title": _title(state),
        "round": state.round,
        "power": None if state.over else state.power,
        "phase": PHASE_NAME.get(state.phase, state.phase),
        "income": income,
        "bank": bank,
        "territories": {k: _prune(v) for k, v in territories.items()},
        "sea_zones": {k: _prune(v) for k, v in seas.items()},
        "battles": battles,
        "notes": _notes(state, spaces),
    }


def _prune(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v or k == "owner"}


def _title(state: State) -> str:
    for sc in pack.load_setup().scenarios:
        if sc.id == state.scenario:
            return f"North Africa: {sc.name}"
    return "Axis & Allies: North Africa"


def _notes(state: State, spaces: dict[str, Any]) -> list[str]:
    """Lines under the battles: the game's result, declared attacks not yet fought,
    convoy markers, and what each power holds in its Reinforcements Zone."""
    out: list[str] = []
    if state.over:
        out.append(state.result_text or "The game is over.")
    for a in state.attacks:
        target, source = a.get("target"), a.get("source")
        if target in spaces:
            frm = spaces[source].name if source in spaces else "the air"
            out.append(f"Attack declared on {spaces[target].name} from {frm}.")
    markers = [
        f"{spaces[z].name}: {', '.join(POWER_NAME.get(p, p) for p in ps)}"
        for z, ps in sorted(state.convoy_markers.items())
        if ps and z in spaces
    ]
    if markers:
        out.append("Convoy markers: " + "; ".join(markers) + ".")
    for power, held in state.reserves.items():
        parts = [
            f"{n} supply" if t == "supply" else f"{n} {unit_key(t).replace('_', ' ')}"
            for t, n in sorted(held.items())
            if n
        ]
        if parts:
            out.append(
                f"Reinforcements Zone of {POWER_NAME.get(power, power)}: {', '.join(parts)}."
            )
    return out
