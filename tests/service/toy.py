"""A toy ruleset for service tests: two players take stones from a pile.

It exercises what the service must handle in a real game, in a few lines: dice at set-up
and during play, hidden information shown by an event, a decision made by the player
who is not moving (a challenge), turns and phases for snapshots, and an end with a
winner. The "rulebook" sections named below are this docstring's numbered rules.

Toy 1. Set-up: the pile holds ``options["pile"]`` stones (default 21). Each player is
       dealt a hidden card from 1 to 6 (a d6 each). North moves first in turn 1.
Toy 2. Take: the moving player takes 1, 2 or 3 stones, never more than the pile holds.
Toy 3. Gamble: instead of taking, the moving player rolls a d6; a 1, 2 or 3 takes that
       many stones (as many as are left), a 4, 5 or 6 takes none.
Toy 4. Challenge: after a player takes 3 stones (not by a gamble) the other player must
       accept or refuse; a refusal puts one stone back on the pile.
Toy 5. Peek: once per turn, before taking, the moving player may look at the other
       player's card.
Toy 6. End: whoever takes the last stone wins. A turn is one move of each player.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Literal

from pydantic import ValidationError

from engine.core.errors import IllegalOrder, OrderSyntaxError
from engine.core.events import Event
from engine.core.orders import Order
from engine.core.registry import register
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario

ROLES = ("north", "south")


def other(role: str) -> str:
    return "south" if role == "north" else "north"


class Take(Order):
    verb: Literal["take"] = "take"
    count: int
    text_fields: ClassVar[tuple[str, ...]] = ("count",)


class Gamble(Order):
    verb: Literal["gamble"] = "gamble"


class Peek(Order):
    verb: Literal["peek"] = "peek"


class Accept(Order):
    verb: Literal["accept"] = "accept"


class Refuse(Order):
    verb: Literal["refuse"] = "refuse"


ORDER_MODELS: dict[str, type[Order]] = {
    m.model_fields["verb"].default: m for m in (Take, Gamble, Peek, Accept, Refuse)
}


class ToyRuleset:
    id = "toy"
    title = "Stones (a toy for tests)"

    def scenarios(self) -> list[Scenario]:
        return [Scenario(id="standard", title="Standard pile")]

    def roles(self, scenario: str) -> list[str]:
        return list(ROLES)

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> dict[str, Any]:
        """Toy 1."""
        if scenario != "standard":
            raise IllegalOrder("Toy 1", f"There is no scenario {scenario!r}.", "Use standard.")
        return {
            "pile": int(options.get("pile", 21)),
            "turn": 1,
            "player": "north",
            "phase": "take",
            "cards": {role: dice.roll(6, f"{role} card") for role in ROLES},
            "peeked": [],
            "winner": None,
        }

    def prompt(self, state: dict[str, Any]) -> Prompt:
        if state["winner"]:
            return Prompt(role=None, kind="over", text=f"{state['winner']} has won.")
        if state["phase"] == "challenge":
            role = other(state["player"])
            return Prompt(
                role=role,
                kind="challenge",
                text=f"{role}: accept or refuse the take of 3.",
                verbs=["accept", "refuse"],
                turn=state["turn"],
                phase="challenge",
            )
        role = state["player"]
        return Prompt(
            role=role,
            kind="take",
            text=f"{role}: take 1-3 stones from {state['pile']}, or gamble.",
            verbs=["take", "gamble", "peek"],
            turn=state["turn"],
            phase="take",
        )

    def legal_orders(self, state: dict[str, Any], role: str | None = None) -> list[Order]:
        prompt = self.prompt(state)
        if prompt.role is None or (role is not None and role != prompt.role):
            return []
        if state["phase"] == "challenge":
            return [Accept(), Refuse()]
        orders: list[Order] = [Take(count=n) for n in (1, 2, 3) if n <= state["pile"]]
        orders.append(Gamble())
        if state["player"] not in state["peeked"]:
            orders.append(Peek())
        return orders

    def parse_order(self, text: str) -> Order:
        words = text.split()
        if not words or words[0] not in ORDER_MODELS:
            raise OrderSyntaxError(
                "Toy 2",
                f"{text!r} is not an order.",
                "Write take N, gamble, peek, accept or refuse.",
            )
        verb, args = words[0], words[1:]
        if verb == "take":
            if len(args) != 1 or not args[0].isdigit():
                raise OrderSyntaxError(
                    "Toy 2", "take needs one number.", "Write take 2, for example."
                )
            return Take(count=int(args[0]))
        if args:
            raise OrderSyntaxError("Toy 2", f"{verb} takes no arguments.", f"Write just {verb}.")
        return ORDER_MODELS[verb]()

    def load_order(self, data: dict[str, Any]) -> Order:
        model = ORDER_MODELS.get(data.get("verb"))  # type: ignore[arg-type]
        if model is None:
            raise OrderSyntaxError("Toy 2", f"{data.get('verb')!r} is not an order verb.")
        try:
            return model.model_validate(data)
        except ValidationError:
            raise OrderSyntaxError(
                "Toy 2", f"{data!r} is not a valid {model.__name__} order."
            ) from None

    def apply(
        self, state: dict[str, Any], role: str, order: Order, dice: Dice
    ) -> tuple[dict[str, Any], list[Event]]:
        prompt = self.prompt(state)
        if prompt.role is None:
            raise IllegalOrder("Toy 6", "The game is over.")
        if role != prompt.role:
            raise IllegalOrder("Toy 2", f"It is {prompt.role}'s decision, not {role}'s.")
        if order.verb not in prompt.verbs:
            raise IllegalOrder(
                "Toy 4" if state["phase"] == "challenge" else "Toy 2",
                f"{order.verb} is not possible now.",
                f"Legal now: {', '.join(prompt.verbs)}.",
            )
        s = copy.deepcopy(state)
        events: list[Event] = []
        if isinstance(order, Peek):
            if role in s["peeked"]:
                raise IllegalOrder("Toy 5", "You have already peeked this turn.", "Take or gamble.")
            s["peeked"].append(role)
            # The card itself shows only in the peeker's view: the log is public.
            events.append(Event("peek", f"{role} peeks at {other(role)}'s card.", reveals=True))
            return s, events
        if isinstance(order, (Accept, Refuse)):
            if isinstance(order, Refuse):
                s["pile"] += 1
            events.append(Event(order.verb, f"{role} {order.verb}s the take; pile {s['pile']}."))
            self._end_move(s)
            return s, events
        if isinstance(order, Take):
            if not 1 <= order.count <= 3:
                raise IllegalOrder("Toy 2", "You may take 1, 2 or 3 stones.", "Take 1 to 3.")
            if order.count > s["pile"]:
                raise IllegalOrder(
                    "Toy 2", f"The pile holds only {s['pile']}.", f"Take {s['pile']} or fewer."
                )
            taken = order.count
        else:
            roll = dice.roll(6, "gamble")
            taken = min(roll, s["pile"]) if roll <= 3 else 0
            events.append(Event("gamble", f"{role} gambles: rolls {roll}, takes {taken}."))
        s["pile"] -= taken
        events.append(Event("take", f"{role} takes {taken}; pile {s['pile']}.", {"taken": taken}))
        if s["pile"] == 0:
            s["winner"] = role
            events.append(Event("end", f"{role} takes the last stone and wins."))
        elif isinstance(order, Take) and taken == 3:
            s["phase"] = "challenge"
        else:
            self._end_move(s)
        return s, events

    def _end_move(self, s: dict[str, Any]) -> None:
        s["phase"] = "take"
        s["peeked"] = [r for r in s["peeked"] if r != s["player"]]
        if s["player"] == "south":
            s["turn"] += 1
        s["player"] = other(s["player"])

    def view(self, state: dict[str, Any], role: str | None) -> dict[str, Any]:
        out = {k: state[k] for k in ("pile", "turn", "player", "phase", "winner")}
        if state["winner"]:
            out["cards"] = dict(state["cards"])
        elif role is not None:
            out["cards"] = {role: state["cards"][role]}
            if role in state["peeked"]:
                out["cards"][other(role)] = state["cards"][other(role)]
        return out

    def result(self, state: dict[str, Any]) -> Result | None:
        if state["winner"]:
            return Result(winner=state["winner"], text=f"{state['winner']} took the last stone.")
        return None

    def progress(self, state: dict[str, Any]) -> Progress:
        return Progress(turn=state["turn"], player=state["player"], phase=state["phase"])

    def dump_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load_state(self, data: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(data)

    def invariant_problems(self, state: dict[str, Any]) -> list[str]:
        return [f"pile is negative: {state['pile']}"] if state["pile"] < 0 else []


register(ToyRuleset())
