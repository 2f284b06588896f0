"""The Blocks in Afrika ruleset: whose decision it is, which orders are legal, and applying
one (ARCHITECTURE: The rules contract).

The turn follows 7.0 (L984-1005): Weather, then the Axis phases 1-10, then the Allied
phases 1-10, then the Victory Phase. ``settle`` runs every phase that needs no decision
until the game waits on a player. Done so far: Weather (7.0 A), Supply (7.2), Movement
(7.5, ground movement), the reinforcements and removals of Production (7.3.2-7.3.4), the
reveal that opens Combat (7.7), Final Supply Status (7.9) and the scenario victory check at the
end of the last turn (7.11). The other phases are passed through without effect until
they are written (see the module list in RULINGS.md).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.bia import combat, movement, production, supply
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, TOKEN_TAG, Board
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Done, Move, load_order, parse_order
from engine.games.bia.state import PHASES, BlockState, State
from engine.games.bia.view import BiaView, view

PHASE_NAMES = {
    "strategic_warfare": "Strategic Warfare (phase 1)",
    "supply": "Supply (phase 2)",
    "production": "Production (phase 3)",
    "srm": "Strategic Rail Movement (phase 4)",
    "movement": "Movement (phase 5)",
    "reaction": "Defender Reaction (phase 6)",
    "combat": "Combat (phase 7)",
    "blitz": "Blitz (phase 8)",
    "final_supply": "Final Supply Status (phase 9)",
    "exploitation": "Armor Exploitation (phase 10)",
    "over": "Game over",
}
#: the phases that take orders; the others run by themselves
DECISION_PHASES = {"movement"}


class BlocksInAfrika:
    id = "bia"
    title = "Blocks in Afrika"

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board()
        return self._board

    # -- set-up ----------------------------------------------------------------

    def scenarios(self) -> list[Scenario]:
        return [
            Scenario(id=s.id, title=s.name, description=f"{s.dates}. {s.victory.text}")
            for s in self.board.pack.scenarios.scenarios
            if s.kind == "land"
        ]

    def roles(self, scenario: str) -> list[str]:
        return [AXIS, ALLIED]

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        """Set a scenario up from the pack (2.0; Scenario Booklet): its blocks on their
        hexes at their steps, the countries each side controls (and the hexes its ground
        units hold, 3.3 L247-254), and the first turn.
        Every block gets a public token, numbered per nation in an order drawn with the
        dice so that no token tells which block it is (RULINGS B1)."""
        ids = [s.id for s in self.scenarios()]
        if scenario not in ids:
            raise IllegalOrder(
                "",
                f"There is no land scenario {scenario!r}.",
                f"The scenarios are: {', '.join(ids)}.",
            )
        b = self.board
        sc = b.pack.scenario(scenario)
        state = State(
            scenario=scenario,
            options=dict(options or {}),
            pack_version=b.version,
            turn=sc.first_turn,
            last_turn=sc.last_turn,
        )
        for p in sc.setup:
            where, at = ("box", p.hex[4:]) if p.hex.startswith("box:") else ("map", p.hex)
            edge = _edge(b, p.unit, p.steps)
            state.blocks[p.unit] = BlockState(p.unit, p.side, where, at, edge)
        for r in sc.reinforcements:
            if r.unit not in state.blocks:
                side = b.side_of_power(b.block(r.unit).power)
                edge = _edge(b, r.unit, r.steps)
                state.blocks[r.unit] = BlockState(r.unit, side, "pool", None, edge)
        # 64 bits drawn with the dice: too many to try them all against the tokens seen
        salt = ":".join(str(dice.roll(1 << 16, "token order")) for _ in range(4))
        counts: dict[str, int] = {}
        for bs in sorted(
            state.blocks.values(),
            key=lambda x: hashlib.sha256(f"{salt}|{x.id}".encode()).hexdigest(),
        ):
            tag = TOKEN_TAG.get(b.block(bs.id).power, "XX")
            counts[tag] = counts.get(tag, 0) + 1
            bs.token = f"{tag}-{counts[tag]:02d}"
        for h in b.pack.map.hexes:
            if not b.is_land(h.id):
                continue
            side = sc.hex_control.get(h.id) or sc.control.get(h.country or "")
            if side in (AXIS, ALLIED):
                state.control[h.id] = side
        for h in sorted({x.at for x in state.on_map()}):
            sides = {x.side for x in state.at_hex(h) if movement.is_ground(b.block(x.id))}
            if len(sides) == 1 and sides <= {AXIS, ALLIED}:
                state.control[h] = sides.pop()  # RULINGS B2: who stands there holds it
        state.phase = "strategic_warfare"
        ctx = Ctx(b, state, dice)
        settle(ctx)
        return state

    # -- questions -------------------------------------------------------------

    def datapack_version(self) -> str:
        return self.board.version

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.turn, player=state.player, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        return Result(winner=state.winner, level="victory", text=state.result_text)

    def prompt(self, state: State) -> Prompt:
        s = state
        base = {"turn": s.turn, "phase": s.phase}
        if s.phase == "over":
            return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
        name = SIDE_NAME[s.player]
        return Prompt(
            role=s.player,
            kind="move",
            verbs=["move", "done"],
            text=f"Turn {s.turn}, {name} Movement: move your blocks ('move BLOCK HEX...'), then 'done'.",
            **base,
        )

    def view(self, state: State, role: str | None) -> BiaView:
        return view(self.board, state, role)

    # -- orders ----------------------------------------------------------------

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        ctx = Ctx(self.board, state, _NoDice())
        out: list[Order] = []
        for b in sorted(state.on_map(p.role), key=lambda b: b.id):
            out.extend(movement.destinations(ctx, b))
        out.append(Done())
        return out

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        p = self.prompt(state)
        check_turn(
            p,
            role,
            order.verb,
            sequence_rule="BIA 7.0",
            end_rule="BIA 7.11",
            step=PHASE_NAMES[state.phase],
            role_name=lambda r: SIDE_NAME.get(r, r),
        )
        ctx = Ctx(self.board, state.clone(), dice)
        if isinstance(order, Move):
            movement.apply_move(ctx, order)
            _keep_order_private(ctx, role, order)
        elif isinstance(order, Done):
            ctx.events.append(Event("done", f"{SIDE_NAME[role]} ends {PHASE_NAMES[state.phase]}."))
            next_phase(ctx)
            settle(ctx)
        else:  # pragma: no cover - check_turn admits only the verbs above
            raise refuse("BIA 7.0", f"'{order.verb}' is not taken now.")
        return ctx.state, ctx.events

    # -- storage and checks ------------------------------------------------------

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        """Every block on the map stands on a playable land hex on one of its edges, and
        every block has one token; empty when all is well."""
        b = self.board
        out = []
        for x in state.blocks.values():
            if x.where == "map" and not b.is_land(x.at or ""):
                out.append(f"{x.id} stands on {x.at}, which is not a playable land hex.")
            if x.where == "map" and not 0 < x.steps <= len(b.block(x.id).track):
                out.append(f"{x.id} has {x.steps} steps.")
        tokens = [x.token for x in state.blocks.values()]
        if len(set(tokens)) != len(tokens) or not all(tokens):
            out.append("Two blocks share a token, or a block has none.")
        return out


def _edge(board: Board, block_id: str, value: int) -> int:
    """The position on its track (1 = weakest edge) of the edge a block stands on when the
    scenario gives its printed value (3.14, L535-545): the strongest edge of that value."""
    values = board.block(block_id).values()
    return max(i for i, v in enumerate(values) if v == value) + 1


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:
        raise AssertionError(f"no dice while listing legal orders ({purpose})")


def _keep_order_private(ctx: Ctx, role: str, order: Move) -> None:
    """A move order names the block: the mover reads it whole, everyone else reads it
    with the block's public token instead (1.3; ARCHITECTURE: the log is a view)."""
    b = ctx.state.blocks.get(order.block) or ctx.state.by_token(order.block.upper())
    shown = f"move {b.token} {' '.join(order.path)}"
    ctx.events.insert(0, private(ORDER, order.text(), (role,), shown))


# -- the sequence of play (7.0) -----------------------------------------------------


def next_phase(ctx: Ctx) -> None:
    """Step to the next phase of 7.0: after a side's phase 10 comes the other side's
    phase 1, and after the Allied phase 10 the Victory Phase and a new turn."""
    s = ctx.state
    if s.phase == "movement":
        s.moved = []
    i = PHASES.index(s.phase)
    if i + 1 < len(PHASES):
        s.phase = PHASES[i + 1]
        return
    s.battles = []
    if s.player == AXIS:
        s.player, s.phase = ALLIED, PHASES[0]
        return
    victory_phase(ctx)


def settle(ctx: Ctx) -> None:
    """Run every phase that takes no decision, until one does or the game ends."""
    s = ctx.state
    while s.phase != "over" and s.phase not in DECISION_PHASES:
        if s.phase == "supply":
            supply_phase(ctx)
        elif s.phase == "production":
            production.removals(ctx)
            production.reinforcements(ctx)
        elif s.phase == "combat":
            combat.reveal_battles(ctx)
        elif s.phase == "final_supply":
            final_supply_phase(ctx)
        next_phase(ctx)


def supply_phase(ctx: Ctx) -> None:
    """7.2 (L1018-1021): the phasing side's blocks that trace no supply line (4.3) get the
    white barrel; the others lose it. The barrel is public (digest 4.2): the others
    read the tokens of the blocks under it."""
    s, side = ctx.state, ctx.state.player
    oos = set(supply.out_of_supply(ctx.board, s, side))
    for b in s.on_map(side):
        b.oos = b.id in oos
    blocks = sorted((s.blocks[i] for i in oos), key=lambda b: b.token)
    if not blocks:
        ctx.events.append(
            Event("supply", f"Supply: every {SIDE_NAME[side]} block on the map is in supply.")
        )
        return
    ctx.events.append(
        private(
            "supply",
            f"Supply: out of supply: {', '.join(ctx.name(b) for b in blocks)}.",
            (side,),
            f"Supply: {SIDE_NAME[side]} blocks out of supply: {', '.join(b.token for b in blocks)}.",
            tokens=[b.token for b in blocks],
        )
    )


def final_supply_phase(ctx: Ctx) -> None:
    """7.9 (L1891-1896): each block of the phasing side with a white barrel is checked
    again. Back in supply: the barrel goes. Still out: it surrenders and leaves the map
    (4.5), except static infantry, which stays (4.4.1, L703-706), and a block with a
    0-step edge, which drops to it and stays (L738-740, L1833-1835). Then every block
    turned face up by a battle or a recon stands up again (L2416-2417)."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    marked = [b for b in s.on_map(side) if b.oos]
    if marked:
        still = set(supply.out_of_supply(board, s, side))
        for b in sorted(marked, key=lambda b: b.token):
            block = board.block(b.id)
            if b.id not in still:
                b.oos = False
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} is back in supply.",
                        (side,),
                        f"Final supply: {b.token} is back in supply.",
                    )
                )
            elif block.kind == "static":
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} stays out of supply; static infantry never surrenders.",
                        (side,),
                        f"Final supply: {b.token} stays out of supply.",
                    )
                )
            elif block.track[0][0] == 0:
                b.steps = 1
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} stays out of supply and drops to its 0-step edge.",
                        (side,),
                        f"Final supply: {b.token} stays out of supply.",
                    )
                )
            else:
                where = b.at
                b.where, b.at, b.oos = "dead", None, False
                ctx.events.append(
                    private(
                        "surrender",
                        f"Final supply: {ctx.name(b)} is still out of supply at {where} and surrenders.",
                        (side,),
                        f"Final supply: {b.token} is still out of supply at {where} and surrenders.",
                    )
                )
    for b in s.blocks.values():
        b.revealed = False


def victory_phase(ctx: Ctx) -> None:
    """7.11 (L1859-1869): at the end of the scenario's last turn its victory conditions
    are read against hex control; otherwise a new turn begins with the Weather, which is
    always good in BIA (7.0 A, L993-994)."""
    s, sc = ctx.state, ctx.board.pack.scenario(ctx.state.scenario)
    if s.turn < s.last_turn:
        s.turn += 1
        s.player, s.phase = AXIS, PHASES[0]
        ctx.events.append(Event("turn", f"Turn {s.turn} begins. Weather: good (7.0 A)."))
        return
    winner: str | None = None
    for rule in sc.victory.rules:
        held = {h for h, side in s.control.items() if side == rule.side}
        ok = (not rule.all or all(h in held for h in rule.all)) and (
            not rule.any or any(h in held for h in rule.any)
        )
        if rule.at_least is not None:
            ok = ok and sum(h in held for h in rule.of) >= rule.at_least
        if ok:
            winner = rule.side
            break
    if winner is None and sc.victory.otherwise in (AXIS, ALLIED):
        winner = sc.victory.otherwise
    s.winner = winner
    s.phase = "over"
    s.result_text = (
        f"{SIDE_NAME[winner]} victory. {sc.victory.text}"
        if winner
        else f"A draw. {sc.victory.text}"
    )
    ctx.events.append(Event("result", s.result_text))
