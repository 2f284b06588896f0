"""The African Campaign ruleset (ARCHITECTURE: The rules contract): set-up (TAC 17.0),
the sequence of play (6.1) as prompts, reinforcements, withdrawals and fuel (7.0, 14.0),
minefields (16.0), the Movement Phase (4.0, 5.0, 8.0) with overruns (8.4), exits (8.6),
air units (15.0), replacements and breakdowns (10.0, 11.0) and ports (12.0), the Combat
Phase (9.0-9.10), the Supply Check Phase (13.0), victory (3.0) and the optional rules
18.1-18.7 (Tactical Advantage in :mod:`.tactical`, Event Chits in :mod:`.events`). What
is still missing is listed at the end of RULINGS.md.

Units are open to both sides (5.0: stacks may be inspected at any time); the minefield
counters are the secret: a side sees the values in its own hand only, and nobody sees a
laid counter's value until it is set off (16.0); so are the event chits in a hand, seen by
their holder only until played (18.7.1).
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE, ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.tac import (
    air,
    battle,
    combat,
    effort,
    legal,
    mines,
    movement,
    pieces,
    replace,
    supply,
    tactical,
    turn,
    victory,
)
from engine.games.tac import events as chits
from engine.games.tac.board import Board
from engine.games.tac.orders import (
    Advance,
    Attack,
    Call,
    Carry,
    Defend,
    Done,
    Eliminate,
    First,
    Interdict,
    Lose,
    Move,
    Place,
    Play,
    Reroll,
    Resolve,
    Retreat,
    Standing,
    UnitOrder,
    load_order,
    parse_order,
)
from engine.games.tac.state import ALLIED, AXIS, State, Unit

SIDE_NAME = {ALLIED: "Allied", AXIS: "Axis"}
#: the optional rules of section 18 a game may be set up with, and those adjudicated so far
OPTIONS = {"18.1": "Friendly Units and Retreats", "18.2": "Initiative", "18.3": "Tactical Advantage",
           "18.4": "Maximum Effort", "18.5": "Determined Defense", "18.6": "Bonus Minefield Markers",
           "18.7": "Event Chits"}  # fmt: skip
IMPLEMENTED = {"18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7"}
PHASE_NAMES = {
    "initiative": "Initiative Determination Phase (6.1 A, 18.2)",
    "mines": "Minefield Placement Phase (6.1 2, 16.0)",
    "withdraw": "Allied Reinforcement Phase: withdrawals (6.1 B1, 7.3, 7.4)",
    "move": "Movement Phase (6.1 3)",
    "overstack": "end of the Movement Phase: overstacked (5.1.2)",
    "combat": "Combat Phase (6.1 4)",
    "resolve": "Combat Phase: resolving attacks (9.6-9.10)",
    "over": "Game over",
}


class TheAfricanCampaign:
    id = "tac"
    title = "The African Campaign"
    #: orders any seated role may give at any moment, not only at its own decision: a
    #: standing order is set in advance for the decisions it answers (ARCHITECTURE:
    #: Asynchronous play)
    any_time_verbs = frozenset({"standing"})

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
        """Set-up (TAC 17.1-17.3): at-start units on the map, Fuel at 2, Turn 1, the Allies
        first (also with 18.2, 18.2.2). ``options`` turns on optional rules by number
        (18.0: all off unless chosen)."""
        if scenario != "campaign":
            raise IllegalOrder(
                "TAC 17.0", f"There is no scenario {scenario!r}.", "The scenario is: campaign."
            )
        b = self.board
        for k, v in options.items():
            if k not in OPTIONS:
                raise IllegalOrder("TAC 18.0", f"There is no option {k!r}.",
                                   "Options: " + ", ".join(f"{k} ({n})" for k, n in OPTIONS.items()) + ".")  # fmt: skip
            if not isinstance(v, bool):
                raise IllegalOrder("TAC 18.0", f"Option {k} is on (true) or off (false).")
            if v and k not in IMPLEMENTED:
                raise IllegalOrder("TAC 18.0", f"Optional rule {k} ({OPTIONS[k]}) is not adjudicated yet.",
                                   "Available: " + ", ".join(sorted(IMPLEMENTED)) + ".")  # fmt: skip
        if bool(options.get("18.4")) != bool(options.get("18.5")):
            raise IllegalOrder(
                "TAC 18.0",
                "Maximum Effort (18.4) and Determined Defense (18.5) are used together or not at all.",
            )
        s = State(scenario=scenario, options=dict(options), pack_version=b.version,
                  fuel=b.tables.fuel_track.start, phase="reinforce")  # fmt: skip
        if options.get("18.7") and not options.get("18.6"):
            raise IllegalOrder("TAC 18.6.2", "Event Chits (18.7) are played with the Bonus Minefield Markers (18.6) on.")
        s.mines = mines.initial(b, bool(options.get("18.6")))
        if options.get("18.7"):
            chits.initial(b, s, dice)
        if options.get("18.3"):
            s.advantage = tactical.initial()
        s.units = {x.id: Unit(x.id, x.side) for x in b.oob.units}
        s.control = {h: x.control for h, x in b.hex.items() if x.control}
        turn.first_fit_setup(b, s)
        self._settle(s, dice)
        return s.canonical()

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
        holder = tactical.window(s)
        if holder is not None:
            mine, public = tactical.prompt_text(s)
            return Prompt(role=holder, kind="advantage", verbs=["reroll", "done", "standing"], text=mine, public=public, **base)
        w = chits.window(b, s)
        if w is not None:
            mine, public = chits.window_prompt(b, s, w)
            return Prompt(role=w[0], kind="chits", verbs=["play", "done", "standing"], text=mine, public=public, **base)
        name = SIDE_NAME[s.player]
        date = b.turns[s.turn].date
        if s.phase == "initiative":
            return Prompt(role=AXIS, kind="initiative", verbs=["first"], **base,
                          text=f"Turn {s.turn}: Initiative 7, the Axis chooses who goes first (18.2.1): first allied or first axis.")  # fmt: skip
        if s.phase == "withdraw":
            return self._withdraw_prompt(s, base)
        if s.phase == "mines":
            return Prompt(role=s.player, kind="mines", verbs=["call", "done"], **base,
                          text=f"Turn {s.turn}, {name} Minefield Placement Phase: call for a minefield, or done (16.0).")  # fmt: skip
        if s.phase == "move":
            extra = f" Fuel: {s.fuel}." if s.player == AXIS else ""
            left = air.available(b, s)
            extra += f" Air units: {left}." if left else ""
            return Prompt(role=s.player, kind="move", **base,
                          verbs=["move", "strategic", "interdict", "replace", "rebuild", "breakdown", "buildup", "sail", "land", "place", "carry", "standing", "done"],
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

    def _withdraw_prompt(self, s: State, base: dict[str, Any]) -> Prompt:
        """The Allied choice of a donor (TAC 7.3) or a substitute (7.4) for a withdrawal
        (RULINGS R45); the engine's own choice is listed first."""
        b = self.board
        c = s.withdrawal["choice"]
        uid, names = c["unit"], ", ".join(c["options"])
        if c["kind"] == "donor":
            text = (f"Turn {s.turn}: {b.units[uid].name} must withdraw at strength and no replacements are left: "
                    f"choose the division that gives a step (7.3): donor <unit>, from {names}.")
        else:
            text = (f"Turn {s.turn}: {b.units[uid].name} cannot withdraw (destroyed, surrounded or off the map): "
                    f"choose the unit that withdraws in its place (7.4): substitute <unit>, from {names}.")
        text += " ('standing withdraw engine' lets the engine choose from now on.)"
        return Prompt(role=ALLIED, kind="withdraw", verbs=[c["kind"], "standing"], text=text, **base)  # fmt: skip

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
        if f["stage"] == "defend":
            return Prompt(role=who, kind="defend", verbs=["defend", "done"], **base,
                          text=f"{SIDE_NAME[who]}: your stack must retreat; defend to try a Determined Defense (18.5), or done.")  # fmt: skip
        if f["stage"] == "retreat":
            uid = f["moving"][0]
            n = "exactly two hexes" if f["retreat"][who] == 2 else "one or two hexes"
            return Prompt(role=who, kind="retreat", verbs=["retreat"], **base,
                          text=f"{SIDE_NAME[who]}: retreat {b.units[uid].name} ({uid}) {n} (9.8).")  # fmt: skip
        open_hex = ", ".join(h for h in f["targets"] if not s.at(h))
        return Prompt(role=who, kind="advance", verbs=["advance", "done"], **base,
                      text=f"{SIDE_NAME[who]}: advance into {open_hex} or done (9.9).")  # fmt: skip

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        """The orders open now (:mod:`engine.games.tac.legal`): in the Movement Phase one
        move per reachable destination of each unit and stack, not every path."""
        b, p = self.board, self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        if p.kind == "advantage":
            return [*(Reroll(n=n) for n in tactical.choices(state)), Done()]
        plays = [Play(event=ev, arg=a) for chit, ev in dict.fromkeys(chits.playable(b, state, p.role))
                 for a in chits.args_for(b, state, p.role, ev)]  # fmt: skip
        if p.kind == "chits":
            return [*plays, Done()]
        return legal.orders(b, state, role, p.role) + plays

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    # -- applying an order ---------------------------------------------------------------

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        """Apply ``order``; with Tactical Advantage (18.3) the dice are watched, and after
        an order that rolled one the holder may have it rolled again."""
        holder = tactical.window(state)
        if holder is not None and role == holder and isinstance(order, Standing) and order.topic != "withdraw":
            s = state.clone()
            return s.canonical(), self._option_standing(s, role, order)
        if holder is not None:
            if role != holder or not isinstance(order, (Reroll, Done)):
                raise IllegalOrder("TAC 18.3.2", f"The {SIDE_NAME[holder]} player is deciding on the Tactical Advantage; "
                                   "only reroll or done is taken now.")  # fmt: skip
            if isinstance(order, Done):
                s = state.clone()
                return s.canonical(), tactical.decline(s)
            return tactical.reroll(self, state, role, order.n, dice)
        if isinstance(order, Reroll):
            raise IllegalOrder("TAC 18.3.2", "There is no die roll to roll again now: the Tactical Advantage "
                               "is used just after an order that rolled one, by the player holding it.")  # fmt: skip
        rec = tactical.Recorder(dice) if tactical.on(state) else None
        s, events = self._apply(state, role, order, rec or dice)
        if rec is not None:
            tactical.after(state, s, role, order, rec)
        return s, events

    def _apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        p = self.prompt(state)
        if isinstance(order, Play) and p.role != role:
            raise IllegalOrder("TAC 18.7", "An event chit is played when the decision is yours; it is "
                               f"the {SIDE_NAME.get(p.role, 'other')} player's now.")  # fmt: skip
        any_time = isinstance(order, Standing) and p.role is not None and role in SIDE_NAME
        if not isinstance(order, Play) and not any_time:
            check_turn(p, role, order.verb, sequence_rule="TAC 6.1", end_rule="TAC 3.0",
                       step=PHASE_NAMES.get(state.phase, state.phase), role_name=SIDE_NAME.get)  # fmt: skip
        s = state.clone()
        b = self.board
        if isinstance(dice, tactical.Recorder):
            dice.state = s  # 18.3: whose marker each roll may be re-rolled with
        control = dict(s.control)
        if isinstance(order, Play):
            events = chits.play(b, s, role, order.event, order.arg)
        elif isinstance(order, Done) and chits.window(b, s) is not None:
            events = chits.close_window(b, s)
        elif isinstance(order, Standing) and order.topic != "withdraw":
            events = self._option_standing(s, role, order)
        elif isinstance(order, Standing):
            events = self._standing(s, role, order)
        elif isinstance(order, UnitOrder) and order.verb in ("donor", "substitute"):
            turn.choose(b, s, order.verb, order.unit)
            s.phase = "reinforce"  # the phase goes on (7.3, 7.4)
            events = []
        elif isinstance(order, Move):
            events = movement.move(b, s, role, legal.expand(b, s, order))
            if s.pieces:  # 10.2, 8.4.1: counters in the hexes entered are overrun
                path = [h for e in events if e.kind == "move" for h in e.data.get("path", ())]
                events += pieces.overrun(b, s, role, path)
        elif isinstance(order, Place):
            events = pieces.place(b, s, role, order.kind, order.hex, dice)
        elif isinstance(order, Carry):
            events = pieces.carry(b, s, role, order.piece, order.hex)
        elif isinstance(order, Eliminate) and order.unit in s.pieces:
            p = s.pieces[order.unit]
            bad = movement.overstacked(b, s, role)
            if pieces.side_of(order.unit) != role or p["hex"] not in bad:
                raise IllegalOrder("TAC 5.1.2", f"{order.unit} is not one of your counters in an overstacked hex.",
                                   f"Overstacked: {', '.join(bad)}.")  # fmt: skip
            del s.pieces[order.unit]
            events = [Event(kind="eliminate", text=f"Replacement {order.unit} is eliminated for overstacking (5.1.2).")]
            if not movement.overstacked(b, s, role):
                s.phase = "combat"
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
            events = [combat.declare(b, s, role, order.units, order.targets, order.air)]
        elif isinstance(order, Call):
            events = mines.call(b, s, role, dice)
            s.phase = "move"
        elif isinstance(order, First):
            s.first = s.player = order.side
            s.phase = "reinforce"
            events = [
                Event(
                    kind="initiative",
                    text=f"The Axis player puts the {SIDE_NAME[order.side]} player turn first (18.2.1).",
                )
            ]
        elif isinstance(order, Interdict):
            events = [air.interdict(b, s, role, order.hex)]
        elif isinstance(order, UnitOrder):
            events = self._unit_order(s, role, order, dice)
        elif isinstance(order, Resolve):
            if chits.on(s):  # 18.7.7: the chits of a battle are chosen before its roll
                battle.start(b, s.clone(), order.hex, legal._NoRoll(), order.effort)
                s.chits["resolving"] = {"hex": order.hex, "effort": order.effort}
                events = []
            else:
                events = battle.start(b, s, order.hex, dice, order.effort)
        elif isinstance(order, Defend):
            events = [effort.determined_defense(b, s, dice)] + battle.settle(b, s)
        elif (
            isinstance(order, Done)
            and s.phase == "resolve"
            and s.fight
            and s.fight["stage"] == "defend"
        ):
            s.fight["dd"] = "declined"
            s.fight["stage"] = "loss"
            events = battle.settle(b, s)
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
        chits.note_captures(b, control, s)
        return s.canonical(), events

    def _option_standing(self, s: State, role: str, order: Standing) -> list[Event]:
        """Standing orders of the optional rules (ARCHITECTURE: Asynchronous play; RULINGS
        R73): ``standing events pass`` stops the questions at the moments an event chit may
        be played (18.7), ``standing advantage pass`` those after each die roll (18.3);
        ``ask`` brings them back. Given while the question waits, ``pass`` answers done."""
        opt = "18.7" if order.topic == "events" else "18.3"
        if not s.options.get(opt):
            raise IllegalOrder(f"TAC {opt}", f"{OPTIONS[opt]} ({opt}) is not in play in this game.")
        if order.value not in ("ask", "pass"):
            raise IllegalOrder(f"TAC {opt}", f"'standing {order.topic}' is followed by ask or pass.")
        s.standing.setdefault(role, {})[order.topic] = order.value
        if order.topic == "advantage" and order.value == "pass":
            s.advantage["pending"] = None
        return [private(ORDER, order.text(), (role,)),  # the other side reads nothing
                Event(kind="standing", text=f"Standing order: {order.topic} {order.value}.", seen_by=(role,))]

    def _standing(self, s: State, role: str, order: Standing) -> list[Event]:
        """A standing order (ARCHITECTURE: Asynchronous play; RULINGS R45): whether the
        Allied player is asked for the donor (7.3) and the substitute (7.4). Given while a
        choice waits, ``engine`` lets the engine make it at once."""
        if role != ALLIED:
            raise IllegalOrder("TAC 7.2", "Only the Allied player withdraws units; 'standing withdraw' is his.")
        s.standing.setdefault(role, {})[order.topic] = order.value
        events = [private(ORDER, order.text(), (role,)),  # the other side reads nothing
                  Event(kind="standing", text=f"Standing order: {order.topic} {order.value}.", seen_by=(role,))]
        if s.phase == "withdraw" and order.value == "engine":
            s.withdrawal["choice"] = None
            s.phase = "reinforce"
        return events

    def _unit_order(self, s: State, role: str, order: UnitOrder, dice: Dice) -> list[Event]:
        """Replacements (10.0, 10.7), breakdown and buildup (11.0), sailing from Tobruk and
        landing reinforcements there (12.1): orders of the Movement Phase."""
        b = self.board
        if order.verb == "replace":
            return replace.replace(b, s, role, order.unit, dice)
        if order.verb == "rebuild":
            return replace.rebuild(b, s, role, order.unit, dice)
        if order.verb == "breakdown":
            return replace.breakdown(b, s, role, order.unit)
        if order.verb == "buildup":
            return replace.buildup(b, s, role, order.unit)
        if order.verb == "land":
            return replace.land(b, s, role, order.unit, dice)
        return replace.sail(b, s, role, order.unit, dice)

    def _done(self, s: State) -> list[Event]:
        """End the current phase (TAC 6.1); stacking is checked as the Movement Phase
        ends (5.1.1, 5.1.2, 8.2.4); interdiction (15.2) and closed minefield hexes (16.3)
        last until the end of the Movement Phase they apply to."""
        if s.phase == "mines":
            s.phase = "move"
            return []
        if s.phase == "move":
            s.phase = "overstack" if movement.overstacked(self.board, s, s.player) else "combat"
            s.interdicted = {u for u in s.interdicted if s.units[u].side != s.player}
            mines.end_phase(s)
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
            if s.phase == "over":
                return events
            supply.mark_control(b, s)
            events += pieces.sweep(b, s)  # 10.2: counters alone in an enemy zone
            played, waiting = chits.settle(b, s, dice)  # 18.7: chits waiting on no one
            events += played
            if waiting:
                return events
            if s.phase == "reinforce":
                if s.withdrawal is not None:  # after the Allied choice (7.3, 7.4)
                    events += turn.resume(b, s, dice)
                else:
                    events += turn.reinforce(b, s, dice)
                if s.withdrawal is not None:
                    s.phase = "withdraw"
                    return events
                events += chits.after_reinforce(b, s, dice)
                s.moved.clear()
                s.strategic.clear()
                s.battles.clear()
                s.phase = "mines" if mines.why_no_call(s, s.player) is None else "move"
            elif s.phase == "resolve" and s.fight is None and not s.battles:
                s.phase = "supply"
                events.append(Event(kind="phase", text=f"{SIDE_NAME[s.player]} Combat Phase ends."))
            elif s.phase == "supply":
                events += supply.check(b, s)
                if s.player == s.first:
                    s.player, s.phase = turn.second_player(s), "reinforce"
                else:
                    events += turn.end_turn(b, s, dice)
            else:
                return events + victory.check(b, s)

    # -- views and storage ---------------------------------------------------------------

    def view(self, state: State, role: str | None):  # -> HexMapView
        """What ``role`` sees, as the map the front ends draw and list
        (:func:`engine.games.tac.mapview.map_view`): every unit open to both (TAC 5.0,
        L240), a laid minefield by its hex only and a side's minefield hand in that side's
        view only (16.0, L677)."""
        from engine.games.tac.mapview import map_view

        return map_view(state, role, self.board)

    def details(self, state: State, role: str | None) -> dict[str, Any]:
        """What ``role`` sees, as data: every unit (TAC 5.0: stacks may be inspected at any time);
        of the minefields (16.0) the hexes where they lie, how many each side holds, and
        the values of the counters in ``role``'s own hand only (``EVERYONE`` sees all)."""
        b = self.board
        m = state.mines or {"hands": {}, "map": {}, "calls": {}}
        hands = m["hands"]
        mine_view: dict[str, Any] = {
            "on_map": sorted(m["map"]), "held": {k: len(v) for k, v in hands.items()},
            "calls": dict(m["calls"]),
        }  # fmt: skip
        for side in hands:
            if role in (side, EVERYONE):
                mine_view[f"{side}_hand"] = [
                    {"id": x, "effect": mines.describe(b, x)} for x in hands[side]
                ]
        if role == EVERYONE:
            mine_view["values"] = {h: mines.describe(b, x) for h, x in m["map"].items()}
        return {
            "mines": mine_view, "air_left": air.available(b, state) if state.phase != "over" else 0,
            "interdicted": sorted(state.interdicted),
            "exited": {u: sp for u, sp in sorted(state.exit_space.items())},
            "exit_factors": victory.axis_exit_factors(state), "first": state.first,
            "turn": state.turn, "date": b.turns[state.turn].date, "player": state.player,
            "phase": state.phase, "fuel": state.fuel, "replacements": dict(state.replacements),
            "units": [{"id": u.id, "name": b.units[u.id].name, "side": u.side, "where": u.where,
                       "hex": u.hex, "step": b.units[u.id].steps[u.step]}
                      for u in sorted(state.units.values(), key=lambda u: u.id) if u.where != "pool"],
            "control": dict(state.control),
            "replacement_counters": {k: dict(p) for k, p in sorted(state.pieces.items())},
            "battles": [{k: list(v) for k, v in x.items()} for x in state.battles],
            "fight": copy.deepcopy(state.fight),
            "chits": chits.view(b, state, role, EVERYONE), "advantage": tactical.view(state),
        }  # fmt: skip

    def hidden_words(self, state: State, audience: str | None, events: Any = ()) -> dict[str, set[str]]:
        """Piece -> the words that would name it, for what ``audience`` may not see in
        ``state``: the event chits in the other side's hand or chosen for a battle and not
        yet shown (18.7.1, 18.7.7), by id and by the names on their faces that no other
        chit bears; the minefield counters in the other side's hand and every counter
        lying face down (16.0), by id. Read by the fuzzer's leak scan (:mod:`engine.fuzz`)."""
        b = self.board
        out: dict[str, set[str]] = {}
        if audience == EVERYONE:
            return out
        c = state.chits
        if c:
            faces = [n for x in b.tables.events.chits for n in (x.allied, x.axis)]
            held = [(side, x) for side, h in c["hands"].items() for x in h]
            held += [(i["side"], i["chit"]) for i in c["secret"]]
            for side, chit in held:
                if side == audience:
                    continue
                x = b.tables.events.chits[int(chit[1:])]
                words = {chit}
                for name in (x.allied, x.axis):
                    if faces.count(name) == 1:
                        words |= {name, chits.slug(name)}
                out[chit] = words
        m = state.mines
        if m:
            for side, h in m["hands"].items():
                for mine in h:
                    if side != audience:
                        out[mine] = {mine}
            for mine in m["map"].values():
                out[mine] = {mine}
        return out

    fuzz_options: dict[str, Any] = {}

    def fuzz_setup(self, seed: int) -> tuple[str, dict[str, Any]]:
        """Random play's options by seed (``umpire fuzz``): every third game with no
        optional rule, every third with all of section 18, every third with Event Chits
        and Tactical Advantage alone (with the bonus minefields 18.7 needs, 18.6.2)."""
        every = {k: True for k in OPTIONS}
        chosen = [{}, every, {"18.3": True, "18.6": True, "18.7": True}][seed % 3]
        return "campaign", {**self.fuzz_options, **chosen}

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
        for uid, u in state.units.items():
            if (u.where == "exited") != (uid in state.exit_space):
                out.append(f"{uid}: where={u.where} but exit space {state.exit_space.get(uid)}")
            if (
                u.where in ("exited", "tripoli")
                and u.side != AXIS
                or u.where == "held"
                and u.side != ALLIED
            ):
                out.append(f"{uid} of the {u.side} side is {u.where}")
        m = state.mines
        if m:
            counters = (
                m["cup"] + m["hands"]["allied"] + m["hands"]["axis"] + list(m["map"].values())
            )
            total = len(b.tables.minefields.standard) + (
                len(b.tables.minefields.bonus) if state.options.get("18.6") else 0
            )
            if len(counters) != total or len(set(counters)) != total:
                out.append(f"minefield counters {sorted(counters)} are not the {total} of the game")
        if any(v < 0 for v in state.replacements.values()):
            out.append(f"negative replacements {state.replacements}")
        for side in (ALLIED, AXIS):  # the counter mix (10.1; RULINGS R47)
            if pieces.in_play(state, side) > b.oob.counter_mix.replacement_counters[side]:
                out.append(f"more {side} replacement counters in play than the mix holds")
        for k, p in state.pieces.items():
            if p["kind"] not in pieces.KINDS[pieces.side_of(k)] or (p["hex"] is not None and not b.playable(p["hex"])):
                out.append(f"replacement counter {k} is {p}")
        c = state.chits
        if c:  # 18.7: every chit in one place
            where = (c["cup"] + c["hands"]["allied"] + c["hands"]["axis"] + c["spent"]
                     + [x["chit"] for x in c["queue"] + c["secret"]])  # fmt: skip
            n = len(b.tables.events.chits)
            if sorted(where) != sorted(f"c{i}" for i in range(n)):
                out.append(f"event chits {sorted(where)} are not the {n} of the game")
            if any(len(h) > b.tables.events.hand_limit for h in c["hands"].values()):
                out.append("a hand holds more event chits than 18.7.5 allows")
        return out


RULESET = TheAfricanCampaign()
