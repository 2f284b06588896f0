"""The African Campaign ruleset (ARCHITECTURE: The rules contract): set-up (TAC 17.0),
the sequence of play (6.1) as prompts, reinforcements, withdrawals and fuel (7.0, 14.0),
the Movement Phase (4.0, 5.0, 8.0) with overruns (8.4), the Combat Phase (9.0-9.10) and
the Supply Check Phase (13.0). What is still missing is listed at the end of RULINGS.md.

Nothing in the standard game is hidden (5.0: stacks may be inspected at any time), so
every role's view is the same; the optional event chits (18.7) will be the first secret.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.tac import battle, combat, movement, supply, turn
from engine.games.tac.board import Board
from engine.games.tac.orders import (
    Advance,
    Attack,
    Done,
    Eliminate,
    Lose,
    Move,
    Resolve,
    Retreat,
    load_order,
    parse_order,
)
from engine.games.tac.state import ALLIED, AXIS, State, Unit

SIDE_NAME = {ALLIED: "Allied", AXIS: "Axis"}
PHASE_NAMES = {
    "move": "Movement Phase (6.1 3)",
    "overstack": "end of the Movement Phase: overstacked (5.1.2)",
    "combat": "Combat Phase (6.1 4)",
    "resolve": "Combat Phase: resolving attacks (9.6-9.10)",
    "over": "Game over",
}


class TheAfricanCampaign:
    id = "tac"
    title = "The African Campaign"

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board()
        return self._board

    def scenarios(self) -> list[Scenario]:
        return [Scenario(id="campaign", title="December 1940 - December 1942",
                         description="The whole campaign, 50 turns (TAC 17.0).")]  # fmt: skip

    def roles(self, scenario: str) -> list[str]:
        return [ALLIED, AXIS]

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        """Set-up (TAC 17.1-17.3): at-start units on the map, Fuel at 2, Turn 1, the Allies first."""
        if scenario != "campaign":
            raise IllegalOrder(
                "TAC 17.0", f"There is no scenario {scenario!r}.", "The scenario is: campaign."
            )
        b = self.board
        s = State(scenario=scenario, options=dict(options), pack_version=b.version,
                  fuel=b.tables.fuel_track.start, phase="reinforce")  # fmt: skip
        s.units = {x.id: Unit(x.id, x.side) for x in b.oob.units}
        s.control = {h: x.control for h, x in b.hex.items() if x.control}
        turn.first_fit_setup(b, s)
        self._settle(s, dice)
        return s

    # -- questions -----------------------------------------------------------------------

    def datapack_version(self) -> str:
        return self.board.version

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.turn, player=state.player, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        return Result(
            winner=state.winner, level="victory" if state.winner else "draw", text=state.result_text
        )

    def prompt(self, state: State) -> Prompt:
        s, b = state, self.board
        base = {"turn": s.turn, "phase": s.phase}
        if s.phase == "over":
            return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
        name = SIDE_NAME[s.player]
        date = b.turns[s.turn].date
        if s.phase == "move":
            extra = f" Fuel: {s.fuel}." if s.player == AXIS else ""
            return Prompt(role=s.player, kind="move", verbs=["move", "strategic", "done"], **base,
                          text=f"Turn {s.turn} ({date}), {name} Movement Phase: move units, then done.{extra}")  # fmt: skip
        if s.phase == "overstack":
            hexes = ", ".join(movement.overstacked(b, s, s.player))
            return Prompt(role=s.player, kind="overstack", verbs=["eliminate"], **base,
                          text=f"{name} units are overstacked at {hexes}: eliminate units until no hex holds more than two divisions (5.1.2).")  # fmt: skip
        if s.phase == "resolve":
            return self._battle_prompt(s, base)
        owed = combat.undeclared(b, s, s.player)
        todo = (
            f" Still to declare: {'; '.join(owed)}."
            if owed
            else " Every compulsory attack is declared."
        )
        return Prompt(role=s.player, kind="combat", verbs=["attack", "done"], **base,
                      text=f"Turn {s.turn}, {name} Combat Phase: declare attacks (9.0), then done "
                           f"to resolve them.{todo}")  # fmt: skip

    def _battle_prompt(self, s: State, base: dict[str, Any]) -> Prompt:
        """The decisions of resolving attacks (TAC 9.0 procedure, 9.8, 9.9, 9.10)."""
        b = self.board
        f = s.fight
        if f is None:
            left = ", ".join("/".join(x["targets"]) for x in s.battles)
            return Prompt(role=s.player, kind="resolve", verbs=["resolve"], **base,
                          text=f"{SIDE_NAME[s.player]} Combat Phase: choose the next battle to resolve: {left}.")  # fmt: skip
        who = battle.decider(s)
        if f["stage"] == "loss":
            names = ", ".join(u.id for u in battle.loss_candidates(s, f, who))
            return Prompt(role=who, kind="loss", verbs=["lose"], **base,
                          text=f"{SIDE_NAME[who]}: {f['due'][who]} step loss(es) to take (9.10); the next from: {names}.")  # fmt: skip
        if f["stage"] == "retreat":
            uid = f["moving"][0]
            n = "exactly two hexes" if f["retreat"][who] == 2 else "one or two hexes"
            return Prompt(role=who, kind="retreat", verbs=["retreat"], **base,
                          text=f"{SIDE_NAME[who]}: retreat {b.units[uid].name} ({uid}) {n} (9.8).")  # fmt: skip
        open_hex = ", ".join(h for h in f["targets"] if not s.at(h))
        return Prompt(role=who, kind="advance", verbs=["advance", "done"], **base,
                      text=f"{SIDE_NAME[who]}: advance into {open_hex} or done (9.9).")  # fmt: skip

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        """The orders open now: ``done``, and in the Movement Phase every one-hex move the
        rules allow (longer paths are checked when given)."""
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        if state.phase == "overstack":
            bad = movement.overstacked(self.board, state, state.player)
            return [Eliminate(unit=u.id) for u in state.on_map(state.player) if u.hex in bad]
        out: list[Order] = []
        if state.phase == "move":
            from engine.core.hexgrid_rows import neighbours

            for u in sorted(state.units.values(), key=lambda u: u.id):
                if u.side != state.player or u.id in state.moved:
                    continue
                if u.where == "map" and u.hex:
                    targets = list(neighbours(u.hex))
                elif u.where == "tripoli":
                    targets = self.board.west_edge
                else:
                    continue
                for h in targets:
                    o = Move(units=(u.id,), path=(h,))
                    try:
                        movement.move(self.board, state.clone(), state.player, o)
                    except IllegalOrder:
                        continue
                    out.append(o)
        if state.phase == "resolve":
            return self._battle_orders(state)
        if state.phase == "combat":
            for h, targets in combat.engagements(self.board, state, state.player).items():
                mine = tuple(u.id for u in state.at(h) if u.side == state.player)
                done_here = {
                    t
                    for x in state.battles
                    for t in x["targets"]
                    if set(mine) <= set(x["attackers"])
                }
                targets = targets - done_here
                for t in sorted(targets):
                    o = Attack(units=mine, targets=(t,))
                    try:
                        combat.declare(self.board, state.clone(), state.player, o.units, o.targets)
                    except IllegalOrder:
                        continue
                    out.append(o)
            if combat.undeclared(self.board, state, state.player):
                return out
        return [*out, Done()]

    def _battle_orders(self, s: State) -> list[Order]:
        """The decisions open while attacks are resolved (TAC 9.0, 9.8, 9.9, 9.10)."""
        b, f = self.board, s.fight
        if f is None:
            return [Resolve(hex=x["targets"][0]) for x in s.battles]
        who = battle.decider(s)
        if f["stage"] == "loss":
            return [Lose(unit=u.id) for u in battle.loss_candidates(s, f, who)]
        if f["stage"] == "retreat":
            return [
                Retreat(unit=m, path=p)
                for m in f["moving"] if s.units[m].side == who
                for p in battle.retreat_paths(b, s, s.units[m], f["retreat"][who])
            ]  # fmt: skip
        out: list[Order] = []
        for h in f["targets"]:
            if s.at(h):
                continue
            for u in s.on_map(who):
                if u.id in f["attackers"] and b.crossable(u.hex, h):
                    out.append(Advance(units=(u.id,), hex=h))
        return [*out, Done()]

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    # -- applying an order ---------------------------------------------------------------

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        p = self.prompt(state)
        check_turn(p, role, order.verb, sequence_rule="TAC 6.1", end_rule="TAC 3.0",
                   step=PHASE_NAMES.get(state.phase, state.phase), role_name=SIDE_NAME.get)  # fmt: skip
        s = state.clone()
        b = self.board
        if isinstance(order, Move):
            events = movement.move(b, s, role, order)
        elif isinstance(order, Eliminate):
            u = s.units.get(order.unit)
            bad = movement.overstacked(b, s, role)
            if u is None or u.side != role or u.where != "map" or u.hex not in bad:
                raise IllegalOrder("TAC 5.1.2", f"{order.unit} is not one of your units in an overstacked hex.",
                                   f"Overstacked: {', '.join(bad)}.")  # fmt: skip
            u.where, u.hex = "dead", None
            events = [
                Event(
                    kind="eliminate",
                    text=f"{b.units[u.id].name} is eliminated for overstacking (5.1.2).",
                )
            ]
            if not movement.overstacked(b, s, role):
                s.phase = "combat"
        elif isinstance(order, Attack):
            events = [combat.declare(b, s, role, order.units, order.targets)]
        elif isinstance(order, Resolve):
            events = battle.start(b, s, order.hex, dice)
        elif isinstance(order, Lose):
            f = s.fight
            ok = {u.id for u in battle.loss_candidates(s, f, role)}
            if order.unit not in ok:
                raise IllegalOrder("TAC 9.10.3", f"{order.unit} may not take the next loss; losses are shared evenly.",
                                   f"Choose from: {', '.join(sorted(ok))}.")  # fmt: skip
            events = [battle.lose(b, s, order.unit)] + battle.settle(b, s)
        elif isinstance(order, Retreat):
            events = [battle.retreat(b, s, order.unit, order.path)] + battle.settle(b, s)
        elif isinstance(order, Advance):
            events = [battle.advance(b, s, order.units, order.hex)] + battle.settle(b, s)
        elif isinstance(order, Done) and s.phase == "resolve":
            s.fight = None  # declining the advance (9.9.1) closes the battle
            events = []
        elif isinstance(order, Done):
            events = self._done(s)
        else:  # pragma: no cover - parse_order makes only the three kinds
            raise IllegalOrder("TAC 6.1", "That order is not taken here.")
        events += self._settle(s, dice)
        return s, events

    def _done(self, s: State) -> list[Event]:
        """End the current phase (TAC 6.1); stacking is checked as the Movement Phase
        ends (5.1.1, 5.1.2, 8.2.4)."""
        if s.phase == "move":
            s.phase = "overstack" if movement.overstacked(self.board, s, s.player) else "combat"
            return [Event(kind="phase", text=f"{SIDE_NAME[s.player]} Movement Phase ends.")]
        owed = combat.undeclared(self.board, s, s.player)
        if owed:
            raise IllegalOrder(
                "TAC 9.0",
                f"Combat is compulsory: {'; '.join(owed)}.",
                "Declare those attacks, then say done.",
            )
        s.phase = "resolve"
        return [
            Event(kind="phase", text=f"{SIDE_NAME[s.player]} attacks declared: {len(s.battles)}.")
        ]

    def _settle(self, s: State, dice: Dice) -> list[Event]:
        """Run the steps that need no decision until a player must decide (TAC 6.1)."""
        events: list[Event] = []
        b = self.board
        while True:
            if s.phase == "reinforce":
                events += turn.reinforce(b, s, dice)
                s.moved.clear()
                s.strategic.clear()
                s.battles.clear()
                # the Minefield Placement Phase (16.0) is not yet adjudicated: passed through
                s.phase = "move"
            elif s.phase == "resolve" and s.fight is None and not s.battles:
                s.phase = "supply"
                events.append(Event(kind="phase", text=f"{SIDE_NAME[s.player]} Combat Phase ends."))
            elif s.phase == "supply":
                events += supply.check(b, s)
                if s.player == ALLIED:
                    s.player, s.phase = AXIS, "reinforce"
                else:
                    events += turn.end_turn(b, s)
            else:
                return events

    # -- views and storage ---------------------------------------------------------------

    def view(self, state: State, role: str | None) -> dict[str, Any]:
        """What ``role`` sees: everything (TAC 5.0: stacks may be inspected at any time)."""
        b = self.board
        return {
            "turn": state.turn, "date": b.turns[state.turn].date, "player": state.player,
            "phase": state.phase, "fuel": state.fuel, "replacements": dict(state.replacements),
            "units": [{"id": u.id, "name": b.units[u.id].name, "side": u.side, "where": u.where,
                       "hex": u.hex, "step": b.units[u.id].steps[u.step]}
                      for u in sorted(state.units.values(), key=lambda u: u.id) if u.where != "pool"],
            "control": dict(state.control),
            "battles": [{k: list(v) for k, v in x.items()} for x in state.battles],
            "fight": copy.deepcopy(state.fight),
        }  # fmt: skip

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        out = []
        b = self.board
        for u in state.units.values():
            if (u.where == "map") != (u.hex is not None):
                out.append(f"{u.id}: where={u.where} but hex={u.hex}")
            if u.hex is not None and not b.playable(u.hex):
                out.append(f"{u.id} stands on {u.hex}, outside the playing area")
            if not 0 <= u.step < len(b.units[u.id].steps):
                out.append(f"{u.id} has no step {u.step}")
        if not b.tables.fuel_track.min <= state.fuel <= b.tables.fuel_track.max:
            out.append(f"fuel {state.fuel} is off the track")
        return out
