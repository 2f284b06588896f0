"""The African Campaign as a map: the state drawn the way a role may see it.

Pieces are not hidden (TAC 5.0, L240: either player may look into any stack at any
time), so every role gets the same counters. What is hidden is left out here, never by
the renderer: a minefield on the map is drawn face down, its value known to nobody, and
the minefields a side holds are listed in that side's view only (16.0 procedure, L677); event
chits in hand (18.7.1, L811) will be the same once the state holds them.

>>> from engine.core.dice import ScriptedDice
>>> from engine.games.tac.rules import TheAfricanCampaign
>>> rules = TheAfricanCampaign()
>>> v = map_view(rules.setup("campaign", {}, ScriptedDice([])), "allied")
>>> v.grid, v.viewer, v.turn_label
('even-r-AABB', 'allied', 'December I 1940')
"""

from __future__ import annotations

from functools import cache

from engine.core.view import (
    ArrowView,
    BoxView,
    CounterView,
    HexMapView,
    MarkerView,
    SideView,
    StackView,
    TrackView,
)
from engine.games.tac.board import Board
from engine.games.tac.pack import step_values
from engine.games.tac.state import ALLIED, AXIS, State

SIDE_NAMES = {ALLIED: "Allied", AXIS: "Axis"}
#: a counter's ``side`` is the colour it is printed in (TAC 2.4.1, L78: Allied light
#: brown, German light blue, Italian light green); a stack's ``side`` is its player's
COLOUR = {"GE": "german", "IT": "italian"}
#: unit sizes as printed above the symbol (TAC 2.4.1)
SIZE_MARK = {"II": "II", "III": "III", "X": "X", "XX": "XX", "XXXX": "XXXX"}


@cache
def _board() -> Board:
    return Board()


def counter(b: Board, unit_id: str, step: int, strategic: bool = False) -> CounterView:
    """A unit's counter at ``step`` (0 = its front face, TAC 2.4.2): combat factor on the
    left (flak: its attack factor; its defence follows its name), movement on the right."""
    u = b.units[unit_id]
    attack, _, move = step_values(u.steps[step])
    name = f"{SIZE_MARK[u.size]} {u.name}"
    if u.type == "flak":
        name = f"{name} ({u.steps[step]})"
    return CounterView(
        id=u.id,
        side=COLOUR.get(u.nationality, u.side),
        kind="unit",
        name=name,
        symbol=u.type,
        combat=attack,
        move=move,
        reduced=step > 0,
        tags=["strategic"] if strategic else [],
    )


def replacement_counter(pid: str, kind: str) -> CounterView:
    """A replacement counter (Repl 0-7, TAC 10.2 L555, 5.1.1), in its nationality's colour."""
    side = ALLIED if kind.startswith("allied") else ("german" if "german" in kind else "italian")
    what = "armour" if kind.endswith("armour") else "infantry"
    return CounterView(id=pid, side=side, kind="unit", name=f"Repl ({what})", symbol="replacement",
                       combat=0, move=7)  # fmt: skip


def tracks(b: Board, s: State) -> list[TrackView]:
    """The Turn Record Track (TAC 6.0, 17.0: fifty half-month turns; the Segment of the
    Axis table under the first turn of each month, 10.3 L559) and the Axis Fuel Track
    (14.0 L643-651), with their markers where the state puts them."""
    turns = sorted(b.turns)
    fuel = b.tables.fuel_track
    return [
        TrackView(
            id="turns", title="Turn Record Track", spaces=[str(t) for t in turns],
            at=turns.index(s.turn) if s.turn in b.turns else None,
            marks={i: b.turns[t].segment for i, t in enumerate(turns) if b.turns[t].segment},
        ),
        TrackView(
            id="fuel", title="Axis Fuel Track (14.0)",
            spaces=[str(n) for n in range(fuel.min, fuel.max + 1)],
            at=s.fuel - fuel.min if fuel.min <= s.fuel <= fuel.max else None,
        ),
    ]  # fmt: skip


def map_view(state: State, role: str | None, board: Board | None = None) -> HexMapView:
    """What ``role`` (``allied``, ``axis`` or None for the public) sees, as a map."""
    from engine.games.tac.rules import PHASE_NAMES, TheAfricanCampaign

    b = board or _board()
    s = state
    by_hex: dict[str, list[str]] = {}
    for u in sorted(s.units.values(), key=lambda u: u.id):
        if u.where == "map" and u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u.id)
    # replacement counters (TAC 10.1, 10.2; RULINGS R47) stand under the units of their hex
    extra: dict[str, list[CounterView]] = {}
    for k, p in sorted(getattr(s, "pieces", {}).items()):
        if p["hex"] is not None:
            extra.setdefault(p["hex"], []).append(replacement_counter(k, p["kind"]))
    stacks = []
    for h in sorted(set(by_hex) | set(extra)):
        ids = by_hex.get(h, [])
        # the strongest on top, as players stack them
        ids.sort(key=lambda i: (-step_values(b.units[i].steps[s.units[i].step])[0], i))
        faces = [counter(b, i, s.units[i].step, i in s.strategic) for i in ids] + extra.get(h, [])
        owner = s.units[ids[0]].side if ids else (ALLIED if faces[0].side == ALLIED else AXIS)
        stacks.append(StackView(hex=h, side=owner, counters=faces, count=len(faces)))
    boxes = []
    for where, title, side in (
        ("tripoli", "Tripoli (Axis Home Base, 12.3)", AXIS),
        ("withdrawn", "Withdrawn, due back", None),
        ("exited", "Exited off the east edge (8.6.1)", AXIS),
        ("held", "Held off Alexandria (7.5)", ALLIED),
        ("dead", "Eliminated", None),
    ):
        units = [u for u in sorted(s.units.values(), key=lambda u: u.id) if u.where == where]
        if units or where == "tripoli":
            boxes.append(BoxView(
                id=where, title=title, side=side,
                counters=[counter(b, u.id, u.step) for u in units],
            ))  # fmt: skip
    sea = [replacement_counter(k, p["kind"]) for k, p in sorted(getattr(s, "pieces", {}).items())
           if p["hex"] is None]  # fmt: skip
    if sea:
        boxes.append(BoxView(id="at_sea", title="Replacements delayed at sea (12.1, 12.2)", counters=sea))
    arrows = []
    # the attacks declared (TAC 9.0 procedure) and the one being resolved
    for battle in [*s.battles, *([s.fight] if s.fight else [])]:
        targets = battle.get("targets", [])
        froms = sorted({
            s.units[a].hex for a in battle.get("attackers", [])
            if a in s.units and s.units[a].where == "map" and s.units[a].hex
        })  # fmt: skip
        for t in targets:
            for f in froms:
                if f != t:
                    arrows.append(ArrowView(kind="attack", side=s.player, path=[f, t]))
    markers = []
    if s.fight:
        for t in s.fight.get("targets", []) or [s.fight.get("hex")]:
            if isinstance(t, str):
                markers.append(MarkerView(hex=t, kind="battle"))
    # a minefield lies skull side up (16.0 procedure, L677): its hex is public, its value nobody's
    mines = getattr(s, "mines", None) or {}
    markers += [MarkerView(hex=h, kind="minefield") for h in sorted(mines.get("map", {}))]
    # a Bad Weather chit in force (18.7, L831, L877): played, so public; its hex marked
    # and the area (three hexes round it, RULINGS R62) said in the notes
    from engine.games.tac.events import WEATHER_RANGE, weather_in_force

    weather = weather_in_force(s)
    if weather is not None:
        markers.append(MarkerView(hex=weather["hex"], kind="weather"))
    prompt = TheAfricanCampaign(b).prompt(s)
    fuel = b.tables.fuel_track
    notes = [f"Axis fuel: {s.fuel} (track {fuel.min} to {fuel.max}, 14.0)."]
    if weather is not None:
        notes.append(f"Bad Weather (18.7) within {WEATHER_RANGE} hexes of {weather['hex']} "
                     "this player turn: moving there costs more, and no air unit supports an attack there.")  # fmt: skip
    hand = mines.get("hands", {}).get(role, []) if role in SIDE_NAMES else []
    if hand:
        from engine.games.tac.mines import describe

        notes.append(f"Your minefields in hand (16.0): {', '.join(describe(b, m) for m in hand)}.")
    if s.replacements:
        got = ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in sorted(s.replacements.items()) if v
        )
        if got:
            notes.append(f"Replacements held: {got}.")
    return HexMapView(
        tracks=tracks(b, s),
        game="tac",
        viewer=role,
        title="The African Campaign",
        turn=s.turn,
        turn_label=b.turns[s.turn].date if s.turn in b.turns else "",
        phase=f"{SIDE_NAMES.get(s.player, s.player)} {PHASE_NAMES.get(s.phase, s.phase.capitalize() + ' Phase')}",
        active_role=prompt.role,
        prompt=prompt.text_for(role),  # the public version where it names hidden chits (18.7)
        sides=[SideView(id=ALLIED, name="Allied"), SideView(id=AXIS, name="Axis")],
        stacks=stacks,
        boxes=boxes,
        arrows=arrows,
        markers=markers,
        control=dict(s.control),
        notes=notes,
        grid="even-r-AABB",
    )
