"""Production Points: each power's stock, its monthly income, what steps cost, what
surrender and conquest bring, and the AFRIKA depots lost with the last major port (3.5,
3.10, 4.5, 5.1, 7.1, 7.3, 7.4).

A power's stock is ``state.pp[power]``: colour -> PP held (yellow, red, blue, white, oil).
One stock per power stands for both its Main Supply Source and its AFRIKA Depot
(RULINGS B31). The stock is its owner's to see (digest 4.2); income is public.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event, private
from engine.games.bia.board import SIDE_NAME, Board
from engine.games.bia.context import Ctx
from engine.games.bia.pack import Block
from engine.games.bia.state import State

#: the colours in the order a hit or a shortfall takes them when no choice applies
COLOURS = ("yellow", "red", "blue", "white", "oil")


def show(pp: dict[str, int]) -> str:
    """``3 yellow and 1 red``, as a player reads it in a line; ``0`` when empty."""
    parts = [f"{pp[c]} {c}" for c in COLOURS if pp.get(c)]
    if len(parts) > 1:
        return f"{', '.join(parts[:-1])} and {parts[-1]}"
    return parts[0] if parts else "0"


# -- who pays --------------------------------------------------------------------------


def leader(board: Board, state: State, side: str) -> str | None:
    """The major power of a side with the largest yellow income in the scenario (the
    first listed on a tie): it pays for its side's powers with no income of their own
    and collects the side's gains (RULINGS B32)."""
    income = board.pack.scenario(state.scenario).income
    majors = [
        p for p in income
        if board.side_of_power(p) == side and board.pack.units.powers[p].major
    ]  # fmt: skip
    if not majors:
        return next((p for p in income if board.side_of_power(p) == side), None)
    return max(majors, key=lambda p: (income[p].get("yellow", 0), -list(income).index(p)))


def payer(board: Board, state: State, power: str) -> str | None:
    """The power whose stock pays for a block of ``power``: its own when the scenario
    gives it an income, else its side's leader (RULINGS B32)."""
    if power in board.pack.scenario(state.scenario).income:
        return power
    return leader(board, state, board.side_of_power(power))


# -- what a step costs -------------------------------------------------------------------


def step_cost(board: Board, block: Block, edge: int) -> dict[str, int] | None:
    """7.3.1 (L1054-1158): the PP that buy a block's ``edge`` (1 = its weakest). Black
    costs 1 yellow, white 2, red 3; a blue edge cannot be bought (L1059). Armour pairs
    every yellow PP with a red one, air and para units with blue, navy and marines with
    white, HQs with oil (L1092-1119); motorized infantry pairs its first and last edges
    with red (L1146-1158). The Italian motorized units' fourth edge is never built in BIA
    (L1060-1061). None for an edge that cannot be bought."""
    t = board.pack.tables
    colour = block.track[edge - 1][1]
    yellow = t.edge_cost_ypp.get(colour)
    if yellow is None or (block.italian_mot and edge == 4):
        return None
    if block.kind == "motorized":
        pair = "red" if edge in t.motorized_edges_paired_red else None
    elif block.kind.endswith("hq"):
        pair = "oil"
    else:
        pair = t.pairing.get(block.kind, t.pairing.get(block.unit_class))
    return {"yellow": yellow, pair: yellow} if pair else {"yellow": yellow}


def full_cost(board: Board, block: Block) -> dict[str, int] | None:
    """The cost of every edge of a block, weakest to full (the totals of L1065-1158)."""
    out: dict[str, int] = {}
    for edge in range(1, len(block.track) + 1):
        cost = step_cost(board, block, edge)
        if cost is None:
            return None
        for c, n in cost.items():
            out[c] = out.get(c, 0) + n
    return out


def can_pay(state: State, power: str | None, cost: dict[str, int]) -> bool:
    stock = state.pp.get(power or "", {})
    return power is not None and all(stock.get(c, 0) >= n for c, n in cost.items())


def pay(state: State, power: str, cost: dict[str, int]) -> None:
    stock = state.pp.setdefault(power, {})
    for c, n in cost.items():
        stock[c] = stock.get(c, 0) - n


def credit(state: State, power: str, gain: dict[str, int]) -> None:
    stock = state.pp.setdefault(power, {})
    for c, n in gain.items():
        stock[c] = stock.get(c, 0) + n


# -- income, storage, gains ---------------------------------------------------------------


def collect_income(ctx: Ctx) -> None:
    """7.3 (L1029-1033), 7.1 (L1007-1016), 3.16 (L556-558): at the start of its Production
    Phase each power of the phasing side receives the scenario's income, less the PP
    Strategic Warfare took this turn and the fixed TECH deduction of a major power. In the
    Axis turn every hit takes 1 PP from Italy and 1 from Germany (L1011-1012: "BOTH");
    in the Allied turn 1 PP from the British (L1015-1016). Each hit takes the colour of
    the Allied standing order ``warfare`` while the income has it, then yellow, red,
    blue, white, oil (RULINGS B30). Income never drops below 0."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    sc = board.pack.scenario(s.scenario)
    hits = s.pp_lost.get(side, 0)
    first = s.standing.get("allied", {}).get("warfare", "yellow")
    for power, income in sc.income.items():
        if board.side_of_power(power) != side:
            continue
        got = dict(income)
        lost: dict[str, int] = {}
        for _ in range(hits if board.pack.units.powers[power].major else 0):
            c = next((c for c in (first, *COLOURS) if got.get(c, 0) > 0), None)
            if c is not None:
                got[c] -= 1
                lost[c] = lost.get(c, 0) + 1
        tech = board.pack.tables.tech_deduction_ypp.get(power, 0)
        got["yellow"] = max(0, got.get("yellow", 0) - tech)
        credit(s, power, got)
        name = board.pack.units.powers[power].name
        text = f"{name} receives {show(got)} PP"
        if lost:
            text += f" (Strategic Warfare took {show(lost)})"
        if tech:
            text += f" (TECH deduction {tech}Y)"
        ctx.events.append(Event("income", f"{text} (7.3).", {"power": power}))


def store(ctx: Ctx) -> None:
    """7.3.1 (L1034-1039), 3.10 (L496-503): at the end of the Production Phase a power
    keeps each coloured PP only beside a yellow one; the coloured PP beyond its yellow
    are discarded, oil first, then white, blue and red (RULINGS B31)."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    for power in sorted(s.pp):
        if board.side_of_power(power) != side:
            continue
        stock = s.pp[power]
        room = stock.get("yellow", 0)
        lost: dict[str, int] = {}
        for c in ("red", "blue", "white", "oil"):
            keep = min(stock.get(c, 0), room)
            room -= keep
            if stock.get(c, 0) > keep:
                lost[c] = stock[c] - keep
                stock[c] = keep
        if lost:
            ctx.events.append(
                private(
                    "store",
                    f"{board.pack.units.powers[power].name} discards {show(lost)} PP: coloured PP "
                    "are kept only beside a yellow one (7.3.1).",
                    (side,),
                )
            )


def surrender_gain(board: Board, block: Block) -> dict[str, int]:
    """4.5 (L714-723): 1 yellow PP for any unit, and 1 red for armour, 1 blue for air and
    para, 1 white for marines and navy, 1 oil for an HQ (an armoured HQ is an HQ here,
    RULINGS B33)."""
    t = board.pack.tables.surrender_gain
    gain = dict(t["any"])
    key = "hq" if block.kind.endswith("hq") else block.kind if block.kind in t else block.unit_class
    for c, n in t.get(key, {}).items():
        gain[c] = gain.get(c, 0) + n
    return gain


def grant(ctx: Ctx, to_side: str, gain: dict[str, int], why: str) -> None:
    """Credit ``gain`` to the leader of ``to_side`` (RULINGS B32), told to that side."""
    power = leader(ctx.board, ctx.state, to_side)
    if power is None or not gain:
        return
    credit(ctx.state, power, gain)
    ctx.events.append(
        private(
            "pp_gain",
            f"{ctx.board.pack.units.powers[power].name} gains {show(gain)} PP: {why}.",
            (to_side,),
        )
    )


def factories(board: Board, lands: set[str]) -> dict[str, int]:
    """5.1 (L765-766), 3.5 (L316-330): 1 PP of its colour for every factory, shipyard
    and oil centre in the conquered lands (yellow centres are no factories)."""
    out: dict[str, int] = {}
    for h in board.pack.map.hexes:
        if h.country in lands:
            for c, n in h.production.items():
                if c != "yellow" and n:
                    out[c] = out.get(c, 0) + 1
    return out


def view_pp(board: Board, state: State, viewer: str | None, everyone: str) -> dict:
    """The stocks ``viewer`` may see: its own powers' (digest 4.2), all for the audit."""
    return {
        p: dict(v) for p, v in sorted(state.pp.items())
        if viewer == everyone or board.side_of_power(p) == viewer
    }  # fmt: skip


# -- the AFRIKA depots (3.10) -------------------------------------------------------------------

#: the powers with an AFRIKA depot of their own (3.10, L497-498)
DEPOT_POWERS = ("italy", "germany", "uk")


def afrika_major_ports(board: Board) -> list[str]:
    """The major ports of AFRIKA, Africa and the Middle East (L332-351; 3.10 L497): the
    pack's major ports whose country lies in either, Turkey's and Egypt's included."""

    return sorted(h for h in board.ports if board.hex(h).port == "major" and board.in_afrika(h))


def depot_powers(board: Board, state: State, side: str) -> list[str]:
    """The powers of ``side`` in the scenario that have an AFRIKA depot (3.10, L497-498),
    in the order of B32's leader: the largest yellow income first, then as listed."""
    sc = board.pack.scenario(state.scenario)
    mine = [p for p in sc.powers if p in DEPOT_POWERS and board.side_of_power(p) == side]
    return sorted(mine, key=lambda p: (-sc.income.get(p, {}).get("yellow", 0), sc.powers.index(p)))


def take_control(ctx: Ctx, h: str, side: str) -> None:
    """``side`` now controls hex ``h`` (3.3; RULINGS B8). Every change of control in play
    goes through here, so that the fall of an AFRIKA depot is seen at once (3.10)."""
    was = ctx.state.control.get(h)
    ctx.state.control[h] = side
    if was is not None and was != side and ctx.board.hex(h).port == "major":
        depot_falls(ctx, h, was)  # only a major port's fall can take a depot with it


def depot_falls(ctx: Ctx, h: str, loser: str) -> None:
    """3.10 (L504-509; RULINGS B104): when the enemy takes the last AFRIKA major port
    ``loser`` controlled, the AFRIKA depot of each of its depot powers falls with it, at
    once: the power's whole stock goes to the depot of the conquering side's first depot
    power (it has one, holding the port just taken), or is lost when that side has none.
    Everyone reads that the depots fell and where their goods went; the amounts only the
    sides whose stocks change."""
    s, board = ctx.state, ctx.board
    ports = afrika_major_ports(board)
    if h not in ports or any(s.control.get(p) == loser for p in ports):
        return
    winner = s.control[h]
    takers = depot_powers(board, s, winner)
    taker = takers[0] if takers else None
    names = board.pack.units.powers
    for power in depot_powers(board, s, loser):
        stock = s.pp.get(power, {})
        goods = {c: n for c, n in stock.items() if n > 0}
        s.pp[power] = {c: 0 for c in stock}
        head = (f"{names[power].name}'s AFRIKA depot falls with {ctx.where(h)}, the last "
                f"AFRIKA major port of the {SIDE_NAME[loser]} side: its goods")  # fmt: skip
        if taker is not None:
            credit(s, taker, goods)
            tail = f"go to {names[taker].name}'s AFRIKA depot (3.10)."
            readers: tuple[str, ...] = (loser, winner)
        else:
            tail = f"are lost, the {SIDE_NAME[winner]} side having no AFRIKA depot (3.10)."
            readers = (loser,)
        ctx.events.append(
            private(
                "depot",
                f"{head}, {show(goods)} PP, {tail}",
                readers,
                f"{head} {tail}",
                hex=h,
                power=power,
            )
        )
