"""The Supreme Leaders' Action Points (advanced rules, set-up option ``advanced``).

BIA plays four Supreme Leaders as abstract HQs off the map (L393-403, L1994-2004):
Mussolini in Rome with 3 AP, Hitler and Goering in Berlin with 2 and 1, Churchill in
London with 4. Each AP buys one action (3.15 L540-545; 11.2 L2094-2098), and a Supreme
Leader takes at most one action of each kind in a turn (L1940-1951): fuel an armoured
unit, fuel an air unit, move an unsupplied unit, a free SRM (7.4, L1227, L1279-1280), a
Sea Transport (L1409-1410), put a ground unit in reserve.

Written so far: the Sea Transport, Reserve Mode, the SRM (:mod:`engine.games.bia.srm`, ``rail
BLOCK HEX LEADER``) and moving an unsupplied unit as if in supply (``move BLOCK HEX...
LEADER``, L1944-1946; RULINGS B81), and fuel (``fuel BLOCK LEADER``, L1943-1945:
:mod:`engine.games.bia.fuel`, RULINGS B78). Under ``advanced`` each Sea Transport a
leader commands takes an AP of that leader (a crossing from a home box takes two, its SRM
and its sea leg, L1121-1124, L1135-1137, L1191-1194); ``reserve BLOCK`` in the Movement
Phase takes one to hold a TECH 2 ground unit back for the Exploitation Phase (16.0
Motorization, L2428-2446; RULINGS B62; :mod:`engine.games.bia.reserve`, with the armoured
HQs' reserves). The SRM of phase 4 is paid with a yellow PP or
with an AP (7.4, L1227, L1279-1280; RULINGS B80). Hitler, the German FHQ, may command an Axis ally's
unit too, never the reverse (11.8, L2205-2221). Goering commands German air units only
(L1987-1992). The abstract leaders are active in every turn of their side and lose no
step by it (RULINGS B60).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import private
from engine.games.bia.board import Board
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.movement import allowance, as_supplied, destinations, is_ground
from engine.games.bia.orders import Move
from engine.games.bia.state import BlockState, State

#: the abstract leaders' names; their AP and powers are the pack's (``units.leaders``,
#: checked against L400-403 and L2001-2004 when the pack loads)
NAMES = {
    "mussolini": "Mussolini",
    "hitler": "Hitler",
    "goering": "Goering",
    "churchill": "Churchill",
}
#: the leader of a power's own units; the Free French brigade counts as British (L405-408)
OWN_LEADER = {
    "italy": "mussolini",
    "germany": "hitler",
    "uk": "churchill",
    "free_france": "churchill",
}
#: the kinds of action a Supreme Leader takes at most once a turn (L1940-1951)
KIND_NAMES = {
    "fuel_armour": "fuelling an armoured unit",
    "fuel_air": "fuelling an air unit",
    "oos_move": "moving an unsupplied unit",
    "srm": "an SRM",
    "sea": "a Sea Transport",
    "reserve": "a Reserve Mode",
}


def playing(state: State) -> bool:
    """The advanced rules are played: the Supreme Leaders' AP (11.0-11.3), the HQs and fuel
    (11.0-11.10) and Reserve Mode (16.0) with them."""
    return bool(state.options.get("advanced"))


def name(leader: str) -> str:
    return NAMES.get(leader, leader.title())


def ap_left(board: Board, state: State, leader: str) -> int:
    """AP the leader has left this turn: its AP less the actions it took (L1994-2004)."""
    return board.pack.units.leaders[leader].ap - len(state.leader_ap.get(leader, []))


def can(board: Board, state: State, leader: str, kinds: tuple[str, ...]) -> bool:
    """Whether the leader may take these actions now: an AP for each, and none of a kind
    it took this turn (L1940-1951)."""
    done = state.leader_ap.get(leader, [])
    return ap_left(board, state, leader) >= len(kinds) and not set(kinds) & set(done)


def leaders_for(board: Board, power: str, is_air: bool) -> list[str]:
    """The Supreme Leaders who may command a unit of ``power``, its own first: Hitler for
    any Axis ally too (11.8, L2205-2221), Goering for a German air unit (L1987-1992)."""
    out = []
    own = OWN_LEADER.get(power)
    if own:
        out.append(own)
    if is_air and power == "germany":
        out.append("goering")
    if power != "germany" and board.side_of_power(power) == "axis":
        out.append("hitler")
    return out


def commander(
    board: Board, state: State, power: str, is_air: bool, kinds: tuple[str, ...]
) -> str | None:
    """The first leader able to take these actions for a unit of ``power``; None when
    no leader of the power may (or the power has none: then ``has_leader`` is False)."""
    for leader in leaders_for(board, power, is_air):
        if leader == "goering" and not set(kinds) <= {"srm", "fuel_air"}:
            continue  # Goering fuels an air unit or makes an SRM, nothing else (L1987-1992)
        if can(board, state, leader, kinds):
            return leader
    return None


def has_leader(board: Board, power: str, is_air: bool) -> bool:
    return bool(leaders_for(board, power, is_air))


def spend(state: State, leader: str, kinds: tuple[str, ...]) -> None:
    state.leader_ap.setdefault(leader, []).extend(kinds)


def why_not(board: Board, state: State, power: str, is_air: bool, kinds: tuple[str, ...]) -> str:
    """One sentence saying why no leader may take these actions."""
    what = " and ".join(KIND_NAMES[k] for k in kinds)
    who = leaders_for(board, power, is_air)
    parts = []
    for leader in who:
        done = [KIND_NAMES[k] for k in state.leader_ap.get(leader, []) if k in kinds]
        left = ap_left(board, state, leader)
        if done:
            parts.append(f"{name(leader)} already spent an AP on {' and '.join(done)} this turn")
        else:
            parts.append(f"{name(leader)} has {left} AP left")
    return (
        f"No Supreme Leader can spend an AP on {what} ({'; '.join(parts)}): each AP buys one "
        "action and a leader takes one action of each kind a turn (L1940-1951)."
    )


# -- moving an unsupplied unit as if in supply (L1944-1946) ------------------------------------

RULE_OOS_MOVE = "BIA 11.1"


def check_oos_move(ctx: Ctx, b: BlockState, order: Move) -> int:
    """A Supreme Leader's action "move 1 OOS unit as if it was in supply" (L1944-1946;
    RULINGS B81), option ``advanced``: in the Movement Phase, an AP of a leader commanding
    the unit (11.8, L2205-2221; Goering never, L1987-1992), his one action of that kind a
    turn (L1940-1951), moves one ground unit under the white barrel with the MP it would
    have in supply: the supply halving of 4.4 (L691-695) goes, the fuel halving of 11.10
    stays (fuelling is another action, L1941-1943). It stays out of supply for everything
    else: it attacks no one (4.4, L695-696) and still faces the Final Supply Check.
    Returns its Movement Points. Changes nothing."""
    s, board = ctx.state, ctx.board
    if not playing(s):
        raise refuse(
            RULE_OOS_MOVE,
            "Moving an unsupplied unit for a Supreme Leader's AP is an advanced rule; this "
            "game plays the basic rules.",
        )
    if s.phase != "movement":
        raise refuse(
            RULE_OOS_MOVE,
            "A Supreme Leader's AP moves an unsupplied unit in the Movement Phase only "
            "(RULINGS B81).",
        )
    leader = (order.by or "").lower()
    if leader not in NAMES:
        raise refuse(
            RULE_OOS_MOVE,
            f"{order.by!r} is no Supreme Leader: name {', '.join(NAMES)} after the hexes.",
        )
    if not b.oos:
        raise refuse(
            RULE_OOS_MOVE,
            f"{ctx.name(b)} is in supply: it moves its full MP without a leader's AP.",
        )
    block = board.block(b.id)
    if leader == "goering" or leader not in leaders_for(board, block.power, False):
        raise refuse(
            "BIA 11.8",
            f"{name(leader)} does not command {ctx.name(b)}: a Supreme Leader commands his "
            "own power's ground units, Hitler an Axis ally's too, Goering none (L1987-1992, "
            "L2205-2221).",
        )
    if not can(board, s, leader, ("oos_move",)):
        raise refuse(
            "BIA 11.2",
            f"{name(leader)} cannot move an unsupplied unit now: he has "
            f"{ap_left(board, s, leader)} AP left and moves one such unit a turn (L1940-1951).",
        )
    return allowance(board, s, as_supplied(b))


def spend_oos_move(ctx: Ctx, b: BlockState, order: Move) -> None:
    """Spend the leader's AP of :func:`check_oos_move`; every reader learns which leader
    paid and the token, as for his other actions (RULINGS B60)."""
    leader = (order.by or "").lower()
    spend(ctx.state, leader, ("oos_move",))
    ctx.events.append(
        private(
            "oos_move",
            f"{name(leader)} spends 1 AP: {ctx.name(b)} moves as if in supply.",
            (b.side,),
            f"{name(leader)} spends 1 AP: {b.token} moves as if in supply.",
            token=b.token,
        )
    )


def oos_move_orders(ctx: Ctx) -> list[Move]:
    """The moves of unsupplied units that need a leader's AP (those beyond their halved
    MP), paid by the first leader who can (11.8 order)."""
    s, board = ctx.state, ctx.board
    if not playing(s) or s.phase != "movement":
        return []
    out: list[Move] = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if not b.oos or b.id in s.moved or b.id in s.reserve:
            continue
        block = board.block(b.id)
        if not is_ground(block):
            continue
        leader = commander(board, s, block.power, False, ("oos_move",))
        if leader is None or leader == "goering":
            continue
        plain = {o.path[-1] for o in destinations(ctx, b)}
        out += [o for o in destinations(ctx, b, by=leader) if o.path[-1] not in plain]
    return out
