"""Zones of control (3.22), supply (4.0-4.5, 7.2, 7.9) and besieged ports (L359-361).

Everything here is computed from what both sides may see (block positions, control, the
map) plus the tracing side's own blocks, so the results leak nothing hidden (digest 4.3).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

import heapq
from collections import deque

from engine.games.bia.board import ALLIED, AXIS, Board, enemy
from engine.games.bia.pack import neighbours
from engine.games.bia.state import BlockState, State


def exerts_zoc(board: Board, state: State, b: BlockState) -> bool:
    """Whether a block has a ZOC (3.22, L612-617, L632-636): every ground unit and every
    air unit on the ground (not one flying a mission, ``state.aloft``); not naval units,
    and not units in a battle hex."""
    if b.where != "map" or b.side not in (AXIS, ALLIED) or b.id in state.aloft:
        return False
    if board.block(b.id).unit_class == "naval":
        return False
    return b.at not in state.battles


def zoc(board: Board, state: State, side: str) -> set[str]:
    """The hexes in the ZOC of ``side`` (3.22, L612-638): the six neighbours of each of its
    blocks that has one, except hexes holding enemy units, all-sea hexes, and hexes across
    a deep-water hexside (straits are red arrows, not neighbours, so a ZOC never crosses
    them)."""
    foe = {b.at for b in state.on_map(enemy(side))}
    out: set[str] = set()
    for b in state.on_map(side):
        if not exerts_zoc(board, state, b):
            continue
        for n in neighbours(b.at):
            if n in foe or not board.is_land(n):
                continue
            if "deep_water" in board.features(b.at, n):
                continue
            out.add(n)
    return out


def blocked(board: Board, a: str, b: str) -> bool:
    """A hexside no supply line or ground move crosses: deep water or a yellow border
    (7.5.2, L1364-1366; tables.json ``hexsides``)."""
    feats = board.features(a, b)
    return any(board.pack.tables.hexsides.get(f, {}).get("mp", 0) is None for f in feats)


def _step_cost(board: Board, a: str, b: str) -> int:
    """1 per hex, 3 across a red arrow (7.5.3, L1370-1373: supply is stretched)."""
    return board.pack.tables.red_arrow_mp if frozenset((a, b)) in board.straits else 1


def besieged(
    board: Board,
    state: State,
    h: str,
    side: str,
    barred: tuple[set[str], set[str]] | None = None,
) -> bool:
    """Whether a port or capital hex of ``side`` is under siege (L359-361, AR 10.1
    L1959-1963): every land hex next to it (across no deep-water or yellow hexside) holds
    enemy units or lies in enemy ZOC, and there is at least one. A hex in the ZOC of both
    sides counts as enemy ZOC (L629-630). Public facts only. ``barred``: as
    :func:`enemy_presence` gives it, when the caller has it already."""
    foe_units, foe_zoc = barred or enemy_presence(board, state, side)
    around = False
    for n in board.adjacent(h):
        if not board.is_land(n) or blocked(board, h, n):
            continue
        around = True
        if n not in foe_units and n not in foe_zoc:
            return False
    return around


def _links(board: Board) -> dict[str, set[str]]:
    """The land links of the network beyond rails and roads: the Strategic Map's rail
    links (Berlin-Rome) and the map's off-map arrows; the Strategic Map's sea links are
    sea legs (:func:`_sea_links`)."""
    links = _strategic_links(board, "rail")
    for link in board.pack.map.links:
        a, b = link.between
        if link.kind == "offmap":
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def _sea_links(board: Board) -> dict[str, set[str]]:
    """The Strategic Map's sea links (London-Atlantic-South Africa-Indian Ocean ports)."""
    return _strategic_links(board, "sea")


def _strategic_links(board: Board, kind: str) -> dict[str, set[str]]:
    """The Strategic Map's links of ``kind`` both ways, a ``port:NAME`` end read as the
    port's hex."""
    places = board.pack.places
    links: dict[str, set[str]] = {}
    for link in board.pack.strategic.links:
        if link.kind != kind:
            continue
        a, b = (places.get(x[5:], x) if x.startswith("port:") else x for x in link.between)
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    return links


def land_next(board: Board, h: str, links: dict[str, set[str]]) -> set[str]:
    """The nodes one land step of the network from ``h``: rail, road, off-map arrows
    and straits whose two ends are on a rail or road (4.2, L678-681)."""
    nxt = set(links.get(h, ())) | board.line_links.get(h, set())
    for pair in board.straits:
        if h in pair and all(x in board.line_links for x in pair):
            nxt |= pair - {h}
    return nxt


def network(board: Board, state: State, power: str, sea: bool = True) -> set[str]:
    """The nodes (hexes and ``box:`` keys) joined to a power's main supply source by rail,
    road or sea (4.1-4.2, L671-681); with ``sea`` False, by land only (the example of
    L682-686 reaches Bengasi only by the sea leg from Taranto). A map hex of the network must be controlled by
    the power's side, hold no enemy unit and lie outside enemy ZOC (RULINGS B3); sea legs
    join the side's ports on a common body of water (RULINGS B4). A besieged port is no
    source and carries no sea leg (L359-361); under the advanced rules neither is a
    besieged capital (AR 10.1, L1959-1963; RULINGS B54)."""
    side = board.side_of_power(power)
    starts = board.main_sources(power)
    if not starts:  # Free France and the US draw on the British (RULINGS B5)
        majors = [p for p, x in board.pack.units.powers.items() if x.side == side and x.major]
        starts = [s for p in majors for s in board.main_sources(p)]
    foe_units = {b.at for b in state.on_map(enemy(side))}
    foe_zoc = zoc(board, state, enemy(side))
    held = {b.at for b in state.on_map(side)}
    advanced = bool(state.options.get("advanced"))

    def usable(h: str) -> bool:
        if h.startswith("box:"):
            return True
        if state.control.get(h) != side or h in foe_units or h in foe_zoc:
            return False
        if h in held and (h in board.ports or (advanced and h in starts)):
            return not besieged(board, state, h, side, (foe_units, foe_zoc))
        return True

    links = _links(board)
    sea_links = _sea_links(board) if sea else {}
    ports_by_body: dict[str, list[str]] = {}
    if sea:
        for h, bodies in board.ports.items():
            if usable(h):
                for body in bodies:
                    ports_by_body.setdefault(body, []).append(h)
    seen = {s for s in starts if usable(s)}
    todo = deque(seen)
    while todo:
        h = todo.popleft()
        nxt = land_next(board, h, links) | sea_links.get(h, set())
        for body in board.ports.get(h, ()) if sea else ():
            nxt.update(ports_by_body.get(body, ()))
        for n in nxt:
            if n not in seen and usable(n):
                seen.add(n)
                todo.append(n)
    return seen


def sources(
    board: Board, state: State, power: str, nodes: set[str] | None = None
) -> dict[str, int]:
    """Each supply source of a power on the map with the length of line it gives (4.2-4.3,
    L261-263, L622-624): 3 hexes from a rail or port hex or a capital, 2 from a road.
    ``nodes``: only those of this part of the network."""
    rng = board.pack.tables.supply_range
    out: dict[str, int] = {}
    main = set(board.main_sources(power))
    for h in network(board, state, power) if nodes is None else nodes:
        if h.startswith("box:"):
            continue
        if h in board.rail_hexes or h in board.ports or h in main:
            out[h] = max(rng["rail"], rng["port"])
        elif h in board.road_hexes:
            out[h] = rng["road"]
    return out


def enemy_presence(board: Board, state: State, side: str) -> tuple[set[str], set[str]]:
    """The hexes holding units of the enemy of ``side`` and those in its ZOC."""
    return {b.at for b in state.on_map(enemy(side))}, zoc(board, state, enemy(side))


def supplied_hexes(
    board: Board,
    state: State,
    power: str,
    srcs: dict[str, int] | None = None,
    barred: tuple[set[str], set[str]] | None = None,
) -> set[str]:
    """The hexes a supply line of the power reaches (4.3, L622-631): at most the source's
    length, never through mountain, an enemy unit or enemy ZOC (a hex in the ZOC of both
    sides counts as enemy ZOC, L629-630) nor through a neutral country (RULINGS B13). The last hex of a line is the unit's own: it
    is reached whatever its terrain (RULINGS B6). ``srcs``: from these sources only;
    ``barred``: the enemy's units and ZOC when the caller has them already."""
    side = board.side_of_power(power)
    foe_units, foe_zoc = barred or enemy_presence(board, state, side)
    terrain = board.pack.tables.terrain
    neutral = set(board.pack.scenario(state.scenario).neutral)
    best: dict[str, int] = {}
    if srcs is None:
        srcs = sources(board, state, power)
    heap = [(-left, h) for h, left in srcs.items()]
    heapq.heapify(heap)
    reached: set[str] = set()
    while heap:
        neg, h = heapq.heappop(heap)
        left = -neg
        if best.get(h, -1) >= left:
            continue
        best[h] = left
        if h in foe_units:
            continue  # no line enters a hex the enemy holds
        reached.add(h)
        if not terrain[board.hex(h).terrain].supply or h in foe_zoc:
            continue  # the line may end here (the unit's own hex) but goes no further
        for n in board.adjacent(h):
            if not board.is_land(n) or blocked(board, h, n):
                continue
            if board.hex(n).country in neutral:
                continue  # RULINGS B13
            rest = left - _step_cost(board, h, n)
            if rest >= 0 and best.get(n, -1) < rest:
                heapq.heappush(heap, (-rest, n))
    return reached


def out_of_supply(board: Board, state: State, side: str) -> list[str]:
    """The blocks of ``side`` on the map that trace no supply line (4.3), or whose line
    runs only to a part of the network fed by ports that supply as many blocks already
    (4.2.1, L599-608; :mod:`engine.games.bia.ports`), in id order. Blocks in a Strategic
    Map box stand in their home nation and are supplied (4.1)."""
    from engine.games.bia import ports  # ports builds on this module

    return ports.unsupplied(board, state, side)
