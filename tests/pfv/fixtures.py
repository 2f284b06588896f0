"""A small test board: the digest's "map F" (columns 78-86, rows 10-18, open ground in
Tunisia) with Algeria to the west, and the digest's fixture pieces. Tests add the terrain
and features they need, then put pieces where the rulebook's example has them."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import ORDER
from engine.core.hexmap import HexMap, MapPack
from engine.games.pfv.board import Board
from engine.games.pfv.pack import CountersPack, ScenarioPack
from engine.games.pfv.rules import PattonsFirstVictory
from engine.games.pfv.state import Piece, State

HEADER = {"game": "pfv", "version": "test", "provenance": "reconstruction"}


def counter(id, side, kind, name=None, *, combat=None, reduced=None, move=None, modifier=None,
            rng=None, tags=(), symbol="armor", upgrade_to=None, fixed_hex=None, back_modifier=None):
    front = {"combat": combat, "move": move, "modifier": modifier, "range": rng}
    back = None
    if reduced is not None:
        back = {"combat": reduced, "move": move}
    if back_modifier is not None:
        back = {"modifier": back_modifier, "move": move, "range": rng}
    return {"id": id, "name": name or id, "side": side, "kind": kind, "symbol": symbol, "nationality": "x",
            "tags": list(tags), "front": {k: v for k, v in front.items() if v is not None},
            "back": {k: v for k, v in back.items() if v is not None} if back else None,
            "upgrade_to": upgrade_to, "fixed_hex": fixed_hex}


def fixture_counters(extra=()):
    return [
        counter("10pz", "axis", "unit", "10th Panzer", combat=6, reduced=3, move=6),
        counter("15pz", "axis", "unit", "15th Panzer", combat=6, reduced=3, move=6),
        counter("x", "axis", "unit", "Unit X", combat=4, reduced=2, move=4),
        counter("y", "axis", "unit", "Unit Y", combat=4, reduced=2, move=4),
        counter("z", "axis", "unit", "Unit Z", combat=3, move=4),
        counter("rommel", "axis", "support", "Rommel", modifier=3, move=6, tags=["general"], symbol="general"),
        counter("88s", "axis", "support", "88s", modifier=2, move=4, symbol="antitank"),
        counter("luft", "axis", "air", "Luftwaffe", modifier=3, rng=12, symbol="air"),
        counter("regia", "axis", "air", "Regia Aeronautica", modifier=2, rng=12, symbol="air"),
        counter("bg_axis_1", "axis", "battlegroup", "Axis battlegroup", combat=2, move=4, symbol="battlegroup"),
        counter("1arm", "allied", "unit", "1st Armored", combat=4, reduced=2, move=6, tags=["ii_corps"], upgrade_to="1arm2"),
        counter("1arm2", "allied", "unit", "1st Armored**", combat=6, reduced=3, move=6, tags=["ii_corps", "two_star"]),
        counter("34th", "allied", "unit", "34th Infantry", combat=3, reduced=2, move=4, tags=["ii_corps"], upgrade_to="34th2", symbol="infantry"),
        counter("34th2", "allied", "unit", "34th Infantry**", combat=4, reduced=2, move=4, tags=["ii_corps", "two_star"], symbol="infantry"),
        counter("6arm", "allied", "unit", "6th Armoured", combat=5, reduced=3, move=6),
        counter("para", "allied", "unit", "Para Brigade", combat=3, move=3, symbol="airborne"),
        counter("td", "allied", "support", "Tank destroyers", modifier=2, move=4, tags=["ii_corps"], upgrade_to="td2", symbol="antitank"),
        counter("td2", "allied", "support", "Tank destroyers**", modifier=3, move=4, tags=["ii_corps", "two_star"], symbol="antitank"),
        counter("arty", "allied", "support", "RA artillery", modifier=2, move=3, symbol="artillery"),
        counter("patton", "allied", "support", "Patton", modifier=2, move=6, tags=["general"], symbol="general"),
        counter("p38", "allied", "air", "P-38s", modifier=2, back_modifier=1, rng=12, symbol="air"),
        counter("spit", "allied", "air", "Spitfires", modifier=2, rng=12, symbol="air"),
        counter("bg_allied_1", "allied", "battlegroup", "Allied battlegroup", combat=2, move=4, symbol="battlegroup"),
        *extra,
    ]


def fixture_board(terrain=None, features=None, hexsides=(), roads=(), sea=(), counters=None, turns=8) -> Board:
    """Columns 74-88, rows 8-20; columns 74-77 Algeria, the rest Tunisia; open ground."""
    terrain = terrain or {}
    features = features or {}
    hexes = []
    for c in range(74, 89):
        for r in range(8, 21):
            h = f"{c:02d}{r:02d}"
            t = ["sea"] if h in sea else terrain.get(h, ["open"])
            hexes.append({"id": h, "terrain": t, "region": None if h in sea else ("algeria" if c < 78 else "tunisia"),
                          "features": features.get(h, [])})
    pack = MapPack.model_validate({
        "header": {**HEADER, "name": "map"},
        "grid": {"first_col": 74, "last_col": 88, "first_row": 8, "last_row": 20},
        "regions": {"algeria": "Algeria", "tunisia": "Tunisia"},
        "terrain": {"open": {"name": "Open", "mp": 1, "drm": 0}, "hills": {"name": "Hills", "mp": 2, "drm": 1},
                    "mountain": {"name": "Mountain", "mp": 3, "drm": 2}, "village": {"name": "Village", "mp": 1, "drm": 1},
                    "marsh": {"name": "Salt marsh", "mp": None}, "sea": {"name": "Sea", "mp": None, "land": False},
                    "rough3": {"name": "Rough (+3)", "mp": 1, "drm": 3}},
        "hexside_types": {"river": {"name": "River", "mp": 3, "drm": 2}, "bridge": {"name": "Bridge", "mp": 0},
                          "impassable": {"name": "Impassable", "mp": None}},
        "feature_types": {f: {"name": f} for f in ("village", "port", "airfield_allied", "airfield_axis",
                                                   "crest_8th_army", "crest_ii_corps")},
        "hexes": hexes,
        "hexsides": [{"between": list(k.split("|")), "features": v} for k, v in dict(hexsides).items()],
        "roads": [list(r) for r in roads],
    })
    counters_pack = CountersPack.model_validate({"header": {**HEADER, "name": "counters"},
                                                 "counters": counters or fixture_counters()})
    scenario = ScenarioPack.model_validate({
        "header": {**HEADER, "name": "scenario"},
        "turns": [{"turn": t, "label": f"T{t}"} for t in range(1, turns + 1)],
        "replacements": {"axis": 1, "allied": 2}, "patton": "patton", "patton_forced_turn": 3,
        "rommel": "rommel", "rommel_last_turns": 3, "mareth_hex": "8519",
        "eighth_army_hexes": ["8720", "8721", "8722", "8723", "8820", "8822", "8821"],
    })
    return Board(HexMap(pack), counters_pack, scenario)


def scene(board: Board, where: dict[str, str], *, phase="move", player="axis", turn=1, reduced=(),
          rtb=(), dead=(), options=None, control=None) -> tuple[PattonsFirstVictory, State]:
    """A state with the named pieces on the map (or in a box) and everything else out of play."""
    rules = PattonsFirstVictory(board)
    state = State(scenario="standard", options=(options or {}), pack_version="test", turn=turn,
                  player=player, phase=phase)
    from engine.games.pfv.options import Options
    state.options = Options.model_validate(options or {}).model_dump()
    state.pieces = {pid: Piece(pid) for pid in board.counters}
    for pid, h in where.items():
        state.pieces[pid].where, state.pieces[pid].hex = "map", h
    for pid in reduced:
        state.pieces[pid].reduced = True
    for pid in rtb:
        state.pieces[pid].where = "rtb"
    for pid in dead:
        state.pieces[pid].where = "dead"
    state.control = board.initial_control()
    if control:
        state.control.update(control)
    return rules, state


def play(rules, state, role, text, dice=()):
    """Apply one order with scripted dice; returns (new state, log lines). The script must
    be used up exactly, so a test states every roll the rule makes."""
    d = ScriptedDice(list(dice))
    new, events = rules.apply(state, role, rules.parse_order(text), d)
    assert not d.remaining, f"unused scripted dice: {d.remaining}"
    return new, [e.text for e in events if e.kind != ORDER]  # the order's own text is no log line
