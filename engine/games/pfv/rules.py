"""The Patton's First Victory ruleset: whose decision it is, which orders are legal, and
applying one (ARCHITECTURE: The rules contract).

The phase handlers live in one module each (``setup``, ``movement``, ``combat``,
``retreat``, ``rebase``, ``replacement``, ``supply``, ``endturn``). This module routes an
order to its handler and then runs every step that needs no decision (``settle``), until
the game waits on a player again.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.pfv import combat, endturn, movement, rebase, replacement, retreat, setup, supply
from engine.games.pfv.board import Board
from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.options import Options
from engine.games.pfv.orders import (
    Advance,
    Air,
    Attack,
    Auto,
    Done,
    Loss,
    Move,
    Place,
    Rebase,
    Rebuild,
    Replace,
    Retreat,
    load_order,
    parse_order,
)  # fmt: skip
from engine.games.pfv.state import ALLIED, AXIS, Piece, State, enemy

PHASE_NAMES = {
    "setup": "Set-up",
    "move": "Movement (phase 1)",
    "combat": "Combat (phases 2-5)",
    "rtb": "Return to Base (phase 6)",
    "replace": "Replacement (phase 7)",
    "patton": "Patton in command",
    "over": "Game over",
}


class PattonsFirstVictory:
    id = "pfv"
    title = "Patton's First Victory: Tunisia 1943"

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        if self._board is None:
            from engine.games.pfv.pack import load_counters, load_map, load_scenario

            self._board = Board(load_map(), load_counters(), load_scenario())
        return self._board

    # -- set-up ----------------------------------------------------------------

    def scenarios(self) -> list[Scenario]:
        return [
            Scenario(
                id="standard",
                title="Tunisia, February-March 1943",
                description="The full game: Allied set-up first, then the Axis (PFV 5).",
            )
        ]

    def roles(self, scenario: str) -> list[str]:
        return [ALLIED, AXIS]

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        if scenario not in {s.id for s in self.scenarios()}:
            raise IllegalOrder(
                "", f"There is no scenario {scenario!r}.", "The scenario is: standard."
            )
        opts = Options.model_validate(options)
        b = self.board
        state = State(scenario=scenario, options=opts.model_dump(), pack_version=b.version)
        state.pieces = {pid: Piece(pid) for pid in sorted(b.counters)}
        state.control = b.initial_control()
        ctx = Ctx(b, opts, state, dice)
        setup.place_fixed(ctx, ALLIED)
        return state

    # -- questions -------------------------------------------------------------

    def datapack_version(self) -> str:
        """The versions of the map, counters and scenario this game is played with."""
        return self.board.version

    def options(self, state: State) -> Options:
        return Options.model_validate(state.options)

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.turn, player=state.player, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if state.winner is None:
            return None
        return Result(winner=state.winner, level="victory", text=state.result_text)

    def prompt(self, state: State) -> Prompt:
        b = self.board
        s = state
        side = s.player
        base = {"turn": s.turn, "phase": s.phase}
        name = SIDE_NAME[side]
        if s.phase == "over":
            return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
        if s.phase == "setup":
            left = setup.unplaced(b, s, side)
            text = (
                f"{name} set-up: place your pieces ({len(left)} left), or 'auto'."
                if left
                else f"{name} set-up is complete: 'done' to finish."
            )
            return Prompt(
                role=side, kind="setup", text=text, verbs=["place", "auto", "done"], **base
            )
        if s.phase == "move":
            return Prompt(
                role=side,
                kind="move",
                text=f"Turn {s.turn}, {name} movement: move pieces, then 'done'.",
                verbs=["move", "done"],
                **base,
            )
        if s.phase == "combat":
            battle = s.battle
            if battle is None:
                verbs = ["attack", "done"] + (["move"] if _breakthrough_pending(s) else [])
                return Prompt(
                    role=side,
                    kind="attack",
                    text=f"Turn {s.turn}, {name} combat: attack with a unit, or 'done'.",
                    verbs=verbs,
                    **base,
                )
            foe = enemy(side)
            if battle.stage == "defender_air":
                ask = f"{SIDE_NAME[foe]} air support? ('air PIECE' or 'air none')"
                air = battle.attacker_air
                return Prompt(
                    role=foe,
                    kind="air",
                    verbs=["air"],
                    **base,
                    text=f"{b.name(battle.attacker)} attacks {battle.target}"
                    f"{' with ' + public_prompt_name(self, s, air, foe) if air else ''}: {ask}",
                    public=f"{b.name(battle.attacker)} attacks {battle.target}"
                    f"{' with ' + public_prompt_name(self, s, air) if air else ''}: {ask}",
                )
            if battle.stage == "loss":
                who = battle.losses_due[0]
                hex_id = battle.attack_hex if who == side else battle.target
                return Prompt(
                    role=who,
                    kind="loss",
                    verbs=["loss"],
                    **base,
                    text=f"The {SIDE_NAME[who]} stack in {hex_id} loses a step: choose the piece ('loss PIECE').",
                )
            if battle.stage == "retreat":
                head = f"{SIDE_NAME[foe]} pieces retreat two hexes from {battle.target}"
                shown = [public_prompt_name(self, s, p) for p in battle.retreating]
                return Prompt(
                    role=foe,
                    kind="retreat",
                    verbs=["retreat"],
                    **base,
                    text=f"{head}: {listing(battle.retreating)} ('retreat PIECE [VIA] HEX').",
                    public=f"{head}: {listing(shown)}.",
                )
            return Prompt(
                role=side,
                kind="advance",
                verbs=["advance"],
                **base,
                text=f"{battle.target} is empty: advance into it ('advance PIECE...') or 'advance none'.",
            )
        if s.phase == "rtb":
            who = s.rebasing
            return Prompt(
                role=who,
                kind="rebase",
                verbs=["rebase"],
                **base,
                text=f"Return to Base: place the {SIDE_NAME[who]} air from the box on free airfields ('rebase AIR HEX').",
            )
        if s.phase == "replace":
            return Prompt(
                role=side,
                kind="replace",
                verbs=["rebuild", "replace", "done"],
                **base,
                text=f"{name} replacements ({s.replacements_left} left): 'rebuild PIECE', 'replace PIECE HEX' or 'done'.",
            )
        piece = s.to_place[0]
        return Prompt(
            role=ALLIED,
            kind="place",
            verbs=["place"],
            **base,
            text=f"Patton is in command: place {b.name(piece)} ('place {piece} HEX').",
        )

    # -- orders ----------------------------------------------------------------

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        ctx = Ctx(self.board, self.options(state), state, _NoDice())
        return list(_enumerate(ctx, p))

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        p = self.prompt(state)
        check_turn(
            p,
            role,
            order.verb,
            sequence_rule="PFV 7",
            end_rule="PFV 4",
            step=PHASE_NAMES[state.phase],
            role_name=lambda r: SIDE_NAME.get(r, r),
        )
        ctx = Ctx(self.board, self.options(state), state.clone(), dice, before=state)
        _dispatch(ctx, p.kind, order)
        settle(ctx)
        ctx.finish()
        _keep_order_private(ctx, p.kind, role, order)
        return ctx.state, ctx.events

    # -- state -----------------------------------------------------------------

    def view(self, state: State, role: str | None):  # -> HexMapView
        from engine.games.pfv.view import build_view

        return build_view(self, state, role)

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        """Broken invariants: over-stacking at rest, pieces in two places, bad locations."""
        b = self.board
        out = []
        for pid, p in state.pieces.items():
            if (p.where == "map") != (p.hex is not None):
                out.append(f"{pid}: location {p.where} with hex {p.hex}")
            if p.where == "map" and p.hex not in b.map.hex:
                out.append(f"{pid}: on hex {p.hex}, which is not on the map")
            if p.reduced and b.counter(pid).back is None:
                out.append(f"{pid}: reduced but has no reduced side")
        if state.phase not in ("move", "setup"):
            for h, pieces in b.stacks(state).items():
                flown = (
                    {state.battle.attacker_air, state.battle.defender_air}
                    if state.battle
                    else set()
                )
                why = b.stacking_problem([p for p in pieces if p not in flown])
                if why:
                    out.append(f"{h} is over-stacked: {why}")
                sides = {b.side(p) for p in pieces}
                if len(sides) > 1:
                    out.append(f"{h} holds pieces of both sides")
        if state.replacements_left < 0:
            out.append("negative replacement capacity")
        return out


ORDER_PIECE_FIELDS = ("piece", "pieces", "unit", "air")


def _keep_order_private(ctx: Ctx, kind: str, role: str, order: Order) -> None:
    """An order that names a piece some side may not see is read whole only by the sides
    that see all it names; the others read it with that piece left out (PFV 6, L70;
    ARCHITECTURE: the log is a view). A support asset placed at set-up is never named to
    the other side (RULINGS R38)."""
    data = order.to_dict()
    named: list[str] = []
    for key in ORDER_PIECE_FIELDS:
        value = data.get(key)
        for pid in value if isinstance(value, list) else [value]:
            if isinstance(pid, str) and pid in ctx.board.counters:
                named.append(pid)
    setup_support = kind == "setup" and any(not ctx.board.is_unit(p) for p in named)
    readers = (role,) if setup_support else ctx.readers(named)
    if readers is None:
        return
    text = order.text()
    shown = text
    for pid in named:
        if setup_support or not ctx.sees(None, pid):
            shown = re.sub(rf"(?<![\w*]){re.escape(pid)}(?![\w*])", "(hidden)", shown)
    ctx.events.insert(0, private(ORDER, text, readers, shown))


def public_prompt_name(
    rules: PattonsFirstVictory, state: State, pid: str, audience: str | None = None
) -> str:
    """A piece named in a prompt as ``audience`` (the public by default) may read it: the
    attacker's air, flown in under its unit, is named to the defender only if he could
    look under that stack (PFV 6, L70; RULINGS R38)."""
    from engine.games.pfv.view import sees_piece

    b = rules.board
    if sees_piece(b, rules.options(state).open_information, state, audience, pid):
        return b.name(pid)
    return f"an {SIDE_NAME[b.side(pid)]} support asset"


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:
        raise AssertionError("listing legal orders never rolls dice")


def _breakthrough_pending(s: State) -> bool:
    return any(v == "eligible" for v in s.breakthrough.values())


def _dispatch(ctx: Ctx, kind: str, order: Order) -> None:
    s = ctx.state
    match kind, order:
        case "setup", Place():
            setup.place(ctx, order)
        case "setup", Auto():
            setup.auto(ctx, order)
        case "setup", Done():
            setup.done(ctx, order)
        case "move", Move():
            movement.move(ctx, order)
        case "move", Done():
            movement.end_movement(ctx, order)
        case "attack", Attack():
            combat.declare(ctx, order)
        case "attack", Move():
            movement.move(ctx, order)
        case "attack", Done():
            ctx.log("phase", f"The {SIDE_NAME[s.player]} combat phase ends.")
            _start_rtb(ctx)
        case "air", Air():
            combat.defender_air(ctx, order)
        case "loss", Loss():
            combat.take_loss(ctx, order, s.battle.losses_due[0])
        case "retreat", Retreat():
            retreat.retreat(ctx, order)
        case "advance", Advance():
            retreat.advance(ctx, order)
            retreat.finish_battle(ctx)
        case "rebase", Rebase():
            rebase.rebase(ctx, order)
        case "replace", Rebuild():
            replacement.rebuild(ctx, order)
        case "replace", Replace():
            replacement.replace(ctx, order)
        case "replace", Done():
            _end_replacements(ctx)
        case "place", Place():
            endturn.place_arrival(ctx, order)
        case _:  # pragma: no cover - verbs are checked against the prompt first
            raise refuse("PFV 7", f"'{order.verb}' is not accepted now.")


def _start_rtb(ctx: Ctx) -> None:
    s = ctx.state
    s.phase, s.rebasing, s.battle = "rtb", s.player, None
    s.breakthrough.clear()


def _end_replacements(ctx: Ctx) -> None:
    supply.check_supply(ctx)
    if endturn.check_victory(ctx):
        return
    endturn.end_player_turn(ctx)


def settle(ctx: Ctx) -> None:
    """Carry the game forward through every step that needs no decision (PFV 7)."""
    s = ctx.state
    for _ in range(1000):
        if s.phase == "over" or endturn.check_victory(ctx):
            return
        if s.phase == "combat":
            battle = s.battle
            if battle is None:
                if not _any_attack(ctx) and not _breakthrough_pending(s):
                    ctx.log(
                        "phase",
                        f"The {SIDE_NAME[s.player]} player has no attack to make; the combat phase ends.",
                    )
                    _start_rtb(ctx)
                    continue
                return
            if battle.stage == "loss":
                if battle.losses_due:
                    who = battle.losses_due[0]
                    candidates = combat.loss_candidates(ctx, combat.loss_hex(ctx, who), who)
                    if len(candidates) > 1:
                        return
                    if candidates:
                        combat.apply_loss(ctx, who, candidates[0])
                    else:
                        battle.losses_due.remove(who)
                    continue
                battle.stage = "retreat"
                retreat.start_retreats(ctx)
                continue
            if battle.stage == "retreat":
                if not battle.retreating:
                    battle.stage = "advance"
                    continue
                piece = battle.retreating[0]
                paths = retreat.retreat_paths(ctx, piece)
                if not paths:
                    retreat.eliminate_unretreatable(ctx, piece)
                    continue
                if len(paths) == 1 and len(battle.retreating) == 1:
                    retreat.do_retreat(ctx, piece, paths[0])
                    continue
                return
            if battle.stage == "advance":
                if not retreat.advance_options(ctx):
                    retreat.finish_battle(ctx)
                    continue
                return
            return  # waiting for the defender's air
        if s.phase == "rtb":
            if rebase.settle(ctx):
                s.phase = "replace"
                s.replacements_left = ctx.board.scenario.replacements[s.player]
                continue
            return
        if s.phase == "replace":
            if not replacement.anything_to_do(ctx):
                _end_replacements(ctx)
                continue
            return
        if s.phase == "patton":
            if not s.to_place:
                s.phase = "end-turn"
                endturn.finish_game_turn(ctx)
                continue
            piece = s.to_place[0]
            options = endturn.place_options(ctx, piece)
            if len(options) > 1:
                return
            if options:
                endturn.do_place(ctx, piece, options[0])
            else:
                s.to_place.remove(piece)
                s.pieces[piece].where = "dead"
                ctx.log(
                    "arrive",
                    f"{ctx.board.name(piece)} has nowhere legal to be placed and goes to the dead pile (RULINGS R22).",
                )
            continue
        return
    raise AssertionError("settle did not come to rest")  # pragma: no cover


def _any_attack(ctx: Ctx) -> bool:
    return any(combat.attack_targets(ctx, u) for u in combat.attackers(ctx))


def _enumerate(ctx: Ctx, p: Prompt):
    b, s = ctx.board, ctx.state
    kind = p.kind
    if kind == "setup":
        left = setup.unplaced(b, s, s.player)
        for pid in left:
            for h in setup.legal_placements(ctx, pid):
                yield Place(piece=pid, hex=h)
        if left:
            yield Auto()
        else:
            yield Done()
    elif kind == "move":
        yield from movement.legal_moves(ctx)
        if not movement.over_stacked(ctx):  # 'done' waits for the hex to be put right
            yield Done()
    elif kind == "attack":
        for unit in combat.attackers(ctx):
            here = s.pieces[unit].hex
            airs = [None] + combat.air_in_range(b, s, s.player, here)
            for target in combat.attack_targets(ctx, unit):
                for air in airs:
                    yield Attack(unit=unit, target=target, air=air)
        if _breakthrough_pending(s):
            yield from movement.legal_moves(ctx, breakthrough=True)
        yield Done()
    elif kind == "air":
        yield Air(piece=None)
        for air in combat.air_in_range(b, s, enemy(s.player), s.battle.target, defending=True):
            yield Air(piece=air)
    elif kind == "loss":
        who = s.battle.losses_due[0]
        for pid in combat.loss_candidates(ctx, combat.loss_hex(ctx, who), who):
            yield Loss(piece=pid)
    elif kind == "retreat":
        for pid in s.battle.retreating:
            for path in retreat.retreat_paths(ctx, pid):
                yield Retreat(piece=pid, path=path)
    elif kind == "advance":
        yield Advance(pieces=[])
        allowed = retreat.advance_options(ctx)
        unit, sas = allowed[0], allowed[1:]
        for n in range(len(sas) + 1):
            for combo in combinations(sas, n):
                yield Advance(pieces=[unit, *combo])
    elif kind == "rebase":
        fields = rebase.open_airfields(ctx, s.rebasing)
        for air in rebase.in_box(ctx, s.rebasing):
            for h in fields:
                yield Rebase(piece=air, hex=h)
    elif kind == "replace":
        for pid in replacement.rebuildable(ctx):
            yield Rebuild(piece=pid)
        for pid in replacement.replaceable(ctx):
            for h in replacement.placements(ctx, pid):
                yield Replace(piece=pid, hex=h)
        yield Done()
    elif kind == "place":
        piece = s.to_place[0]
        for h in endturn.place_options(ctx, piece):
            yield Place(piece=piece, hex=h)


RULESET = PattonsFirstVictory()
