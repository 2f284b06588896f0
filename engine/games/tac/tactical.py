"""Optional Tactical Advantage (TAC 18.3, L729-747): one marker, held by the Allies at the
start (18.3.1); its holder may have any die roll of either player rolled again, once, the
new roll standing (18.3.2, 18.3.4); once used it passes to the other player at the start
of the next turn (18.3.3, 18.3.5).

``state.advantage`` is a plain dict (empty when 18.3 is off): ``holder``: the side holding
the marker; ``used``: the turn it was played (0: not played); ``pending``: the window
after an order that rolled dice, while the holder may still ask for a re-roll:
``{"state": the state the order was given in, "role", "order", "rolls": [[sides,
purpose, value], ...]}`` (RULINGS R64).

A re-roll plays the order again from the state it was given in, with the same dice up to
the roll re-rolled, a fresh die for it, and the same dice after it where the same roll
comes again: the rules judge the order anew with the new number (RULINGS R65).
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event
from engine.core.ruleset import Dice
from engine.games.tac.state import ALLIED, AXIS, State, enemy

SIDE = {ALLIED: "Allied", AXIS: "Axis"}


def on(state: State) -> bool:
    return bool(state.options.get("18.3")) and bool(state.advantage)


def initial() -> dict[str, Any]:
    """Set-up (18.3.1, L737): the Allies hold the marker."""
    return {"holder": ALLIED, "used": 0, "pending": None}


def new_turn(state: State) -> list[Event]:
    """The start of a turn (18.3.3, L741-743): a marker played last turn passes to the other
    player, before the Initiative Determination Phase."""
    if not on(state):
        return []
    a = state.advantage
    if not a["used"] or a["used"] >= state.turn:
        return []
    a["holder"], a["used"] = enemy(a["holder"]), 0
    return [Event(kind="advantage", text=f"The Tactical Advantage passes to the {SIDE[a['holder']]} player (18.3.3).")]  # fmt: skip


class Recorder:
    """Dice that pass every roll through and remember it, with who held the marker and
    whether it was spent when it was rolled (``state`` is the state the order works on)."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.seen: list[list[Any]] = []
        self.state: State | None = None

    def roll(self, sides: int, purpose: str = "") -> int:
        i = len(self.seen)
        v = self.dice.roll(sides, purpose)
        a = self.state.advantage if self.state is not None else {}
        uses = getattr(self.dice, "uses", {})
        if str(i) in uses and a:  # the marker is spent on this very roll (18.3.3)
            a.update(holder=uses[str(i)], used=self.state.turn, pending=None)
        self.seen.append([sides, purpose, v, a.get("holder"), bool(a.get("used"))])
        return v


class Replay:
    """Dice for playing an order again (RULINGS R65): the recorded values, but a fresh
    roll for roll ``k``; once the rolls differ from the record, the recorded value only
    where the same roll comes again at the same place. ``uses``: roll index -> the side
    that spent the marker on it, this time and before."""

    def __init__(self, rolls: list[list[Any]], k: int, fresh: Dice, uses: dict[str, str]) -> None:
        self.rolls, self.k, self.fresh, self.i, self.uses = rolls, k, fresh, 0, uses
        self.new: int | None = None

    def roll(self, sides: int, purpose: str = "") -> int:
        i = self.i
        self.i += 1
        old = self.rolls[i] if i < len(self.rolls) else None
        if i == self.k:
            self.new = self.fresh.roll(sides, purpose + " (Tactical Advantage re-roll)")
            return self.new
        if old is not None and old[0] == sides and old[1] == purpose:
            return old[2]
        return self.fresh.roll(sides, purpose)


def rerollable(rolls: list[list[Any]], holder: str) -> list[int]:
    """Which recorded rolls the holder may have rolled again (18.3.2, 18.3.4): six-sided
    dice rolled while he held the marker unspent; a random draw from a cup or a hand is
    not a die roll (RULINGS R64)."""
    return [i for i, (sides, purpose, _, who, spent) in enumerate(rolls)
            if sides == 6 and "draw" not in purpose and who == holder and not spent]  # fmt: skip


def after(before: State, state: State, role: str, order: Any, rec: Recorder) -> None:
    """Open the holder's window when the order just applied rolled a die while he held the
    marker unspent (18.3.2: "at any point during play")."""
    a = state.advantage
    if not on(state) or a["used"] or a["pending"] or state.phase == "over":
        return
    if not rerollable(rec.seen, a["holder"]):
        return
    if state.standing.get(a["holder"], {}).get("advantage") == "pass":  # RULINGS R73
        return
    uses = dict(getattr(rec.dice, "uses", {}))
    a["pending"] = json.loads(json.dumps({"state": before.to_dict(), "role": role, "order": order.to_dict(),
                                          "rolls": rec.seen, "uses": uses}))  # fmt: skip


def window(state: State) -> str | None:
    """The side deciding on a re-roll now, or ``None``."""
    if not on(state) or not state.advantage.get("pending"):
        return None
    return state.advantage["holder"]


def prompt_text(state: State) -> tuple[str, str]:
    p = state.advantage["pending"]
    rolls = p["rolls"]
    idx = rerollable(rolls, state.advantage["holder"])
    listed = "; ".join(f"{n}) {rolls[i][1]}: {rolls[i][2]}" for n, i in enumerate(idx, 1))
    who = SIDE[state.advantage["holder"]]
    mine = f"{who}: Tactical Advantage (18.3.2): reroll <n> to have a die rolled again, or done. Rolls: {listed}."
    return mine, f"The {who} player may use the Tactical Advantage (18.3)."


def choices(state: State) -> list[int]:
    a = state.advantage
    return list(range(1, len(rerollable(a["pending"]["rolls"], a["holder"])) + 1))


def decline(state: State) -> list[Event]:
    state.advantage["pending"] = None
    return []


def reroll(ruleset: Any, state: State, role: str, n: int | None, dice: Dice) -> tuple[State, list[Event]]:
    """Play the marker (18.3.2-18.3.3): roll die ``n`` of the window again (the last one
    when not named) and play the order again from where it was given; the marker is
    spent this turn and passes at the start of the next."""
    a = state.advantage
    p = a["pending"]
    idx = rerollable(p["rolls"], a["holder"])
    n = len(idx) if n is None else n
    if not 1 <= n <= len(idx):
        raise IllegalOrder("TAC 18.3.2", f"There is no roll {n} to roll again; choose 1 to {len(idx)}.")
    k = idx[n - 1]
    pre = ruleset.load_state(p["state"])
    order = ruleset.load_order(p["order"])
    dice_again = Replay(p["rolls"], k, dice, {**p["uses"], str(k): a["holder"]})
    s, events = ruleset.apply(pre, p["role"], order, dice_again)
    _, purpose, old, _, _ = p["rolls"][k]
    head = Event(kind="advantage", data={"old": old, "new": dice_again.new},
                 text=f"The {SIDE[a['holder']]} player plays the Tactical Advantage (18.3.2): the {purpose} "
                      f"roll of {old} is rolled again: {dice_again.new}; the order is played again.")  # fmt: skip
    # the order's own line stays the first one's: this action's order is the re-roll
    return s, [head, *(e for e in events if e.kind != ORDER)]


def view(state: State) -> dict[str, Any]:
    if not on(state):
        return {}
    a = state.advantage
    return {"holder": a["holder"], "used": a["used"], "deciding": bool(a["pending"])}
