"""Port supply capacity (4.2.1, L599-608; 3.4.2, L343-361) and siege supply (advanced
rules 10.1, L1959-1971).

A port of the network (:func:`engine.games.bia.supply.network`) is a supply source for
at most 5 blocks (major) or 1 (minor). A block counts against the ports only when every
supply line it has ends at a port hex: the rail, road and capital hexes of the network
are sources of their own, with no limit (4.2, L678-681; RULINGS B52). The blocks beyond
the capacity are out of supply.

Everything here uses public facts (positions, control, tokens) and the side's own
blocks, so the supply it finds leaks nothing (digest 4.3).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.games.bia import supply
from engine.games.bia.board import Board
from engine.games.bia.state import BlockState, State


def capacity(board: Board, h: str) -> int:
    """The blocks a port supplies (4.2.1, L599-608): 5 for a major port, 1 for a minor."""
    return board.pack.tables.ports[board.hex(h).port].supply_units


def unsupplied(board: Board, state: State, side: str) -> list[str]:
    """The blocks of ``side`` on the map out of supply (4.3 and 4.2.1), in id order.

    A block on a supply line from a rail, road or capital source is supplied. One whose
    every line ends at port hexes takes a place at one of those ports (RULINGS B52); the
    places are given first to the blocks with the fewest ports to choose from, then in
    token order (tokens are drawn at random and public, RULINGS B1), each port taking
    its capacity; a block left without a place is out of supply."""
    blocks = sorted(state.on_map(side), key=lambda b: b.id)
    land: dict[str, set[str]] = {}
    by_port: dict[str, dict[str, set[str]]] = {}
    out: list[str] = []
    wanting: list[tuple[BlockState, list[str]]] = []
    barred = supply.enemy_presence(board, state, side)
    for b in blocks:
        power = board.block(b.id).power
        if power not in land:
            srcs = supply.sources(board, state, power)
            rest = {h: n for h, n in srcs.items() if h not in board.ports}
            land[power] = supply.supplied_hexes(board, state, power, rest, barred)
            by_port[power] = {
                h: supply.supplied_hexes(board, state, power, {h: n}, barred)
                for h, n in srcs.items() if h in board.ports
            }  # fmt: skip
        if b.at in land[power]:
            continue
        reach = sorted(h for h, hexes in by_port[power].items() if b.at in hexes)
        if reach:
            wanting.append((b, reach))
        else:
            out.append(b.id)
    room = {h: capacity(board, h) for _, reach in wanting for h in reach}
    for b, reach in sorted(wanting, key=lambda x: (len(x[1]), x[0].token)):
        port = next((h for h in reach if room[h] > 0), None)
        if port is None:
            out.append(b.id)
        else:
            room[port] -= 1
    return sorted(out)


def siege_places(board: Board, state: State, side: str) -> dict[str, int]:
    """The besieged hexes of ``side`` where blocks may be in siege supply, with how many
    (AR 10.1, L1959-1963): its ports (1 in a minor port, 4 in a major one) and the
    capitals of its powers (4), each completely surrounded by enemy units or ZOC
    (:func:`engine.games.bia.supply.besieged`). Mulberries are not in BIA (RULINGS B54)."""
    out: dict[str, int] = {}
    held = {b.at for b in state.on_map(side)}
    for h in sorted(held):
        if h in board.ports:
            n = board.pack.tables.ports[board.hex(h).port].siege_supply_units
        elif any(h in board.main_sources(p) for p in _powers_at(board, state, side, h)):
            n = board.pack.tables.ports["major"].siege_supply_units
        else:
            continue
        if state.control.get(h) == side and supply.besieged(board, state, h, side):
            out[h] = n
    return out


def _powers_at(board: Board, state: State, side: str, h: str) -> set[str]:
    return {board.block(b.id).power for b in state.at_hex(h) if b.side == side}


def in_siege_supply(board: Board, state: State, side: str, oos: list[str]) -> set[str]:
    """Of the blocks ``oos`` (out of supply), those in siege supply (AR 10.1, only with
    the option ``advanced``): in a besieged port of their side, or in a besieged capital
    of their own power, up to the place's number, in token order (RULINGS B55)."""
    if not state.options.get("advanced"):
        return set()
    out: set[str] = set()
    places = siege_places(board, state, side)
    for h, n in places.items():
        here = sorted(
            (state.blocks[i] for i in oos if state.blocks[i].at == h), key=lambda b: b.token
        )
        if h not in board.ports:  # a capital shelters its own power's blocks only
            here = [b for b in here if h in board.main_sources(board.block(b.id).power)]
        out |= {b.id for b in here[:n]}
    return out
